import ImageSniff

/// Scans files and directory trees as `imgsniff scan` does, as an asynchronous sequence of
/// records in walk order: operands in the order given, directory contents sorted bytewise,
/// depth first.
///
/// ```swift
/// import ImageSniffScan
///
/// var options = DirectoryScan.Options()
/// options.filter.onlyImages = true
/// for try await record in DirectoryScan(["photos", "downloads"], options: options) {
///     print(record.displayPath, record.detection?.type.identifier ?? record.problem!.message)
/// }
/// ```
///
/// The walk is the command's: symbolic links inside directories are skipped unless
/// `walk.followSymlinks` (and each directory is visited once, so loops end), hidden names are
/// skipped unless `walk.includeHidden`, pseudo-filesystems (/proc, /sys) are not entered, FIFOs
/// and devices are never opened (their record says what they are). Files are read by a pool of
/// `jobs` threads (more while reads wait on the device: `growsWhileReadsWait`); at most a few
/// thousand records are in flight, whatever the size of the tree and however slowly the records
/// are consumed. Stopping the iteration (a `break`, a cancelled task) stops the scan.
///
/// `record.jsonLine()` is the record as `imgsniff scan --format ndjson` writes it.
public struct DirectoryScan: AsyncSequence, Sendable {
    public typealias Element = ScanRecord
    public typealias AsyncIterator = Iterator

    /// What to scan for, and how.
    public struct Options: Sendable {
        /// The walk: links, hidden names, depth, file systems, exclusions.
        public var walk = WalkOptions()
        /// Which records are yielded (`imgsniff scan --only-images`, `--type`, `--mismatches`,
        /// `--min-pixels`); a record the filter leaves out is not yielded.
        public var filter = ScanFilter()
        /// The detection hint for every file (an identifier, extension or MIME type).
        public var hint: String?
        /// Each file's known extension as its hint (before `hint`).
        public var hintFromExtension = false
        /// Read each image's properties (`record.properties`).
        public var properties = false
        /// Check that each file is whole (`ReadBudget.verify`).
        public var verify = false
        /// Threads reading files (default: the processors this process may run on).
        public var jobs = Processors.available
        /// Keep more reads in flight while reads are seen to wait on the device (a tree that is
        /// not in the page cache: a recovered disk, a network share), advising the kernel against
        /// readahead meanwhile; back to `jobs` threads when they stop waiting. Through io_uring
        /// where the kernel allows it (up to 8 threads, 128 files in flight together), otherwise
        /// up to 64 threads (and where the environment sets `IMGSNIFF_IO_URING=0`). The records
        /// and their order are the same either way. False: always `jobs` threads, one file each.
        public var growsWhileReadsWait = true

        public init() {}
    }

    public let paths: [[UInt8]]
    public let options: Options

    /// Scans these paths (files or directories; relative to the current directory).
    public init(_ paths: [String], options: Options = Options()) {
        self.init(pathBytes: paths.map { Array($0.utf8) }, options: options)
    }

    /// Scans these paths given as raw bytes (names that are not UTF-8).
    public init(pathBytes: [[UInt8]], options: Options = Options()) {
        self.paths = pathBytes
        self.options = options
    }

    public func makeAsyncIterator() -> Iterator { Iterator(scan: self) }

    /// Yields the records as the pool makes them; holds back the pool when they are not taken.
    public final class Iterator: AsyncIteratorProtocol {
        private let channel: RecordChannel
        private var started = false
        private let scan: DirectoryScan

        init(scan: DirectoryScan) {
            self.scan = scan
            channel = RecordChannel(capacity: ScanPool.entriesInFlight)
        }

        deinit { channel.cancel() }

        /// The next record, or nil at the end. Throws `DirectoryScan.StartError` when the scan could
        /// not start (no file descriptors to spare).
        public func next() async throws -> ScanRecord? {
            if !started {
                started = true
                try DirectoryScan.start(scan, into: channel)
            }
            return try await withTaskCancellationHandler {
                try await channel.take()
            } onCancel: { [channel] in
                channel.cancel()
            }
        }
    }

    /// Why a scan could not start.
    public struct StartError: Error, Sendable, CustomStringConvertible {
        public let description: String
    }

    /// Starts the walk and the pool on a thread of their own, feeding `channel`.
    private static func start(_ scan: DirectoryScan, into channel: RecordChannel) throws {
        let budget: DescriptorBudget, growth: PoolGrowth?
        let jobs = Swift.max(1, scan.options.jobs)
        switch ScanPool.plan(jobs: jobs, maxJobs: scan.options.growsWhileReadsWait ? Swift.max(jobs, ScanPool.ioJobs) : nil, crossCheck: false) {
        case .success(let plan): (budget, growth) = plan
        case .failure(let failure): throw StartError(description: "\(failure)")
        }
        var walk = scan.options.walk
        walk.directoryBudget = budget.directories
        let walkOptions = walk
        var settings = ScanSettings()
        settings.filter = scan.options.filter
        settings.hint = scan.options.hint
        settings.hintFromExtension = scan.options.hintFromExtension
        settings.properties = scan.options.properties
        settings.verify = scan.options.verify
        settings.encoding = nil
        let frozen = settings
        let operands = scan.paths
        let started = Threads.spawn {
            let walker = Walker(operands: operands, filesFrom: nil, options: walkOptions)
            ScanPool.run(walker: walker, jobs: budget.jobs, settings: frozen, growth: growth) { result in
                for item in result.items {
                    guard let record = item.record, record.isIncluded else { continue }
                    if !channel.put(record) { return false }
                }
                return true
            }
            channel.finish()
        }
        if !started { throw StartError(description: "cannot start a thread") }
    }
}

/// The records between the scan's thread and the consuming task: a bounded queue. The scan's
/// thread sleeps when it is full; the task suspends when it is empty.
final class RecordChannel: @unchecked Sendable {
    private struct State {
        var records: [ScanRecord] = []
        var head = 0
        var finished = false
        var cancelled = false
        var waiting: CheckedContinuation<ScanRecord?, Never>?
    }

    private let lock = ConditionLock(State())
    private let capacity: Int

    init(capacity: Int) { self.capacity = capacity }

    /// Hands over a record (sleeping while the queue is full); false once the consumer is gone.
    func put(_ record: ScanRecord) -> Bool {
        let resume: CheckedContinuation<ScanRecord?, Never>? = lock.withLock(waitingUntil: { state in
            state.cancelled || state.waiting != nil || state.records.count - state.head < capacity
        }) { state in
            if state.cancelled { return nil }
            if let waiting = state.waiting {
                state.waiting = nil
                return waiting
            }
            state.records.append(record)
            return nil
        }
        if let resume {
            resume.resume(returning: record)
            return true
        }
        return !lock.withLock { $0.cancelled }
    }

    /// The scan is over: the consumer gets what is queued, then nil.
    func finish() {
        let resume: CheckedContinuation<ScanRecord?, Never>? = lock.withLock { state in
            state.finished = true
            defer { state.waiting = nil }
            return state.waiting
        }
        resume?.resume(returning: nil)
    }

    /// The consumer is gone: the scan stops at its next record.
    func cancel() {
        let resume: CheckedContinuation<ScanRecord?, Never>? = lock.withLock { state in
            state.cancelled = true
            defer { state.waiting = nil }
            return state.waiting
        }
        lock.broadcast()
        resume?.resume(returning: nil)
    }

    /// The next record, waiting for one; nil at the end (or once cancelled).
    func take() async throws -> ScanRecord? {
        try Task.checkCancellation()
        return await withCheckedContinuation { (continuation: CheckedContinuation<ScanRecord?, Never>) in
            let ready: (ScanRecord?, Bool)? = lock.withLock { state in
                if state.head < state.records.count {
                    let record = state.records[state.head]
                    state.head += 1
                    if state.head > 1024 && state.head * 2 > state.records.count {
                        state.records.removeFirst(state.head)
                        state.head = 0
                    }
                    return (record, true)
                }
                if state.finished || state.cancelled { return (nil, false) }
                state.waiting = continuation
                return nil
            }
            if let ready {
                if ready.1 { lock.broadcast() }  // room again for the scan's thread
                continuation.resume(returning: ready.0)
            }
        }
    }
}

extension ScanRecord {
    /// The record as `imgsniff scan --format ndjson` writes it (one line, with its newline);
    /// `properties` adds the `properties` object as `--properties` does.
    public func jsonLine(properties: Bool = false) -> String {
        var bytes: [UInt8] = []
        RecordEncoder(format: .ndjson, crossCheck: false, properties: properties).encode(self, into: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }
}
