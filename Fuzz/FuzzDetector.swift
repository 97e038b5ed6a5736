// libFuzzer entry point for the detector. Fuzz/run.sh compiles it into the ImageSniff module
// together with the core sources and Tests/TestSupport/DetectionInvariants.swift (the invariants
// the test suite checks too). Each input goes through the bytes API, prefixes, hints, the
// incremental detector in chunks, and a file (FileSniffer's reads). A violated invariant crashes,
// and libFuzzer saves the input under Fuzz/crashes/.

#if canImport(Glibc)
import Glibc
#endif

/// The file each input is written to (one per process: libFuzzer's workers are processes).
private let scratchPath = "/tmp/imgsniff-fuzz-\(getpid())"

/// `Fuzz/run.sh sweep` (CI's AddressSanitizer run) sets IMAGESNIFF_FUZZ_SWEEP: each input then
/// goes through every read plan and both with and without properties, not the ones its bytes
/// pick, since the sweep's inputs are test images, cut and flipped, rather than mutations.
private let sweep = getenv("IMAGESNIFF_FUZZ_SWEEP") != nil

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzz(_ data: UnsafePointer<UInt8>, _ size: Int) -> CInt {
    let whole = UnsafeRawBufferPointer(start: data, count: size)
    // The hint is picked by the last byte (the first picks the detection root, so picking by it
    // would pair each format with one hint only); the prefix is the first half.
    let hints = DetectionInvariants.hints
    let hint = hints[Int(size > 0 ? data[size - 1] : 0) % hints.count]
    var problems = DetectionInvariants.violations(whole, prefixLength: size / 2, hint: hint)
    // Fed in pieces: a chunk size picked by the second byte, the length known or not by the third.
    // (Inputs past 64 KiB, up to past the read cap, go in larger chunks: one byte at a time
    // would spend the run on appends.)
    let chunks = size > 65_536 ? [1460, 4096, 65_536] : [1, 3, 7, 64, 1460, 4096]
    let chunk = chunks[Int(size > 1 ? data[1] : 0) % chunks.count]
    // The read plan: the default budget, or one whose first bytes stop at 4 KiB (the least there
    // is), so that small inputs are read through far windows and frame walks too (offsets
    // pointing anywhere, cycles, ranges past the end), with properties, picked by the third byte.
    let third = size > 2 ? data[2] : 0
    func small(verify: Bool) -> ReadBudget { ReadBudget(reads: 8, bytesKept: 0, bytesSkipped: 64 << 20, verify: verify) }
    let budget = third & 2 == 0 ? ReadBudget.default : small(verify: third & 4 != 0)
    // (budget, properties, length known)
    let plans = sweep ? [(ReadBudget.default, false, true), (.default, true, false),
                         (small(verify: true), true, true), (small(verify: false), false, false)]
                      : [(budget, third & 8 != 0, third & 1 == 1)]
    for (budget, properties, lengthKnown) in plans {
        problems += DetectionInvariants.incrementalViolations(whole, chunk: chunk, lengthKnown: lengthKnown,
                                                              properties: properties, budget: budget)
        // Through a file: the reads a FileSniffer makes give what the bytes give.
        problems += DetectionInvariants.fileViolations(whole, scratchPath: scratchPath, budget: budget)
        unlink(scratchPath)  // left behind, one file a run would pile up in /tmp
    }
    if !problems.isEmpty { fatalError("invariant violated: " + problems.joined(separator: "; ")) }
    return 0
}
