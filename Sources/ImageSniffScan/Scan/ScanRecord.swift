import ImageSniff

/// Why a file has no detection.
public enum ScanProblem: Sendable, Hashable {
    /// Opening or reading it failed.
    case file(FileError)
    /// The walk could not visit it (vanished, unreadable directory, loop, too deep, broken link).
    case walk(WalkError)
    /// A FIFO, socket or device: never opened.
    case notRegular(FileKind)
    /// A directory listed in `--files-from` (not walked).
    case directory
    /// Standard input could not be read.
    case standardInput(Errno)
    /// A problem read back from a record (`ScanRecord`'s `Decodable`): its code and message.
    case recorded(code: String, message: String)

    /// The read was stopped by a signal (SIGINT, SIGTERM): not a fact about the file.
    package var isInterruption: Bool {
        switch self {
        case .file(let e): return e.isCancellation
        case .standardInput(let e): return e == .interrupted
        default: return false
        }
    }

    /// What file(1) would say: "permission denied", "fifo (named pipe)", "directory", ...
    public var message: String {
        switch self {
        case .file(let e): return e.description
        case .walk(let e): return e.description
        case .notRegular(let kind): return kind.name
        case .directory: return "directory"
        case .standardInput(let e): return "cannot read standard input: \(e)"
        case .recorded(_, let message): return message
        }
    }

    /// A stable name for machines: an errno name ("EACCES"), or "notRegular", "directory",
    /// "loop", "replaced", "brokenSymlink".
    public var code: String {
        switch self {
        case .file(let e):
            switch e.kind {
            case .notRegularFile: return "notRegular"
            case .isDirectory: return "directory"
            default: return Errno(e.code == 0 ? EIO : e.code).name
            }
        case .walk(let e): return e.code
        case .notRegular: return "notRegular"
        case .directory: return "directory"
        case .standardInput(let e): return e.name
        case .recorded(let code, _): return code
        }
    }
}

/// A second opinion beside ours (`imgsniff scan --cross-check`: libmagic's), as records show it.
package enum CrossCheckAnnotation: Sendable, Hashable {
    case compared(CrossCheckFields)
    case failed(String)
}

/// What the second opinion said, and how it compares with ours.
package struct CrossCheckFields: Sendable, Hashable {
    package let mimeType: String
    package let description: String
    /// Its answer as a type, when it names one the catalog declares.
    package let uti: String?
    /// How the answers compare (`agree`, `oursMoreSpecific`, ...).
    package let verdict: String

    package init(mimeType: String, description: String, uti: String?, verdict: String) {
        self.mimeType = mimeType
        self.description = description
        self.uti = uti
        self.verdict = verdict
    }
}

/// Gives a second opinion on a file; made on each worker thread (`ScanSettings.makeCrossChecker`).
package protocol CrossChecker: AnyObject {
    func check(_ entry: WalkEntry, ours: ImageType, bytes: [UInt8]?) -> CrossCheckAnnotation
}

/// What `imgsniff scan` says about one file.
public struct ScanRecord: Sendable {
    /// Raw path bytes (no NUL).
    public let path: [UInt8]
    /// What detection said; nil when the file could not be read (`problem` says why).
    public var detection: Detection?
    public var problem: ScanProblem?
    /// The file's length when it was read (0: an empty file).
    public var length: Int?
    /// Whether the file's extension names a type the content is (true), names another known
    /// type or an image format whose signature the content lacks (false), or is absent or
    /// unknown to the catalog, the file empty, or its unknown content possibly what the name
    /// says (nil). See `MismatchRule`.
    public var extensionMatches: Bool?
    /// `scan --cross-check`.
    package var crossCheck: CrossCheckAnnotation?
    /// `scan --properties` (or `--min-pixels`): what the image's header says.
    public var properties: ImageProperties?
    /// Makes the exit status 2 (an unreadable file, a vanished one, an unreadable directory, a
    /// loop, a FIFO or device named explicitly). FIFOs and devices met inside directories, and
    /// directories in a list, carry a `problem` but are not failures.
    public var isFailure = false
    /// Passes the filters (`--only-images`, `--type`, `--mismatches`, `--min-pixels`).
    public var isIncluded = true

    public init(path: [UInt8]) { self.path = path }

    /// The lossless text form of the path.
    public var displayPath: String { Path.display(path) }

    /// The file's own filename extension, if any.
    public var fileExtension: String? { Path.fileExtension(path) }

    /// What the file is, in words: the type's description, "empty" for an empty file, "data" for
    /// unknown content (file(1)'s words), or the problem.
    public var summaryText: String {
        if let detection {
            if detection.isUnknown { return length == 0 ? "empty" : "data" }
            return detection.type.localizedDescription
        }
        return problem?.message ?? "error"
    }
}

/// When a file's extension and its content agree: `Detection.extensionFits(_:)`, the rule
/// `imgsniff rename` keeps names by too.
package enum MismatchRule {
    /// nil when there is nothing to compare (no extension, one neither the catalog nor an alias
    /// knows, unknown content that may still be of the named type, or an empty file: the
    /// summary counts those apart); false when the extension names other types only, or an
    /// image format whose signature the content lacks (`.jpg` on data no rule names); true
    /// when it fits (see `Detection.extensionFits(_:)`).
    package static func extensionMatches(_ fileExtension: String?, detection: Detection, length: Int?) -> Bool? {
        if length == 0 { return nil }
        return fileExtension.flatMap { detection.extensionFits($0) }
    }
}
