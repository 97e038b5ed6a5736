// imgsniff scan under constrained systems and hostile trees, end to end (issue 15): each case
// completes, loses no file, and says what it skipped.

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

private let isRoot = getuid() == 0
private func tool(_ name: String) -> Bool { FileManager.default.isExecutableFile(atPath: "/usr/bin/" + name) }

@Suite("imgsniff scan under system limits")
struct SystemLimitsTests {
    /// Threads refused (a process limit of one, as an unprivileged user: root is exempt): the
    /// scan runs on the calling thread and completes.
    @Test(.enabled(if: isRoot && tool("setpriv") && tool("prlimit")))
    func noThreadsAllowed() throws {
        let tree = try ScratchTree()
        for i in 0..<200 { try tree.file(String(format: "d%d/f%03d", i % 5, i), pngBytes) }
        _ = chmod(tree.root.path, 0o755)
        let r = try IMGSniffBinary.run(["scan", "--jobs", "4", "--format", "ndjson", "."], in: tree.root,
                                       launcher: ["setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups", "prlimit", "--nproc=1"],
                                       timeout: 60)
        #expect(!r.timedOut, "the pool waited for workers that never started")
        #expect(r.status == 0, "\(r.stderr)")
        #expect(try parseNDJSON(r).count == 200)
    }

    /// 2,000 nested directories of 200-byte names: memory flat in depth (the walker keeps one
    /// path buffer), under 128 MiB peak; and 4,000 levels cost no more than 1,000 (within 8 MiB).
    @Test(.enabled(if: Measured.isAvailable)) func deepTreeMemoryIsFlat() throws {
        let binary = try #require(IMGSniffBinary.url)
        var peaks: [Int: Int] = [:]
        for depth in [1_000, 2_000, 4_000] {
            let root = try Trees.scratch("deep")
            defer { Trees.removeDeep(root.path) }
            try Trees.chain(in: root, component: String(repeating: "d", count: 200), levels: depth, leaf: "image.png", bytes: pngBytes)
            let (status, rss) = try Measured.run(binary, ["scan", "--format", "ndjson", root.path])
            #expect(status == 0)
            peaks[depth] = rss
        }
        #expect(peaks[2_000]! < 128 * 1024, "2,000 levels peaked at \(peaks[2_000]!) KiB")
        #expect(peaks[4_000]! - peaks[1_000]! < 8 * 1024, "RSS grows with depth: \(peaks)")
    }

    /// A 24-level lattice of directory symlinks (each level links twice to the next) followed with
    /// -L: one record per file, not 2^24.
    @Test func symlinkLatticeGivesOneRecordPerFile() throws {
        let tree = try ScratchTree()
        let fm = FileManager.default
        for level in 0...24 {
            let dir = tree.root.appendingPathComponent("l\(level)")
            try fm.createDirectory(at: dir, withIntermediateDirectories: true)
            try tree.file("l\(level)/image.png", pngBytes)
            if level < 24 {
                try fm.createSymbolicLink(atPath: dir.appendingPathComponent("a").path, withDestinationPath: "../l\(level + 1)")
                try fm.createSymbolicLink(atPath: dir.appendingPathComponent("b").path, withDestinationPath: "../l\(level + 1)")
            }
        }
        let r = try IMGSniffBinary.run(["scan", "-L", "--format", "ndjson", "l0"], in: tree.root, timeout: 60)
        #expect(!r.timedOut)
        #expect(try parseNDJSON(r).count == 25, "one image per level")
    }

    /// 3,000 one-file directories under a 256-descriptor limit, cross-checked on 8 jobs: no file
    /// lost to "too many open files".
    @Test(.enabled(if: tool("prlimit")))
    func fewDescriptorsLoseNoFile() throws {
        let tree = try ScratchTree()
        for i in 0..<3_000 { try tree.file("d\(i)/f", pngBytes) }
        let r = try IMGSniffBinary.run(["scan", "--cross-check", "--jobs", "8", "--format", "ndjson", "."], in: tree.root,
                                       launcher: ["prlimit", "--nofile=256:256"], timeout: 300)
        #expect(r.status == 0, "\(r.stderr.prefix(500))")
        let records = try parseNDJSON(r)
        #expect(records.count == 3_000)
        #expect(records.allSatisfy { $0["uti"] as? String == "public.png" && ($0["libmagic"] as? [String: Any])?["verdict"] as? String == "agree" })
    }

    /// /proc/self is a pseudo-filesystem: not entered unless asked, and said so.
    @Test func procIsSkippedAndSaidSo() throws {
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "/proc/self"], timeout: 30)
        #expect(!r.timedOut)
        #expect(try parseNDJSON(r).isEmpty)
        #expect(r.stderr.contains("pseudo-filesystem"), "\(r.stderr)")
        // Named explicitly, a file there is read.
        let named = try IMGSniffBinary.run(["scan", "--format", "ndjson", "/proc/self/cmdline"], timeout: 30)
        #expect(try parseNDJSON(named).count == 1)
    }

    /// --files-from /dev/zero: an endless run of NULs is an error within seconds, read as a
    /// newline list (a NUL inside it) or a NUL list (an empty name).
    @Test func filesFromDevZeroFails() throws {
        let r = try IMGSniffBinary.run(["scan", "--files-from", "/dev/zero"], timeout: 20)
        #expect(!r.timedOut)
        #expect(r.status == 2)
        #expect(r.stderr.contains("--files-from") || r.stderr.contains("NUL"), "\(r.stderr)")
        let nul = try IMGSniffBinary.run(["scan", "--files-from", "/dev/zero", "-0"], timeout: 20)
        #expect(!nul.timedOut)
        #expect(nul.status == 2)
    }

    /// Output that cannot be written is an error (exit 2), not success.
    @Test func fullDiskIsAnError() throws {
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "png"], in: Repository.testImages,
                                       stdout: URL(fileURLWithPath: "/dev/full"), timeout: 30)
        #expect(r.status == 2)
        #expect(r.stderr.contains("No space") || r.stderr.contains("space"), "\(r.stderr)")
    }
}
