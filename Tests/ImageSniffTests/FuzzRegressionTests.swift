import Foundation
import Testing
@testable import ImageSniff

// Inputs the fuzzer (Fuzz/run.sh) found to break the detector, minimized, in FuzzRegressions/
// next to this file, and the hand-made hostile seeds of Fuzz/seeds/: each must pass the
// invariants that Fuzz/FuzzDetector.swift checks (here with every hint and more cut points).

private let thisDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
private let regressionsDirectory = thisDirectory.appendingPathComponent("FuzzRegressions")
private let seedsDirectory = thisDirectory.deletingLastPathComponent().deletingLastPathComponent()
    .appendingPathComponent("Fuzz").appendingPathComponent("seeds")

/// One input file, named for the test report.
struct FuzzInput: CustomStringConvertible, Sendable {
    let url: URL
    var description: String { url.deletingLastPathComponent().lastPathComponent + "/" + url.lastPathComponent }
}

private func files(in directory: URL) -> [FuzzInput] {
    let names = (try? FileManager.default.contentsOfDirectory(atPath: directory.path)) ?? []
    return names.filter { !$0.hasPrefix(".") && !$0.hasSuffix(".md") }.sorted()
        .map { FuzzInput(url: directory.appendingPathComponent($0)) }
}

/// The bytes of a file. An empty file is not read with `Data(contentsOf:)`: on Linux that
/// leaks a 4 KiB buffer (swift-foundation's zero-size path in `readBytesFromFile`), which
/// `swift test --sanitize=address` reports as a leak and fails the run.
private func contents(of url: URL) throws -> [UInt8] {
    let size = try FileManager.default.attributesOfItem(atPath: url.path)[.size] as? Int
    if size == 0 { return [] }
    return [UInt8](try Data(contentsOf: url))
}

private let regressionInputs = files(in: regressionsDirectory)
/// The seeds, when the checkout has them (a side package may link only Sources and Tests).
private let seedInputs = files(in: seedsDirectory)

private let fuzzHints: [String] = [
    "nef", "tga", "wbmp", "pict", "heic", "public.tiff",
    ".NEF", "image/x-tga", "mpo", "eps", "rwl", "heics", "avif", "jls", "no-such-type",
]

/// Every invariant Fuzz/FuzzDetector.swift checks (DetectionInvariants), for one input: at the
/// half (as the fuzzer cuts) and at each of the first 64 cut points, with every hint, and fed to
/// the incremental detector in chunks (with and without properties, under the default budget and
/// the least one, with and without whole-file checks), and through a file.
private func checkInvariants(_ bytes: [UInt8], _ name: String) {
    var cuts = Set([bytes.count / 2])
    for n in 0..<min(bytes.count, 64) { cuts.insert(n) }
    let lengths = cuts.sorted()
    bytes.withUnsafeBytes { data in
        for i in 0..<max(lengths.count, fuzzHints.count) {
            let problems = DetectionInvariants.violations(
                data, prefixLength: lengths[i % lengths.count], hint: fuzzHints[i % fuzzHints.count])
            for problem in problems { Issue.record("\(name): \(problem)") }
        }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-regression-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        for budget in [ReadBudget.default, ReadBudget(reads: 8, bytesKept: 0, bytesSkipped: 64 << 20),
                       ReadBudget(reads: 8, bytesKept: 0, bytesSkipped: 64 << 20, verify: true)] {
            for problem in DetectionInvariants.fileViolations(data, scratchPath: scratch, budget: budget) { Issue.record("\(name): \(problem)") }
            for chunk in [1, 7, 4096] {
                for known in [true, false] {
                    for properties in [false, true] {
                        for problem in DetectionInvariants.incrementalViolations(data, chunk: chunk, lengthKnown: known,
                                                                                 properties: properties, budget: budget) {
                            Issue.record("\(name): \(problem)")
                        }
                    }
                }
            }
        }
    }
}

@Suite("Fuzz regressions and hostile seeds")
struct FuzzRegressionTests {
    @Test func regressionFolderIsPresent() {
        #expect(!regressionInputs.isEmpty, "no files in \(regressionsDirectory.path)")
    }

    @Test(arguments: regressionInputs)
    func fuzzRegression(_ input: FuzzInput) throws {
        checkInvariants(try contents(of: input.url), input.description)
    }

    @Test(arguments: seedInputs)
    func hostileSeed(_ input: FuzzInput) throws {
        checkInvariants(try contents(of: input.url), input.description)
    }
}
