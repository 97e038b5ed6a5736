import Foundation
import Synchronization
import Testing
import TestSupport
@testable import IMGSniffKit
@testable import ImageSniffScan

/// The io_uring path (issue 28): a worker reading its batch through a ring gives the records,
/// bytes and messages the usual path gives, for every kind of entry, and the pool and plan that
/// switch it on stay within their bounds.
@Suite("io_uring read ring")
struct ReadRingTests {
    /// What two workers, the usual one and one reading through its ring, give for the same
    /// batches of the walk of `root` (the batches are scanned as the walk goes: a walk's
    /// directory handles are released with its entries).
    private func compare(_ root: String, settings: ScanSettings, advise: Bool) -> (usual: ScanBatchResult, ringed: ScanBatchResult, throughRing: Int) {
        let walker = Walker(operands: [Array(root.utf8)], options: WalkOptions())
        let usualWorker = ScanWorker(settings: settings), ringWorker = ScanWorker(settings: settings)
        ringWorker.ringDepth = 16
        ringWorker.usesRing = true
        ringWorker.adviseRandomAccess = advise
        var usual = ScanBatchResult(), ringed = ScanBatchResult()
        var batch: [WalkEntry] = []
        var ended = false
        while !ended {
            switch walker.step() {
            case .entry(let entry): batch.append(entry)
            case .blocked: break
            case .end: ended = true
            }
            guard batch.count == 100 || ended else { continue }
            let a = usualWorker.process(batch), b = ringWorker.process(batch)
            usual.items += a.items
            usual.bytes += a.bytes
            ringed.items += b.items
            ringed.bytes += b.bytes
            batch = []
        }
        return (usual, ringed, ringWorker.filesThroughRing)
    }

    /// The first NDJSON line that differs (with the other side's), or nil when the bytes agree:
    /// a failure names the file rather than printing every byte.
    private static func firstDifference(_ a: [UInt8], _ b: [UInt8]) -> String? {
        guard a != b else { return nil }
        let left = a.split(separator: 10, omittingEmptySubsequences: false), right = b.split(separator: 10, omittingEmptySubsequences: false)
        for i in 0..<max(left.count, right.count) {
            let l = i < left.count ? String(decoding: left[i], as: UTF8.self) : "(none)"
            let r = i < right.count ? String(decoding: right[i], as: UTF8.self) : "(none)"
            if l != r { return "line \(i + 1): ring \(l) / usual \(r)" }
        }
        return "the bytes differ"
    }

    /// The descriptors this process holds open on regular files under `root` (the walk's
    /// directory handles not counted).
    private static func filesOpen(under root: String) -> Int {
        let fds = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")) ?? []
        return fds.filter { fd in
            var st = stat()
            guard stat("/proc/self/fd/" + fd, &st) == 0, st.st_mode & S_IFMT == S_IFREG else { return false }
            return (try? FileManager.default.destinationOfSymbolicLink(atPath: "/proc/self/fd/" + fd))?.hasPrefix(root + "/") ?? false
        }.count
    }

    /// Every TestImages file, with and without properties, in verify mode, with readahead advice:
    /// the same NDJSON bytes and the same messages.
    @Test(arguments: [(false, false, false), (true, false, true), (true, true, false)])
    func testImagesGiveTheSameRecords(properties: Bool, verify: Bool, advise: Bool) {
        var settings = ScanSettings()
        settings.properties = properties
        settings.verify = verify
        let root = Repository.testImages.path
        let (usual, ringed, through) = compare(root, settings: settings, advise: advise)
        #expect(usual.items.count > 200)
        #expect(ringed.items.map(\.message) == usual.items.map(\.message))
        #expect(ringed.items.map { $0.record?.displayPath } == usual.items.map { $0.record?.displayPath })
        #expect(Self.firstDifference(ringed.bytes, usual.bytes) == nil, "identical NDJSON")
        if ReadRing.isAvailable {
            #expect(through > 200, "the files came through the ring")
        } else {
            #expect(through == 0)
        }
    }

    /// A FIFO, a symbolic link loop, a link followed or refused, an empty file, a name that is
    /// not UTF-8, a file removed and one replaced by a FIFO between the walk and the scan, files
    /// of /proc: the ring hands what it cannot read to the usual path, which words the same
    /// answers.
    @Test(arguments: [false, true])
    func edgeEntriesGiveTheSameRecords(follow: Bool) throws {
        let tree = try ScratchTree.hostile()
        try tree.file("gone", pngBytes)
        try tree.file("swapped", jpegBytes)
        var options = WalkOptions()
        options.followSymlinks = follow
        options.includeHidden = true
        let root = tree.root.path
        // /proc's files state a size of 0: not read (a read of /proc/self/mem at 0 fails).
        let operands = [root, root + "/a/link.png", root + "/a/pipe", "/proc/self/mem", "/proc/self/status"]
        let entries = Array(Walker(operands: operands.map { Array($0.utf8) }, options: options))
        try FileManager.default.removeItem(at: tree.root.appendingPathComponent("gone"))
        try FileManager.default.removeItem(at: tree.root.appendingPathComponent("swapped"))
        try tree.fifo("swapped")
        var settings = ScanSettings()
        settings.properties = true
        func run(ring: Bool) -> (ScanBatchResult, Int) {
            let worker = ScanWorker(settings: settings)
            worker.ringDepth = ring ? 4 : 0
            worker.usesRing = ring
            return (worker.process(entries), worker.filesThroughRing)
        }
        let (usual, _) = run(ring: false)
        let (ringed, through) = run(ring: true)
        #expect(Self.firstDifference(ringed.bytes, usual.bytes) == nil, "identical NDJSON")
        #expect(ringed.items.map(\.message) == usual.items.map(\.message))
        let problems = usual.items.compactMap { item in item.record.flatMap { r in r.problem.map { (r.displayPath, $0) } } }
        #expect(problems.contains { $0.0.hasSuffix("/swapped") }, "the FIFO put in a file's place is refused")
        #expect(problems.contains { $0.0.hasSuffix("/gone") }, "the removed file is an error")
        if ReadRing.isAvailable { #expect(through >= 5) }
        #expect(Self.filesOpen(under: root) == 0, "every file the ring opened was closed")
    }

    /// With io_uring, the plan grows reads in flight more than threads: up to `ringThreads`
    /// workers, each ring as deep as its share of `ringFiles` descriptors allows. Without it, threads; never with
    /// the cross-check.
    @Test func planGrowsRingsOrThreads() throws {
        let (budget, growth) = try ScanPool.plan(jobs: 2, maxJobs: ScanPool.ioJobs, crossCheck: false, ring: true).get()
        let ring = try #require(growth)
        #expect(ring.ringDepth > 1)
        #expect(ring.maxThreads >= budget.jobs && ring.maxThreads <= max(budget.jobs, ScanPool.ringThreads))
        #expect(ring.maxThreads * (ring.ringDepth + 1) <= ScanPool.ringFiles, "every ring's files and the ring itself within the descriptors planned")
        let (_, threads) = try ScanPool.plan(jobs: 2, maxJobs: ScanPool.ioJobs, crossCheck: false, ring: false).get()
        #expect(threads?.ringDepth == 0)
        #expect((threads?.maxThreads ?? 0) > budget.jobs)
        let (_, none) = try ScanPool.plan(jobs: 2, maxJobs: ScanPool.ioJobs, crossCheck: true, ring: true).get()
        #expect(none == nil)
        // 60 jobs: a ring each, shallower, and still within the files planned (a ring of one
        // file would grow threads instead, as without io_uring).
        let (many, manyGrowth) = try ScanPool.plan(jobs: 60, maxJobs: ScanPool.ioJobs, crossCheck: false, ring: true).get()
        if many.jobs == 60, let manyGrowth {
            #expect(manyGrowth.maxThreads == 60)
            if manyGrowth.ringDepth > 0 {
                #expect(manyGrowth.ringDepth >= 2 && manyGrowth.ringDepth < ring.ringDepth)
                #expect(manyGrowth.maxThreads * (manyGrowth.ringDepth + 1) <= ScanPool.ringFiles)
            }
        }
    }

    /// io_uring is asked about when the growth is first wanted (the pool grows), not when it is
    /// planned, and once; where rings are refused then, the pool grows threads alone.
    @Test(arguments: [true, false])
    func ringsAreProbedWhenThePoolGrows(allowed: Bool) {
        let asked = Atomic<Int>(0)
        let growth = PoolGrowth(rings: (maxThreads: 8, ringDepth: 15), threads: 40, ringsAllowed: {
            asked.add(1, ordering: .relaxed)
            return allowed
        })
        #expect(asked.load(ordering: .relaxed) == 0, "not probed when planned")
        #expect(growth.maxThreads == (allowed ? 8 : 40))
        #expect(growth.ringDepth == (allowed ? 15 : 0))
        #expect(growth.maxThreads == (allowed ? 8 : 40))
        #expect(asked.load(ordering: .relaxed) == 1, "probed once")
    }

    /// A pool with rings grows to its few threads when jobs block, and says so to its jobs (they
    /// then read through their rings); results still come back in order. With one job (one
    /// core), the jobs go to the threads grown, not to the calling thread alone.
    @Test(arguments: [0, 1])
    func ringPoolGrowsToItsThreads(threads: Int) {
        let running = Atomic<Int>(0), most = Atomic<Int>(0), sawWaiting = Atomic<Bool>(false)
        let growth = PoolGrowth(maxThreads: 4, ringDepth: 8)
        var next = 0
        var seen: [Int] = []
        OrderedPool.run(
            threads: threads, window: 4,
            makeWorker: {
                { (job: Int) -> Int in
                    let now = running.add(1, ordering: .relaxed).newValue
                    _ = most.max(now, ordering: .relaxed)
                    if growth.isWaitingOnIO { sawWaiting.store(true, ordering: .relaxed) }
                    for _ in 0..<5 { usleep(1000) }  // five voluntary switches, off the processor
                    running.subtract(1, ordering: .relaxed)
                    return job
                }
            },
            next: {
                guard next < 80 else { return .end }
                defer { next += 1 }
                return .job(next)
            },
            consume: { seen.append($0); return true },
            growth: growth)
        let mostRunning = most.load(ordering: .relaxed)
        let waited = sawWaiting.load(ordering: .relaxed)
        #expect(seen == Array(0..<80))
        #expect(waited, "jobs were told that reads wait")
        #expect(mostRunning > threads + 1, "the pool grew past its own threads")
        #expect(mostRunning <= 5, "four workers, and the calling thread before the pool grew")
    }
}
