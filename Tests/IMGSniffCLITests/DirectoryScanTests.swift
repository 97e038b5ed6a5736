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
