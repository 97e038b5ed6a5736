// The detector's invariants, in one place for the test suite and the fuzz target (Fuzz/run.sh
// compiles this file into the core module with -D IMAGESNIFF_FUZZ; the tests import it from
// TestSupport). Standard library only: no Foundation.

#if !IMAGESNIFF_FUZZ
@testable import ImageSniff
#endif
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// What must hold of every answer the detector gives, whatever the bytes.
public enum DetectionInvariants {
    /// Hints that reach every hint rule: family members, formats without magic, a family node
    /// itself, and a name nothing knows.
    public static let hints: [String] = [
        "nef", "tga", "wbmp", "pict", "heic", "public.tiff",
        ".NEF", "image/x-tga", "mpo", "eps", "rwl", "heics", "avif", "jls", "no-such-type",
    ]

    /// Whether `cut`, the answer for `prefix` (a prefix of the data), is compatible with `whole`,
    /// the answer for all of it: the same, an ancestor or the family node, unknown, or generic
    /// text (plain, XML, HTML) when the prefix holds nothing but text, as the start of a format
    /// with a text header does. A cut SVGZ is still the gzip container it was written in.
    public static func isAcceptablePrefixAnswer(_ cut: ImageType, whole: ImageType, prefix: UnsafeRawBufferPointer) -> Bool {
        if cut == whole || cut == .data || whole.conforms(to: cut) || whole.belongs(toFamily: cut) { return true }
        if whole == .svg && cut == .gzip { return true }
        return (cut == .plainText || cut == .xml || cut == .html) && holdsOnlyText(prefix)
    }

    /// Text by a rule of its own (not the detector's): printable ASCII, the usual white space,
    /// escape, and bytes above 0x7F (UTF-8 or Latin-1); nothing else. Or UTF-16: a byte order
    /// mark, then code units by the same rule (an odd last byte is a unit cut in two).
    public static func holdsOnlyText(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let isText = { (c: UInt32) in c >= 0x20 && c != 0x7F || [0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x1B].contains(c) }
        if bytes.count >= 2, (bytes[0] == 0xFF && bytes[1] == 0xFE) || (bytes[0] == 0xFE && bytes[1] == 0xFF) {
            let bigEndian = bytes[0] == 0xFE
            return stride(from: 2, to: bytes.count - 1, by: 2).allSatisfy { i in
                isText(bigEndian ? UInt32(bytes[i]) << 8 | UInt32(bytes[i + 1]) : UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i]))
            }
        }
        return bytes.allSatisfy { isText(UInt32($0)) }
    }

    /// Invariants of any single answer.
    public static func basic(_ d: Detection, _ what: String) -> [String] {
        var problems: [String] = []
        func require(_ condition: Bool, _ message: String) { if !condition { problems.append("\(what): \(message): \(d)") } }
        require((d.type == .data) == (d.confidence == .unknown), "public.data exactly when unknown")
        if d.confidence == .family { require(d.type.isFamilyNode, "a family answer names a family node") }
        if d.confidence == .unknown { require(!d.isAnimated, "unknown is never animated") }
        if d.isAnimated { require(d.type.isImage, "only images are animated") }
        if case .needsMoreData = d.completeness { require(d.type == .data && d.confidence == .unknown, "a request for more bytes answers nothing yet") }
        return problems
    }

    /// Every invariant for `data` taken whole, its first `prefixLength` bytes taken as a prefix of
    /// the whole length, and the whole with `hint`. Empty when all hold.
    public static func violations(_ data: UnsafeRawBufferPointer, prefixLength: Int, hint: String) -> [String] {
        var problems: [String] = []
        func require(_ condition: Bool, _ message: @autoclosure () -> String) { if !condition { problems.append(message()) } }

        // The whole data.
        let d = ImageSniffer.detect(data)
        problems += basic(d, "whole")
        require(d.confidence != .hinted, "hinted without a hint: \(d)")
        if case .needsMoreData = d.completeness { require(false, "whole data needs more: \(d)") }
        require(ImageSniffer.detect(data) == d, "not deterministic: \(d)")

        // Properties: the same detection, nothing for a non-image, no negative numbers.
        let inspection = ImageSniffer.inspect(data)
        require(inspection.detection == d, "inspect detected otherwise: \(inspection.detection) vs \(d)")
        let props = inspection.properties
        if !d.type.isImage { require(props.isEmpty, "properties of a non-image: \(props)") }
        for value in [props.width, props.height, props.bitDepth, props.frameCount] { require((value ?? 0) >= 0, "a negative property: \(props)") }
        if let o = props.orientation { require((1...8).contains(o), "orientation out of range: \(props)") }
        // A coded size is stated whole, positive, and only where it differs from the displayed one.
        require((props.codedWidth == nil) == (props.codedHeight == nil), "half a coded size: \(props)")
        if let w = props.codedWidth, let h = props.codedHeight {
            require(w > 0 && h > 0 && (w != props.width || h != props.height), "a coded size not apart from the displayed one: \(props)")
        }

        // A prefix of the real length.
        let n = min(max(prefixLength, 0), data.count)
        let p = ImageSniffer.detect(UnsafeRawBufferPointer(rebasing: data[0..<n]), totalLength: data.count)
        problems += basic(p, "prefix")
        require(p.confidence != .hinted, "prefix: hinted without a hint: \(p)")
        if n < data.count {
            // A request for more must ask for more than was given (else a caller loops forever).
            if case .needsMoreData(let more) = p.completeness { require(more > n, "prefix of \(n)/\(data.count) asks for \(more): \(p)") }
            require(isAcceptablePrefixAnswer(p.type, whole: d.type, prefix: UnsafeRawBufferPointer(rebasing: data[0..<n])), "prefix of \(n)/\(data.count) says more than the whole: \(p) vs \(d)")
        } else {
            require(p == d, "prefix of everything differs from the whole: \(p) vs \(d)")
        }

        // With a hint.
        let h = ImageSniffer.detect(data, hint: hint)
        problems += basic(h, "hinted")
        require(h.completeness == d.completeness, "hint \(hint) changed completeness: \(d) -> \(h)")
        require(h.isAnimated == d.isAnimated, "hint \(hint) changed animation: \(d) -> \(h)")
        switch d.confidence {
        case .conclusive, .likely:
            // Rule 1: a hint never overrides what the bytes say.
            require(h == d, "hint \(hint) overrode the bytes: \(d) -> \(h)")
        case .family, .unknown:
            if h.confidence == .hinted {
                require(ImageType.types(hint: hint).contains(h.type), "hinted type not named by hint \(hint): \(d) -> \(h)")
                if d.confidence == .family {
                    // Rule 2: the family node or one of its members.
                    require(h.type.belongs(toFamily: d.type), "hint \(hint) named a type outside the family: \(d) -> \(h)")
                } else {
                    // Rule 3: only formats without magic are settled from nothing.
                    require(h.type.acceptsHintWithoutMagic, "hint \(hint) named a format with magic: \(d) -> \(h)")
                }
            } else {
                require(h == d, "hint \(hint) changed the answer without saying so: \(d) -> \(h)")
            }
        case .hinted:
            require(false, "whole data answered hinted without a hint: \(d)")
        }
        return problems
    }

    /// The invariants of `IncrementalSniffer` fed `data` in chunks of `chunk` bytes, its length
    /// known in advance or not, reading properties or not, under `budget`: the answer after
    /// `finish()` is the whole-data answer (detection and properties, as `ImageSniffer.inspect`
    /// gives them for the bytes in memory); once decided, the answer never changes, and
    /// properties once settled never change; a request for more asks for more than was seen; the
    /// sniffer keeps asking while nothing is decided. Empty when all hold.
    public static func incrementalViolations(_ data: UnsafeRawBufferPointer, chunk: Int, lengthKnown: Bool, hint: String? = nil,
                                             properties: Bool = false, budget: ReadBudget = .default) -> [String] {
        var problems: [String] = []
        let label = "chunks of \(chunk), length \(lengthKnown ? "known" : "unknown")\(properties ? ", properties" : "")"
        let inspected = ImageSniffer.inspect(data, hint: hint, budget: budget)
        let whole = properties ? inspected : Inspection(detection: inspected.detection, properties: .unknown)
        var sniffer = IncrementalSniffer(expectedLength: lengthKnown ? data.count : nil, hint: hint, budget: budget, readsProperties: properties)
        var decided: Detection?
        var settled: ImageProperties?
        var offset = 0
        while offset < data.count {
            let end = min(offset + max(chunk, 1), data.count)
            sniffer.append(UnsafeRawBufferPointer(rebasing: data[offset..<end]))
            offset = end
            switch sniffer.status {
            case .decided(let d):
                if let decided, decided != d { problems.append("\(label): decided \(decided), then \(d) at \(offset)") }
                decided = decided ?? d
            case .needsMoreData(let n):
                if n <= min(offset, budget.prefixCap) && offset < data.count {
                    problems.append("\(label): at \(offset) asks for \(n) bytes")
                }
                if !sniffer.wantsMoreData { problems.append("\(label): needs more data but does not want it at \(offset)") }
            case .provisional:
                break
            }
            if sniffer.propertyProgress.isSettled {
                let now = sniffer.propertyProgress.properties
                if let settled, settled != now { problems.append("\(label): properties settled as \(settled), then \(now) at \(offset)") }
                settled = settled ?? now
            }
        }
        sniffer.finish()
        // A stream of unknown length that waited for its end (a far window the data never
        // reached, or the length) cannot go back for the bytes that passed meanwhile: its
        // properties may state less than the whole data's (never other values).
        let waitedPastTheEnd = sniffer.waitedPastTheEnd
        guard case .decided(let final) = sniffer.status else {
            return problems + ["\(label): not decided after finish: \(sniffer.status)"]
        }
        if final != whole.detection { problems.append("\(label): finished as \(final), whole data is \(whole.detection)") }
        if let decided, decided != final { problems.append("\(label): decided \(decided) early, finished as \(final)") }
        if !sniffer.propertyProgress.isSettled { problems.append("\(label): properties not settled after finish") }
        let finalProperties = sniffer.propertyProgress.properties
        if finalProperties != whole.properties && !(waitedPastTheEnd && finalProperties.statesNoMoreThan(whole.properties)) {
            problems.append("\(label): finished with properties \(finalProperties), whole data has \(whole.properties)")
        }
        if let settled, settled != finalProperties { problems.append("\(label): properties settled as \(settled) early, finished as \(finalProperties)") }
        return problems
    }

    /// The answer for a file is the answer for its bytes: `data` written to `scratchPath` and
    /// inspected through `FileSniffer` (bounded reads, growing as checks ask) gives what
    /// `ImageSniffer.inspect` gives for the bytes in memory. Empty when that holds.
    public static func fileViolations(_ data: UnsafeRawBufferPointer, scratchPath: String, budget: ReadBudget = .default) -> [String] {
        let fd = open(scratchPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard fd >= 0 else { return ["cannot create \(scratchPath)"] }
        var done = 0
        while done < data.count {
            let n = write(fd, data.baseAddress! + done, data.count - done)
            if n <= 0 { close(fd); return ["cannot write \(scratchPath)"] }
            done += n
        }
        close(fd)
        let bytes = ImageSniffer.inspect(data, budget: budget)
        do throws(FileError) {
            let file = try FileSniffer(budget: budget).inspect(fileAt: scratchPath)
            var problems: [String] = []
            if file.detection != bytes.detection { problems.append("file says \(file.detection), its bytes \(bytes.detection)") }
            if file.properties != bytes.properties { problems.append("file properties \(file.properties), its bytes' \(bytes.properties)") }
            return problems
        } catch {
            return ["file could not be read: \(error)"]
        }
    }
}

extension ImageProperties {
    /// Whether every field stated here is stated alike in `other` (`other` may state more). Goes
    /// over the stored fields by reflection, so a field added later is compared too.
    func statesNoMoreThan(_ other: ImageProperties) -> Bool {
        let theirs = Dictionary(uniqueKeysWithValues: Mirror(reflecting: other).children.map { ($0.label ?? "", "\($0.value)") })
        for child in Mirror(reflecting: self).children {
            let mine = "\(child.value)"
            if mine != "nil" && theirs[child.label ?? ""] != mine { return false }
        }
        return true
    }
}
