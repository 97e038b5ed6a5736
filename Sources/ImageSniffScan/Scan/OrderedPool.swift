/// What the producer of an `OrderedPool` run has next.
package enum PoolInput<Job> {
    case job(Job)
    /// Nothing until the next result comes back: work in flight holds resources the producer
    /// needs. (Only while something is in flight: the pool then waits for that result.)
    case blocked
    case end
}

/// Extra worker threads for jobs that wait on the device (issue 28). A tree that is not in the
/// page cache wants 32-64 reads in flight, two warm cores want two threads: so the pool starts
/// its `threads` and, once two jobs in a row are seen to have blocked (each gave up the processor
/// of its own accord several times and spent most of its time off it: reads waiting on the disk,
/// not a busy machine preempting it), and then whenever one does, doubles its threads up to
/// `maxThreads`. An extra thread whose jobs run twice in a row without blocking (the cache is
/// warm after all) ends. While extra threads run, the calling thread only makes jobs and takes
/// results (a job it ran itself would stall the pipeline for as long as its reads wait).
package final class PoolGrowth: Sendable {
    /// Worker threads at most, the calling thread not counted.
    package var maxThreads: Int { shape.maxThreads }
    /// Files each worker keeps in flight through io_uring while jobs wait on I/O (0: none, the
    /// pool grows threads alone). With rings, `maxThreads` is small (`ScanPool.ringThreads`).
    package var ringDepth: Int { shape.ringDepth }

    private typealias Shape = (maxThreads: Int, ringDepth: Int)
    /// The growth with rings, and without them (threads alone).
    private let withRings: Shape?, withoutRings: Shape
    /// Whether rings may be made: asked once, when the shape is first wanted (when the pool first
    /// grows), so that a scan that never waits on the device never probes io_uring.
    private let ringsAllowed: @Sendable () -> Bool
    private let decided = ConditionLock<Shape?>(nil)
    private let waiting = ConditionLock(false)

    package init(maxThreads: Int, ringDepth: Int = 0) {
        withRings = ringDepth > 0 ? (maxThreads, ringDepth) : nil
        withoutRings = (maxThreads, 0)
        ringsAllowed = { true }
    }

    /// Growth through rings (`rings`) where `ringsAllowed` says, when first needed, that they may
    /// be made; through `threads` alone otherwise.
    package init(rings: (maxThreads: Int, ringDepth: Int), threads: Int, ringsAllowed: @escaping @Sendable () -> Bool) {
        withRings = rings
        withoutRings = (threads, 0)
        self.ringsAllowed = ringsAllowed
    }

    private var shape: Shape {
        decided.withLock { decided in
            if let decided { return decided }
            let shape = withRings.flatMap { ringsAllowed() ? $0 : nil } ?? withoutRings
            decided = shape
            return shape
        }
    }

    /// Whether the pool is grown because jobs wait on I/O (jobs may read that to advise the
    /// kernel against readahead).
    package var isWaitingOnIO: Bool { waiting.withLock { $0 } }

    func setWaiting(_ value: Bool) { waiting.withLock { $0 = value } }

    /// What a thread has used so far: voluntary context switches, reads it caused from the
    /// storage device (in 512-byte blocks), and its CPU and wall time.
    struct Sample {
        var switches: Int
        var cpu: Int
        var wall: Int
        /// `ru_inblock`: Linux counts the bytes a thread had fetched from storage (its I/O
        /// accounting, `read_bytes` in /proc/PID/io); 0 where the kernel does not account them.
        var storageBlocks = 0

        static func now() -> Sample {
            #if os(Linux)
            var usage = rusage()
            _ = getrusage(__rusage_who_t(1), &usage)  // RUSAGE_THREAD (a GNU name the module does not import)
            var cpu = timespec(), wall = timespec()
            clock_gettime(CLOCK_THREAD_CPUTIME_ID, &cpu)
            clock_gettime(CLOCK_MONOTONIC, &wall)
            return Sample(switches: Int(usage.ru_nvcsw), cpu: cpu.tv_sec * 1_000_000_000 + cpu.tv_nsec,
                          wall: wall.tv_sec * 1_000_000_000 + wall.tv_nsec, storageBlocks: Int(usage.ru_inblock))
            #else
            return Sample(switches: 0, cpu: 0, wall: 0)  // no per-thread counts: never grows
            #endif
        }

        /// Whether the thread blocked on the device since `start`: it gave up the processor of
        /// its own accord at least 4 times, and either read from storage meanwhile or spent under
        /// half the wall time on the processor. (A fast device, a virtual disk whose host caches
        /// it, answers each read in tens of microseconds: a cold job then spends about half its
        /// time on the processor, in the kernel's cold paths, and still gains from more reads in
        /// flight. Where the kernel counts no storage reads, the time alone decides.)
        func blocked(since start: Sample) -> Bool {
            guard switches - start.switches >= 4 else { return false }
            return storageBlocks > start.storageBlocks || (cpu - start.cpu) * 2 < wall - start.wall
        }
    }
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
        /// Extra threads (`PoolGrowth`) running, and jobs seen to block since the calling thread
        /// last looked.
        var extra = 0
        var blockedJobs = 0
        /// Jobs seen to block one after the other (in the order they ended), and whether two did
        /// since the calling thread last looked: what first grows the pool. A warm tree's job
        /// may block once (a few milliseconds of reclaim on a machine whose memory is page
        /// cache: 6 jobs in 20 warm scans here); a cold tree's block one after the other.
        var blockedInARow = 0
        var blockedTwiceInARow = false

        mutating func report(blocked: Bool) {
            guard blocked else { blockedInARow = 0; return }
            blockedJobs += 1
            blockedInARow += 1
            if blockedInARow >= 2 { blockedTwiceInARow = true }
        }

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
    ///   - growth: when set, extra threads are added while jobs wait on I/O (see `PoolGrowth`),
    ///     and the window grows with them (two jobs a thread).
    ///   - resized: called on the calling thread with the new window when it grows or shrinks
    ///     (so the producer can make smaller jobs and keep the work in flight bounded).
    /// - Returns: how many worker threads started (none before a second job is there to share),
    ///   extra threads not counted.
    @discardableResult
    package static func run<Job: Sendable, Output: Sendable>(
        threads: Int, window initialWindow: Int,
        makeWorker: @escaping @Sendable () -> (Job) -> Output,
        next: () -> PoolInput<Job>,
        consume: (Output) -> Bool,
        growth: PoolGrowth? = nil,
        resized: (Int) -> Void = { _ in }
    ) -> Int {
        // Condition 0: the calling thread waits for results (and, at the end, for the workers to
        // end); condition 1: workers wait for jobs. A job queued wakes one worker, a result the
        // calling thread alone (64 threads woken for every job cost more than the reads).
        let lock = ConditionLock(State<Job, Output>(), conditions: 2)
        var started = 0
        var spawning = threads > 0
        let measures = growth != nil
        // Workers start when there is a second job to share (a one-file scan starts none).
        func spawnWorkers() {
            spawning = false
            for _ in 0..<max(0, threads) {
                if spawnWorker(extra: false) { started += 1 } else { break }
            }
        }
        /// One more thread; an extra one ends after two jobs in a row that did not block.
        func spawnWorker(extra: Bool) -> Bool {
            lock.withLock { state in
                state.workers += 1
                if extra { state.extra += 1 }
            }
            let ok = Threads.spawn {
                let work = makeWorker()
                var unblocked = 0
                while true {
                    let sequence: Int, output: Output
                    var blocked = false
                    do {
                        // The job is released at the end of this scope, before its result is
                        // published (a job may hold resources its producer waits for).
                        let item = lock.withLock(
                            waitingUntil: { $0.hasQueued || $0.closed }, on: 1
                        ) { state -> (sequence: Int, job: Job)? in
                            state.closed ? nil : state.pop()
                        }
                        guard let item else { break }
                        sequence = item.sequence
                        if measures {
                            let start = PoolGrowth.Sample.now()
                            output = work(item.job)
                            blocked = PoolGrowth.Sample.now().blocked(since: start)
                        } else {
                            output = work(item.job)
                        }
                    }
                    unblocked = blocked ? 0 : unblocked + 1
                    let leave = extra && unblocked >= 2
                    lock.withLock { state in
                        state.results[sequence] = output
                        if measures { state.report(blocked: blocked) }
                        if leave { state.extra -= 1 }
                    }
                    lock.signal(0)
                    if leave { break }
                }
                lock.withLock { state in state.workers -= 1 }
                lock.broadcast()
            }
            if !ok {
                lock.withLock { state in
                    state.workers -= 1
                    if extra { state.extra -= 1 }
                }
            }
            return ok
        }
        var window = max(1, initialWindow)
        let baseWindow = window
        var grown = false
        /// Looks at what the workers reported: more threads when jobs blocked, the window fitted
        /// to the threads running. Returns whether extra threads run (the calling thread then
        /// runs no job itself).
        func adapt() -> Bool {
            guard let growth else { return false }
            let (blockedJobs, twiceInARow, running) = lock.withLock { state in
                defer { (state.blockedJobs, state.blockedTwiceInARow) = (0, false) }
                return (state.blockedJobs, state.blockedTwiceInARow, state.extra)
            }
            var extra = running
            // Grown already: more while any job blocks. Not yet: when two blocked in a row.
            if (running > 0 ? blockedJobs > 0 : twiceInARow) && !spawning {
                let running = started + extra
                let more = min(growth.maxThreads - running, max(2, running))
                var added = 0
                while added < more && spawnWorker(extra: true) { added += 1 }
                extra += added
            }
            if (extra > 0) != grown {
                grown = extra > 0
                growth.setWaiting(grown)
            }
            let wanted = max(baseWindow, 2 * (started + extra + 1))
            if wanted != window {
                window = wanted
                resized(window)
            }
            return extra > 0
        }
        /// Runs a job on the calling thread, reporting whether it blocked.
        func runMine(_ work: (Job) -> Output, _ job: Job) -> Output {
            guard measures else { return work(job) }
            let start = PoolGrowth.Sample.now()
            let output = work(job)
            let blocked = PoolGrowth.Sample.now().blocked(since: start)
            lock.withLock { state in state.report(blocked: blocked) }
            return output
        }

        let mine = makeWorker()
        var issued = 0, emitted = 0
        var ended = false, stopped = false
        var extraRunning = false
        while !stopped {
            if measures { extraRunning = adapt() }
            if !ended && issued - emitted < window {
                switch next() {
                case .job(let job):
                    if spawning && issued - emitted >= 1 { spawnWorkers() }
                    if !spawning && started == 0 && !extraRunning && issued == emitted {
                        // No worker threads and nothing in flight: run it now. (With jobs queued,
                        // it queues behind them: results go out in order. With extra threads
                        // running, they take it.)
                        stopped = !consume(runMine(mine, job))
                    } else {
                        lock.withLock { state in state.push(issued, job) }
                        lock.signal(1)
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
            // The next result in order; run a queued job meanwhile (unless extra threads do the
            // jobs), or wait.
            let runsJobs = !extraRunning
            let (output, queued) = lock.withLock(
                waitingUntil: { [emitted] in $0.results[emitted] != nil || (runsJobs && $0.hasQueued) || ($0.blockedJobs > 0 && measures) }
            ) { state -> (Output?, (sequence: Int, job: Job)?) in
                if let output = state.results.removeValue(forKey: emitted) { return (output, nil) }
                return (nil, runsJobs ? state.pop() : nil)
            }
            if let output {
                emitted += 1
                stopped = !consume(output)
            } else if let queued {
                let output = runMine(mine, queued.job)
                lock.withLock { state in state.results[queued.sequence] = output }
            }
        }
        // Stop the workers and wait for them: no thread outlives the run.
        lock.withLock { state in state.closed = true }
        lock.broadcast(1)
        lock.withLock(waitingUntil: { $0.workers == 0 }) { _ in }
        return started
    }
}
