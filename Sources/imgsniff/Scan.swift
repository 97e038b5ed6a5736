import ImageSniff
import IMGSniffKit
import ImageSniffScan

enum Scan {
    static let spec = CommandSpec(
        name: "scan",
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
        extensionMatches (true, false (also for .jpg, .png, .gif... on content nothing names), or null \
        when the file has no known extension or is empty, or its content is unknown and may \
        still be what the name says), error \
        (null, or {code, message}); properties with --properties (null for anything but an \
        image; width, height (as displayed: after a HEIF's clap and irot, an OpenEXR's display \
        window), bitDepth, colorModel, hasAlpha, frameCount, orientation, hasGainMap, \
        hasICCProfile, codedWidth, codedHeight (the coded size where it differs), each null when \
        the header does not state it: vector formats such as SVG, EPS, WMF and EMF have no pixel \
        size); libmagic with \
        --cross-check. CSV has the same columns.

        File names that are not valid UTF-8 are printed losslessly: in such a name each byte \
        that is not part of valid UTF-8 is written %XX and each '%' as %25, and NDJSON, JSON and \
        CSV add the raw bytes in base64 as pathBytes; a valid name is printed as it is. \
        --print0 writes the raw bytes.

        Traversal: hidden names inside directories are skipped unless --hidden; symbolic links \
        inside directories are skipped unless -L; paths given explicitly are always taken. FIFOs, \
        sockets and devices are never opened: their record says what they are (inside a \
        directory they are listed as not read; named explicitly, they are an error). Pseudo-file \
        systems (/proc, /sys) are not entered unless --pseudo-filesystems.

        Exit status (as grep's): 0 when something was listed; 1 when nothing was; 2 when an \
        error occurred (a file or directory could not be read, an operand does not exist, output \
        failed), unless --quiet found a match; 64 for usage errors; 130 when interrupted (143 \
        by SIGTERM: 128 + the signal); 141 when the reader of the output went away (imgsniff \
        scan | head -1), quietly, as other writers to a closed pipe.

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
          imgsniff scan --min-pixels 100M --properties --format csv uploads
        """,
        argument: ArgumentSpec(name: "path", help: "Files and directories to scan ('-' for standard input). Default: '.' unless --files-from is given.",
                               completion: .file),
        options: Traversal.options + [
            OptionSpec(long: "format", kind: .value, valueName: "format",
                       help: "Output format: table, ndjson, json or csv. Default: table on a terminal, ndjson otherwise.",
                       choices: ScanFormat.allCases.map(\.rawValue)),
            OptionSpec(long: "print0", help: "Write only the raw paths of the listed files that were read (no FIFOs, devices or failures), each followed by a NUL byte (for xargs -0)."),
            OptionSpec(long: "summary", help: "Write only the counts per type (a JSON object with --format json or ndjson, CSV with --format csv)."),
            OptionSpec(long: "quiet", short: "q", help: "Write nothing; the exit status says whether anything matched (stops at the first match)."),
            OptionSpec(long: "only-images", help: "Only list files whose content is an image (conforms to public.image)."),
            OptionSpec(long: "type", kind: .repeated, valueName: "type",
                       help: "Only list files whose content conforms to TYPE: an identifier (public.camera-raw-image lists every RAW), an extension, a MIME type, or 'unknown' for files nothing recognised. Repeatable.",
                       completion: .list(["unknown"] + ImageType.allCases.map(\.identifier))),
            OptionSpec(long: "mismatches", help: "Only list files whose extension names a known type other than the content's (a supertype or family member counts as a match), or names an image format whose files always start with a signature the content lacks (noise named .jpg or .png)."),
            OptionSpec(long: "hint-from-extension", help: "Use each file's extension as the detection hint: it settles what the bytes cannot (TGA, a vendor's TIFF RAW), never overrides them."),
            OptionSpec(long: "hint", kind: .value, valueName: "type",
                       help: "What the files are believed to be (an identifier, extension or MIME type, e.g. the Content-Type a download came with): settles what the bytes cannot, never overrides them. For standard input and every file; with --hint-from-extension a file's own known extension comes first.",
                       completion: .list(ImageType.allCases.map(\.identifier))),
            OptionSpec(long: "properties", help: "Read each image's header for its properties: width, height, bit depth, colour model, alpha, frames, EXIF orientation, gain map, ICC profile (records gain \"properties\"; the table a SIZE column). Reads what the header needs wherever it lies, within a budget of 64 reads and 1 MiB per file; a frame count that needs a walk (GIF, animated WebP) covers at most 64 MiB."),
            OptionSpec(long: "verify", help: "Check that each file is whole: its completeness says whether it ends where its structure says (JPEG: EOI after the scans; PNG and JNG: IEND; MNG: MEND; GIF: the trailer; QOI: its end marker; SVG: the root's end tag, SVGZ: whole gzip members (lengths, not CRCs), up to 512 KiB; PDF: %%EOF in its last 1,024 bytes; within the file: the boxes of WebP, HEIF/AVIF (and item data), MP4/QuickTime and Canon CR3 (and a moov), JPEG 2000 (and the codestream's tile-parts) and JPEG XL containers, every IFD of a TIFF or TIFF-based raw and its strips or tiles, the images of ICO/CUR, the sections and merged image of PSD, and what the header sizes in BMP, binary netpbm, farbfeld, ICNS, SGI, Sun raster, XWD, PCX, Radiance HDR, DPX, OpenEXR, BLP, DDS, KTX, ASTC, JPEG XR, CRW, RAF and FITS; other formats are not checked). Costs a read at the end of each file, and for a GIF (or a JPEG without EOI at its end) a walk over all of it; lifts the 64 MiB limit on frame walks. Without it, \"complete\" means the header is complete."),
            OptionSpec(long: "min-pixels", kind: .value, valueName: "n",
                       help: "Only list images whose header states at least N pixels (width × height): 50000000, 100M, 2G. Finds decompression bombs; an image whose size is not stated is not listed."),
            OptionSpec(long: "cross-check", help: "Also ask libmagic (the engine of file(1)) and compare: records gain \"libmagic\": {mime, description, uti, verdict}; the table's summary counts verdicts. About 50 times slower."),
            OptionSpec(long: "jobs", short: "j", kind: .value, valueName: "n", help: "Worker threads (default: one a core; while reads wait on the disk, 256 files in flight through io_uring, or up to 64 threads where io_uring is refused or IMGSNIFF_IO_URING=0)."),
            OptionSpec(long: "color", kind: .value, valueName: "when",
                       help: "Colour the table: auto (on a terminal, unless NO_COLOR is set or TERM=dumb; CLICOLOR_FORCE forces it), always or never.",
                       choices: ColorChoice.allCases.map(\.rawValue), defaultValue: "auto"),
            OptionSpec(long: "no-summary", help: "Leave out the table's closing summary."),
        ]
    )

    static let integers: Set<String> = Traversal.integers.union(["jobs"])

    /// `--min-pixels`: a count with an optional k, M or G (thousands, millions, billions).
    static func pixelCount(_ text: String) -> Int? {
        var digits = Substring(text)
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

    /// The request these arguments make, checked.
    static func request(_ p: ParsedArguments) throws(UsageError) -> ScanRequest {
        try Traversal.validate(p)
        var r = ScanRequest()
        r.paths = p.operands
        r.filesFrom = p.value("files-from")
        r.null = p.flag("null")
        r.walk = Traversal.walkOptions(p)
        r.format = p.choice("format")
        r.print0 = p.flag("print0")
        r.summary = p.flag("summary")
        r.quiet = p.flag("quiet")
        r.onlyImages = p.flag("only-images")
        r.types = p.all("type")
        r.mismatches = p.flag("mismatches")
        r.hintFromExtension = p.flag("hint-from-extension")
        r.hint = p.value("hint")
        r.properties = p.flag("properties")
        r.verify = p.flag("verify")
        r.crossCheck = p.flag("cross-check")
        r.jobs = p.int("jobs")
        r.color = p.choice("color") ?? .auto
        r.noSummary = p.flag("no-summary")
        if let jobs = r.jobs, jobs < 1 || jobs > 1024 { throw UsageError(message: "--jobs must be between 1 and 1024.") }
        for t in r.types where t != "unknown" && ImageType.types(hint: t).isEmpty {
            throw UsageError(message: "--type \(t): not a known identifier, extension or MIME type (see `imgsniff types`).")
        }
        let dashes = r.paths.filter { $0 == "-" }.count
        if dashes > 1 { throw UsageError(message: "'-' (standard input) can be given only once.") }
        if dashes == 1 && r.filesFrom == "-" { throw UsageError(message: "'-' and --files-from - cannot both read standard input.") }
        if [r.print0, r.summary, r.quiet].filter({ $0 }).count > 1 { throw UsageError(message: "--print0, --summary and --quiet exclude each other.") }
        if let hint = r.hint, ImageType.types(hint: hint).isEmpty {
            throw UsageError(message: "--hint \(hint): not a known identifier, extension or MIME type (see `imgsniff types`).")
        }
        if let text = p.value("min-pixels") {
            guard let n = pixelCount(text) else {
                throw UsageError(message: "--min-pixels \(text): not a pixel count (a number, optionally with k, M or G: 100M).")
            }
            r.minPixels = n
        }
        return r
    }
}
