// The rename plan: what each file would be called and why, with conflicts found before anything
// moves. No file is touched here (see RenameApply.swift).
//
// Rules (documented in `imgsniff rename --help` too):
// - An "extension" is a final `.xyz` component (not a leading dot: `.hidden` has none) that the
//   catalog knows (`ImageType.types(filenameExtension:)` is not empty). `IMG_0001.backup` and
//   `report.2024` have none, so the type's extension is appended: `report.2024.jpg`.
// - No extension: the detected type's preferred extension is appended (`jpg`, `heic`, `nef`).
// - An extension that names the detected type (any of its extensions, any case: `.JPG`, `.jpeg`),
//   or a type it conforms to (an MPO named `.jpg`), or, for a family answer, any member of the
//   family (a TIFF-family file named `.nef`): kept.
// - An extension naming another type: kept unless `--fix`, which replaces it.
// - Unknown content (`public.data`) and types without an extension are never renamed.
// - A family answer (`confidence == .family`: "a TIFF, vendor unknown", a `mif1` HEIF) uses the
//   family node's own preferred extension: `.tiff`, `.heif`.
// - Symbolic links are never renamed, and nothing is renamed through one; FIFOs, sockets and
//   devices are never opened.
// - Conflicts: a target name that exists (any kind of file, even a dangling symlink), or that two
//   sources would get, is a conflict: all files involved are skipped, or with `--on-conflict
//   suffix` get `stem-1.ext`, `stem-2.ext`, ... (the lowest free number). A target that exists
//   counts even when that file is itself due to be renamed away: conservative, no chains. Names
//   compare without ASCII case here (`x.PNG` beside an existing `x.png` is a conflict).

import ImageSniff
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

enum RenameAction: String {
    /// Will be (or was) renamed.
    case rename
    /// Left alone by the rules: the name is right, the content is unknown, `--fix` not given, ...
    case keep
    /// Would be renamed but cannot: a conflict, an error, not a regular file.
    case skip
}

/// The choices that shape a plan.
struct RenamePolicy {
    var fix = false
    var onlyImages = false
    var upperCase = false
    var suffixOnConflict = false
}

/// A directory's identity, so a plan is applied to the directory it was made for.
struct RenameDirectoryID: Hashable {
    var dev: UInt64
    var ino: UInt64
}

/// One file's line in the plan (and, after `--apply`, its outcome).
struct RenamePlanItem {
    /// The path as walked (raw bytes), for display.
    var path: [UInt8]
    /// The directory holding the file, as a path to open (relative to the working directory or
    /// absolute); its identity, when it could be opened.
    var directoryPath: [UInt8]
    var directory: RenameDirectoryID?
    /// The file's name in that directory (never contains `/`).
    var name: [UInt8]
    var action: RenameAction
    var reason: String
    /// The new name: stem + "." + ext (or stem + "-k." + ext after a conflict).
    var target: [UInt8]?
    var targetStem: [UInt8] = []
    var targetExtension: [UInt8] = []
    var detection: Detection?
    /// An error (unreadable file, failed rename): makes the exit status 1.
    var isError = false
    /// A conflict (planned or met at apply time): reported, not an error.
    var isConflict = false
    /// The file's identity when planned.
    var fileDev: UInt64 = 0
    var fileIno: UInt64 = 0
    /// After `--apply`: whether the rename happened.
    var applied = false

    /// The new path (the walked path with its last component replaced), for display.
    var targetPath: [UInt8]? {
        guard let target else { return nil }
        return Array(path.dropLast(name.count)) + target
    }
}

/// Builds a plan from walk entries: `add` each entry, then `finish()`.
struct RenamePlanner {
    let policy: RenamePolicy
    private(set) var items: [RenamePlanItem] = []
    private let sniffer = FileSniffer()
    private var seen: Set<[UInt8]> = []

    init(policy: RenamePolicy) { self.policy = policy }

    /// Plans one entry of the walk.
    mutating func add(_ entry: WalkEntry) {
        // Where the file lives: its directory (open) and its name in it.
        var dirPath: [UInt8]
        var name: [UInt8]
        if entry.parent != nil {
            name = entry.name
            dirPath = Array(entry.path.dropLast(name.count))
        } else {
            (dirPath, name) = RenamePlanner.split(entry.path)
        }
        while dirPath.count > 1, dirPath.last == UInt8(ascii: "/") { dirPath.removeLast() }
        if dirPath.isEmpty { dirPath = [UInt8(ascii: ".")] }
        var item = RenamePlanItem(path: entry.path, directoryPath: dirPath, name: name, action: .skip, reason: "")

        if let error = entry.error {
            item.reason = "\(error)"
            item.isError = error.kind == .system
            items.append(item)
            return
        }
        if entry.kind.isSpecial || entry.kind == .standardInput {
            item.reason = "not a regular file (\(entry.kind.name)): never opened or renamed"
            items.append(item)
            return
        }
        if name.isEmpty || name == [46] || name == [46, 46] || name.contains(UInt8(ascii: "/")) {
            item.reason = "not a file name that can be renamed"
            items.append(item)
            return
        }

        let ownFD: Int32?
        let dirfd: Int32
        if let parent = entry.parent {
            dirfd = parent.fd
            ownFD = nil
        } else {
            let fd = RenameSys.openDirectory(dirPath)
            if fd < 0 {
                item.reason = "cannot open directory: \(WalkError.message(errno))"
                item.isError = true
                items.append(item)
                return
            }
            dirfd = fd
            ownFD = fd
        }
        defer { if let ownFD { close(ownFD) } }
        plan(&item, dirfd: dirfd)
        items.append(item)
    }

    private mutating func plan(_ item: inout RenamePlanItem, dirfd: Int32) {
        var dst = stat()
        if fstat(dirfd, &dst) == 0 {
            item.directory = RenameDirectoryID(dev: UInt64(dst.st_dev), ino: UInt64(dst.st_ino))
        }
        // The file itself, never through a final symlink.
        guard let st = RenameSys.lstat(dirfd, item.name) else {
            item.reason = WalkError.message(errno)
            item.isError = true
            return
        }
        let kind = FileKind(mode: st.st_mode)
        guard kind == .regular else {
            item.reason = kind == .symlink
                ? "symbolic link: never renamed (nor renamed through)"
                : "not a regular file (\(kind.name)): never opened or renamed"
            return
        }
        item.fileDev = UInt64(st.st_dev)
        item.fileIno = UInt64(st.st_ino)
        // The same file reached twice (an operand listed twice, an overlapping --files-from).
        let identity = RenameSys.identityKey(dev: item.fileDev, ino: item.fileIno) + item.name
        if !seen.insert(identity).inserted {
            item.reason = "listed more than once; planned once"
            return
        }
        let detection: Detection
        do {
            var cname = item.name
            cname.append(0)
            detection = try cname.withUnsafeBufferPointer { buffer in
                try buffer.withMemoryRebound(to: CChar.self) {
                    try sniffer.detect(path: $0.baseAddress!, relativeTo: dirfd, followSymlinks: false)
                }
            }
        } catch {
            item.reason = "\(error)"
            item.isError = true
            return
        }
        item.detection = detection
        let decision = RenamePlanner.decide(name: item.name, detection: detection, policy: policy)
        item.action = decision.action
        item.reason = decision.reason
        if decision.action == .rename, let stem = decision.stem, let ext = decision.ext {
            item.targetStem = stem
            item.targetExtension = ext
            item.target = stem + [UInt8(ascii: ".")] + ext
            if item.target!.count > Int(NAME_MAX) {
                item.action = .skip
                item.reason = "the new name would be longer than \(NAME_MAX) bytes"
            }
        }
    }

    /// Splits a path into directory and last component ("a" -> (".", "a"), "/a" -> ("/", "a")).
    static func split(_ path: [UInt8]) -> ([UInt8], [UInt8]) {
        guard let slash = path.lastIndex(of: UInt8(ascii: "/")) else { return ([UInt8(ascii: ".")], path) }
        let dir = slash == 0 ? [UInt8(ascii: "/")] : Array(path[..<slash])
        return (dir, Array(path[(slash + 1)...]))
    }

    /// The known extension of a name: its final `.xyz` (not a leading dot) when the catalog
    /// declares it, as the dot's index and the extension text.
    static func knownExtension(of name: [UInt8]) -> (dot: Int, ext: String)? {
        guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0, dot + 1 < name.count else { return nil }
        let bytes = name[(dot + 1)...]
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        let ext = String(decoding: bytes, as: UTF8.self)
        return ImageType.types(filenameExtension: ext).isEmpty ? nil : (dot, ext)
    }

    /// Whether an extension already fits the detected type (see the file comment).
    static func extensionFits(_ ext: String, _ detection: Detection) -> Bool {
        let type = detection.type
        for named in ImageType.types(filenameExtension: ext) {
            if named == type || type.conforms(to: named) { return true }
            if detection.confidence == .family && named.belongs(toFamily: type) { return true }
        }
        return false
    }

    /// What the rules say for one name and detection: the action, why, and the new name's stem
    /// and extension when renaming.
    static func decide(name: [UInt8], detection: Detection, policy: RenamePolicy)
        -> (action: RenameAction, reason: String, stem: [UInt8]?, ext: [UInt8]?) {
        let type = detection.type
        let what = "\(type.identifier)" + (detection.confidence == .conclusive ? "" : " (\(detection.confidence.rawValue))")
        if detection.isUnknown || type == .data {
            return (.keep, "unknown content: never renamed", nil, nil)
        }
        if policy.onlyImages && !type.isImage {
            return (.keep, "\(what) is not an image (--only-images)", nil, nil)
        }
        guard let preferred = type.preferredFilenameExtension else {
            return (.keep, "\(what) has no filename extension", nil, nil)
        }
        let newExt = Array((policy.upperCase ? preferred.uppercased() : preferred.lowercased()).utf8)
        guard let (dot, ext) = knownExtension(of: name) else {
            // No extension, or a final component the catalog does not know: append.
            let why: String
            if let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0, dot + 1 < name.count {
                why = "'.\(PathText.display(Array(name[(dot + 1)...])))' is not a known extension"
            } else {
                why = "no extension"
            }
            return (.rename, "\(why); content is \(what)", name, newExt)
        }
        if extensionFits(ext, detection) {
            return (.keep, "extension .\(ext) names \(what)", nil, nil)
        }
        let named = ImageType.types(filenameExtension: ext).first!.identifier
        guard policy.fix else {
            return (.keep, "extension .\(ext) names \(named) but content is \(what) (--fix renames it)", nil, nil)
        }
        return (.rename, "extension .\(ext) names \(named) but content is \(what) (--fix)", Array(name[..<dot]), newExt)
    }

    /// Finds conflicts (targets that exist, targets two sources share) and skips or suffixes
    /// them. Looks at each directory once more, by path, checking it is the same directory.
    mutating func finish() {
        var groups: [RenameDirectoryID: [Int]] = [:]
        var order: [RenameDirectoryID] = []
        for (i, item) in items.enumerated() where item.action == .rename {
            guard let dir = item.directory else { continue }
            if groups[dir] == nil { order.append(dir) }
            groups[dir, default: []].append(i)
        }
        for dir in order {
            let indices = groups[dir]!
            let fd = RenameSys.openDirectory(items[indices[0]].directoryPath, expecting: dir)
            defer { if fd >= 0 { close(fd) } }
            if fd < 0 {
                for i in indices {
                    items[i].action = .skip
                    items[i].reason = "directory changed or vanished while planning"
                    items[i].isError = true
                }
                continue
            }
            // Names compare without ASCII case: `x.PNG` next to `x.png` is a conflict (it is one
            // on case-insensitive filesystems, and a trap everywhere else).
            let present = RenameSys.foldedNames(fd)
            func exists(_ name: [UInt8]) -> Bool {
                RenameSys.exists(fd, name) || present.contains(RenameSys.folded(name))
            }
            var count: [[UInt8]: Int] = [:]
            for i in indices { count[RenameSys.folded(items[i].target!), default: 0] += 1 }
            var claimed = Set(count.keys)
            for i in indices {
                let target = items[i].target!
                let taken = exists(target)
                let sharing = count[RenameSys.folded(target)]!
                guard taken || sharing > 1 else { continue }
                let why = taken
                    ? "'\(PathText.display(target))' already exists"
                    : "\(sharing) files would be named '\(PathText.display(target))'"
                items[i].isConflict = true
                if policy.suffixOnConflict {
                    var k = 1
                    var candidate: [UInt8] = []
                    while k < 100_000 {
                        candidate = items[i].targetStem + Array("-\(k).".utf8) + items[i].targetExtension
                        if !claimed.contains(RenameSys.folded(candidate)) && !exists(candidate) { break }
                        k += 1
                    }
                    if k < 100_000 && candidate.count <= Int(NAME_MAX) {
                        claimed.insert(RenameSys.folded(candidate))
                        items[i].target = candidate
                        items[i].reason += "; conflict: \(why), so suffixed"
                        continue
                    }
                }
                items[i].action = .skip
                items[i].reason = "conflict: \(why); " + items[i].reason
            }
        }
    }
}

/// Thin system-call helpers for rename and undo.
enum RenameSys {
    static func withCName<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        var copy = bytes
        copy.append(0)
        return copy.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { body($0.baseAddress!) } }
    }

    /// Opens a directory (following symlinks in the path, as the walk did), or -1 with errno.
    /// With `expecting`, also -1 (errno ESTALE) when it is not that directory any more.
    static func openDirectory(_ path: [UInt8], expecting: RenameDirectoryID? = nil) -> Int32 {
        var fd: Int32
        repeat {
            fd = withCName(path) { open($0, O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK) }
        } while fd < 0 && errno == EINTR
        guard fd >= 0, let expecting else { return fd }
        var st = stat()
        if fstat(fd, &st) != 0 || UInt64(st.st_dev) != expecting.dev || UInt64(st.st_ino) != expecting.ino {
            close(fd)
            errno = ESTALE
            return -1
        }
        return fd
    }

    /// `fstatat(..., AT_SYMLINK_NOFOLLOW)`, or nil with errno set.
    static func lstat(_ dirfd: Int32, _ name: [UInt8]) -> stat? {
        var st = stat()
        let rc = withCName(name) { fstatat(dirfd, $0, &st, AT_SYMLINK_NOFOLLOW) }
        return rc == 0 ? st : nil
    }

    /// Whether a name is taken in the directory (anything at all, even a dangling symlink; an
    /// error other than "no such file" counts as taken).
    static func exists(_ dirfd: Int32, _ name: [UInt8]) -> Bool {
        if lstat(dirfd, name) != nil { return true }
        return errno != ENOENT
    }

    /// A name with ASCII letters lower-cased (other bytes as they are).
    static func folded(_ name: [UInt8]) -> [UInt8] {
        name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 }
    }

    /// Every name in the directory, folded (empty when it cannot be listed).
    static func foldedNames(_ dirfd: Int32) -> Set<[UInt8]> {
        var names: Set<[UInt8]> = []
        let listFD = dup(dirfd)
        guard listFD >= 0 else { return names }
        guard let dir = fdopendir(listFD) else {
            close(listFD)
            return names
        }
        defer { closedir(dir) }
        rewinddir(dir)
        while let ent = readdir(dir) {
            let name: [UInt8] = withUnsafePointer(to: &ent.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) {
                    Array(UnsafeRawBufferPointer(start: $0, count: strlen($0)))
                }
            }
            names.insert(folded(name))
        }
        return names
    }

    static func identityKey(dev: UInt64, ino: UInt64) -> [UInt8] {
        Array("\(dev):\(ino):".utf8)
    }

    /// The absolute path of an open directory, as the kernel names it (`/proc/self/fd/N`), or nil.
    static func absolutePath(of fd: Int32) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = buffer.withUnsafeMutableBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { readlink("/proc/self/fd/\(fd)", $0.baseAddress!, $0.count - 1) }
        }
        guard n > 0, buffer[0] == UInt8(ascii: "/") else { return nil }
        let path = Array(buffer[..<n])
        if path.count >= 10, path.suffix(10).elementsEqual(" (deleted)".utf8) { return nil }
        return path
    }
}
