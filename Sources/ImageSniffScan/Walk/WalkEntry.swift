
/// Why a walk entry could not be visited.
public enum WalkError: Error, Sendable, Hashable, CustomStringConvertible {
    /// A system call failed (ENOENT for a vanished file or a missing operand).
    case system(Errno)
    /// Following symbolic links led back to a directory on the current path.
    case loop
    /// A directory the walk closed (to stay within its descriptor budget) was no longer the same
    /// directory when the walk opened it again to go on.
    case replaced
    /// A symbolic link whose target does not exist (file(1)'s wording).
    case brokenSymlink(target: [UInt8])
    /// A line of `--files-from` that cannot be a path.
    case badListEntry(String)

    public var isNotFound: Bool {
        if case .system(let e) = self { return e == .notFound || e == .notDirectory }
        return false
    }

    public var description: String {
        switch self {
        case .system(let e): return e.description
        case .loop: return "filesystem loop (a directory on the current path); not followed"
        case .replaced: return "directory replaced during the scan; the rest of it was not walked"
        case .brokenSymlink(let target): return "broken symbolic link to \(Path.display(target))"
        case .badListEntry(let why): return why
        }
    }

    /// A stable name for machines.
    public var code: String {
        switch self {
        case .system(let e): return e.name
        case .loop: return "loop"
        case .replaced: return "replaced"
        case .brokenSymlink: return "brokenSymlink"
        case .badListEntry: return "badListEntry"
        }
    }
}

/// An open directory shared by the entries found in it; closed when the last one goes away.
/// Counted, so that the walk can keep the number of open directories under the process's limit.
package final class DirectoryHandle: Sendable {
    package let fd: FileDescriptor
    private let counter: HandleCounter

    init(fd: FileDescriptor, counter: HandleCounter) {
        self.fd = fd
        self.counter = counter
        counter.live.withLock { $0 += 1 }
    }

    deinit {
        fd.close()
        counter.live.withLock { $0 -= 1 }
    }
}

/// How many `DirectoryHandle`s of one walk are open.
final class HandleCounter: Sendable {
    let live = ConditionLock(0)
}

/// One thing the walk found.
package struct WalkEntry: Sendable {
    package enum Origin: Sendable, Hashable {
        /// Named on the command line.
        case operand
        /// Listed in `--files-from`.
        case filesFrom
        /// Found inside a directory.
        case tree
    }

    /// The path, raw bytes without NUL: as given, or directory path + "/" + name.
    package let path: [UInt8]
    /// The containing directory, open; nil for operands and list paths (then `name` is the whole
    /// path, relative to the working directory or absolute).
    package let parent: DirectoryHandle?
    /// `name` when it is not the end of `path` (a top-level path with trailing slashes, a
    /// directory that could not be reopened); nil when it is, as for every entry found inside a
    /// directory, which then carries one array, not two.
    private let separateName: [UInt8]?
    /// Where `name` starts in `path`, when `separateName` is nil.
    private let nameStart: Int
    package let kind: FileKind
    package let origin: Origin
    /// Whether opening this entry follows a final symbolic link (false: `O_NOFOLLOW`).
    package let followSymlinks: Bool
    /// Set when the entry could not be visited.
    package let error: WalkError?
    /// Directory depth below the operand (0 for operands and list paths).
    package let depth: Int
    /// A directory not entered because it is on a pseudo-filesystem (procfs, sysfs, ...): its name.
    package let skippedFilesystem: String?

    package init(path: [UInt8], parent: DirectoryHandle?, name: [UInt8], kind: FileKind, origin: Origin,
                followSymlinks: Bool, error: WalkError? = nil, depth: Int = 0, skippedFilesystem: String? = nil) {
        self.path = path
        self.parent = parent
        if name.count <= path.count, path.suffix(name.count).elementsEqual(name) {
            separateName = nil
            nameStart = path.count - name.count
        } else {
            separateName = name
            nameStart = 0
        }
        self.kind = kind
        self.origin = origin
        self.followSymlinks = followSymlinks
        self.error = error
        self.depth = depth
        self.skippedFilesystem = skippedFilesystem
    }

    /// An entry found inside a directory: `path` ends with its name, from `nameStart` on.
    init(path: [UInt8], nameStart: Int, parent: DirectoryHandle, kind: FileKind, followSymlinks: Bool,
         error: WalkError? = nil, depth: Int) {
        self.path = path
        self.parent = parent
        separateName = nil
        self.nameStart = nameStart
        self.kind = kind
        origin = .tree
        self.followSymlinks = followSymlinks
        self.error = error
        self.depth = depth
        skippedFilesystem = nil
    }

    /// The last component inside `parent`, or the whole path when `parent` is nil.
    package var name: ArraySlice<UInt8> { separateName?[...] ?? path[nameStart...] }

    /// The directory to open the entry relative to, and its name there.
    package var location: (directory: FileDescriptor, name: ArraySlice<UInt8>) {
        (parent?.fd ?? .currentDirectory, name)
    }

    /// The lossless text form of `path`.
    package var displayPath: String { Path.display(path) }

    /// The filename extension (without the dot), or nil.
    package var fileExtension: String? { Path.fileExtension(path) }
}
