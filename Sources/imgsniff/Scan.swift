// `imgsniff scan`: walk, detect on a bounded pool of worker threads, write records in walk order.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser
import Foundation  // Thread only; nothing per file.
import ImageSniff

extension ScanFormat: ExpressibleByArgument {}

struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Detect the format of files, directories (recursively) and standard input.",
        discussion: """
        Output is an aligned table when standard output is a terminal (colour unless NO_COLOR is \
        set), NDJSON (one JSON object per line) otherwise; --format chooses. Records come in walk \
        order: arguments in the order given, directory contents sorted bytewise, depth first.

        NDJSON/JSON fields: path, uti, mime, extension (the detected type's preferred one), \
        isImage, confidence (conclusive, likely, family, hinted, unknown), animated, error; \
        "completeness": "truncated" when the file ends early. Unknown content has \
        "uti": "public.data"; an unreadable file has an "error" string and null detection fields. \
        CSV (RFC 4180, CRLF) has a header and the columns path, uti, mime, extension, isImage, \
        confidence, animated, completeness, error, pathBytes.

        File names that are not valid UTF-8 are scanned and printed losslessly: in such a name \
        each byte that is not part of valid UTF-8 is written %XX (hex) and each '%' is written \
        %25; names that are valid UTF-8 are printed unchanged. JSON and CSV records of such a name \
        also carry "pathBytes": the raw name, base64-encoded.

        Traversal: hidden names (starting with '.') inside directories are skipped unless \
        --hidden; symbolic links inside directories are skipped unless --follow-symlinks (loops \
        are then detected and reported); a path given explicitly is always followed. FIFOs, \
        sockets and devices are never opened: they get a record with an error ("not a regular \
        file (FIFO)"); that makes the exit status 1 only when the file was named explicitly.

        Exit status: 0 when every file was read; 1 when some could not be (unreadable, vanished, \
        unreadable directory, symlink loop); 2 when a path given on the command line does not \
        exist (reported on standard error, no record); 64 for usage errors.

        Examples:
          imgsniff scan ~/Pictures                     # table on a terminal
          imgsniff scan --format csv photos > types.csv
          imgsniff scan --mismatches --format ndjson downloads
          imgsniff scan --type public.camera-raw-image card/    # every camera RAW
          find . -name '*.dat' -print0 | imgsniff scan --files-from - -0
          curl -s https://example.com/x | imgsniff scan -
          imgsniff scan --hint-from-extension textures/  # extensions settle TGA, RAW...
          imgsniff scan --cross-check --format table dir  # beside libmagic's answers
        """
    )

    @Argument(help: ArgumentHelp("Files and directories to scan ('-' for standard input). Default: '.' unless --files-from is given.",
                                 valueName: "path"))
    var paths: [String] = []

    @OptionGroup(title: "Traversal") var traversal: TraversalOptions

    @Option(help: "Output format: table, ndjson, json or csv. Default: table on a terminal, ndjson otherwise.")
    var format: ScanFormat?

    @Flag(help: "Only list files whose content is an image (conforms to public.image).")
    var onlyImages = false

    @Option(name: .customLong("type"), help: ArgumentHelp(
        "Only list files whose content conforms to this type: an identifier (public.camera-raw-image lists every RAW), a filename extension or a MIME type. Repeatable.",
        valueName: "type"))
    var types: [String] = []

    @Flag(help: "Only list files whose extension names a known type that differs from the content (a supertype or family of the content counts as a match; no extension or an unknown one is never a mismatch).")
    var mismatches = false

    @Flag(help: "Use each file's extension as the detection hint (it settles what the bytes cannot, never overrides them).")
    var hintFromExtension = false

    @Option(name: [.short, .long], help: "Worker threads (default: the number of cores).")
    var jobs: Int?

    @Flag(name: .customLong("no-summary"), help: "Leave out the table's closing summary.")
    var noSummary = false

    // Add flags that plug in a `RecordAnnotator` here (e.g. --cross-check) and append the
    // annotator in `annotators()`.

    @Flag(help: "Also ask libmagic (the engine of `file`) and compare: each record gains \"libmagic\": {mime, description, uti, verdict}; the table summary counts verdicts (agree, oursMoreSpecific, libmagicMoreSpecific, disagree, libmagicUnknown, oursUnknown) and lists the most common differences. About 50 times slower than detection alone.")
    var crossCheck = false

    /// The annotators in effect for this run (see `RecordAnnotator`).
    func annotators() throws -> [any RecordAnnotator] {
        var list: [any RecordAnnotator] = []
        if crossCheck { list.append(try CrossCheckAnnotator.make()) }
        return list
    }

    func validate() throws {
        if let jobs, jobs < 1 || jobs > 1024 { throw ValidationError("--jobs must be between 1 and 1024.") }
        for t in types where ImageType.types(hint: t).isEmpty {
            throw ValidationError("--type \(t): not a known identifier, extension or MIME type (see `imgsniff types`).")
        }
        let dashes = paths.filter { $0 == "-" }.count
        if dashes > 1 { throw ValidationError("'-' (standard input) can be given only once.") }
        if dashes == 1 && traversal.filesFrom == "-" {
            throw ValidationError("'-' and --files-from - cannot both read standard input.")
        }
    }

    func run() throws {
        let stdoutIsTTY = isatty(1) == 1
        let stderrIsTTY = isatty(2) == 1
        let format = self.format ?? (stdoutIsTTY ? .table : .ndjson)
        let noColor = getenv("NO_COLOR").map { $0.pointee != 0 } ?? false
        let color = format == .table && stdoutIsTTY && !noColor

        var options = traversal.walkOptions
        options.dashIsStandardInput = true
        let operands = paths.isEmpty && traversal.filesFrom == nil ? ["."] : paths
        let walker = try traversal.makeWalker(operands: operands, options: options)

        let annotators = try annotators()
        // The table, the annotators' `didEmit` and the summary need whole records; the streaming
        // formats need only the bytes the workers encoded.
        let keepRecords = format == .table || !annotators.isEmpty
        let settings = ScanSettings(
            filterTypes: types.flatMap { ImageType.types(hint: $0).prefix(1) },
            onlyImages: onlyImages, mismatchesOnly: mismatches, hintFromExtension: hintFromExtension,
            format: format, extraFieldNames: annotators.flatMap(\.fieldNames),
            checksMismatch: mismatches || keepRecords, keepsRecords: keepRecords)
        let out = OutputBuffer()
        var stream = StreamWriter(format: format, extraFieldNames: settings.extraFieldNames, out: out)
        var table = TableWriter(color: color, extraTitles: annotators.flatMap(\.columnTitles))
        var summary = ScanSummary()
        let progress = Progress(enabled: stderrIsTTY)
        var scanned = 0
        var failures = false
        var missingOperand = false

        stream.begin()
        let pool = ScanPool(jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                            settings: settings, annotators: annotators)
        pool.run(walker) { batch in
            batch.bytes.withUnsafeBufferPointer { bytes in
                var start = 0
                for i in batch.outcomes.indices {
                    let o = batch.outcomes[i]
                    let record = UnsafeBufferPointer(rebasing: bytes[start..<o.end])
                    start = o.end
                    scanned += 1
                    if o.missingOperand {
                        progress.clear()
                        FileHandleLite.stderr(o.message ?? "")
                        missingOperand = true
                        continue
                    }
                    if o.failure { failures = true }
                    if let message = o.message {
                        progress.clear()
                        FileHandleLite.stderr(message)
                    }
                    if o.included {
                        if keepRecords {
                            let r = batch.records[i]
                            summary.count(r)
                            for a in annotators { a.didEmit(r) }
                            if format == .table { table.add(r) }
                        }
                        stream.write(encoded: record)
                    }
                    progress.update(scanned)
                }
            }
        }
        if let error = walker.filesFromError {
            FileHandleLite.stderr("imgsniff: --files-from \(traversal.filesFrom ?? ""): \(error)")
            failures = true
        }
        progress.clear()
        stream.end()
        if format == .table {
            var lines = noSummary ? [] : summary.lines(scanned: scanned)
            if !noSummary { for a in annotators { lines += a.summaryLines() } }
            table.write(to: out, summary: lines)
        }
        out.flush()
        if missingOperand { throw ExitCode(2) }
        if failures { throw ExitCode(1) }
    }
}

/// What each worker needs to know to turn an entry into a record.
struct ScanSettings: Sendable {
    let filterTypes: [ImageType]
    let onlyImages: Bool
    let mismatchesOnly: Bool
    let hintFromExtension: Bool
    /// The output format (the workers encode NDJSON/JSON/CSV records).
    var format: ScanFormat = .ndjson
    /// The annotators' field names (JSON keys, CSV columns).
    var extraFieldNames: [String] = []
    /// Work out `ScanRecord.isMismatch` (for `--mismatches`, the table and annotators).
    var checksMismatch = true
    /// Hand whole records to the main thread (the table, annotators), not only encoded bytes.
    var keepsRecords = true

    var hasFilters: Bool { onlyImages || mismatchesOnly || !filterTypes.isEmpty }

    /// Detects one entry (on a worker thread).
    func record(for entry: WalkEntry, sniffer: FileSniffer, annotators: [any RecordAnnotatorWorker]) -> ScanRecord {
        var r = ScanRecord(entry: entry)
        let hint = hintFromExtension ? r.fileExtension : nil
        if let error = entry.error {
            r.error = error.description
            r.isFailure = true
        } else {
            switch entry.kind {
            case .standardInput:
                do throws(FileError) { r.detection = try StandardInput.detect(sniffer: sniffer, hint: hint) } catch {
                    r.error = error.description
                    r.isFailure = true
                }
            case let kind where kind.isSpecial:
                r.error = "not a regular file (\(kind.name))"
                r.isFailure = entry.origin != .tree
            default:
                let result = entry.withLocation { dir, name in
                    Result { () throws(FileError) -> Detection in
                        try sniffer.detect(path: name, relativeTo: dir, hint: hint, followSymlinks: entry.followSymlinks,
                                           knownRegular: entry.knownRegular)
                    }
                }
                switch result {
                case .success(let d): r.detection = d
                case .failure(let error):
                    r.error = error.description
                    r.isFailure = true
                }
            }
        }
        if let d = r.detection {
            if checksMismatch { r.isMismatch = MismatchRule.isMismatch(fileExtension: r.fileExtension, detection: d) }
            var keep = true
            if onlyImages && !d.type.isImage { keep = false }
            if !filterTypes.isEmpty && !filterTypes.contains(where: { d.type.conforms(to: $0) }) { keep = false }
            if mismatchesOnly && !r.isMismatch { keep = false }
            r.isIncluded = keep
        } else {
            r.isIncluded = !hasFilters
        }
        for a in annotators { a.annotate(&r, entry: entry) }
        return r
    }
}

/// Reading `-`: a regular file is read like any other; a pipe is read up to `Limits.maxPrefix`,
/// and the rest is drained and counted so that the total length is right.
enum StandardInput {
    static func detect(sniffer: FileSniffer, hint: String?) throws(FileError) -> Detection {
        var st = stat()
        if fstat(0, &st) == 0 && st.st_mode & S_IFMT == S_IFREG {
            return try sniffer.detect(fileDescriptor: 0, hint: hint)
        }
        let cap = Limits.maxPrefix
        var buffer = [UInt8](repeating: 0, count: cap)
        var have = 0
        while have < cap {
            let n = buffer.withUnsafeMutableBytes { read(0, $0.baseAddress! + have, cap - have) }
            if n < 0 {
                if errno == EINTR { continue }
                throw FileError(kind: .system, code: errno)
            }
            if n == 0 { return ImageSniffer.detect(buffer[..<have], hint: hint) }
            have += n
        }
        var total = have
        var scratch = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = scratch.withUnsafeMutableBytes { read(0, $0.baseAddress!, $0.count) }
            if n < 0 {
                if errno == EINTR { continue }
                break
            }
            if n == 0 { break }
            total += n
        }
        return ImageSniffer.detect(prefix: buffer, totalLength: total, hint: hint)
    }
}

/// What the main thread needs to know about one scanned entry (the record itself, when kept, is
/// in `ScanBatch.records`; its encoded bytes end at `end` in `ScanBatch.bytes`).
struct ScanOutcome {
    /// End of this entry's encoded record in `ScanBatch.bytes` (it starts where the previous
    /// entry's ends; empty when not included).
    var end = 0
    var included = false
    /// Makes the exit status 1.
    var failure = false
    /// An operand that does not exist: exit status 2, no record.
    var missingOperand = false
    /// A line for standard error.
    var message: String?
}

/// A run of consecutive walk entries, handed to a worker in one go, and its results.
final class ScanBatch: @unchecked Sendable {
    var sequence = 0
    var entries: [WalkEntry] = []
    var outcomes: [ScanOutcome] = []
    /// Only when `ScanSettings.keepsRecords`.
    var records: [ScanRecord] = []
    /// The included records, encoded for the output format, one after the other.
    var bytes: [UInt8] = []

    func reset() {
        entries.removeAll(keepingCapacity: true)
        outcomes.removeAll(keepingCapacity: true)
        records.removeAll(keepingCapacity: true)
        bytes.removeAll(keepingCapacity: true)
    }
}

/// One thread's means of scanning: a sniffer (with its reused buffer), the annotators' worker
/// halves and a record encoder. Used on one thread at a time.
final class ScanWorker: @unchecked Sendable {
    private let settings: ScanSettings
    private let sniffer = FileSniffer()
    private let annotators: [any RecordAnnotatorWorker]
    private let encoder: RecordEncoder

    init(settings: ScanSettings, annotators: [any RecordAnnotatorWorker]) {
        self.settings = settings
        self.annotators = annotators
        encoder = RecordEncoder(format: settings.format, extraFieldNames: settings.extraFieldNames)
    }

    /// Detects, filters and encodes every entry of `batch`.
    func process(_ batch: ScanBatch) {
        // Work on locals (moved out of the batch and back): no exclusivity checks per record.
        var bytes: [UInt8] = [], outcomes: [ScanOutcome] = [], records: [ScanRecord] = []
        swap(&bytes, &batch.bytes)
        swap(&outcomes, &batch.outcomes)
        swap(&records, &batch.records)
        let keepsRecords = settings.keepsRecords
        let format = settings.format
        outcomes.reserveCapacity(batch.entries.count)
        if keepsRecords { records.reserveCapacity(batch.entries.count) }
        batch.entries.withUnsafeBufferPointer { entries in
            for entry in entries {
                let r = settings.record(for: entry, sniffer: sniffer, annotators: annotators)
                var o = ScanOutcome()
                if entry.origin == .operand, let error = entry.error, error.isNotFound {
                    o.missingOperand = true
                    o.message = "imgsniff: \(r.displayPath): \(error)"
                } else {
                    o.failure = r.isFailure
                    if let error = r.error, r.isFailure, format != .table || !r.isIncluded {
                        o.message = "imgsniff: \(r.displayPath): \(error)"
                    }
                    o.included = r.isIncluded
                    if r.isIncluded { encoder.encode(r, into: &bytes) }
                }
                o.end = bytes.count
                outcomes.append(o)
                if keepsRecords { records.append(r) }
            }
        }
        swap(&bytes, &batch.bytes)
        swap(&outcomes, &batch.outcomes)
        swap(&records, &batch.records)
    }
}

/// Scans the walk in batches of consecutive entries on `jobs` threads (the calling thread is one
/// of them), handing the results back in walk order through a bounded reorder window (memory
/// does not grow with the number of files). One lock round trip and at most one wake-up per
/// batch, not per file.
///
/// A walk that fits in one batch, and `--jobs 1`, run inline on the calling thread: no threads.
final class ScanPool: @unchecked Sendable {
    /// Entries per batch.
    static let batchSize = 128

    private let jobs: Int
    /// Batches in flight (handed out and not yet consumed), at most.
    private let window: Int
    private let settings: ScanSettings
    private let annotators: [any RecordAnnotator]

    private var mutex = pthread_mutex_t()
    private var jobReady = pthread_cond_t()
    private var resultReady = pthread_cond_t()
    // Guarded by `mutex`:
    private var queue: [ScanBatch] = []
    private var queueHead = 0
    private var finished: [ScanBatch?]
    private var nextEmit = 0
    private var closed = false
    private var mainWaiting = false

    init(jobs: Int, settings: ScanSettings, annotators: [any RecordAnnotator]) {
        self.jobs = max(1, jobs)
        window = max(4, self.jobs * 4)
        self.settings = settings
        self.annotators = annotators
        finished = Array(repeating: nil, count: window)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&jobReady, nil)
        pthread_cond_init(&resultReady, nil)
    }

    deinit {
        pthread_mutex_destroy(&mutex)
        pthread_cond_destroy(&jobReady)
        pthread_cond_destroy(&resultReady)
    }

    private func makeWorker() -> ScanWorker {
        ScanWorker(settings: settings, annotators: annotators.map { $0.makeWorker() })
    }

    /// Runs the walk to the end, calling `consume` on this thread for every batch, in walk order.
    /// The batch is reused afterwards: `consume` must not keep it.
    func run(_ walker: Walker, consume: (ScanBatch) -> Void) {
        var lookahead: WalkEntry? = walker.next()
        var spare: [ScanBatch] = []
        /// The next batch of entries from the walk, or nil at its end.
        func fill() -> ScanBatch? {
            guard let first = lookahead else { return nil }
            let batch = spare.popLast() ?? ScanBatch()
            batch.entries.reserveCapacity(ScanPool.batchSize)
            batch.entries.append(first)
            lookahead = nil
            while batch.entries.count < ScanPool.batchSize, let entry = walker.next() { batch.entries.append(entry) }
            if batch.entries.count == ScanPool.batchSize { lookahead = walker.next() }
            return batch
        }

        guard let first = fill() else { return }
        if jobs == 1 || lookahead == nil {
            // Inline: one batch at a time on this thread.
            let worker = makeWorker()
            var batch: ScanBatch? = first
            while let b = batch {
                worker.process(b)
                consume(b)
                b.reset()
                spare.append(b)
                batch = fill()
            }
            return
        }

        // `jobs - 1` worker threads; this thread walks, writes, and scans batches too whenever
        // the workers have enough queued (so `jobs` threads scan, none sits idle).
        let threads = jobs - 1
        let done = DispatchGroupLite(count: threads)
        for _ in 0..<threads {
            let worker = makeWorker()
            let thread = Thread { [self] in
                self.work(worker)
                done.leave()
            }
            thread.stackSize = 1 << 20
            thread.start()
        }
        let mine = makeWorker()
        var issued = 0
        var ready: [ScanBatch] = []
        func deliver() {
            for b in ready {
                consume(b)
                b.reset()
                spare.append(b)
            }
            ready.removeAll(keepingCapacity: true)
        }
        /// Scans the oldest queued batch on this thread (mutex held on entry and exit; released
        /// meanwhile, when what is ready is written first). False when nothing is queued.
        func helpOne() -> Bool {
            guard queueHead < queue.count else { return false }
            let batch = queue[queueHead]
            dequeued()
            pthread_mutex_unlock(&mutex)
            deliver()
            mine.process(batch)
            pthread_mutex_lock(&mutex)
            finished[batch.sequence % window] = batch
            return true
        }
        var next: ScanBatch? = first
        while let batch = next {
            batch.sequence = issued
            pthread_mutex_lock(&mutex)
            // Room in the window for one more batch: help with, or wait for, those in flight.
            while true {
                takeReady(into: &ready)
                if issued - nextEmit < window { break }
                if !helpOne() {
                    mainWaiting = true
                    pthread_cond_wait(&resultReady, &mutex)
                    mainWaiting = false
                }
            }
            queue.append(batch)
            issued += 1
            pthread_cond_signal(&jobReady)
            if queue.count - queueHead > threads, helpOne() { takeReady(into: &ready) }
            pthread_mutex_unlock(&mutex)
            deliver()
            next = fill()
        }
        pthread_mutex_lock(&mutex)
        closed = true
        pthread_cond_broadcast(&jobReady)
        while nextEmit < issued {
            takeReady(into: &ready)
            if !ready.isEmpty {
                pthread_mutex_unlock(&mutex)
                deliver()
                pthread_mutex_lock(&mutex)
                continue
            }
            if !helpOne() {
                mainWaiting = true
                pthread_cond_wait(&resultReady, &mutex)
                mainWaiting = false
            }
        }
        pthread_mutex_unlock(&mutex)
        done.wait()
    }

    /// Drops the batch at the head of the queue (mutex held).
    private func dequeued() {
        queueHead += 1
        if queueHead == queue.count {
            queue.removeAll(keepingCapacity: true)
            queueHead = 0
        }
    }

    /// Moves the finished batches that are next in order out of the window (mutex held).
    private func takeReady(into ready: inout [ScanBatch]) {
        while let b = finished[nextEmit % window] {
            ready.append(b)
            finished[nextEmit % window] = nil
            nextEmit += 1
        }
    }

    private func work(_ worker: ScanWorker) {
        while true {
            pthread_mutex_lock(&mutex)
            while queueHead == queue.count && !closed { pthread_cond_wait(&jobReady, &mutex) }
            if queueHead == queue.count {
                pthread_mutex_unlock(&mutex)
                return
            }
            let batch = queue[queueHead]
            dequeued()
            pthread_mutex_unlock(&mutex)

            worker.process(batch)

            pthread_mutex_lock(&mutex)
            finished[batch.sequence % window] = batch
            if batch.sequence == nextEmit && mainWaiting { pthread_cond_signal(&resultReady) }
            pthread_mutex_unlock(&mutex)
        }
    }
}

/// Waits for `count` threads to call `leave()`.
private final class DispatchGroupLite: @unchecked Sendable {
    private var mutex = pthread_mutex_t()
    private var cond = pthread_cond_t()
    private var remaining: Int

    init(count: Int) {
        remaining = count
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&cond, nil)
    }

    func leave() {
        pthread_mutex_lock(&mutex)
        remaining -= 1
        pthread_cond_broadcast(&cond)
        pthread_mutex_unlock(&mutex)
    }

    func wait() {
        pthread_mutex_lock(&mutex)
        while remaining > 0 { pthread_cond_wait(&cond, &mutex) }
        pthread_mutex_unlock(&mutex)
    }
}

/// One-line messages on standard error.
enum FileHandleLite {
    static func stderr(_ line: String) {
        var bytes = Array((line + "\n").utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { break }
            done += n
        }
    }
}

/// "imgsniff: 12345 files..." on standard error, only when it is a terminal, after half a second,
/// at most ten times a second.
final class Progress {
    private let enabled: Bool
    private let start: Double
    private var last = 0.0
    private var shown = false

    init(enabled: Bool) {
        self.enabled = enabled
        start = Progress.now()
    }

    static func now() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    func update(_ count: Int) {
        guard enabled, count & 63 == 0 else { return }
        let t = Progress.now()
        guard t - start > 0.5, t - last > 0.1 else { return }
        last = t
        let rate = Int(Double(count) / (t - start))
        writeRaw("\r\u{1B}[Kimgsniff: \(count) files scanned (\(rate)/s)")
        shown = true
    }

    func clear() {
        guard shown else { return }
        writeRaw("\r\u{1B}[K")
        shown = false
    }

    private func writeRaw(_ s: String) {
        var bytes = Array(s.utf8)
        _ = bytes.withUnsafeMutableBytes { write(2, $0.baseAddress!, $0.count) }
    }
}
