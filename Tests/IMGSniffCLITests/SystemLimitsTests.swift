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

    /// A list entry longer than a path can be: the message points at the separator that was
    /// probably meant (a newline list read with -0 is one long entry, and the other way round).
    @Test func overlongListEntryNamesTheOtherSeparator() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-list-\(getpid())")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let lines = dir.appendingPathComponent("lines")
        try Data(String(repeating: "some/file\n", count: 1000).utf8).write(to: lines)
        let nul = try IMGSniffBinary.run(["scan", "--files-from", "-", "-0"], stdin: lines, timeout: 20)
        #expect(nul.status == 2)
        #expect(nul.stderr.contains("leave out -0"), "\(nul.stderr)")
        let long = dir.appendingPathComponent("long")
        try Data(String(repeating: "x", count: 5000).utf8).write(to: long)
        let plain = try IMGSniffBinary.run(["scan", "--files-from", "-"], stdin: long, timeout: 20)
        #expect(plain.status == 2)
        #expect(plain.stderr.contains("use -0"), "\(plain.stderr)")
    }

    /// Output that cannot be written is an error (exit 2), not success.
    @Test func fullDiskIsAnError() throws {
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "png"], in: Repository.testImages,
                                       stdout: URL(fileURLWithPath: "/dev/full"), timeout: 30)
        #expect(r.status == 2)
        #expect(r.stderr.contains("No space") || r.stderr.contains("space"), "\(r.stderr)")
    }

    /// An open-file limit far below what the tree needs (20, and the least a scan can work with):
    /// every file of a deep, wide tree is scanned, none lost or skipped; below that least, a
    /// clear error and exit 2 before anything is read.
    @Test(.enabled(if: tool("prlimit")))
    func lowOpenFileLimitCoversTheWholeTree() throws {
        let tree = try ScratchTree()
        var count = 0
        for i in 0..<30 {
            try tree.file("w\(i)/" + Array(repeating: "d", count: i).joined(separator: "/") + "/f", pngBytes)
            try tree.file("w\(i)/g", jpegBytes)
            count += 2
        }
        for limit in [20, 10] {
            let r = try IMGSniffBinary.run(["scan", "--jobs", "4", "--format", "ndjson", "."], in: tree.root,
                                           launcher: ["prlimit", "--nofile=\(limit):\(limit)"], timeout: 60)
            #expect(r.status == 0, "limit \(limit): \(r.stderr.prefix(300))")
            let records = try parseNDJSON(r)
            #expect(records.count == count, "limit \(limit)")
            #expect(records.allSatisfy { $0["error"] is NSNull })
        }
        let tooFew = try IMGSniffBinary.run(["scan", "."], in: tree.root, launcher: ["prlimit", "--nofile=6:6"], timeout: 60)
        #expect(tooFew.status == 2)
        #expect(tooFew.stderr.contains("open-file limit"), "\(tooFew.stderr)")
    }

    /// Open descriptors stay within 64 + jobs whatever the tree: many small directories are the
    /// case that used to hold hundreds open (sampled from /proc while it runs).
    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/fd")))
    func descriptorsStayWithinTheBudget() throws {
        let tree = try ScratchTree()
        for i in 0..<3_000 { try tree.file("d\(i / 100)/e\(i)/f", pngBytes) }
        for jobs in [2, 16] {
            let running = try IMGSniffBinary.start(["scan", "--jobs", String(jobs), "--format", "ndjson", "."], in: tree.root)
            var peak = 0
            while running.process.isRunning {
                let n = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(running.process.processIdentifier)/fd").count) ?? 0
                peak = max(peak, n)
            }
            let r = try running.finish()
            #expect(r.status == 0)
            #expect(try parseNDJSON(r).count == 3_000)
            #expect(peak <= 64 + jobs, "\(peak) descriptors open with --jobs \(jobs)")
        }
    }

    /// Under an address-space limit, many jobs do not crash: the workers are fitted to it.
    @Test(.enabled(if: tool("prlimit")))
    func addressSpaceLimitWithManyJobs() throws {
        let tree = try ScratchTree()
        for i in 0..<2_000 { try tree.file("d\(i % 20)/f\(i)", pngBytes) }
        for limit in [200, 800] {
            let r = try IMGSniffBinary.run(["scan", "--jobs", "64", "--format", "ndjson", "."], in: tree.root,
                                           launcher: ["prlimit", "--as=\(limit << 20)"], timeout: 120)
            #expect(r.status == 0, "ulimit -v \(limit) MiB: \(r.status) \(r.stderr.prefix(300))")
            #expect(try parseNDJSON(r).count == 2_000)
        }
    }

    /// Each path longer than PATH_MAX holds its directory open while its entry is in flight: a
    /// list of 40 of them stays within a low open-file limit (a stranger's list ran out of
    /// descriptors at `ulimit -n 16`: "too many open files" for 30 of 40).
    @Test(arguments: [1, 2])
    func longPathsInAListStayWithinTheDescriptors(jobs: Int) throws {
        let root = try Trees.scratch("long-list")
        defer { Trees.removeDeep(root.path) }
        let component = String(repeating: "m", count: 200)
        try Trees.chain(in: root, component: component, levels: 22, leaf: "leaf", bytes: pngBytes)
        let long = Array(repeating: component, count: 22).joined(separator: "/") + "/leaf"
        try (String(repeating: long + "\n", count: 40)).write(to: root.appendingPathComponent("list"), atomically: true, encoding: .utf8)
        let r = try IMGSniffBinary.run(["scan", "--jobs", String(jobs), "--files-from", "list"], in: root,
                                       launcher: ["prlimit", "--nofile=16"])
        #expect(r.status == 0, "\(r.stderr.prefix(300))")
        let records = try parseNDJSON(r)
        #expect(records.count == 40 && records.allSatisfy { $0["uti"] as? String == "public.png" })
    }

    /// A path longer than PATH_MAX is reached a component at a time: a file there is scanned,
    /// a missing one is "no such file", not "file name too long"; rename says why it leaves it.
    @Test func operandLongerThanPathMax() throws {
        let root = try Trees.scratch("long")
        defer { Trees.removeDeep(root.path) }
        let component = String(repeating: "n", count: 200)
        try Trees.chain(in: root, component: component, levels: 25, leaf: "leaf", bytes: pngBytes)
        let long = Array(repeating: component, count: 25).joined(separator: "/")
        let scan = try parseNDJSON(try IMGSniffBinary.run(["scan", "--format", "ndjson", long + "/leaf"], in: root))
        #expect(scan.first?["uti"] as? String == "public.png")
        let directory = try parseNDJSON(try IMGSniffBinary.run(["scan", "--format", "ndjson", long], in: root))
        #expect(directory.count == 1 && directory.first?["uti"] as? String == "public.png")
        let missing = try IMGSniffBinary.run(["scan", "--format", "ndjson", long + "/nothing"], in: root)
        #expect(((try parseNDJSON(missing).first?["error"] as? [String: Any])?["code"] as? String) == "ENOENT")
        let rename = try IMGSniffBinary.run(["rename", "--apply", "--format", "ndjson", long], in: root)
        let record = try #require(try parseNDJSON(rename).first)
        #expect((record["error"] as? [String: Any])?["code"] as? String == "ENAMETOOLONG")
        #expect((record["reason"] as? String)?.contains("PATH_MAX") == true)
        #expect(record["action"] as? String == "error", "left as it was")
    }
}
