import Testing
import Synchronization
@testable import IMGSniffKit
@testable import ImageSniffScan

@Suite("Ordered pool")
struct PoolTests {
    /// Jobs of uneven cost come back in the order they were made, on any number of threads.
    @Test(arguments: [0, 1, 3, 7])
    func resultsComeBackInOrder(threads: Int) {
        var next = 0
        var seen: [Int] = []
        let started = OrderedPool.run(
            threads: threads, window: 8,
            makeWorker: { { (job: Int) -> Int in
                // Uneven work so that later jobs often finish first.
                var x = 0
                for i in 0..<((job % 7) * 2000) { x &+= i }
                return job + (x == -1 ? 1 : 0)
            } },
            next: {
                guard next < 2000 else { return .end }
                defer { next += 1 }
                return .job(next)
            },
            consume: { seen.append($0); return true })
        #expect(started == threads)
        #expect(seen == Array(0..<2000))
    }

    /// A consumer that stops early stops the run; every worker thread has ended when it returns.
    @Test func stoppingEarly() {
        let live = Atomic<Int>(0)
        var next = 0
        var seen = 0
        OrderedPool.run(
            threads: 4, window: 4,
            makeWorker: {
                live.add(1, ordering: .relaxed)
                return { (job: Int) -> Int in job }
            },
            next: {
                defer { next += 1 }
                return .job(next)
            },
            consume: { _ in seen += 1; return seen < 50 })
        #expect(seen == 50)
        #expect(live.load(ordering: .relaxed) == 5, "four threads and the caller made workers")
    }

    /// `.blocked` waits for the work in flight, then goes on.
    @Test func blockedInputWaitsForWorkInFlight() {
        let inFlight = Atomic<Int>(0)
        var next = 0
        var results: [Int] = []
        OrderedPool.run(
            threads: 2, window: 16,
            makeWorker: { { (job: Int) -> Int in
                usleep(200)
                inFlight.subtract(1, ordering: .relaxed)
                return job
            } },
            next: {
                guard next < 100 else { return .end }
                // At most three jobs out at once, whatever the window.
                if inFlight.load(ordering: .relaxed) >= 3 { return .blocked }
                inFlight.add(1, ordering: .relaxed)
                defer { next += 1 }
                return .job(next)
            },
            consume: { results.append($0); return true })
        #expect(results == Array(0..<100))
    }

    /// One job starts no thread: it runs on the calling thread (a one-file scan pays for no
    /// thread start-up); a second job starts the workers.
    @Test func oneJobStartsNoThread() {
        var given = 0
        var got: [Int] = []
        let started = OrderedPool.run(
            threads: 3, window: 8,
            makeWorker: { { (job: Int) in job * 2 } },
            next: { given += 1; return given == 1 ? .job(21) : .end },
            consume: { got.append($0); return true })
        #expect(started == 0)
        #expect(got == [42])
    }

    /// Jobs that wait (sleeping stands for reads waiting on a cold disk) grow the pool past its
    /// threads, up to `maxThreads`; the window grows with it; results still come back in order,
    /// and no extra thread outlives the run.
    @Test func blockingJobsGrowThePool() {
        let running = Atomic<Int>(0), most = Atomic<Int>(0), workers = Atomic<Int>(0)
        let growth = PoolGrowth(maxThreads: 9)
        var next = 0
        var seen: [Int] = []
        var windows: [Int] = []
        let started = OrderedPool.run(
            threads: 1, window: 4,
            makeWorker: {
                workers.add(1, ordering: .relaxed)
                return { (job: Int) -> Int in
                    let now = running.add(1, ordering: .relaxed).newValue
                    _ = most.max(now, ordering: .relaxed)
                    for _ in 0..<5 { usleep(1000) }  // five voluntary switches, off the processor
                    running.subtract(1, ordering: .relaxed)
                    return job
                }
            },
            next: {
                guard next < 120 else { return .end }
                defer { next += 1 }
                return .job(next)
            },
            consume: { seen.append($0); return true },
            growth: growth,
            resized: { windows.append($0) })
        #expect(started == 1)
        #expect(seen == Array(0..<120))
        #expect(most.load(ordering: .relaxed) > 2, "the pool grew past its two threads")
        #expect(most.load(ordering: .relaxed) <= 10, "within maxThreads and the calling thread")
        #expect(windows.contains { $0 > 4 }, "the window grew with the threads")
        #expect(workers.load(ordering: .relaxed) >= 3)
    }

    /// What makes a job one that waited on the device. The numbers are jobs of 128 files measured
    /// on this project's virtual disk (`getrusage` per thread): cold, each read takes tens of
    /// microseconds and the job spends over half its time on the processor, yet read 600 KB from
    /// storage; warm, it gives up the processor not once.
    @Test func aJobThatReadFromStorageWaitedOnTheDevice() {
        typealias Sample = PoolGrowth.Sample
        let start = Sample(switches: 1000, cpu: 50_000_000, wall: 900_000_000, storageBlocks: 20_000)
        func after(switches: Int, cpuMicroseconds: Int, wallMicroseconds: Int, blocks: Int) -> Sample {
            Sample(switches: start.switches + switches, cpu: start.cpu + cpuMicroseconds * 1000,
                   wall: start.wall + wallMicroseconds * 1000, storageBlocks: start.storageBlocks + blocks)
        }
        // Cold on a fast device: 128 waits, 6.3 ms on the processor of 10.6, 1,160 blocks read.
        #expect(after(switches: 128, cpuMicroseconds: 6300, wallMicroseconds: 10_600, blocks: 1160).blocked(since: start))
        // Warm: no wait, nothing read.
        #expect(!after(switches: 0, cpuMicroseconds: 1500, wallMicroseconds: 1500, blocks: 0).blocked(since: start))
        // A few waits (memory reclaim, a lock) while mostly on the processor, nothing read.
        #expect(!after(switches: 6, cpuMicroseconds: 1400, wallMicroseconds: 2400, blocks: 0).blocked(since: start))
        // Storage read, but only once or twice: one evicted file in a warm tree.
        #expect(!after(switches: 2, cpuMicroseconds: 1400, wallMicroseconds: 1600, blocks: 8).blocked(since: start))
        // Off the processor most of the time, nothing counted (a kernel without I/O accounting,
        // or a network file system): the time decides, as before.
        #expect(after(switches: 5, cpuMicroseconds: 100, wallMicroseconds: 5000, blocks: 0).blocked(since: start))
    }

    /// One job that waits now and then among many that do not (a warm tree whose scan meets a
    /// few milliseconds of memory reclaim) does not grow the pool; jobs waiting one after the
    /// other (a cold tree) do.
    @Test(arguments: [false, true])
    func aJobBlockingNowAndThenDoesNotGrowThePool(inARow: Bool) {
        let workers = Atomic<Int>(0)
        var next = 0
        let started = OrderedPool.run(
            threads: 0, window: 4,
            makeWorker: {
                workers.add(1, ordering: .relaxed)
                return { (job: Int) -> Int in
                    // Jobs run one at a time on the calling thread until the pool grows.
                    let waits = inARow ? job >= 10 : job % 10 == 5
                    if waits { for _ in 0..<5 { usleep(1000) } }  // off the processor, of its own accord
                    return job
                }
            },
            next: {
                guard next < 40 else { return .end }
                defer { next += 1 }
                return .job(next)
            },
            consume: { _ in true },
            growth: PoolGrowth(maxThreads: 8))
        #expect(started == 0)
        #expect((workers.load(ordering: .relaxed) > 1) == inARow, inARow ? "jobs waiting in a row grow the pool" : "a job waiting now and then does not")
    }
}
