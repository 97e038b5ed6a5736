import ImageSniff

/// The choices that shape a rename plan.
public struct RenamePolicy: Sendable {
    /// Replace extensions that name another known type than the content.
    public var fix = false
    /// Rename files whose content is not an image too (text, archives, documents, media).
    public var allTypes = false
    /// The least confidence a detection needs: `conclusive` by default; `family` also takes
    /// family answers (a TIFF whose maker could not be told gets `.tiff`); `likely` also takes
    /// heuristic and hinted answers (TGA by its size, MP3 by its frames).
    public var minimumConfidence: Detection.Confidence = .conclusive
    /// Rename files whose detection says the data ended before its checks were done (a file cut
    /// short, or one that only starts like a format). Off by default.
    public var includeTruncated = false
    /// The case of the extensions written: upper, lower, or (nil) as the extension replaced is
    /// written (`SCAN.JPG` -> `SCAN.PNG`), else lower.
    public var upperCase: Bool?
    public var suffixOnConflict = false

    public init() {}
}

/// Why a file gets a new name.
public enum RenameReason: Sendable, Hashable {
    /// It has no extension.
    case noExtension
    /// Its extension names a known type the content is not (`--fix`).
    case wrongExtension(String, names: ImageType)
    /// Its extension is not one the catalog knows; with `--fix`, an image's is replaced.
    case unknownExtension(String)
}

/// Why a file keeps its name.
public enum KeepReason: Sendable, Hashable {
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
public enum SkipReason: Sendable, Hashable {
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
public enum RenameProblem: Sendable, Hashable {
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

    public var message: String {
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
    public var code: String {
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
public enum RenameDisposition: Sendable, Hashable {
    /// To be given `to` (with `suffixed`, a suffix was added to avoid a conflict).
    case rename(to: [UInt8], reason: RenameReason, suffixed: Bool)
    /// Renamed to `to` (after `--apply`), for `reason`.
    case renamed(to: [UInt8], reason: RenameReason)
    case keep(KeepReason)
    case skip(SkipReason)
    /// It could not be examined, or the rename failed.
    case error(RenameProblem)

    /// The action's name in records and tables: rename, renamed, keep, skip, error.
    public var action: String {
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
public struct DirectoryIdentity: Sendable, Hashable {
    public let device: UInt64
    public let inode: UInt64
}

/// A name in a directory: a name planned once, a name a batch of renames frees.
struct NameInDirectory: Hashable {
    let directory: DirectoryIdentity
    let name: [UInt8]
}

/// One file's line in the plan, and after `--apply` its outcome.
public struct RenamePlanItem: Sendable {
    /// The path as walked.
    public let path: [UInt8]
    /// Its directory, as a path the directory can be reopened by, and its name there.
    public let directoryPath: [UInt8]
    public let name: [UInt8]
    public var directory: DirectoryIdentity?
    /// The file's status when planned.
    public var file: FileStatus?
    public var detection: Detection?
    public var disposition: RenameDisposition

    /// The new name, while planned or once renamed.
    public var target: [UInt8]? {
        switch disposition {
        case .rename(let to, _, _), .renamed(let to, _): return to
        default: return nil
        }
    }

    /// The new path (the walked path with its last component replaced).
    public var targetPath: [UInt8]? {
        target.map { Array(path.dropLast(name.count)) + $0 }
    }

    public var isError: Bool { if case .error = disposition { return true } else { return false } }

    static func describe(_ reason: RenameReason, _ what: String) -> String {
        switch reason {
        case .noExtension: return "no extension; content is \(what)"
        case .unknownExtension(let ext): return "'.\(ext)' names no known type; content is \(what) (--fix)"
        case .wrongExtension(let ext, let named): return "extension .\(ext) names \(named.identifier) but content is \(what) (--fix)"
        }
    }

    /// Why, in words.
    public var reason: String {
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

/// The rules that decide one file, from its name and what detection said.
public enum RenameRules {
    /// The extension of a name: its final `.xyz` (not a leading dot) when it looks like one: 1 to
    /// 16 ASCII letters, digits, `_` or `-`, at least one a letter ("report.2024" has none).
    public static func fileExtension(of name: [UInt8]) -> (dot: Int, text: String)? {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0, dot + 1 < name.count else { return nil }
        let bytes = name[(dot + 1)...]
        guard bytes.count <= 16, bytes.contains(where: { ($0 | 0x20) >= 0x61 && ($0 | 0x20) <= 0x7A }) else { return nil }
        for b in bytes {
            let letter = (b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A
            guard letter || (b >= 0x30 && b <= 0x39) || b == UInt8(ascii: "_") || b == UInt8(ascii: "-") else { return nil }
        }
        return (dot, String(decoding: bytes, as: UTF8.self))
    }

    /// Whether an extension fits the detection: `Detection.extensionFits(_:)`, the rule
    /// `scan --mismatches` uses too.
    public static func extensionFits(_ ext: String, _ detection: Detection) -> Bool {
        detection.extensionFits(ext) == true
    }

    /// Whether a policy takes answers of this confidence.
    static func accepts(_ confidence: Detection.Confidence, policy: RenamePolicy) -> Bool {
        switch confidence {
        case .conclusive: return true
        case .family: return policy.minimumConfidence != .conclusive
        case .likely, .hinted: return policy.minimumConfidence == .likely || policy.minimumConfidence == .hinted
        case .unknown: return false
        }
    }

    /// Whether an extension is written in capitals (`JPG`, `TIF2`): letters, all upper case.
    static func isUpperCase(_ text: String) -> Bool {
        text.utf8.contains { $0 >= 0x41 && $0 <= 0x5A } && !text.utf8.contains { $0 >= 0x61 && $0 <= 0x7A }
    }

    /// Directories whose files are named by their tools, never by their content.
    public static let versionControlDirectories: Set<[UInt8]> = Set([".git", ".hg", ".svn", ".bzr", "_darcs", ".jj", ".pijul", "CVS"].map { Array($0.utf8) })

    /// The first version-control directory among a path's components (not its last), if any:
    /// one of `versionControlDirectories`, or a bare Git repository (`name.git`).
    public static func versionControlDirectory(in path: [UInt8]) -> String? {
        let components = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: true)
        for component in components.dropLast() {
            let bare = component.count > 4 && component.suffix(4).elementsEqual(".git".utf8)
            if bare || versionControlDirectories.contains(Array(component)) { return String(decoding: component, as: UTF8.self) }
        }
        return nil
    }

    /// The version-control directory a directory lies in, by its real path (whatever path led
    /// to it: a relative operand, a link, `--files-from` inside the repository).
    static func versionControlDirectory(of directory: FileDescriptor) -> String? {
        guard let real = Renaming.absolutePath(of: directory) else { return nil }
        return versionControlDirectory(in: real + Array("/-".utf8))
    }

    /// Names that are not a stem and an extension, though they may hold one: an editor's backup
    /// (`x.png~`, `#x#`), a download's or a rotation's copy (`x.jpg.1`), a name ending in a dot or
    /// a space, a hidden name that is a known extension (`.jpg`).
    public static func isBackupName(_ name: [UInt8]) -> Bool {
        guard let last = name.last else { return false }
        if last == UInt8(ascii: "~") || last == UInt8(ascii: ".") || last == UInt8(ascii: " ") { return true }
        if name.count > 2, name.first == UInt8(ascii: "#"), last == UInt8(ascii: "#") { return true }
        if name.first == UInt8(ascii: "."), name.dropFirst().firstIndex(of: UInt8(ascii: ".")) == nil,
           !ImageType.types(filenameExtension: String(decoding: name.dropFirst(), as: UTF8.self)).isEmpty {
            return true
        }
        // `stem.ext.N` (digits) or `stem.ext.part`, `.bak`, `.crdownload`, an rsync temporary's
        // `.x.jpg.AbCd12`: a known extension followed by one the catalog does not know.
        if let dot = name.lastIndex(of: UInt8(ascii: ".")), dot + 1 < name.count,
           let inner = fileExtension(of: Array(name[..<dot])), !ImageType.types(filenameExtension: inner.text).isEmpty {
            let outer = String(decoding: name[(dot + 1)...], as: UTF8.self)
            if outer.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) || ImageType.types(filenameExtension: outer).isEmpty { return true }
        }
        return false
    }

    /// Files whose names conventionally have no extension.
    static let conventionalNames: Set<[UInt8]> = Set([
        "makefile", "gnumakefile", "dockerfile", "containerfile", "vagrantfile", "gemfile", "rakefile", "procfile",
        "jenkinsfile", "brewfile", "podfile", "readme", "license", "licence", "copying", "authors", "contributors",
        "changelog", "changes", "news", "install", "thanks", "todo", "notice", "version", "configure", "codeowners",
        "justfile", "pipfile", "manifest", "kconfig", "doxyfile", "snakefile", "caddyfile", "earthfile", "tiltfile",
        "build", "workspace", "owners", "pkgbuild", "apkbuild", "copyright", "maintainers", "hacking",
    ].map { Array($0.utf8) })

    /// Whether `--all-types` leaves a non-image alone for its name or its mode.
    public static func isConventionallyUnextended(_ name: [UInt8], permissions: UInt32) -> Bool {
        permissions & 0o111 != 0 || conventionalNames.contains(RenamePlanner.folded(name))
    }

    /// What the rules say for one name and detection.
    public static func decide(name: [UInt8], detection: Detection, policy: RenamePolicy) -> RenameDisposition {
        let type = detection.type
        if detection.isUnknown || type == .data { return .keep(.unknownContent) }
        if isBackupName(name) { return .keep(.backupName) }
        let current = fileExtension(of: name)
        let fit = current.flatMap { detection.extensionFits($0.text) }
        if let (_, ext) = current, fit == true { return .keep(.extensionFits(ext)) }
        // An extension neither the catalog nor an alias knows (.md, .docx, .tgz): never a second
        // extension; with --fix, an image's is replaced.
        if let (_, ext) = current, fit == nil, !(policy.fix && type.isImage) {
            return .keep(.unknownExtension(ext))
        }
        if !policy.allTypes && !type.isImage { return .keep(.notAnImage) }
        if !accepts(detection.confidence, policy: policy) { return .keep(.notSure(detection.confidence)) }
        if detection.completeness == .truncated && !policy.includeTruncated { return .keep(.truncated) }
        guard let preferred = type.preferredFilenameExtension else { return .keep(.typeHasNoExtension) }
        let upper = policy.upperCase ?? current.map { isUpperCase($0.text) } ?? false
        let newExtension = Array((upper ? preferred.uppercased() : preferred).utf8)
        guard let (dot, ext) = current else {
            return .rename(to: name + [UInt8(ascii: ".")] + newExtension, reason: .noExtension, suffixed: false)
        }
        let stem = Array(name[..<dot])
        guard let named = ImageType.types(filenameExtension: ext).first else {
            return .rename(to: stem + [UInt8(ascii: ".")] + newExtension, reason: .unknownExtension(ext), suffixed: false)
        }
        guard policy.fix else { return .keep(.wrongExtension(ext, names: named)) }
        return .rename(to: stem + [UInt8(ascii: ".")] + newExtension, reason: .wrongExtension(ext, names: named), suffixed: false)
    }
}

/// Builds a plan from walk entries: `add` each, then `finish()`.
public struct RenamePlanner {
    public let policy: RenamePolicy
    public private(set) var items: [RenamePlanItem] = []
    /// The renames (indices into `items`) in the order they must happen: one that takes a name
    /// another frees comes after it.
    public private(set) var order: [Int] = []
    private let sniffer = FileSniffer()
    private var seen: Set<NameInDirectory> = []
    /// Per directory: the version-control directory it lies in, if any.
    private var versionControl: [DirectoryIdentity: String?] = [:]


    public init(policy: RenamePolicy) { self.policy = policy }

    /// Plans one entry of the walk.
    public mutating func add(_ entry: WalkEntry) {
        var (directoryPath, name) = entry.parent != nil
            ? (Array(entry.path.dropLast(entry.name.count)), entry.name)
            : Path.split(entry.path)
        while directoryPath.count > 1, directoryPath.last == UInt8(ascii: "/") { directoryPath.removeLast() }
        if directoryPath.isEmpty { directoryPath = [UInt8(ascii: ".")] }
        var item = RenamePlanItem(path: entry.path, directoryPath: directoryPath, name: name, disposition: .skip(.badName))
        defer { items.append(item) }
        if let error = entry.error {
            item.disposition = .error(.walk(error))
            return
        }
        if entry.skippedFilesystem != nil { item.disposition = .skip(.notRegular(.directory)); return }
        if directoryPath.count >= Int(PATH_MAX) - 1 {
            item.disposition = .error(.pathTooLong)
            return
        }
        if entry.kind.isSpecial || entry.kind == .standardInput || entry.kind == .directory {
            item.disposition = .skip(.notRegular(entry.kind))
            return
        }
        if name.isEmpty || name == [46] || name == [46, 46] || name.contains(UInt8(ascii: "/")) { return }
        if let parent = entry.parent {
            plan(&item, in: parent.fd)
        } else {
            do throws(Errno) {
                let fd = try FileDescriptor.openDirectory(directoryPath)
                fd.closeAfter { plan(&item, in: $0) }
            } catch {
                item.disposition = .error(.system(error))
            }
        }
    }

    private mutating func plan(_ item: inout RenamePlanItem, in directory: FileDescriptor) {
        let id = (try? directory.status()).map { DirectoryIdentity(device: $0.device, inode: $0.inode) }
        item.directory = id
        // Inside a version-control directory: by the directory's real path (once per directory),
        // else by the path as walked.
        let vcs: String?
        if let id, let known = versionControl[id] {
            vcs = known
        } else {
            vcs = RenameRules.versionControlDirectory(of: directory) ?? RenameRules.versionControlDirectory(in: item.path)
            if let id { versionControl[id] = .some(vcs) }
        }
        if let vcs {
            item.disposition = .skip(.versionControl(vcs))
            return
        }
        // The file itself, never through a final symbolic link.
        let status: FileStatus
        do throws(Errno) { status = try directory.status(of: item.name, followSymlink: false) } catch {
            item.disposition = .error(.system(error))
            return
        }
        guard status.kind == .regular else {
            item.disposition = .skip(.notRegular(status.kind))
            return
        }
        item.file = status
        // The same name reached twice (an operand given twice, `d/x` and `d/./x`). Another name of
        // the same file (a hard link) is a name of its own, renamed on its own.
        let directoryID = id ?? DirectoryIdentity(device: status.device, inode: 0)
        if !seen.insert(NameInDirectory(directory: directoryID, name: item.name)).inserted {
            item.disposition = .skip(.listedTwice)
            return
        }
        do throws(FileError) {
            item.detection = try Path.withCString(item.name) { (p) throws(FileError) -> Detection in
                try sniffer.detect(path: p, relativeTo: directory.rawValue, followSymlinks: false)
            }
        } catch {
            item.disposition = .error(.file(error))
            return
        }
        item.disposition = RenameRules.decide(name: item.name, detection: item.detection!, policy: policy)
        if case .rename = item.disposition, !item.detection!.type.isImage,
           RenameRules.isConventionallyUnextended(item.name, permissions: status.permissions) {
            item.disposition = .keep(.conventionalName)
        }
        // Compressed SVG is named .svgz: browsers and libraries open a .svg as text.
        if case .rename(let to, let reason, let suffixed) = item.disposition, item.detection!.type == .svg,
           sniffer.withLastPrefix({ $0.count >= 2 && $0[0] == 0x1F && $0[1] == 0x8B }) {
            let upper = to.last.map { $0 >= 0x41 && $0 <= 0x5A } ?? false
            item.disposition = .rename(to: to + [upper ? UInt8(ascii: "Z") : UInt8(ascii: "z")], reason: reason, suffixed: suffixed)
        }
        if let target = item.target, target.count > Int(NAME_MAX) { item.disposition = .skip(.nameTooLong) }
    }

    /// Finds conflicts (targets that exist and are not freed by the plan itself, targets two files
    /// share), suffixes or skips them, and orders the renames so that one that takes a name
    /// another frees comes after it. Linear in the number of files.
    public mutating func finish() {
        var groups: [DirectoryIdentity: [Int]] = [:]
        var order: [DirectoryIdentity] = []
        for (i, item) in items.enumerated() where item.target != nil {
            guard let dir = item.directory else { continue }
            if groups[dir] == nil { order.append(dir) }
            groups[dir, default: []].append(i)
        }
        self.order = []
        for dir in order {
            self.order += resolveConflicts(in: groups[dir]!)
        }
    }

    /// Conflicts within one directory; returns the renames in the order they must happen.
    private mutating func resolveConflicts(in indices: [Int]) -> [Int] {
        let directoryPath = items[indices[0]].directoryPath
        let expected = items[indices[0]].directory!
        var existingName: [[UInt8]: [UInt8]] = [:]  // the directory's names, folded -> as on disk
        var listed = false
        if let fd = try? FileDescriptor.openDirectory(directoryPath),
           let status = try? fd.status(), status.device == expected.device, status.inode == expected.inode {
            defer { fd.close() }
            if let listing = try? DirectoryListing(fd) {
                listed = true
                for i in 0..<listing.count {
                    let name = Array(listing.name(i))
                    existingName[RenamePlanner.folded(name)] = name
                }
            }
        }
        guard listed else {
            for i in indices { items[i].disposition = .error(.directoryChanged) }
            return []
        }
        // Names compare without ASCII case: `x.PNG` beside `x.png` is a conflict (it is one on
        // case-insensitive file systems, and a trap everywhere else).
        let sources = Dictionary(indices.map { (RenamePlanner.folded(items[$0].name), $0) }, uniquingKeysWith: { a, _ in a })
        var wanted: [[UInt8]: Int] = [:]
        for i in indices { wanted[RenamePlanner.folded(items[i].target!), default: 0] += 1 }
        var claimed = Set(wanted.keys)
        var nextSuffix: [[UInt8]: Int] = [:]
        var grantedPlain: Set<[UInt8]> = []
        for i in indices {
            guard case .rename(let target, let reason, _) = items[i].disposition else { continue }
            let key = RenamePlanner.folded(target)
            // A name another rename of the plan frees is not taken (that rename comes first).
            let freedBy = sources[key].flatMap { $0 != i ? $0 : nil }
            let taken = existingName[key] != nil && freedBy == nil
            let sharing = wanted[key]!
            guard taken || sharing > 1 else { continue }
            // Shared but free: the first file keeps the name, the others are suffixed.
            if !taken && policy.suffixOnConflict && grantedPlain.insert(key).inserted { continue }
            let why = taken ? "'\(Path.display(existingName[key] ?? target))' already exists"
                            : "\(sharing) files would be named '\(Path.display(target))'"
            if policy.suffixOnConflict, let dot = target.lastIndex(of: UInt8(ascii: ".")) {
                let stem = Array(target[..<dot]), ext = Array(target[dot...])
                var k = nextSuffix[key] ?? 1
                var candidate: [UInt8] = []
                while k < 100_000 {
                    candidate = stem + Array("-\(k)".utf8) + ext
                    let folded = RenamePlanner.folded(candidate)
                    if !claimed.contains(folded) && existingName[folded] == nil { break }
                    k += 1
                }
                nextSuffix[key] = k + 1
                if k < 100_000 && candidate.count <= Int(NAME_MAX) {
                    claimed.insert(RenamePlanner.folded(candidate))
                    items[i].disposition = .rename(to: candidate, reason: reason, suffixed: true)
                    continue
                }
            }
            items[i].disposition = .skip(.conflict(why))
        }
        // A name counted as freed is taken after all when the rename that was to free it does not
        // happen (skipped for a conflict of its own): the renames waiting for it are skipped too,
        // along the whole chain, so that the plan says what --apply will do.
        var settled = false
        while !settled {
            settled = true
            for i in indices {
                guard case .rename(let target, _, _) = items[i].disposition else { continue }
                let key = RenamePlanner.folded(target)
                guard existingName[key] != nil, let frees = sources[key], frees != i, items[frees].target == nil else { continue }
                items[i].disposition = .skip(.conflict("'\(Path.display(existingName[key] ?? target))' already exists, "
                                                       + "and the rename that would free it does not happen"))
                settled = false
            }
        }
        // Order: a rename whose target another rename frees waits for it; a cycle is skipped.
        var state: [Int: Int] = [:]  // 1 visiting, 2 done
        var sequence: [Int] = []
        func visit(_ i: Int) -> Bool {
            if state[i] == 2 { return true }
            if state[i] == 1 { return false }
            state[i] = 1
            if let target = items[i].target, let frees = sources[RenamePlanner.folded(target)], frees != i,
               items[frees].target != nil {
                if !visit(frees) {
                    items[i].disposition = .skip(.cycle)
                    state[i] = 2
                    return false
                }
            }
            state[i] = 2
            if items[i].target != nil { sequence.append(i) }
            return true
        }
        for i in indices { _ = visit(i) }
        return sequence
    }

    /// A name with ASCII letters lower-cased.
    static func folded(_ name: [UInt8]) -> [UInt8] { name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } }
}
