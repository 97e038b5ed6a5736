import Foundation
import Testing
@testable import ImageSniff

/// Detection results over every test image, whole, cut and byte-flipped, against a recorded
/// fixture (`Fixtures/detection-golden.tsv`): a restructuring of the detector must give the same
/// answers. A deliberate change of behaviour regenerates the fixture
/// (`IMAGESNIFF_WRITE_GOLDEN=1 swift test --filter EquivalenceTests`) and says why in its commit.
@Suite("Equivalence with recorded detection results")
struct EquivalenceTests {
    static let fixture = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("Fixtures/detection-golden.tsv")

    /// Every answer for one file's variants, as text.
    static func transcript(_ data: [UInt8]) -> [String] {
        var lines: [String] = []
        lines.append("whole \(ImageSniffer.detect(data))")
        for hint in ["nef", "tga", "public.heic", "wbmp", "pict", "eps"] {
            lines.append("hint \(hint) \(ImageSniffer.detect(data, hint: hint))")
        }
        var lengths = Array(0...min(64, data.count))
        var p = 128
        while p < data.count { lengths.append(p); p *= 2 }
        for n in lengths {
            lines.append("cut \(n) \(ImageSniffer.detect(data[0..<n]))")
            lines.append("prefix \(n) \(ImageSniffer.detect(prefix: data[0..<n], totalLength: data.count))")
        }
        var flipped = data
        var positions = Array(0..<min(64, data.count))
        p = 64
        while p < data.count { positions.append(p); p = p * 3 / 2 + 1 }
        for i in positions {
            for mask: UInt8 in [0xFF, 0x01, 0x80] {
                flipped[i] ^= mask
                lines.append("flip \(i) \(mask) \(ImageSniffer.detect(flipped))")
                flipped[i] ^= mask
            }
        }
        return lines
    }

    /// FNV-1a over the transcript.
    static func digest(_ lines: [String]) -> String {
        var h: UInt64 = 0xcbf2_9ce4_8422_2325
        for line in lines {
            for b in line.utf8 { h = (h ^ UInt64(b)) &* 0x0000_0100_0000_01B3 }
            h = (h ^ 0x0A) &* 0x0000_0100_0000_01B3
        }
        return String(h, radix: 16)
    }

    static func row(_ entry: ManifestEntry) throws -> String {
        let data = [UInt8](try Data(contentsOf: entry.url))
        let lines = transcript(data)
        if let dir = ProcessInfo.processInfo.environment["IMAGESNIFF_DUMP_TRANSCRIPTS"] {
            // Every answer, for diffing two builds when the digest differs.
            let url = URL(fileURLWithPath: dir).appendingPathComponent(entry.file.replacingOccurrences(of: "/", with: "__"))
            try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
        }
        let file = try ImageSniffer.detect(fileAt: entry.url.path)
        return "\(entry.file)\t\(file)\t\(lines[0].dropFirst(6))\t\(digest(lines))"
    }

    @Test func resultsMatchTheRecordedFixture() throws {
        let rows = try Manifest.entries.map(EquivalenceTests.row)
        if ProcessInfo.processInfo.environment["IMAGESNIFF_WRITE_GOLDEN"] == "1" {
            try (rows.joined(separator: "\n") + "\n").write(to: EquivalenceTests.fixture, atomically: true, encoding: .utf8)
            return
        }
        let recorded = try String(contentsOf: EquivalenceTests.fixture, encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let byFile = Dictionary(uniqueKeysWithValues: recorded.map { ($0.split(separator: "\t")[0], $0) })
        try #require(!Manifest.entries.isEmpty)
        for row in rows {
            let file = row.split(separator: "\t")[0]
            #expect(byFile[file] == row, "\(file): now \(row), recorded \(byFile[file] ?? "nothing")")
        }
    }
}
