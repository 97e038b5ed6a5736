import ImageSniff
import ImageSniffScan

/// Everything `imgsniff scan` was asked to do.
package struct ScanOptions: Sendable {
    package var operands: [[UInt8]] = []
    /// `--files-from` (a path, or "-"), and whether it is NUL-separated.
    package var filesFrom: [UInt8]?
    package var nulSeparated = false
    package var walk = WalkOptions()
    package var settings = ScanSettings()
    package var format: ScanFormat = .ndjson
    /// Only the per-type counts (`--summary`).
    package var summaryOnly = false
    /// The raw paths of the listed records, NUL-terminated (`--print0`).
    package var print0 = false
    /// No output: the exit status says whether anything matched (`--quiet`).
    package var quiet = false
    /// The table's closing summary.
    package var tableSummary = true
    package var jobs = 1
    /// When set (the command's default, no `--jobs`), the scan starts `jobs` workers and adds
    /// workers up to this many while reads wait on the device (a tree not in the page cache):
    /// see `PoolGrowth`. Not with `--cross-check` (each worker would load libmagic's database).
    package var maxJobs: Int?
    package var palette = Palette.plain
    /// The terminal's width, for the table.
    package var width: Int?
    package var progress = false

    package init() {}
}

/// Exit statuses, as grep and ripgrep have them.
package enum ExitStatus {
    /// Something was listed (scan), or everything was done (rename).
    package static let success: Int32 = 0
    /// Nothing was listed (scan); some files were not renamed or an undo was refused (rename).
    package static let noMatch: Int32 = 1
    /// An error: a file or directory could not be read, an operand does not exist, output failed.
    package static let error: Int32 = 2
    /// A command line that does not parse (EX_USAGE).
    package static let usage: Int32 = 64
    /// Interrupted by a signal: 128 + its number.
    package static func interrupted(_ signal: Int32) -> Int32 { 128 + signal }
}

/// The scan of one command line: the walk, the pool of workers, and one writer for the output
/// mode (ScanOutput.swift). Every entry the walk yields becomes one `ScanItem` in walk order, and
/// each writer is a view of that one ordered stream.
package enum ScanRun {
    /// Runs the scan, writing to `output`; returns the exit status.
    package static func run(_ options: ScanOptions, output: OutputStream = OutputStream()) -> Int32 {
        var options = options
        let budget: DescriptorBudget, growth: PoolGrowth?
        switch ScanPool.plan(jobs: options.jobs, maxJobs: options.maxJobs, crossCheck: options.settings.crossCheck) {
        case .success(let plan): (budget, growth) = plan
        case .failure(let failure):
            StandardError.line("imgsniff: \(failure)")
            return ExitStatus.error
        }
        options.jobs = budget.jobs
        var walkOptions = options.walk
        walkOptions.directoryBudget = budget.directories
        var source: FilesFromSource?
        if let list = options.filesFrom {
            do throws(Errno) { source = try FilesFromSource(path: list, nulSeparated: options.nulSeparated) } catch {
                StandardError.line(Visible.text("imgsniff: --files-from \(Path.display(list)): \(error)"))
                return ExitStatus.error
            }
        }
        let walker = Walker(operands: options.operands, filesFrom: source, options: walkOptions)

        var settings = options.settings
        if settings.crossCheck && settings.makeCrossChecker == nil { settings.makeCrossChecker = MagicCrossChecker.factory }
        var writer = ScanOutput.writer(for: options)
        settings.encoding = writer.encoding
        settings.recordsShowErrors = writer.showsErrors
        let frozen = settings

        var tally = ScanTally(counts: writer.needsSummary)
        let progress = ProgressLine(enabled: options.progress)
        writer.begin(output)
        let batches = writer.writesBatches
        /// NDJSON and CSV: the included records' bytes lie one after the other in the batch's
        /// bytes, as they are written, so they go out in one write, not record by record (a record
        /// taken out of its item costs a copy of it; a write, a hundred instructions). The lines
        /// for standard error go out as they come, as before: the records wait in the output's
        /// buffer either way.
        func consumeBatch(_ items: UnsafeBufferPointer<ScanItem>, _ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
            for i in items.indices {
                if let message = items[i].message {
                    progress.clear()
                    StandardError.line(message)
                }
                // The record's flags are read in place (`tally.add` would take a copy).
                guard let isFailure = items[i].record?.isFailure, let isIncluded = items[i].record?.isIncluded else { continue }
                tally.add(isFailure: isFailure, isIncluded: isIncluded)
                progress.update(tally.summary.scanned)
            }
            output.write(bytes)
            return output.failure == nil && !Interrupt.requested
        }
        ScanPool.run(walker: walker, jobs: options.jobs, settings: frozen, growth: growth,
            consume: { result in
                // The items through a buffer pointer: read in place, not copied one by one.
                result.bytes.withUnsafeBufferPointer { bytes in result.items.withUnsafeBufferPointer { items in
                    if batches && !tally.counts {
                        return consumeBatch(items, bytes)
                    }
                    for i in items.indices {
                        if let message = items[i].message {
                            progress.clear()
                            StandardError.line(message)
                        }
                        // Taken out once: each `items[i].record!` copied the whole record.
                        guard let record = items[i].record else { continue }
                        tally.add(record)
                        progress.update(tally.summary.scanned)
                        guard record.isIncluded else { continue }
                        let encoded = UnsafeBufferPointer(rebasing: bytes[items[i].encoded])
                        if !writer.write(record, encoded: encoded, to: output) { return false }
                        if output.failure != nil { return false }
                    }
                    return !Interrupt.requested
                } }
            })
        progress.clear()

        if let failure = walker.filesFromFailure {
            StandardError.line(Visible.text("imgsniff: --files-from \(Path.display(options.filesFrom ?? [])): \(failure)"))
            tally.errors = true
        }
        tally.summary.interrupted = Interrupt.requested
        writer.end(tally.summary, filtered: settings.filter.isActive, to: output)
        output.flush()
        if let failure = output.failure {
            let (message, status) = OutputFailure.report(failure)
            if let message { StandardError.line(message) }
            return status
        }
        if Interrupt.requested { return ExitStatus.interrupted(Interrupt.signalNumber) }
        if options.quiet && tally.matched { return ExitStatus.success }
        if tally.errors { return ExitStatus.error }
        return tally.matched ? ExitStatus.success : ExitStatus.noMatch
    }
}

/// What the exit status and the summary need from the records, counted as they go by.
struct ScanTally {
    var summary = ScanSummary()
    var errors = false
    var matched = false
    /// Whether the per-type counts are wanted (the table, `--summary`).
    let counts: Bool

    mutating func add(_ record: ScanRecord) {
        add(isFailure: record.isFailure, isIncluded: record.isIncluded)
        if counts && record.isIncluded { summary.count(record) }
    }

    /// A record the per-type counts do not need (`counts` is false).
    mutating func add(isFailure: Bool, isIncluded: Bool) {
        summary.scanned += 1
        if isFailure { errors = true }
        if isIncluded { matched = true }
    }
}
