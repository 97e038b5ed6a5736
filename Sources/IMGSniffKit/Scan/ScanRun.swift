import ImageSniff

/// Everything `imgsniff scan` was asked to do.
public struct ScanOptions: Sendable {
    public var operands: [[UInt8]] = []
    /// `--files-from` (a path, or "-"), and whether it is NUL-separated.
    public var filesFrom: [UInt8]?
    public var nulSeparated = false
    public var walk = WalkOptions()
    public var settings = ScanSettings()
    public var format: ScanFormat = .ndjson
    /// Only the per-type counts (`--summary`).
    public var summaryOnly = false
    /// The raw paths of the listed records, NUL-terminated (`--print0`).
    public var print0 = false
    /// No output: the exit status says whether anything matched (`--quiet`).
    public var quiet = false
    /// The table's closing summary.
    public var tableSummary = true
    public var jobs = 1
    public var palette = Palette.plain
    /// The terminal's width, for the table.
    public var width: Int?
    public var progress = false

    public init() {}
}

/// Exit statuses, as grep and ripgrep have them.
public enum ExitStatus {
    /// Something was listed (scan), or everything was done (rename).
    public static let success: Int32 = 0
    /// Nothing was listed (scan); some files were not renamed or an undo was refused (rename).
    public static let noMatch: Int32 = 1
    /// An error: a file or directory could not be read, an operand does not exist, output failed.
    public static let error: Int32 = 2
    /// A command line that does not parse (EX_USAGE).
    public static let usage: Int32 = 64
    /// Interrupted by a signal: 128 + its number.
    public static func interrupted(_ signal: Int32) -> Int32 { 128 + signal }
}

/// The scan of one command line: the walk, the pool of workers, the output.
public enum ScanRun {
    /// Entries per batch handed to a worker.
    public static let batchSize = 128

    /// Runs the scan, writing to `output`; returns the exit status.
    public static func run(_ options: ScanOptions, output: OutputStream = OutputStream()) -> Int32 {
        let openFiles = ResourceLimits.raiseOpenFileLimit()
        var walkOptions = options.walk
        // Directories the walk may hold open: what the limit leaves after each worker's file and
        // libmagic handle, standard streams and a margin.
        walkOptions.directoryBudget = max(16, min(openFiles - 32 - 4 * options.jobs, 1 << 16))
        var source: FilesFromSource?
        if let list = options.filesFrom {
            do throws(Errno) { source = try FilesFromSource(path: list, nulSeparated: options.nulSeparated) } catch {
                StandardError.line("imgsniff: --files-from \(Path.display(list)): \(error)")
                return ExitStatus.error
            }
        }
        let walker = Walker(operands: options.operands, filesFrom: source, options: walkOptions)

        var settings = options.settings
        let needsRecords = options.format == .table || options.summaryOnly || options.print0 || options.quiet
        settings.encoding = needsRecords ? nil : options.format
        settings.recordsShowErrors = options.format == .table && !options.summaryOnly && !options.print0 && !options.quiet
        let frozen = settings

        var summary = ScanSummary()
        var table = ScanTable(crossCheck: settings.crossCheck, properties: settings.properties)
        let progress = ProgressLine(enabled: options.progress)
        var errors = false
        var matched = false
        var written = 0
        let streaming = !needsRecords

        if streaming {
            switch options.format {
            case .json: output.write("[")
            case .csv: output.write(CSV.row(RecordEncoder.csvHeader(crossCheck: settings.crossCheck, properties: settings.properties)))
            default: break
            }
        }

        var walkEnded = false
        OrderedPool.run(
            threads: options.jobs - 1, window: max(2, options.jobs * 4),
            makeWorker: {
                let worker = ScanWorker(settings: frozen)
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
            consume: { result in
                var start = 0
                for (i, outcome) in result.outcomes.enumerated() {
                    defer { start = outcome.end }
                    if let message = outcome.message {
                        progress.clear()
                        StandardError.line(message)
                    }
                    if outcome.missingOperand { errors = true; continue }
                    if outcome.skipped { continue }
                    summary.scanned += 1
                    if outcome.failure { errors = true }
                    progress.update(summary.scanned)
                    guard outcome.included else { continue }
                    matched = true
                    if streaming {
                        if options.format == .json { output.write(written == 0 ? "\n" : ",\n") }
                        result.bytes.withUnsafeBufferPointer { output.write(UnsafeBufferPointer(rebasing: $0[start..<outcome.end])) }
                        written += 1
                    } else {
                        let record = result.records[i]
                        summary.count(record)
                        if options.quiet { return false }
                        if options.print0 {
                            // Files that were read: not a FIFO, a device or a file that failed.
                            guard record.detection != nil else { continue }
                            output.write(record.path)
                            output.write([0])
                        } else if !options.summaryOnly {
                            table.add(record)
                        }
                    }
                    if output.failure != nil { return false }
                }
                return !Interrupt.requested
            })
        progress.clear()

        if let failure = walker.filesFromFailure {
            StandardError.line("imgsniff: --files-from \(Path.display(options.filesFrom ?? [])): \(failure)")
            errors = true
        }
        if streaming && options.format == .json { output.write(written == 0 ? "]\n" : "\n]\n") }
        summary.interrupted = Interrupt.requested
        if options.summaryOnly {
            switch options.format {
            case .json, .ndjson: output.write(summary.json())
            case .csv: output.write(summary.csv())
            case .table: output.write(summary.lines(filtered: settings.filter.isActive).joined(separator: "\n") + "\n")
            }
        } else if options.format == .table && !options.print0 && !options.quiet {
            output.write(table.render(width: options.width, palette: options.palette))
            if options.tableSummary {
                output.write("\n" + summary.lines(filtered: settings.filter.isActive).joined(separator: "\n") + "\n")
            }
        }
        output.flush()
        if let failure = output.failure {
            let (message, status) = OutputFailure.report(failure)
            if let message { StandardError.line(message) }
            return status
        }
        if Interrupt.requested { return ExitStatus.interrupted(Interrupt.signalNumber) }
        if options.quiet && matched { return ExitStatus.success }
        if errors { return ExitStatus.error }
        return matched ? ExitStatus.success : ExitStatus.noMatch
    }
}
