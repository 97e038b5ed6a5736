import Foundation
import ImageSniff
import ImageSniffScan
import Testing
import TestSupport

/// `DirectoryScan`, the library's scan, is the command's: record for record.
@Suite("DirectoryScan")
struct DirectoryScanTests {
    static func lines(_ options: DirectoryScan.Options, properties: Bool = false) async throws -> [String] {
        var lines: [String] = []
        for try await record in DirectoryScan([Repository.testImages.path], options: options) {
            lines.append(record.jsonLine(properties: properties))
        }
        return lines
    }

    @Test func theSameRecordsAsImgsniffScan() async throws {
        let cli = try IMGSniffBinary.run(["scan", "--format", "ndjson", Repository.testImages.path])
        let api = try await Self.lines(DirectoryScan.Options())
        #expect(api.count > 400)
        #expect(api.joined() == String(decoding: cli.stdout, as: UTF8.self))
    }

    @Test func propertiesAndFiltersAsTheFlags() async throws {
        var options = DirectoryScan.Options()
        options.properties = true
        options.filter.onlyImages = true
        options.jobs = 3
        let cli = try IMGSniffBinary.run(["scan", "--format", "ndjson", "--properties", "--only-images", "-j", "3", Repository.testImages.path])
        let api = try await Self.lines(options, properties: true)
        #expect(api.count > 300)
        #expect(api.joined() == String(decoding: cli.stdout, as: UTF8.self))
    }

    /// Leaving the loop early stops the scan (no hang, no record after); a missing operand is a
    /// record with its problem, as in the command.
    @Test func stopsWhenLeftAndReportsProblems() async throws {
        var taken = 0
        for try await _ in DirectoryScan([Repository.testImages.path]) {
            taken += 1
            if taken == 10 { break }
        }
        #expect(taken == 10)
        var records: [ScanRecord] = []
        for try await record in DirectoryScan(["/nonexistent/imagesniff"]) { records.append(record) }
        #expect(records.count == 1)
        #expect(records.first?.problem?.code == "ENOENT")
        #expect(records.first?.detection == nil)
    }
}

/// A record is Codable in the command's shape: every line `imgsniff scan` writes decodes into a
/// `ScanRecord` that encodes back to the same JSON, and what `DirectoryScan` yields encodes as the
/// command writes it.
@Suite("ScanRecord Codable")
struct ScanRecordCodableTests {
    typealias JSON = SchemaTests.JSON

    static func roundTrips(_ output: String) throws -> Int {
        var n = 0
        for line in output.split(separator: "\n") {
            let record = try JSONDecoder().decode(ScanRecord.self, from: Data(line.utf8))
            let again = try JSON.parse(try JSONEncoder().encode(record))
            // "libmagic": null (a record the cross-check did not reach) reads as no cross-check.
            var original = try JSON.parse(Data(line.utf8))
            if case .object(var o) = original, o["libmagic"] == .null { o.removeValue(forKey: "libmagic"); original = .object(o) }
            #expect(again == original, "\(line)")
            n += 1
        }
        return n
    }

    @Test func everyRecordOfTheCommandRoundTrips() throws {
        let plain = try IMGSniffBinary.run(["scan", "--format", "ndjson", "--properties", "TestImages", "/nonexistent/imagesniff"], in: Repository.root)
        #expect(try Self.roundTrips(plain.text) > 400)
        let tree = try ScratchTree()
        try tree.rawFile(in: ".", name: invalidName, pngBytes)
        try tree.file("empty", [])
        try tree.file("text", Array("hello\n".utf8))
        try tree.fifo("pipe")
        let checked = try IMGSniffBinary.run(["scan", "--format", "ndjson", "--properties", "--cross-check", "."], in: tree.root)
        #expect(checked.text.contains("\"pathBytes\":") && checked.text.contains("\"libmagic\":{") && checked.text.contains("\"empty\""))
        #expect(try Self.roundTrips(checked.text) == 4)
    }

    @Test func directoryScanEncodesAsTheCommandWrites() async throws {
        var options = DirectoryScan.Options()
        options.properties = true
        var n = 0
        for try await record in DirectoryScan([Repository.testImages.appendingPathComponent("png").path], options: options) {
            let encoded = try JSON.parse(try JSONEncoder().encode(record))
            #expect(encoded == (try JSON.parse(Data(record.jsonLine(properties: true).utf8))))
            n += 1
        }
        #expect(n > 10)
        let bad = Data(#"{"schemaVersion":1,"path":"x"}"#.utf8)
        #expect(throws: DecodingError.self) { try JSONDecoder().decode(ScanRecord.self, from: bad) }
    }
}
