import ImageSniffScan
/// The output modes of `imgsniff scan`, each a view of the one ordered stream of records the run
/// produces: records encoded on the workers (NDJSON, JSON, CSV), the table, raw paths
/// (`--print0`), counts only (`--summary`), or nothing (`--quiet`).
protocol ScanWriter {
    /// The format the workers encode included records in, or nil when this writer takes records.
    var encoding: ScanFormat? { get }
    /// Whether a failed record's problem is shown in the output (then it is not repeated on
    /// standard error).
    var showsErrors: Bool { get }
    /// Whether the writer uses the per-type counts of `ScanSummary`.
    var needsSummary: Bool { get }
    /// Whether the output is the included records' encodings one after the other, nothing
    /// between them (NDJSON, CSV): `write` is then not called; the run writes each batch's bytes.
    var writesBatches: Bool { get }
    mutating func begin(_ output: OutputStream)
    /// One included record, with its encoding when `encoding` is set. False stops the scan.
    mutating func write(_ record: ScanRecord, encoded: UnsafeBufferPointer<UInt8>, to output: OutputStream) -> Bool
    mutating func end(_ summary: ScanSummary, filtered: Bool, to output: OutputStream)
}

extension ScanWriter {
    var writesBatches: Bool { false }
}

enum ScanOutput {
    static func writer(for options: ScanOptions) -> any ScanWriter {
        if options.quiet { return QuietWriter() }
        if options.summaryOnly { return SummaryWriter(format: options.format) }
        if options.print0 { return Print0Writer() }
        if options.format == .table {
            return TableWriter(table: ScanTable(crossCheck: options.settings.crossCheck, properties: options.settings.properties),
                               width: options.width, palette: options.palette, summary: options.tableSummary)
        }
        return EncodedWriter(format: options.format, settings: options.settings)
    }
}

/// NDJSON, JSON and CSV: the records' bytes as the workers encoded them.
struct EncodedWriter: ScanWriter {
    let format: ScanFormat
    let settings: ScanSettings
    private var written = 0

    init(format: ScanFormat, settings: ScanSettings) {
        self.format = format
        self.settings = settings
    }

    var encoding: ScanFormat? { format }
    var showsErrors: Bool { true }
    var needsSummary: Bool { false }
    var writesBatches: Bool { format != .json }

    func begin(_ output: OutputStream) {
        switch format {
        case .json: output.write("[")
        case .csv: output.write(CSV.row(RecordEncoder.csvHeader(crossCheck: settings.crossCheck, properties: settings.properties)))
        default: break
        }
    }

    mutating func write(_ record: ScanRecord, encoded: UnsafeBufferPointer<UInt8>, to output: OutputStream) -> Bool {
        if format == .json { output.write(written == 0 ? "\n" : ",\n") }
        output.write(encoded)
        written += 1
        return true
    }

    func end(_ summary: ScanSummary, filtered: Bool, to output: OutputStream) {
        if format == .json { output.write(written == 0 ? "]\n" : "\n]\n") }
    }
}

/// The aligned table, written at the end (its columns fit the longest cell), then the summary.
struct TableWriter: ScanWriter {
    var table: ScanTable
    let width: Int?
    let palette: Palette
    let summary: Bool

    var encoding: ScanFormat? { nil }
    var showsErrors: Bool { true }
    var needsSummary: Bool { summary }

    func begin(_ output: OutputStream) {}

    mutating func write(_ record: ScanRecord, encoded: UnsafeBufferPointer<UInt8>, to output: OutputStream) -> Bool {
        table.add(record)
        return true
    }

    func end(_ summary: ScanSummary, filtered: Bool, to output: OutputStream) {
        output.write(table.render(width: width, palette: palette))
        if self.summary { output.write("\n" + summary.lines(filtered: filtered).joined(separator: "\n") + "\n") }
    }
}

/// `--print0`: the raw path of each listed file that was read, NUL-terminated.
struct Print0Writer: ScanWriter {
    var encoding: ScanFormat? { nil }
    var showsErrors: Bool { false }
    var needsSummary: Bool { false }

    func begin(_ output: OutputStream) {}

    func write(_ record: ScanRecord, encoded: UnsafeBufferPointer<UInt8>, to output: OutputStream) -> Bool {
        // Files that were read: not a FIFO, a device or a file that failed.
        guard record.detection != nil else { return true }
        output.write(record.path)
        output.write([0])
        return true
    }

    func end(_ summary: ScanSummary, filtered: Bool, to output: OutputStream) {}
}

/// `--summary`: the counts per type, in the chosen format.
struct SummaryWriter: ScanWriter {
    let format: ScanFormat

    var encoding: ScanFormat? { nil }
    var showsErrors: Bool { false }
    var needsSummary: Bool { true }

    func begin(_ output: OutputStream) {}

    func write(_ record: ScanRecord, encoded: UnsafeBufferPointer<UInt8>, to output: OutputStream) -> Bool { true }

    func end(_ summary: ScanSummary, filtered: Bool, to output: OutputStream) {
        switch format {
        case .json, .ndjson: output.write(summary.json())
        case .csv: output.write(summary.csv())
        case .table: output.write(summary.lines(filtered: filtered).joined(separator: "\n") + "\n")
        }
    }
}

/// `--quiet`: nothing; the first listed record ends the scan.
struct QuietWriter: ScanWriter {
    var encoding: ScanFormat? { nil }
    var showsErrors: Bool { false }
    var needsSummary: Bool { false }

    func begin(_ output: OutputStream) {}
    func write(_ record: ScanRecord, encoded: UnsafeBufferPointer<UInt8>, to output: OutputStream) -> Bool { false }
    func end(_ summary: ScanSummary, filtered: Bool, to output: OutputStream) {}
}
