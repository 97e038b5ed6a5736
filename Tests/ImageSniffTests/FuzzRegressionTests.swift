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

/// The invariants of any answer; `label` says which call gave it.
private func expectSane(_ d: Detection, _ label: String) {
    #expect((d.type == .data) == (d.confidence == .unknown), "\(label): \(d)")
    if d.confidence == .family { #expect(d.type.isFamilyNode, "\(label): family answer on a non-family type: \(d)") }
    if d.isAnimated { #expect(d.type.isImage, "\(label): \(d)") }
    if case .needsMoreData = d.completeness { #expect(d.type == .data, "\(label): \(d)") }
}

/// Whether `cut`, the answer for a prefix of the real length, is compatible with `whole`: the
/// contract of `isAcceptableCutAnswer` (HostileInputTests.swift), whose SVGZ rule it shares.
private func isAcceptablePrefixAnswer(_ cut: ImageType, whole: ImageType) -> Bool {
    DetectionInvariants.isAcceptablePrefixAnswer(cut, whole: whole) || whole.belongs(toFamily: cut)
}

/// Every invariant Fuzz/FuzzDetector.swift checks, for one input.
private func checkInvariants(_ bytes: [UInt8], _ name: String) {
    let d = ImageSniffer.detect(bytes)
    expectSane(d, "\(name) whole")
    #expect(d.confidence != .hinted, "\(name): hinted without a hint: \(d)")
    if case .needsMoreData = d.completeness { Issue.record("\(name): whole data needs more: \(d)") }
    #expect(ImageSniffer.detect(bytes) == d, "\(name): not deterministic")

    // Prefixes of the real length: at the half (as the fuzzer does) and at the first 64 cuts.
    var cuts = Set([bytes.count / 2])
    for n in 0..<min(bytes.count, 64) { cuts.insert(n) }
    for n in cuts.sorted() where n < bytes.count {
        let p = ImageSniffer.detect(prefix: bytes[0..<n], totalLength: bytes.count)
        expectSane(p, "\(name) prefix \(n)")
        #expect(p.confidence != .hinted, "\(name) prefix \(n): \(p)")
        if case .needsMoreData(let want) = p.completeness {
            #expect(want > n, "\(name) prefix \(n): asks for \(want) bytes")
        }
        #expect(isAcceptablePrefixAnswer(p.type, whole: d.type), "\(name) prefix \(n)/\(bytes.count) says more than the whole: \(p) vs \(d)")
    }

    for hint in fuzzHints {
        let h = ImageSniffer.detect(bytes, hint: hint)
        let label = "\(name) hint \(hint): \(d) -> \(h)"
        expectSane(h, label)
        #expect(h.completeness == d.completeness, "\(label)")
        #expect(h.isAnimated == d.isAnimated, "\(label)")
        switch d.confidence {
        case .conclusive, .likely:
            #expect(h == d, "hint overrode the bytes: \(label)")
        case .family, .unknown:
            guard h.confidence == .hinted else {
                #expect(h == d, "hint changed the answer without saying so: \(label)")
                continue
            }
            #expect(ImageType.types(hint: hint).contains(h.type), "hinted type not named by the hint: \(label)")
            if d.confidence == .family {
                #expect(h.type.belongs(toFamily: d.type), "hinted type outside the family: \(label)")
            } else {
                #expect([ImageType.tga, .wbmp, .pict].contains(h.type), "hinted type has magic: \(label)")
            }
        case .hinted:
            Issue.record("\(label): unreachable")
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
