import Foundation
import ImageSniff
import Testing
@testable import ImageSniffMagic

/// The libmagic cross-check over every file of TestImages/manifest.tsv.
///
/// "Ours" is the real detector's answer (`FileSniffer`): the point is to compare the two
/// programs. Where the detector and the manifest differ, that is a detection (core) failure,
/// reported by `detectorMatchesManifest` alone; for the listing, such a file is compared with the
/// manifest's identifier (what the detector should say), so that the list neither has to
/// record core bugs nor changes when they are fixed.
///
/// Every verdict other than `agree` must be listed in TestImages/libmagic-disagreements.tsv
/// (file, our identifier, libmagic's MIME type, verdict, reason), and every listed line must
/// still occur, so that the list stays true. Set `IMAGESNIFF_CROSSCHECK_DUMP=/some/path` to write
/// every result (agreements too) as TSV.
@Suite("libmagic cross-check over TestImages", .serialized)
struct TestImagesCrossCheckTests {
    static let root = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    static let images = root.appendingPathComponent("TestImages")

    struct Row {
        let file: String
        let expected: String
        let detected: Detection?
        let error: String?
        let result: CrossCheckResult?
    }

    struct Listed: Hashable {
        let file: String
        let ours: String
        let mime: String
        let verdict: String
    }

    /// The manifest rows: file and expected identifier.
    static func manifest() throws -> [(file: String, identifier: String)] {
        let text = try String(contentsOf: images.appendingPathComponent("manifest.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard cols.count >= 2, !cols[0].hasPrefix("#") else { return nil }
            return (String(cols[0]), String(cols[1]))
        }
    }

    /// The listed disagreements (comment lines start with `#`; the header starts with `file`).
    static func listed() throws -> [Listed: String] {
        let text = try String(contentsOf: images.appendingPathComponent("libmagic-disagreements.tsv"), encoding: .utf8)
        var table: [Listed: String] = [:]
        for line in text.split(separator: "\n") where !line.hasPrefix("#") && !line.hasPrefix("file\t") {
            let cols = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard cols.count >= 5 else {
                Issue.record("malformed line in libmagic-disagreements.tsv: \(line)")
                continue
            }
            let key = Listed(file: cols[0], ours: cols[1], mime: cols[2], verdict: cols[3])
            if table[key] != nil { Issue.record("duplicate line in libmagic-disagreements.tsv: \(line)") }
            if cols[4].trimmingCharacters(in: .whitespaces).isEmpty {
                Issue.record("no reason given in libmagic-disagreements.tsv: \(line)")
            }
            if Verdict(rawValue: cols[3]) == nil || cols[3] == "agree" {
                Issue.record("not a non-agree verdict in libmagic-disagreements.tsv: \(line)")
            }
            table[key] = cols[4]
        }
        return table
    }

    /// Runs both detectors over every manifest file, once.
    static let rows: Result<[Row], Error> = Result {
        let magic = try Magic()
        let sniffer = FileSniffer()
        return try manifest().map { entry in
            let path = images.appendingPathComponent(entry.file).path
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

    /// The list is written for libmagic 5.44 (the version FORMATS.md and the reasons cite);
    /// another version answers differently and would need its own list.
    @Test(.enabled(if: Magic.version == 544, "libmagic-disagreements.tsv is for libmagic 5.44"))
    func everyDisagreementIsListedAndEveryListedOneOccurs() throws {
        let rows = try Self.rows.get()
        #expect(!rows.isEmpty, "TestImages/manifest.tsv lists no files")
        let listed = try Self.listed()
        var seen: Set<Listed> = []
        var summary = CrossCheckSummary()
        var dump = ["file\tdetected\tours\tlibmagic_mime\tlibmagic_uti\tverdict\tlibmagic_description"]
        for row in rows {
            guard let result = row.result else {
                Issue.record("\(row.file): \(row.error ?? "no result")")
                summary.addError()
                continue
            }
            summary.add(result)
            dump.append([row.file, row.detected?.type.identifier ?? "-", result.ours.identifier, result.libmagic.mimeType,
                         result.theirs?.identifier ?? "-", result.verdict.rawValue,
                         result.libmagic.description].joined(separator: "\t"))
            guard result.verdict != .agree else { continue }
            let key = Listed(file: row.file, ours: result.ours.identifier, mime: result.libmagic.mimeType,
                             verdict: result.verdict.rawValue)
            seen.insert(key)
            if listed[key] == nil {
                Issue.record("""
                    unlisted libmagic difference; add to TestImages/libmagic-disagreements.tsv with a reason:
                    \(key.file)\t\(key.ours)\t\(key.mime)\t\(key.verdict)\t(libmagic: \(result.libmagic.description))
                    """)
            }
        }
        for key in listed.keys.sorted(by: { $0.file < $1.file }) where !seen.contains(key) {
            Issue.record("listed in libmagic-disagreements.tsv but no longer occurs: \(key.file)\t\(key.ours)\t\(key.mime)\t\(key.verdict)")
        }
        print(summary.report(pairLimit: 40))
        if let path = ProcessInfo.processInfo.environment["IMAGESNIFF_CROSSCHECK_DUMP"] {
            try (dump.joined(separator: "\n") + "\n").write(toFile: path, atomically: true, encoding: .utf8)
        }
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
