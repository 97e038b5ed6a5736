import ArgumentParser
import ImageSniff
import IMGSniffKit

struct Scan: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Detect the format of files, directories (recursively) and standard input.",
        discussion: """
        Output: an aligned table when standard output is a terminal, NDJSON (one JSON object per \
        line) otherwise; --format chooses. Records come in walk order: operands in the order \
        given, directory contents sorted bytewise, depth first.

        Record fields (NDJSON, JSON; schema version 2): schemaVersion, path, pathBytes (base64, \
        only for names that are not UTF-8), uti, description, mime, preferredExtension, \
        extension (the same, kept for schema 1 readers), isImage, confidence (conclusive, likely, \
        family, hinted, unknown), animated, completeness (complete, truncated: without \
        --verify, "complete" means the header is; with it, that the file ends where its \
        structure says), \
        extensionMatches (true, false, or null when the file has no known extension), error \
        (null, or {code, message}); properties with --properties (null for anything but an \
        image; width, height, bitDepth, colorModel, hasAlpha, frameCount, orientation, \
        hasGainMap, hasICCProfile, each null when the header does not state it); libmagic with \
        --cross-check. CSV has the same columns.

        File names that are not valid UTF-8 are printed losslessly: each byte that is not part \
        of valid UTF-8 is written %XX and each '%' as %25; --print0 writes the raw bytes.

        Traversal: hidden names inside directories are skipped unless --hidden; symbolic links \
        inside directories are skipped unless -L; paths given explicitly are always taken. FIFOs, \
        sockets and devices are never opened: their record says what they are (inside a \
        directory they are listed as not read; named explicitly, they are an error). Pseudo-file \
        systems (/proc, /sys) are not entered unless --pseudo-filesystems.

        Exit status (as grep's): 0 when something was listed; 1 when nothing was; 2 when an \
        error occurred (a file or directory could not be read, an operand does not exist, output \
        failed), unless --quiet found a match; 64 for usage errors; 130 when interrupted (143 \
        by SIGTERM: 128 + the signal).

        Examples:
          imgsniff scan ~/Pictures
          imgsniff scan --format csv photos > types.csv
          imgsniff scan --mismatches downloads
          imgsniff scan --type public.camera-raw-image card/
          imgsniff scan --only-images --print0 dir | xargs -0 ls -l
          find . -name '*.dat' -print0 | imgsniff scan --files-from - -0
          curl -s https://example.com/x | imgsniff scan -
          imgsniff scan --summary --format json dir
          imgsniff scan --cross-check dir
          imgsniff scan --properties photos
          imgsniff scan --min-pixels 100M --format csv uploads    # decompression bombs
        """,
        helpNames: [.long]
    )

    @Argument(help: ArgumentHelp("Files and directories to scan ('-' for standard input). Default: '.' unless --files-from is given.",
                                 valueName: "path"),
              completion: .file())
    var paths: [String] = []

    @OptionGroup(title: "Traversal") var traversal: Traversal

    @Option(help: "Output format: table, ndjson, json or csv. Default: table on a terminal, ndjson otherwise.")
    var format: ScanFormat?

    @Flag(help: "Write only the raw paths of the listed files that were read (no FIFOs, devices or failures), each followed by a NUL byte (for xargs -0).")
    var print0 = false

    @Flag(help: "Write only the counts per type (a JSON object with --format json or ndjson, CSV with --format csv).")
    var summary = false

    @Flag(name: [.customShort("q"), .customLong("quiet")], help: "Write nothing; the exit status says whether anything matched (stops at the first match).")
    var quiet = false

    @Flag(help: "Only list files whose content is an image (conforms to public.image).")
    var onlyImages = false

    @Option(name: .customLong("type"), help: ArgumentHelp(
        "Only list files whose content conforms to TYPE: an identifier (public.camera-raw-image lists every RAW), an extension, a MIME type, or 'unknown' for files nothing recognised. Repeatable.",
        valueName: "type"), completion: .list(["unknown"] + ImageType.allCases.map(\.identifier)))
    var types: [String] = []

    @Flag(help: "Only list files whose extension names a known type other than the content's (a supertype or family member counts as a match).")
    var mismatches = false

    @Flag(help: "Use each file's extension as the detection hint: it settles what the bytes cannot (TGA, a vendor's TIFF RAW), never overrides them.")
    var hintFromExtension = false

    @Option(help: ArgumentHelp(
        "What the files are believed to be (an identifier, extension or MIME type, e.g. the Content-Type a download came with): settles what the bytes cannot, never overrides them. For standard input and every file; with --hint-from-extension a file's own known extension comes first.",
        valueName: "type"), completion: .list(ImageType.allCases.map(\.identifier)))
    var hint: String?

    @Flag(help: "Read each image's header for its properties: width, height, bit depth, colour model, alpha, frames, EXIF orientation, gain map, ICC profile (records gain \"properties\"; the table a SIZE column). Reads what the header needs wherever it lies, within a budget of 64 reads and 1 MiB per file; a frame count that needs a walk (GIF, animated WebP) covers at most 64 MiB.")
    var properties = false

    @Flag(help: "Check that each file is whole: its completeness says whether it ends where its structure says (JPEG: EOI after the scans; PNG: IEND; GIF: the trailer; WebP, HEIF/AVIF, TIFF strips and tiles: within the file). Costs a read at the end of each file, and for a GIF (or a JPEG without EOI at its end) a walk over all of it; lifts the 64 MiB limit on frame walks. Without it, \"complete\" means the header is complete.")
    var verify = false

    @Option(name: .customLong("min-pixels"), help: ArgumentHelp(
        "Only list images whose header states at least N pixels (width × height): 50000000, 100M, 2G. Finds decompression bombs; an image whose size is not stated is not listed.",
        valueName: "n"))
    var minPixels: String?

    /// `--min-pixels`, parsed: a count with an optional k, M or G (thousands, millions, billions).
    var minPixelCount: Int? {
        guard let minPixels else { return nil }
        var digits = Substring(minPixels)
        var scale = 1
        switch digits.last {
        case "k", "K": scale = 1_000
        case "m", "M": scale = 1_000_000
        case "g", "G": scale = 1_000_000_000
        default: break
        }
        if scale > 1 { digits = digits.dropLast() }
        guard let n = Int(digits), n >= 0 else { return nil }
        let (total, overflow) = n.multipliedReportingOverflow(by: scale)
        return overflow ? nil : total
    }

    @Flag(help: "Also ask libmagic (the engine of file(1)) and compare: records gain \"libmagic\": {mime, description, uti, verdict}; the table's summary counts verdicts. About 50 times slower.")
    var crossCheck = false

    @Option(name: [.customShort("j", allowingJoined: true), .long], help: "Worker threads (default: the number of processors).")
    var jobs: Int?

    @Option(help: "Colour the table: auto (on a terminal, unless NO_COLOR is set or TERM=dumb; CLICOLOR_FORCE forces it), always or never.")
    var color: ColorChoice = .auto

    @Flag(name: .customLong("no-summary"), help: "Leave out the table's closing summary.")
    var noSummary = false

    func validate() throws {
        if let jobs, jobs < 1 || jobs > 1024 { throw ValidationError("--jobs must be between 1 and 1024.") }
        for t in types where t != "unknown" && ImageType.types(hint: t).isEmpty {
            throw ValidationError("--type \(t): not a known identifier, extension or MIME type (see `imgsniff types`).")
        }
        let dashes = paths.filter { $0 == "-" }.count
        if dashes > 1 { throw ValidationError("'-' (standard input) can be given only once.") }
        if dashes == 1 && traversal.filesFrom == "-" { throw ValidationError("'-' and --files-from - cannot both read standard input.") }
        if [print0, summary, quiet].filter({ $0 }).count > 1 { throw ValidationError("--print0, --summary and --quiet exclude each other.") }
        if let hint, ImageType.types(hint: hint).isEmpty {
            throw ValidationError("--hint \(hint): not a known identifier, extension or MIME type (see `imgsniff types`).")
        }
        if minPixels != nil && minPixelCount == nil {
            throw ValidationError("--min-pixels \(minPixels!): not a pixel count (a number, optionally with k, M or G: 100M).")
        }
    }

    /// What this invocation asks for, as a plain value (also what the fast path builds).
    var request: ScanRequest {
        var r = ScanRequest()
        r.paths = paths
        r.filesFrom = traversal.filesFrom
        r.null = traversal.null
        r.walk = traversal.walkOptions
        r.format = format
        r.print0 = print0
        r.summary = summary
        r.quiet = quiet
        r.onlyImages = onlyImages
        r.types = types
        r.mismatches = mismatches
        r.hintFromExtension = hintFromExtension
        r.hint = hint
        r.properties = properties
        r.verify = verify
        r.minPixels = minPixelCount
        r.crossCheck = crossCheck
        r.jobs = jobs
        r.color = color
        r.noSummary = noSummary
        return r
    }

    func run() throws {
        let status = request.run()
        if status != 0 { throw ExitCode(status) }
    }
}
