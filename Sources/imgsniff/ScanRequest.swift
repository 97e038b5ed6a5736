import ImageSniff
import IMGSniffKit
import ImageSniffScan

/// A `scan` invocation as plain values, as `Scan.request(_:)` makes it from the command line.
struct ScanRequest {
    var paths: [String] = []
    var filesFrom: String?
    var null = false
    var walk = WalkOptions()
    var format: ScanFormat?
    var print0 = false
    var summary = false
    var quiet = false
    var onlyImages = false
    var types: [String] = []
    var mismatches = false
    var hintFromExtension = false
    var hint: String?
    var properties = false
    var verify = false
    var minPixels: Int?
    var crossCheck = false
    var jobs: Int?
    var color: ColorChoice = .auto
    var noSummary = false

    /// Runs the scan; the exit status.
    func run() -> Int32 {
        var options = ScanOptions()
        options.operands = (paths.isEmpty && filesFrom == nil ? ["."] : paths).map(ArgumentBytes.raw)
        options.filesFrom = filesFrom.map(ArgumentBytes.raw)
        options.nulSeparated = null
        options.walk = walk
        options.walk.dashIsStandardInput = true
        options.settings.filter.onlyImages = onlyImages
        options.settings.filter.unknown = types.contains("unknown")
        options.settings.filter.types = types.filter { $0 != "unknown" }.flatMap { ImageType.types(hint: $0).prefix(1) }
        options.settings.filter.mismatches = mismatches
        options.settings.hintFromExtension = hintFromExtension
        options.settings.hint = hint
        options.settings.crossCheck = crossCheck
        options.settings.properties = properties
        options.settings.verify = verify
        options.settings.filter.minPixels = minPixels
        let stdoutIsTerminal = FileDescriptor.standardOutput.isTerminal
        options.format = format ?? (stdoutIsTerminal && !print0 ? .table : .ndjson)
        options.summaryOnly = summary
        options.print0 = print0
        options.quiet = quiet
        options.tableSummary = !noSummary
        options.jobs = jobs ?? Processors.available
        // Without --jobs, the pool grows while reads wait on the device (issue 28).
        if jobs == nil { options.maxJobs = max(options.jobs, ScanPool.ioJobs) }
        options.palette = Palette(enabled: options.format == .table && color.isEnabled())
        options.width = Terminal.width()
        options.progress = FileDescriptor.standardError.isTerminal && !quiet
        if crossCheck, let problem = CrossCheckSetup.check() {
            StandardError.line("imgsniff: --cross-check: \(problem)")
            return ExitStatus.error
        }
        Interrupt.install()
        return ScanRun.run(options)
    }
}
