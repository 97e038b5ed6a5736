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
        return (batches, max(8, min(batchSize, entriesInFlight / batches)))
    }

    /// Runs the walk to its end, or until `consume` returns false.
    package static func run(walker: Walker, jobs: Int, settings: ScanSettings, consume: (ScanBatchResult) -> Bool) {
        var walkEnded = false
        let (window, batchSize) = window(jobs: jobs)
        OrderedPool.run(
            threads: jobs - 1, window: window,
            makeWorker: {
                let worker = ScanWorker(settings: settings)
                return { entries in worker.process(entries) }
            },
            next: {
                guard !walkEnded else { return .end }
                var batch: [WalkEntry] = []
                batch.reserveCapacity(batchSize)
                while batch.count < batchSize {
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
            consume: consume)
    }
}
