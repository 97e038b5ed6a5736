// What `imgsniff scan` says about one file, and the hook for adding fields to it.

import ImageSniff

/// A value an annotator adds to a record (JSON/CSV scalar).
enum AnnotationValue: Sendable, Hashable {
    case string(String)
    case bool(Bool)
    case int(Int)
    case null
    /// A JSON object, members in order (e.g. `scan --cross-check`'s "libmagic"); CSV writes its
    /// JSON text in one cell.
    case object([AnnotationMember])
}

/// One member of an `AnnotationValue.object`.
struct AnnotationMember: Sendable, Hashable {
    let name: String
    let value: AnnotationValue
}

/// The result of scanning one walk entry.
///
/// Building one costs next to nothing (the path is shared with the entry, not copied): the text
/// forms of the path and its extension are computed only when asked for (the table, messages,
/// `--hint-from-extension`, the mismatch check), never for NDJSON/JSON/CSV output, which encodes
/// the raw path bytes directly (`RecordEncoder`).
struct ScanRecord: Sendable {
    /// Raw path bytes (no NUL).
    var path: [UInt8]
    /// Lossless text form of the path (`PathText.display`).
    var displayPath: String { PathText.display(path) }
    /// Whether `path` is valid UTF-8 (when not, JSON and CSV also carry `pathBytes`).
    var pathIsUTF8: Bool { PathText.isValidUTF8(path) }
    /// The file's own filename extension, if any.
    var fileExtension: String? { WalkEntry.filenameExtension(of: path) }
    /// What detection said; nil when the file could not be read (then `error` is set).
    var detection: Detection?
    /// Why the file could not be read.
    var error: String?
    /// Whether this record makes the exit status 1 (unreadable file, vanished file, unreadable
    /// directory, loop, an explicitly named FIFO/socket/device). FIFOs, sockets and devices met
    /// inside directories carry an `error` but do not count.
    var isFailure = false
    /// The extension names a known type that the content is not (see `MismatchRule`). Worked out
    /// only when something reads it (`ScanSettings.checksMismatch`: `--mismatches`, the table,
    /// annotators); false otherwise.
    var isMismatch = false
    /// Passes the filters (`--only-images`, `--type`, `--mismatches`).
    var isIncluded = true
    /// Values from the annotators, in the order of their `fieldNames` (JSON keys, CSV columns).
    var extraFields: [AnnotationValue] = []
    /// Table cells from the annotators, in the order of their `columnTitles`.
    var extraCells: [String] = []

    init(entry: WalkEntry) {
        path = entry.path
    }
}

/// Adds fields to every record of a scan (e.g. `scan --cross-check`, libmagic's opinion).
///
/// Plug one in by appending it to `Scan.annotators()` (one `if flag { list.append(...) }`).
/// The scan calls, in this order:
/// 1. `fieldNames` / `columnTitles` once, before any output (CSV header, table header);
/// 2. `makeWorker()` once per worker thread, on the main thread; each worker object is then used
///    on its one thread only (so it may hold non-thread-safe state such as a `magic_t`);
/// 3. `RecordAnnotatorWorker.annotate(_:entry:)` for every record, on a worker thread, after
///    detection and before filtering: append exactly `fieldNames.count` values to
///    `record.extraFields` and `columnTitles.count` strings to `record.extraCells`;
/// 4. `didEmit(_:)` for every record written, in output order, on the main thread (count here);
/// 5. `summaryLines()` once at the end: lines appended to the table's summary.
protocol RecordAnnotator: AnyObject {
    /// JSON keys (NDJSON/JSON) and CSV column names, e.g. `["magicMime", "magicAgrees"]`.
    var fieldNames: [String] { get }
    /// Table column titles, e.g. `["LIBMAGIC"]`.
    var columnTitles: [String] { get }
    func makeWorker() -> any RecordAnnotatorWorker
    func didEmit(_ record: ScanRecord)
    func summaryLines() -> [String]
}

/// The per-thread half of a `RecordAnnotator`.
protocol RecordAnnotatorWorker: AnyObject {
    /// Opens the file itself if it needs to: `entry.withLocation { dirfd, name in openat(...) }`
    /// with `O_NOFOLLOW` when `!entry.followSymlinks`; only when `entry.kind == .regular` and
    /// `record.error == nil` (never open anything else). For other records, append nulls/"".
    func annotate(_ record: inout ScanRecord, entry: WalkEntry)
}

/// When a file's extension and its content disagree.
enum MismatchRule {
    /// True when `fileExtension` names known types and none of them is the content's type, one of
    /// its supertypes, or its detection family (`.jpg` on MPO, `.tif` on NEF, `.nef` on a TIFF
    /// family answer are matches). No extension, an extension the catalog does not know, and
    /// unknown content (`public.data`) are never mismatches.
    static func isMismatch(fileExtension: String?, detection: Detection) -> Bool {
        guard let ext = fileExtension, !detection.isUnknown else { return false }
        let named = ImageType.types(filenameExtension: ext)
        guard !named.isEmpty else { return false }
        let content = detection.type
        for type in named {
            if content.conforms(to: type) { return false }
            // The content's family chain (NEF -> TIFF).
            if content.detectionFamilyChain.contains(where: { $0.conforms(to: type) }) { return false }
            // A family answer (or a hinted one) may be any member: `.nef` on a TIFF-family answer.
            if detection.confidence == .family || detection.confidence == .hinted,
               type != content, type.belongs(toFamily: content) { return false }
        }
        return true
    }
}
