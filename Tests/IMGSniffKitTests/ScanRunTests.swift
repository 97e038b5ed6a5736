import Foundation
import Testing
import TestSupport
@testable import IMGSniffKit
@testable import ImageSniffScan

/// Runs a scan in this process, its output into a temporary file; returns the output and status.
func scanInProcess(_ options: ScanOptions) throws -> (text: String, status: Int32) {
    let path = FileManager.default.temporaryDirectory.appendingPathComponent("scan-out-\(UUID().uuidString)").path
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
    try #require(fd >= 0)
    defer { unlink(path) }
    let output = IMGSniffKit.OutputStream(fd: FileDescriptor(rawValue: fd))
    let status = ScanRun.run(options, output: output)
    output.flush()
    close(fd)
    return (try String(contentsOfFile: path, encoding: .utf8), status)
}

@Suite("Scan, in process")
struct ScanRunTests {
    /// The scan pool: several threads give the same records, in the same order, as one.
    @Test func poolGivesTheSameRecordsInWalkOrder() throws {
        let tree = try ScratchTree()
        let samples = [pngBytes, jpegBytes, Samples.gif, Samples.noise]
        for i in 0..<900 {
            try tree.file(String(format: "d%02d/f%04d", i % 9, i), samples[i % samples.count])
        }
        var options = ScanOptions()
        options.operands = [Array(tree.root.path.utf8)]
        options.format = .ndjson
        options.jobs = 1
        let one = try scanInProcess(options)
        options.jobs = 4
        let four = try scanInProcess(options)
        #expect(one.status == 0)
        #expect(four.status == 0)
        #expect(one.text.split(separator: "\n").count == 900)
        #expect(four.text == one.text)
        options.format = .csv
        options.settings.crossCheck = true
        let csv = try scanInProcess(options)
        #expect(csv.text.split(separator: "\r\n").count == 901)
        #expect(csv.text.contains(",agree\r\n"))
    }

    @Test func summaryAndFilters() throws {
        let tree = try ScratchTree()
        try tree.file("a", pngBytes)
        try tree.file("b.tiff", jpegBytes)
        try tree.file("c", Samples.noise)
        try tree.file("e", [])
        var options = ScanOptions()
        options.operands = [Array(tree.root.path.utf8)]
        options.summaryOnly = true
        options.format = .json
        let summary = try scanInProcess(options)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(summary.text.utf8)) as? [String: Any])
        #expect(object["scanned"] as? Int == 4)
        #expect((object["types"] as? [String: Int]) == ["public.png": 1, "public.jpeg": 1])
        #expect(object["unknown"] as? Int == 1)
        #expect(object["empty"] as? Int == 1)
        #expect(object["mismatches"] as? Int == 1)

        options.summaryOnly = false
        options.format = .ndjson
        options.settings.filter.unknown = true
        let unknown = try scanInProcess(options)
        #expect(unknown.text.split(separator: "\n").count == 2, "c and the empty file")
        options.settings.filter = ScanFilter()
        options.settings.filter.types = [.tiff]
        let none = try scanInProcess(options)
        #expect(none.status == ExitStatus.noMatch)
        #expect(none.text.isEmpty)
    }
}
