import Foundation
import ImageSniff
import Testing
import TestSupport

/// Every test image gives the same answer, detection and properties, from a file, from memory and
/// from a stream (in chunks of 1 (up to 64 KiB), 7, 1460 and 65536 bytes, its length announced or not), under
/// the default read budget and under a small one whose first bytes stop at 8 KiB, so that most
/// images are read through far windows and frame walks; each with whole-file checks too. (The
/// bytes a stream may pass over to reach a far window stay at the default: past that budget a
/// stream, unlike a file, gives the window up.)
@Suite("The same answer from a file, memory and a stream")
struct SourceEquivalenceTests {
    static let budgets: [(String, ReadBudget)] = [
        ("default", .default),
        ("small", ReadBudget(reads: 64, bytesKept: 16 * 1024, bytesSkipped: 64 << 20)),
        ("verifying", .verifying),
        ("small verifying", ReadBudget(reads: 64, bytesKept: 16 * 1024, bytesSkipped: 64 << 20, verify: true)),
    ]

    @Test(arguments: Manifest.entries)
    func everySourceAgrees(_ entry: ManifestEntry) throws {
        let data = try entry.bytes()
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-sources-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        data.withUnsafeBytes { bytes in
            for (name, budget) in SourceEquivalenceTests.budgets {
                for problem in DetectionInvariants.fileViolations(bytes, scratchPath: scratch, budget: budget) {
                    Issue.record("\(entry.file), \(name) budget: \(problem)")
                }
                // A byte at a time for files up to 64 KiB; larger ones (the far/ family, a
                // 554 KB TGA) start at 7 bytes, as the fuzz harness does: appending 500,000 single
                // bytes under the thread sanitizer was most of CI's time.
                for chunk in data.count > 65_536 ? [7, 1460, 65536] : [1, 7, 1460, 65536] {
                    for known in [true, false] {
                        for problem in DetectionInvariants.incrementalViolations(bytes, chunk: chunk, lengthKnown: known,
                                                                                 properties: true, budget: budget) {
                            Issue.record("\(entry.file), \(name) budget: \(problem)")
                        }
                    }
                }
            }
            // Cut in half: whole-file checks say so alike from every source.
            let half = UnsafeRawBufferPointer(rebasing: bytes.prefix(bytes.count / 2))
            for problem in DetectionInvariants.fileViolations(half, scratchPath: scratch, budget: .verifying) {
                Issue.record("\(entry.file) cut in half: \(problem)")
            }
            for chunk in [7, 1460] {
                for known in [true, false] {
                    for problem in DetectionInvariants.incrementalViolations(half, chunk: chunk, lengthKnown: known,
                                                                             properties: true, budget: .verifying) {
                        Issue.record("\(entry.file) cut in half: \(problem)")
                    }
                }
            }
        }
    }
}
