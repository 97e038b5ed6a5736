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
          imgsniff scan --hint-from-extension textures/  # settles TGA, WBMP, PICT, RAW families
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

        let settings = ScanSettings(
            filterTypes: types.flatMap { ImageType.types(hint: $0).prefix(1) },
            onlyImages: onlyImages, mismatchesOnly: mismatches, hintFromExtension: hintFromExtension)
        let annotators = try annotators()
        let out = OutputBuffer()
        var stream = StreamWriter(format: format, extraFieldNames: annotators.flatMap(\.fieldNames), out: out)
        var table = TableWriter(color: color, extraTitles: annotators.flatMap(\.columnTitles))
        var summary = ScanSummary()
        let progress = Progress(enabled: stderrIsTTY)
        var scanned = 0
        var failures = false
        var missingOperand = false

        stream.begin()
        let pool = ScanPool(jobs: jobs ?? ProcessInfo.processInfo.activeProcessorCount,
                            settings: settings, annotators: annotators)
        pool.run(walker) { record, entry in
            scanned += 1
            if entry.origin == .operand, let error = entry.error, error.isNotFound {
                progress.clear()
                FileHandleLite.stderr("imgsniff: \(record.displayPath): \(error)")
                missingOperand = true
                return
            }
            if record.isFailure { failures = true }
            if let error = record.error, record.isFailure, format != .table || !record.isIncluded {
                progress.clear()
                FileHandleLite.stderr("imgsniff: \(record.displayPath): \(error)")
            }
            if record.isIncluded {
                summary.count(record)
                for a in annotators { a.didEmit(record) }
                if format == .table { table.add(record) } else { stream.write(record) }
            }
            progress.update(scanned)
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
                        try sniffer.detect(path: name, relativeTo: dir, hint: hint, followSymlinks: entry.followSymlinks)
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
            r.isMismatch = MismatchRule.isMismatch(fileExtension: r.fileExtension, detection: d)
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

/// Worker threads fed from the walk, with results written in walk order through a bounded
/// reorder window (memory does not grow with the number of files).
final class ScanPool: @unchecked Sendable {
    private let jobs: Int
    private let window: Int
    private let settings: ScanSettings
    private let annotators: [any RecordAnnotator]

    private var mutex = pthread_mutex_t()
    private var jobReady = pthread_cond_t()
    private var resultReady = pthread_cond_t()
    private var queue: [(Int, WalkEntry)] = []
    private var queueHead = 0
    private var results: [(ScanRecord, WalkEntry)?]
    private var nextEmit = 0
    private var closed = false

    init(jobs: Int, settings: ScanSettings, annotators: [any RecordAnnotator]) {
        self.jobs = max(1, jobs)
        window = max(64, self.jobs * 32)
        self.settings = settings
        self.annotators = annotators
        results = Array(repeating: nil, count: window)
        pthread_mutex_init(&mutex, nil)
        pthread_cond_init(&jobReady, nil)
        pthread_cond_init(&resultReady, nil)
    }

    deinit {
        pthread_mutex_destroy(&mutex)
        pthread_cond_destroy(&jobReady)
        pthread_cond_destroy(&resultReady)
    }

    /// Runs the walk to the end, calling `emit` on this thread for every entry, in walk order.
    func run(_ walker: Walker, emit: (ScanRecord, WalkEntry) -> Void) {
        var threads: [Thread] = []
        let done = DispatchGroupLite(count: jobs)
        for _ in 0..<jobs {
            let context = WorkerContext(annotators: annotators.map { $0.makeWorker() })
            let thread = Thread { [self] in
                self.work(context)
                done.leave()
            }
            thread.stackSize = 1 << 20
            threads.append(thread)
            thread.start()
        }
        var issued = 0
        var ready: [(ScanRecord, WalkEntry)] = []
        while let entry = walker.next() {
            pthread_mutex_lock(&mutex)
            takeReady(into: &ready)
            while issued - nextEmit >= window {
                pthread_cond_wait(&resultReady, &mutex)
                takeReady(into: &ready)
            }
            queue.append((issued, entry))
            issued += 1
            pthread_cond_signal(&jobReady)
            pthread_mutex_unlock(&mutex)
            for (r, e) in ready { emit(r, e) }
            ready.removeAll(keepingCapacity: true)
        }
        pthread_mutex_lock(&mutex)
        closed = true
        pthread_cond_broadcast(&jobReady)
        while nextEmit < issued {
            takeReady(into: &ready)
            if ready.isEmpty {
                pthread_cond_wait(&resultReady, &mutex)
                continue
            }
            pthread_mutex_unlock(&mutex)
            for (r, e) in ready { emit(r, e) }
            ready.removeAll(keepingCapacity: true)
            pthread_mutex_lock(&mutex)
        }
        pthread_mutex_unlock(&mutex)
        done.wait()
    }

    /// Moves the in-order results out of the window (mutex held).
    private func takeReady(into ready: inout [(ScanRecord, WalkEntry)]) {
        while let r = results[nextEmit % window] {
            ready.append(r)
            results[nextEmit % window] = nil
            nextEmit += 1
        }
    }

    private func work(_ context: WorkerContext) {
        let sniffer = FileSniffer()
        while true {
            pthread_mutex_lock(&mutex)
            while queueHead == queue.count && !closed { pthread_cond_wait(&jobReady, &mutex) }
            if queueHead == queue.count {
                pthread_mutex_unlock(&mutex)
                return
            }
            let (seq, entry) = queue[queueHead]
            queueHead += 1
            if queueHead >= 1024 && queueHead * 2 >= queue.count {
                queue.removeFirst(queueHead)
                queueHead = 0
            }
            pthread_mutex_unlock(&mutex)

            let record = settings.record(for: entry, sniffer: sniffer, annotators: context.annotators)

            pthread_mutex_lock(&mutex)
            results[seq % window] = (record, entry)
            if seq == nextEmit { pthread_cond_signal(&resultReady) }
            pthread_mutex_unlock(&mutex)
        }
    }
}

/// A worker's per-thread annotator halves.
private final class WorkerContext: @unchecked Sendable {
    let annotators: [any RecordAnnotatorWorker]
    init(annotators: [any RecordAnnotatorWorker]) { self.annotators = annotators }
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
