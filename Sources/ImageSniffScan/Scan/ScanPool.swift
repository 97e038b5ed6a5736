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
    package static func plan(jobs: Int, maxJobs: Int?, crossCheck: Bool) -> Result<(DescriptorBudget, PoolGrowth?), DescriptorBudget.Failure> {
        let growing = maxJobs.map { $0 > jobs && !crossCheck } ?? false
        let most = ResourceLimits.workersWithinAddressSpace(growing ? maxJobs! : jobs)
        let budget: DescriptorBudget
        switch DescriptorBudget.plan(jobs: min(most, jobs), crossCheck: crossCheck) {
        case .success(let b): budget = b
        case .failure(let failure): return .failure(failure)
        }
        var threads = budget.jobs
        if growing, most > budget.jobs, case .success(let wide) = DescriptorBudget.plan(jobs: most, crossCheck: false) {
            threads = wide.jobs - max(0, budget.directories - wide.directories)
        }
        return .success((budget, threads > budget.jobs ? PoolGrowth(maxThreads: threads - 1) : nil))
    }

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
                    // Waiting on the device: no readahead past the bytes detection asks for.
                    worker.adviseRandomAccess = growth.isWaitingOnIO
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
                batchSize = Self.batchSize(window: batches)
            })
    }
}
