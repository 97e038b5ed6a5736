/// What the producer of an `OrderedPool` run has next.
package enum PoolInput<Job> {
    case job(Job)
    /// Nothing until the next result comes back: work in flight holds resources the producer
    /// needs. (Only while something is in flight: the pool then waits for that result.)
    case blocked
    case end
}

/// Runs jobs on worker threads and on the calling thread, and hands the results back to the
/// calling thread in the order the jobs were made.
///
/// The calling thread makes jobs while fewer than `window` are in flight; when the window is
/// full (or the jobs have run out) it takes the next result in order, or runs a queued job
/// itself while that result is not ready. So `threads + 1` threads work, memory is bounded by
/// the window, and a system that refuses threads (a process limit) still gets its work done on
/// the calling thread.
package enum OrderedPool {
    private struct State<Job, Output> {
        /// Jobs not yet taken, oldest first from `head`. A taken job's slot is emptied at once:
        /// the queue never keeps a job (and what it holds: entries, open directories) alive.
        var queue: [(sequence: Int, job: Job)?] = []
        var head = 0
        var results: [Int: Output] = [:]
        var closed = false
        var workers = 0

        var hasQueued: Bool { head < queue.count }

        mutating func push(_ sequence: Int, _ job: Job) {
            // Drop the emptied slots once they are the larger part (amortised O(1)).
            if head > 32 && head * 2 > queue.count {
                queue.removeFirst(head)
                head = 0
            }
            queue.append((sequence, job))
        }

        mutating func pop() -> (sequence: Int, job: Job)? {
            guard head < queue.count else { return nil }
            let item = queue[head].take()
            head += 1
            if head == queue.count {
                queue.removeAll(keepingCapacity: true)
                head = 0
            }
            return item
        }
    }

    /// Runs the pool to the end of the input, or until `consume` returns false.
    ///
    /// - Parameters:
    ///   - threads: worker threads to start besides the calling one (as many as the system allows).
    ///   - window: jobs in flight at most.
    ///   - makeWorker: called once on each thread, on that thread: returns what runs a job there
    ///     (so per-thread state, such as a reusable read buffer, never crosses threads).
    ///   - next: the next job, on the calling thread.
    ///   - consume: each result, in order, on the calling thread.
    /// - Returns: how many worker threads started (none before a second job is there to share).
    @discardableResult
    package static func run<Job: Sendable, Output: Sendable>(
        threads: Int, window: Int,
        makeWorker: @escaping @Sendable () -> (Job) -> Output,
        next: () -> PoolInput<Job>,
        consume: (Output) -> Bool
    ) -> Int {
        let lock = ConditionLock(State<Job, Output>())
        var started = 0
        var spawning = threads > 0
        // Workers start when there is a second job to share (a one-file scan starts none).
        func spawnWorkers() {
            spawning = false
            for _ in 0..<max(0, threads) {
                lock.withLock { state in state.workers += 1 }
                let ok = Threads.spawn {
                    let work = makeWorker()
                    while true {
                        let sequence: Int, output: Output
                        do {
                            // The job is released at the end of this scope, before its result is
                            // published (a job may hold resources its producer waits for).
                            let item = lock.withLock(
                                waitingUntil: { $0.hasQueued || $0.closed }
                            ) { state -> (sequence: Int, job: Job)? in
                                state.closed ? nil : state.pop()
                            }
                            guard let item else { break }
                            sequence = item.sequence
                            output = work(item.job)
                        }
                        lock.withLock { state in state.results[sequence] = output }
                        lock.broadcast()
                    }
                    lock.withLock { state in state.workers -= 1 }
                    lock.broadcast()
                }
                if ok { started += 1 } else {
                    lock.withLock { state in state.workers -= 1 }
                    break
                }
            }
        }

        let mine = makeWorker()
        var issued = 0, emitted = 0
        var ended = false, stopped = false
        while !stopped {
            if !ended && issued - emitted < max(1, window) {
                switch next() {
                case .job(let job):
                    if spawning && issued - emitted >= 1 { spawnWorkers() }
                    if !spawning && started == 0 && issued == emitted {
                        // No worker threads and nothing in flight: run it now. (With jobs queued,
                        // it queues behind them: results go out in order.)
                        stopped = !consume(mine(job))
                    } else {
                        lock.withLock { state in state.push(issued, job) }
                        lock.broadcast()
                        issued += 1
                    }
                    continue
                case .end:
                    ended = true
                case .blocked:
                    break
                }
            }
            if emitted == issued {
                if ended { break }
                // Blocked with nothing in flight: a producer waits for resources that work in
                // flight holds, so this cannot last (a job's resources are released before its
                // result is published). Ask again.
                sched_yield()
                continue
            }
            // The next result in order; run a queued job meanwhile, or wait.
            let (output, queued) = lock.withLock(
                waitingUntil: { [emitted] in $0.results[emitted] != nil || $0.hasQueued }
            ) { state -> (Output?, (sequence: Int, job: Job)?) in
                if let output = state.results.removeValue(forKey: emitted) { return (output, nil) }
                return (nil, state.pop())
            }
            if let output {
                emitted += 1
                stopped = !consume(output)
            } else if let queued {
                let output = mine(queued.job)
                lock.withLock { state in state.results[queued.sequence] = output }
            }
        }
        // Stop the workers and wait for them: no thread outlives the run.
        lock.withLock { state in state.closed = true }
        lock.broadcast()
        lock.withLock(waitingUntil: { $0.workers == 0 }) { _ in }
        return started
    }
}
