import ImageSniff
import ImageSniffScan

// The rename plan's vocabulary: the policy, what happens to each file and why.

/// The choices that shape a rename plan.
package struct RenamePolicy: Sendable {
    /// Replace extensions that name another known type than the content.
    package var fix = false
    /// Rename files whose content is not an image too (text, archives, documents, media).
    package var allTypes = false
    /// The least confidence a detection needs: `conclusive` by default; `family` also takes
    /// family answers (a TIFF whose maker could not be told gets `.tiff`); `likely` also takes
    /// heuristic and hinted answers (TGA by its size, MP3 by its frames).
    package var minimumConfidence: Detection.Confidence = .conclusive
    /// Rename files whose detection says the data ended before its checks were done (a file cut
    /// short, or one that only starts like a format). Off by default.
    package var includeTruncated = false
    /// The case of the extensions written: upper, lower, or (nil) as the extension replaced is
    /// written (`SCAN.JPG` -> `SCAN.PNG`), else lower.
    package var upperCase: Bool?
    package var suffixOnConflict = false

    package init() {}
}

/// Why a file gets a new name.
package enum RenameReason: Sendable, Hashable {
    /// It has no extension.
    case noExtension
    /// Its extension names a known type the content is not (`--fix`).
    case wrongExtension(String, names: ImageType)
    /// Its extension is not one the catalog knows; with `--fix`, an image's is replaced.
    case unknownExtension(String)
}

/// Why a file keeps its name.
package enum KeepReason: Sendable, Hashable {
    /// The extension names the content's type, a supertype or its family (`.JPG`, `.tif` on NEF).
    case extensionFits(String)
    /// Nothing recognised the content (or the file is empty).
    case unknownContent
    /// Not an image, and `--all-types` was not given.
    case notAnImage
    /// The answer is less sure than `--min-confidence` asks.
    case notSure(Detection.Confidence)
    /// The file ended before detection's checks were done (`--include-truncated` renames it).
    case truncated
    /// The type has no filename extension.
    case typeHasNoExtension
    /// The extension names another type; `--fix` replaces it.
    case wrongExtension(String, names: ImageType)
    /// The extension is not one the catalog knows: the file never gets a second one.
    case unknownExtension(String)
    /// A backup's or a partial copy's name (`x.png~`, `x.jpg.1`, `x.`, `#x#`), or a hidden name
    /// that is an extension (`.jpg`): what it says is for whoever made it, not an extension.
    case backupName
    /// With `--all-types`, a non-image whose name conventionally has no extension (`Makefile`,
    /// `README`, `LICENSE`...) or that is executable (a script).
    case conventionalName
}

/// Why a file cannot or must not be renamed.
package enum SkipReason: Sendable, Hashable {
    /// The new name exists, or another file of the plan would get it.
    case conflict(String)
    /// A FIFO, socket or device (never opened), or a symbolic link (never renamed or followed).
    case notRegular(FileKind)
    /// The same name reached twice.
    case listedTwice
    /// Inside a version-control directory (`.git`, `.hg`, `.svn`...): its objects are named by
    /// hash, without extensions, on purpose.
    case versionControl(String)
    /// The new name would be longer than NAME_MAX.
    case nameTooLong
    /// Not a name that can be renamed ("", ".", "..").
    case badName
    /// The renames that free this one's target form a cycle.
    case cycle
    /// Ctrl-C (or SIGTERM) came first.
    case interrupted
}

/// Why a file could not be examined or renamed.
package enum RenameProblem: Sendable, Hashable {
    case walk(WalkError)
    case file(FileError)
    case system(Errno)
    case directoryChanged
    /// The directory's path is longer than PATH_MAX: it cannot be opened by path, nor recorded
    /// in a journal that undo could follow.
    case pathTooLong
    case fileChanged
    case noAbsolutePath
    case journal(String)
    case renameFailed(Errno)
    /// The file under the new name was not the planned one (swapped in between).
    case replaced(renamedBack: Bool)

    package var message: String {
        switch self {
        case .walk(let e): return e.description
        case .file(let e): return e.description
        case .system(let e): return e.description
        case .directoryChanged: return "the directory changed or vanished since the plan"
        case .pathTooLong:
            return "its directory's path is longer than PATH_MAX (\(PATH_MAX) bytes), which the journal cannot record: run rename from a directory closer to it"
        case .fileChanged: return "the file changed or vanished since the plan"
        case .noAbsolutePath: return "cannot tell the directory's absolute path for the journal"
        case .journal(let why): return "not renamed: \(why)"
        case .renameFailed(let e): return "rename failed: \(e)"
        case .replaced(let back):
            return "the file renamed was not the one planned (replaced in between): " + (back ? "renamed back" : "could not rename it back")
        }
    }

    /// A stable name for machines.
    package var code: String {
        switch self {
        case .walk(let e): return e.code
        case .file(let e): return Errno(e.code == 0 ? EIO : e.code).name
        case .system(let e), .renameFailed(let e): return e.name
        case .directoryChanged: return "directoryChanged"
        case .pathTooLong: return "ENAMETOOLONG"
        case .fileChanged: return "fileChanged"
        case .noAbsolutePath: return "noAbsolutePath"
        case .journal: return "journal"
        case .replaced: return "replaced"
        }
    }
}

/// What happens to one file.
package enum RenameDisposition: Sendable, Hashable {
    /// To be given `to` (with `suffixed`, a suffix was added to avoid a conflict).
    case rename(to: [UInt8], reason: RenameReason, suffixed: Bool)
    /// Renamed to `to` (after `--apply`), for `reason`.
    case renamed(to: [UInt8], reason: RenameReason)
    case keep(KeepReason)
    case skip(SkipReason)
    /// It could not be examined, or the rename failed.
    case error(RenameProblem)

    /// The action's name in records and tables: rename, renamed, keep, skip, error.
    package var action: String {
        switch self {
        case .rename: return "rename"
        case .renamed: return "renamed"
        case .keep: return "keep"
        case .skip: return "skip"
        case .error: return "error"
        }
    }
}

/// A directory's identity, so a plan is applied to the directory it was made for.
package struct DirectoryIdentity: Sendable, Hashable {
    package let device: UInt64
    package let inode: UInt64
}

/// A name in a directory: a name planned once, a name a batch of renames frees.
struct NameInDirectory: Hashable {
    let directory: DirectoryIdentity
    let name: [UInt8]
}

/// One file's line in the plan, and after `--apply` its outcome.
package struct RenamePlanItem: Sendable {
    /// The path as walked.
    package let path: [UInt8]
    /// Its directory, as a path the directory can be reopened by, and its name there.
    package let directoryPath: [UInt8]
    package let name: [UInt8]
    package var directory: DirectoryIdentity?
    /// The file's status when planned.
    package var file: FileStatus?
    package var detection: Detection?
    package var disposition: RenameDisposition

    /// The new name, while planned or once renamed.
    package var target: [UInt8]? {
        switch disposition {
        case .rename(let to, _, _), .renamed(let to, _): return to
        default: return nil
        }
    }

    /// The new path (the walked path with its last component replaced).
    package var targetPath: [UInt8]? {
        target.map { Array(path.dropLast(name.count)) + $0 }
    }

    package var isError: Bool { if case .error = disposition { return true } else { return false } }

    static func describe(_ reason: RenameReason, _ what: String) -> String {
        switch reason {
        case .noExtension: return "no extension; content is \(what)"
        case .unknownExtension(let ext): return "'.\(ext)' names no known type; content is \(what) (--fix)"
        case .wrongExtension(let ext, let named): return "extension .\(ext) names \(named.identifier) but content is \(what) (--fix)"
        }
    }

    /// Why, in words.
    package var reason: String {
        let what = detection.map { d in d.type.identifier + (d.confidence == .conclusive ? "" : " (\(d.confidence.rawValue))") } ?? ""
        switch disposition {
        case .rename(_, let reason, let suffixed):
            return RenamePlanItem.describe(reason, what) + (suffixed ? "; the name was taken, so suffixed" : "")
        case .renamed(_, let reason):
            return RenamePlanItem.describe(reason, what)
        case .keep(let reason):
            switch reason {
            case .extensionFits(let ext): return "extension .\(ext) names \(what)"
            case .unknownContent: return "unknown content: never renamed"
            case .notAnImage: return "\(what) is not an image (--all-types renames it)"
            case .notSure(let c):
                let floor = c == .hinted ? "likely" : c.rawValue
                return "\(what): only \(c.rawValue) (--min-confidence \(floor) renames it)"
            case .truncated: return "\(what), but the file ends before its checks were done (--include-truncated renames it)"
            case .typeHasNoExtension: return "\(what) has no filename extension"
            case .wrongExtension(let ext, let named): return "extension .\(ext) names \(named.identifier) but content is \(what) (--fix renames it)"
            case .unknownExtension(let ext): return "'.\(ext)' names no known type: never given a second extension"
            case .backupName: return "a backup's or partial copy's name: never given an extension"
            case .conventionalName: return "\(what) in a file conventionally named without an extension (or executable): never renamed"
            }
        case .skip(let reason):
            switch reason {
            case .conflict(let why): return "conflict: \(why)"
            case .notRegular(let kind):
                return kind == .symlink ? "symbolic link: never renamed (nor renamed through)" : "\(kind.name): never opened or renamed"
            case .listedTwice: return "listed more than once; planned once"
            case .versionControl(let dir): return "inside a version-control directory (\(dir)): never renamed"
            case .nameTooLong: return "the new name would be longer than \(NAME_MAX) bytes"
            case .badName: return "not a file name that can be renamed"
            case .cycle: return "the renames that would free its new name form a cycle"
            case .interrupted: return "not renamed: interrupted"
            }
        case .error(let problem): return problem.message
        }
    }
}
