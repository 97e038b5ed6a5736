// Comparing ImageSniff's answer with libmagic's: a verdict per file, and a summary over many.

import ImageSniff

/// How ImageSniff's answer relates to libmagic's for one file.
public enum Verdict: String, Sendable, Hashable, CaseIterable, Comparable {
    /// Same type (or both found nothing).
    case agree
    /// Both name a type and ours is the more specific one of the same family: libmagic names an
    /// ancestor (TIFF for a NEF, JPEG for an MPO), our type's detection family (HEIF for an
    /// AVIF whose major brand is `mif1`), or a documented sibling (`CrossCheck.siblings`).
    case oursMoreSpecific
    /// The same, the other way round.
    case libmagicMoreSpecific
    /// Both name something, and the two are unrelated.
    case disagree
    /// libmagic found nothing (`application/octet-stream`, empty) and we name a type.
    case libmagicUnknown
    /// We found nothing (`public.data`) and libmagic names a format.
    case oursUnknown

    public static func < (a: Verdict, b: Verdict) -> Bool {
        allCases.firstIndex(of: a)! < allCases.firstIndex(of: b)!
    }
}

/// One file's cross-check: our type, libmagic's answer and what it means, and the verdict.
public struct CrossCheckResult: Sendable, Hashable {
    /// ImageSniff's type.
    public let ours: ImageType
    /// libmagic's answer.
    public let libmagic: MagicResult
    /// libmagic's answer as a type, when it names one the catalog declares.
    public let theirs: ImageType?
    public let verdict: Verdict

    public init(ours: ImageType, libmagic: MagicResult) {
        let meaning = MagicMapping.meaning(mimeType: libmagic.mimeType, description: libmagic.description)
        self.ours = ours
        self.libmagic = libmagic
        if case .type(let type) = meaning { theirs = type } else { theirs = nil }
        verdict = CrossCheck.verdict(ours: ours, libmagic: meaning)
    }
}

/// The comparison rules.
public enum CrossCheck {
    /// Sibling pairs where libmagic names the less specific member although neither conforms to
    /// the other: `(ours, libmagic's)` counts as `oursMoreSpecific`, the reverse as
    /// `libmagicMoreSpecific`. Each pair is a sequence and its still-image sibling, a large
    /// variant and its base format, a format and the generic syntax it is written in (SVG and
    /// XHTML are XML; the catalog declares no `public.xhtml`), or a wrapper and its content (an
    /// SVGZ is a gzip stream holding SVG).
    public static let siblings: [(specific: ImageType, general: ImageType)] = [
        (.avis, .avif),    // libmagic 5.44 reads only the major brand; `avis` files list `avif` too
        (.heics, .heic),
        (.heifs, .heif),
        (.avcs, .avci),
        (.psb, .psd),      // "8BPS" version 2 vs 1
        (.html, .xml),     // XHTML: `<?xml` first, then an `html` root element
        (.svg, .gzip),     // SVGZ: libmagic names the wrapper unless MAGIC_COMPRESS (`file -z`)
        (.svg, .xml),      // SVG is an XML document whose root element is `svg`
    ]

    /// The verdict for our type against libmagic's answer.
    public static func verdict(ours: ImageType, libmagic: MagicMapping.Meaning) -> Verdict {
        let oursUnknown = ours == .data
        switch libmagic {
        case .unknown:
            return oursUnknown ? .agree : .libmagicUnknown
        case .unmapped:
            return oursUnknown ? .oursUnknown : .disagree
        case .kindOfText:
            if oursUnknown { return .oursUnknown }
            return ours == .plainText || ours == .text ? .libmagicMoreSpecific : .disagree
        case .type(let theirs):
            if oursUnknown { return .oursUnknown }
            if ours == theirs { return .agree }
            if isMoreSpecific(ours, than: theirs) { return .oursMoreSpecific }
            if isMoreSpecific(theirs, than: ours) { return .libmagicMoreSpecific }
            return .disagree
        }
    }

    /// Whether `a` refines `b`: `a` conforms to `b`, or `b` is on `a`'s detection-family chain,
    /// or `(a, b)` is a listed sibling pair.
    public static func isMoreSpecific(_ a: ImageType, than b: ImageType) -> Bool {
        if a == b { return false }
        if a.conforms(to: b) { return true }
        if a.detectionFamilyChain.contains(where: { $0 == b || $0.conforms(to: b) }) { return true }
        if b == .plainText && textFormats.contains(where: { a.conforms(to: $0) }) { return true }
        return siblings.contains { $0.specific == a && $0.general == b }
    }

    /// Formats that are text underneath. libmagic's `text/plain` is its answer for any text
    /// it found nothing more in, so one of these called `text/plain` counts as ours being more
    /// specific (Apple: `public.xml`, `public.html`, `public.json` conform to `public.text`).
    public static let textFormats: [ImageType] = [.text, .svg, .postScript, .xbm, .xpm]
}

// MARK: - Summary

/// Counts over many cross-checks: per verdict, and the most frequent pairs that are not agreements.
public struct CrossCheckSummary: Sendable {
    /// A pair of answers that differ: our identifier and libmagic's MIME type.
    public struct Pair: Sendable, Hashable {
        public let ours: String
        public let libmagic: String
        public let verdict: Verdict
    }

    public private(set) var total = 0
    public private(set) var counts: [Verdict: Int] = [:]
    public private(set) var pairs: [Pair: Int] = [:]
    /// Files libmagic could not examine (errors), counted apart.
    public private(set) var errors = 0

    public init() {}

    public mutating func add(_ result: CrossCheckResult) {
        total += 1
        counts[result.verdict, default: 0] += 1
        if result.verdict != .agree {
            pairs[Pair(ours: result.ours.identifier, libmagic: result.libmagic.mimeType, verdict: result.verdict), default: 0] += 1
        }
    }

    public mutating func addError() { errors += 1 }

    public mutating func merge(_ other: CrossCheckSummary) {
        total += other.total
        errors += other.errors
        for (k, v) in other.counts { counts[k, default: 0] += v }
        for (k, v) in other.pairs { pairs[k, default: 0] += v }
    }

    /// The non-agreeing pairs, most frequent first (ties by verdict, then names), at most `limit`.
    public func topPairs(_ limit: Int = 10) -> [(pair: Pair, count: Int)] {
        pairs.map { (pair: $0.key, count: $0.value) }
            .sorted {
                if $0.count != $1.count { return $0.count > $1.count }
                if $0.pair.verdict != $1.pair.verdict { return $0.pair.verdict < $1.pair.verdict }
                if $0.pair.ours != $1.pair.ours { return $0.pair.ours < $1.pair.ours }
                return $0.pair.libmagic < $1.pair.libmagic
            }
            .prefix(limit).map { $0 }
    }

    /// A plain-text report: one line per verdict, then the top pairs.
    public func report(pairLimit: Int = 10) -> String {
        var lines = ["libmagic cross-check: \(total) file\(total == 1 ? "" : "s")"
                     + (errors > 0 ? ", \(errors) not examined by libmagic" : "")]
        for verdict in Verdict.allCases {
            let n = counts[verdict] ?? 0
            lines.append("  " + pad(verdict.rawValue, 22) + String(n))
        }
        let top = topPairs(pairLimit)
        if !top.isEmpty {
            lines.append("most common differences (ours <> libmagic):")
            for (pair, count) in top {
                lines.append("  \(String(count).leftPadded(5))  \(pair.ours) <> \(pair.libmagic)  [\(pair.verdict.rawValue)]")
            }
        }
        return lines.joined(separator: "\n")
    }

    private func pad(_ s: String, _ width: Int) -> String {
        s.count >= width ? s + " " : s + String(repeating: " ", count: width - s.count)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        count >= width ? self : String(repeating: " ", count: width - count) + self
    }
}

// MARK: - Convenience

extension Magic {
    /// libmagic's answer for the file at `path`, compared with ImageSniff's `ours`.
    public func crossCheck(fileAt path: String, ours: ImageType) throws(MagicError) -> CrossCheckResult {
        CrossCheckResult(ours: ours, libmagic: try identify(fileAt: path))
    }

    /// libmagic's answer for `bytes`, compared with ImageSniff's `ours`.
    public func crossCheck<Bytes: Collection>(_ bytes: Bytes, ours: ImageType) throws(MagicError) -> CrossCheckResult
    where Bytes.Element == UInt8 {
        CrossCheckResult(ours: ours, libmagic: try identify(bytes))
    }
}
