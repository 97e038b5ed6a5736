import Foundation
import ImageSniff
import Testing
import TestSupport
@testable import ImageSniffMagic

/// The libmagic cross-check over every file of TestImages/manifest.tsv.
///
/// "Ours" is the real detector's answer (`FileSniffer`): the point is to compare the two
/// programs. Where the detector and the manifest differ, that is a detection (core) failure,
/// reported by `detectorMatchesManifest` alone; for the listing, such a file is compared with the
/// manifest's identifier (what the detector should say).
///
/// Every verdict other than `agree` needs a reason: the first rule of
/// TestImages/libmagic-reasons.tsv that matches it. From the rules and the cross-check, the test
/// generates TestImages/libmagic-disagreements.tsv (every difference, file by file, with its
/// reason) and the README's accuracy section, and fails when the committed ones differ from what
/// it generates: they are regenerated, never edited by hand
/// (`IMAGESNIFF_REGENERATE=1 swift test --filter TestImagesCrossCheck` writes them).
@Suite("libmagic cross-check over TestImages", .serialized)
struct TestImagesCrossCheckTests {
    static let images = Repository.testImages

    struct Row {
        let file: String
        let expected: String
        let detected: Detection?
        let error: String?
        let result: CrossCheckResult?
    }

    /// One rule of libmagic-reasons.tsv.
    struct Reason {
        let file: String
        let ours: String
        let mime: String
        let verdict: String
        let text: String

        func matches(_ file: String, _ ours: String, _ mime: String, _ verdict: String) -> Bool {
            func glob(_ pattern: String, _ value: String) -> Bool { pattern == "*" || fnmatch(pattern, value, 0) == 0 }
            return glob(self.file, file) && glob(self.ours, ours) && glob(self.mime, mime) && glob(self.verdict, verdict)
        }
    }

    static func reasons() throws -> [Reason] {
        let text = try String(contentsOf: images.appendingPathComponent("libmagic-reasons.tsv"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("file\t") else { return nil }
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count == 5, !cols[4].isEmpty else {
                Issue.record("malformed rule in libmagic-reasons.tsv: \(line)")
                return nil
            }
            return Reason(file: cols[0], ours: cols[1], mime: cols[2], verdict: cols[3], text: cols[4])
        }
    }

    /// Runs both detectors over every manifest file, once.
    static let rows: Result<[Row], Error> = Result {
        let magic = try Magic()
        let sniffer = FileSniffer()
        return try Manifest.load().map { entry in
            let path = entry.url.path
            var detected: Detection?
            var failure: String?
            var result: CrossCheckResult?
            do {
                let d = try sniffer.detect(fileAt: path)
                detected = d
                let ours = d.type.identifier == entry.identifier ? d.type : (ImageType(entry.identifier) ?? d.type)
                result = CrossCheckResult(ours: ours, libmagic: try magic.identify(fileAt: path))
            } catch let e as FileError {
                failure = "ImageSniff: \(e)"
            } catch {
                failure = "\(error)"
            }
            return Row(file: entry.file, expected: entry.identifier, detected: detected, error: failure, result: result)
        }
    }

    /// The generated disagreement list and README section for these rows and rules; records an
    /// issue for each difference without a reason and each rule nothing uses.
    static func generate(_ rows: [Row], _ rules: [Reason]) -> (list: String, section: String) {
        var used = Set<Int>()
        var lines = [
            "# Every difference between ImageSniff and libmagic 5.44 over TestImages, with its reason.",
            "# Generated (IMAGESNIFF_REGENERATE=1 swift test --filter TestImagesCrossCheck) from",
            "# libmagic-reasons.tsv and a cross-check of every file: do not edit by hand.",
            "file\tidentifier\tlibmagic_mime\tverdict\treason",
        ]
        var counts: [Verdict: Int] = [:]
        var formats: [Verdict: [String]] = [:]
        var libmagicRight = 0
        for row in rows {
            guard let result = row.result else { continue }
            counts[result.verdict, default: 0] += 1
            if result.theirs == result.ours { libmagicRight += 1 }
            guard result.verdict != .agree else { continue }
            let (ours, mime, verdict) = (result.ours.identifier, result.libmagic.mimeType, result.verdict.rawValue)
            guard let index = rules.firstIndex(where: { $0.matches(row.file, ours, mime, verdict) }) else {
                Issue.record("""
                    no reason for a libmagic difference; add a rule to TestImages/libmagic-reasons.tsv:
                    \(row.file)\t\(ours)\t\(mime)\t\(verdict)\t(libmagic: \(result.libmagic.description))
                    """)
                continue
            }
            used.insert(index)
            lines.append([row.file, ours, mime, verdict, rules[index].text].joined(separator: "\t"))
            if !(formats[result.verdict] ?? []).contains(ours) { formats[result.verdict, default: []].append(ours) }
        }
        for (index, rule) in rules.enumerated() where !used.contains(index) {
            Issue.record("rule of libmagic-reasons.tsv that no difference uses: \(rule.file)\t\(rule.ours)\t\(rule.mime)\t\(rule.verdict)")
        }
        let total = rows.count
        let labels: [(Verdict, String)] = [
            (.agree, "agree"), (.oursMoreSpecific, "ours more specific (libmagic names an ancestor or the family)"),
            (.libmagicMoreSpecific, "libmagic more specific"), (.disagree, "disagree"),
            (.libmagicUnknown, "libmagic unknown (no test for the format in 5.44)"), (.oursUnknown, "ours unknown"),
        ]
        var section = """
            Over the \(total) test images of TestImages' manifest (`imgsniff scan --cross-check --format ndjson \
            TestImages` gives the same verdicts for them, and also scans the folder's README, tables and scripts; \
            the test suite checks them file by file and generates this section):

            | verdict (ours vs libmagic 5.44) | files |
            |---|---|

            """
        for (verdict, label) in labels { section += "| \(label) | \(counts[verdict] ?? 0) |\n" }
        let percent = total > 0 ? libmagicRight * 100 / total : 0
        section += """

            ImageSniff gives the manifest's identifier for every file; libmagic's answer maps to it for \
            \(libmagicRight) (\(percent) %). Every difference is in `TestImages/libmagic-disagreements.tsv` with \
            its reason. The formats involved:


            """
        for (verdict, label) in labels where verdict != .agree {
            guard let list = formats[verdict], !list.isEmpty else { continue }
            section += "- **\(label.prefix(1).uppercased() + label.dropFirst())**: " + list.map { "`\($0)`" }.joined(separator: ", ") + ".\n"
        }
        return (lines.joined(separator: "\n") + "\n", section)
    }

    static let begin = "<!-- accuracy:begin -->"
    static let end = "<!-- accuracy:end -->"

    /// The list is written for libmagic 5.44 (the version the reasons cite); another version answers
    /// differently and would need rules of its own.
    @Test(.enabled(if: Magic.version == 544, "libmagic-reasons.tsv is for libmagic 5.44"))
    func disagreementsAndAccuracyAreRegenerated() throws {
        let rows = try Self.rows.get()
        try #require(!rows.isEmpty, "TestImages/manifest.tsv lists no files")
        for row in rows where row.result == nil { Issue.record("\(row.file): \(row.error ?? "no result")") }
        let (list, section) = Self.generate(rows, try Self.reasons())
        let listURL = Self.images.appendingPathComponent("libmagic-disagreements.tsv")
        let readmeURL = Repository.url("docs/accuracy.md")
        let readme = try String(contentsOf: readmeURL, encoding: .utf8)
        let start = try #require(readme.range(of: Self.begin + "\n"), "docs/accuracy.md lacks \(Self.begin)")
        let stop = try #require(readme.range(of: Self.end), "docs/accuracy.md lacks \(Self.end)")
        let regenerated = String(readme[..<start.upperBound]) + section + String(readme[stop.lowerBound...])
        if ProcessInfo.processInfo.environment["IMAGESNIFF_REGENERATE"] == "1" {
            try list.write(to: listURL, atomically: true, encoding: .utf8)
            try regenerated.write(to: readmeURL, atomically: true, encoding: .utf8)
            return
        }
        let committed = try String(contentsOf: listURL, encoding: .utf8)
        #expect(committed == list, "TestImages/libmagic-disagreements.tsv is stale: IMAGESNIFF_REGENERATE=1 swift test --filter TestImagesCrossCheck")
        #expect(readme == regenerated, "docs/accuracy.md is stale: IMAGESNIFF_REGENERATE=1 swift test --filter TestImagesCrossCheck")
    }

    /// A core (detection) check, kept apart: the cross-check compares the detector's real answer,
    /// so a manifest mismatch shows up here and not as a libmagic difference.
    @Test func detectorMatchesManifest() throws {
        for row in try Self.rows.get() {
            guard let d = row.detected else { continue }
            #expect(d.type.identifier == row.expected, "\(row.file): detector says \(d), manifest \(row.expected) (core, not libmagic)")
        }
    }
}
