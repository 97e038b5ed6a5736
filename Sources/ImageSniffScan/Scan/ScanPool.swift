import ImageSniff

/// The walk through a pool of workers: batches of walk entries scanned on `jobs` threads (the
/// calling one among them), each batch's result handed back in walk order. What `imgsniff scan`
/// and `DirectoryScan` run.
package enum ScanPool {
    /// Entries per batch handed to a worker, at most.
    package static let batchSize = 128
    /// Entries in flight at most (in batches queued, being scanned, or waiting to be consumed):
    /// what bounds a scan's memory, whatever the number of files or jobs.
    package static let entriesInFlight = 2048

    /// Batches in flight and entries per batch for `jobs` workers: two batches a worker, smaller
    /// batches when many workers share `entriesInFlight`.
    static func window(jobs: Int) -> (batches: Int, batchSize: Int) {
        let batches = max(4, jobs * 2)
        return (batches, batchSize(window: batches))
    }

    /// Entries per batch when `window` batches are in flight.
    static func batchSize(window: Int) -> Int {
        max(8, min(batchSize, entriesInFlight / window))
    }

    /// Workers at most when the pool grows for a tree that waits on the device: the device of
    /// issue 28 gives 94k reads/s with 32 in flight, 98k with 128.
    package static let ioJobs = 64

    /// The descriptor budget for `jobs` workers and, when the pool may grow to `maxJobs` while
    /// reads wait on the device, its growth: the most workers fit to the address space and to the
    /// descriptors the walk does not need (the walk keeps the directory handles a fixed pool of
    /// `jobs` would give it). No growth with `crossCheck` (each worker would load libmagic's
    /// database) or when the limits leave no room for it.
    ///
    /// With `ring` (by default, whether io_uring is there: `ReadRing.isAvailable`, asked when the
    /// pool first grows), the pool grows reads in flight more than threads: up to `ringThreads`
    /// workers (or `jobs`, if more), each keeping its share of `ringFiles` files in flight, within
    /// the same descriptors (each file open, and each ring's own descriptor).
    package static func plan(jobs: Int, maxJobs: Int?, crossCheck: Bool,
                             ring: Bool? = nil) -> Result<(DescriptorBudget, PoolGrowth?), DescriptorBudget.Failure> {
        let growing = maxJobs.map { $0 > jobs && !crossCheck } ?? false
        let most = ResourceLimits.workersWithinAddressSpace(growing ? maxJobs! : jobs)
        let budget: DescriptorBudget
        switch DescriptorBudget.plan(jobs: min(most, jobs), crossCheck: crossCheck) {
        case .success(let b): budget = b
        case .failure(let failure): return .failure(failure)
        }
        // Rings: the descriptors `ringFiles` workers would have, less the directories that leaves
        // the walk short of, shared by the ring workers, one of each share for the ring itself.
        // Too many jobs or too few descriptors for rings of 2 or more: threads grow instead.
        var rings: (maxThreads: Int, ringDepth: Int)?
        if growing, ring != false, case .success(let wide) = DescriptorBudget.plan(jobs: ringFiles, crossCheck: false) {
            let files = wide.jobs - max(0, budget.directories - wide.directories)
            let threads = max(budget.jobs, min(most, ringThreads))
            let depth = files / threads - 1
            if depth >= 2 { rings = (threads, depth) }
        }
        var threads = budget.jobs
        if growing, most > budget.jobs, case .success(let wide) = DescriptorBudget.plan(jobs: most, crossCheck: false) {
            threads = wide.jobs - max(0, budget.directories - wide.directories)
        }
        // io_uring is probed when the pool first grows (`ReadRing.isAvailable`), not here: a scan
        // that never waits on the device makes no ring.
        if let rings {
            let probes = ring == nil
            return .success((budget, PoolGrowth(rings: rings, threads: max(threads, budget.jobs) - 1,
                                                ringsAllowed: { probes ? ReadRing.isAvailable : true })))
        }
        return .success((budget, threads > budget.jobs ? PoolGrowth(maxThreads: threads - 1) : nil))
    }

    /// Files in flight at most through io_uring, all workers together: the device of issue 28
    /// gives 94k reads/s with 32 in flight, 98k with 128. The rings keep about 85 % of their
    /// slots busy (a slot waits while its worker detects another file), so 256: cold, 20,000
    /// files, 8 runs interleaved, median 511 ms with 128, 483 with 256, 492 with 512 (the
    /// io_uring floor 393 ms, the same with 256).
    package static let ringFiles = 256
    /// Workers reading through rings at most (31 files in flight each). More than the cores: a
    /// worker detecting a file whose answer lies past its first 4 KiB reads on synchronously,
    /// and its ring is not refilled meanwhile. Measured on 2 cores, 20,000 files, cold (hyperfine,
    /// 7 runs): 2 workers x 63 files 638 ms, 4 x 32 554 ms, 8 x 16 530 ms.
    package static let ringThreads = 8

    /// Runs the walk to its end, or until `consume` returns false.
    ///
    /// With `growth`, extra workers start while reads wait on the device (see `PoolGrowth`), and
    /// batches shrink as the window grows so the entries in flight stay near `entriesInFlight`.
    package static func run(
        walker: Walker, jobs: Int, settings: ScanSettings, growth: PoolGrowth? = nil,
        consume: (ScanBatchResult) -> Bool
    ) {
        var walkEnded = false
        let (window, initialBatchSize) = window(jobs: jobs)
        var batchSize = initialBatchSize
        // A growing pool starts with small batches (16, 32, 64, ...): the first one to wait on the
        // device is seen after 16 files, not 128, and the pool grows that much sooner.
        var ramp = growth == nil ? Int.max : 16
        OrderedPool.run(
            threads: jobs - 1, window: window,
            makeWorker: {
                let worker = ScanWorker(settings: settings)
                guard let growth else { return { entries in worker.process(entries) } }
                return { entries in
                    // Waiting on the device: no readahead past the bytes detection asks for, and
                    // many files in flight through the ring (its depth decided as the pool grew).
                    let waiting = growth.isWaitingOnIO
                    worker.adviseRandomAccess = waiting
                    if waiting { worker.ringDepth = growth.ringDepth }
                    worker.usesRing = waiting && worker.ringDepth > 0
                    return worker.process(entries)
                }
            },
            next: {
                guard !walkEnded else { return .end }
                let size = min(batchSize, ramp)
                if ramp < batchSize { ramp *= 2 }
                var batch: [WalkEntry] = []
                batch.reserveCapacity(size)
                while batch.count < size {
                    switch walker.step() {
                    case .entry(let entry): batch.append(entry)
                    case .blocked: return batch.isEmpty ? .blocked : .job(batch)
                    case .end:
                        walkEnded = true
                        return batch.isEmpty ? .end : .job(batch)
                    }
                }
                return .job(batch)
            },
            consume: consume,
            growth: growth,
            resized: { batches in
                // Smaller batches for more workers: the entries in flight stay near
                // `entriesInFlight` (the batches issued before the pool grew come on top, once:
                // 512 entries on 2 cores, `entriesInFlight` at most).
                // Grown with rings, a batch keeps a ring full for a while: four rings' worth.
                if let depth = growth?.ringDepth, depth > 0, batches > window {
                    batchSize = max(8, min(4 * depth, entriesInFlight / batches))
                } else {
                    batchSize = Self.batchSize(window: batches)
                }
            })
    }
}
