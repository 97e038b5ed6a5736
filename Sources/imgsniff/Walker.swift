// Walker: the file traversal shared by `imgsniff scan` and `imgsniff rename`.
//
// API in one screen
// -----------------
//
//     let walker = try traversal.makeWalker(operands: paths)        // from @OptionGroup TraversalOptions
//     // or: Walker(operands: [[UInt8]], filesFrom: FilesFromSource?, options: WalkOptions)
//     while let entry = walker.next() {                             // also a Sequence
//         if let error = entry.error { ...; continue }              // unreadable dir, vanished file, loop
//         switch entry.kind {
//         case .regular:  entry.withLocation { dirfd, name in ...openat(dirfd, name, ...)... }
//         case .standardInput: ...                                  // only with dashIsStandardInput
//         default: ...                                              // FIFO/socket/device: never open it
//         }
//     }
//
// - `WalkEntry.path` is the path as raw bytes (no NUL), exactly as the kernel knows it, so names
//   that are not valid UTF-8 survive. `displayPath` is the lossless text form (see `PathText`).
// - `WalkEntry.parent` is an open descriptor of the containing directory (shared, closed when the
//   last entry holding it goes away) and `name` the last component; open files with
//   `openat(parent.fd, name)` (`withLocation` does this for you, falling back to `AT_FDCWD` +
//   the whole path for operands), so paths longer than PATH_MAX work. Open with `O_NOFOLLOW`
//   when `followSymlinks` is false (the entry was found in a directory walk without
//   `--follow-symlinks`): that closes the race where a file is swapped for a symlink.
// - Order is deterministic: operands in the order given, then `--files-from` paths in file
//   order; inside a directory, names sorted bytewise, depth first (a directory's contents come
//   right after the point where it sorts among its siblings).
// - Rules:
//   * Hidden names (starting with `.`) met in a directory walk are skipped unless
//     `includeHidden`; operands are never skipped.
//   * Symbolic links met in a directory walk are skipped silently unless `followSymlinks`;
//     an operand (or a `--files-from` path) that is a symlink is followed (like `find -H`).
//   * When following, a directory already on the current path (same `st_dev`/`st_ino`) is a
//     loop: it yields an entry with `error.kind == .loop` and is not entered again.
//   * FIFOs, sockets and devices are yielded with their `kind` (and no error) when
//     `includeSpecialFiles` (the default); they must never be opened. `FileSniffer.detect(path:
//     relativeTo:...)` refuses them by `fstatat` before opening.
//   * Directories named in `--files-from` are not descended (the list is taken to be complete,
//     as `find -print0` makes it) unless `recurseFilesFromDirectories`.
//   * Directories themselves are not yielded unless `yieldDirectories`.
//   * A directory that cannot be opened or read, and an operand that does not exist, yield an
//     entry with `error` set (`entry.origin` tells operands from the rest).
//
// No Foundation here: Glibc calls only.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ArgumentParser

// MARK: - Options

/// How a walk treats hidden names, symlinks, special files and `--files-from` directories.
struct WalkOptions: Sendable {
    /// Follow symbolic links met inside directories (with loop detection).
    var followSymlinks = false
    /// Include names starting with `.` met inside directories.
    var includeHidden = false
    /// Yield FIFOs, sockets and devices (never opened) instead of skipping them silently.
    var includeSpecialFiles = true
    /// Yield directory entries too (before their contents).
    var yieldDirectories = false
    /// Descend into directories named in `--files-from`.
    var recurseFilesFromDirectories = false
    /// Treat the operand `-` as standard input (an entry of kind `.standardInput`).
    var dashIsStandardInput = false

    init(followSymlinks: Bool = false, includeHidden: Bool = false) {
        self.followSymlinks = followSymlinks
        self.includeHidden = includeHidden
    }
}

/// The traversal flags `scan` and `rename` share: `@OptionGroup var traversal: TraversalOptions`.
struct TraversalOptions: ParsableArguments {
    @Option(name: .customLong("files-from"), help: ArgumentHelp(
        "Read the paths to process from FILE ('-' for standard input), one per line, or NUL-separated with -0. Directories listed there are not descended.",
        valueName: "file"))
    var filesFrom: String?

    @Flag(name: [.customShort("0"), .customLong("null")],
          help: "Paths in --files-from are separated by NUL bytes (as `find -print0` writes them).")
    var null = false

    @Flag(name: .customLong("hidden"),
          help: "Include hidden files and directories (names starting with '.') met inside directories. Paths given explicitly are always included.")
    var hidden = false

    @Flag(name: .customLong("follow-symlinks"),
          help: "Follow symbolic links met inside directories (loops are detected and reported). Without it they are skipped; a symlink given explicitly is always followed.")
    var followSymlinks = false

    func validate() throws {
        if null && filesFrom == nil {
            throw ValidationError("-0/--null only applies to --files-from.")
        }
    }

    /// The walk options these flags stand for.
    var walkOptions: WalkOptions {
        WalkOptions(followSymlinks: followSymlinks, includeHidden: hidden)
    }

    /// A walker over `operands` (raw bytes recovered from argv) and `--files-from`.
    ///
    /// - Throws: `ValidationError` when the `--files-from` file cannot be opened (exit 64).
    func makeWalker(operands: [String], options: WalkOptions? = nil) throws -> Walker {
        var source: FilesFromSource?
        if let filesFrom {
            source = try FilesFromSource(path: filesFrom, separator: null ? 0 : UInt8(ascii: "\n"))
        }
        return Walker(operands: operands.map(ArgumentBytes.raw), filesFrom: source,
                      options: options ?? walkOptions)
    }
}

// MARK: - Entries

/// What a directory entry is (from `d_type`, or `fstatat` when `d_type` is unknown).
enum FileKind: Sendable, Hashable {
    case regular, directory, symlink, fifo, socket, characterDevice, blockDevice, unknown
    /// The operand `-` (only with `WalkOptions.dashIsStandardInput`).
    case standardInput

    init(mode: mode_t) {
        switch mode & S_IFMT {
        case S_IFREG: self = .regular
        case S_IFDIR: self = .directory
        case S_IFLNK: self = .symlink
        case S_IFIFO: self = .fifo
        case S_IFSOCK: self = .socket
        case S_IFCHR: self = .characterDevice
        case S_IFBLK: self = .blockDevice
        default: self = .unknown
        }
    }

    /// nil for `DT_UNKNOWN` (the caller must `fstatat`).
    init?(dType: UInt8) {
        switch Int(dType) {
        case Int(DT_REG): self = .regular
        case Int(DT_DIR): self = .directory
        case Int(DT_LNK): self = .symlink
        case Int(DT_FIFO): self = .fifo
        case Int(DT_SOCK): self = .socket
        case Int(DT_CHR): self = .characterDevice
        case Int(DT_BLK): self = .blockDevice
        default: return nil
        }
    }

    /// FIFO, socket, device or unknown: never to be opened.
    var isSpecial: Bool {
        switch self {
        case .fifo, .socket, .characterDevice, .blockDevice, .unknown: return true
        default: return false
        }
    }

    /// "FIFO", "socket", ... as in `FileError`'s "not a regular file (FIFO)".
    var name: String {
        switch self {
        case .regular: return "regular file"
        case .directory: return "directory"
        case .symlink: return "symbolic link"
        case .fifo: return "FIFO"
        case .socket: return "socket"
        case .characterDevice: return "character device"
        case .blockDevice: return "block device"
        case .unknown: return "special file"
        case .standardInput: return "standard input"
        }
    }
}

/// Why an entry could not be visited.
struct WalkError: Error, Sendable, Hashable, CustomStringConvertible {
    enum Kind: Sendable, Hashable {
        /// A system call failed with `code` (ENOENT for a vanished file or missing operand).
        case system
        /// Following symlinks led back to a directory on the current path.
        case loop
    }
    let kind: Kind
    let code: Int32

    init(errno code: Int32) { kind = .system; self.code = code }
    init(kind: Kind, code: Int32 = 0) { self.kind = kind; self.code = code }

    var isNotFound: Bool { kind == .system && (code == ENOENT || code == ENOTDIR) }

    /// Lower-case text: "no such file or directory", "permission denied", "filesystem loop ...".
    var description: String {
        switch kind {
        case .loop: return "filesystem loop (directory already being visited); not followed"
        case .system: return WalkError.message(code)
        }
    }

    static func message(_ code: Int32) -> String {
        guard let s = strerror(code) else { return "error \(code)" }
        var text = String(cString: s)
        if let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase ?? true {
            text = first.lowercased() + text.dropFirst()
        }
        return text
    }
}

/// An open directory descriptor shared by the entries found in it; closed on deinit.
final class DirectoryHandle: Sendable {
    let fd: Int32
    init(fd: Int32) { self.fd = fd }
    deinit { close(fd) }
}

/// One thing the walk found.
struct WalkEntry: Sendable {
    enum Origin: Sendable, Hashable {
        /// Named on the command line.
        case operand
        /// Listed in `--files-from`.
        case filesFrom
        /// Found inside a directory.
        case tree
    }

    /// The path, raw bytes without NUL: operand or list path, or directory path + "/" + name.
    let path: [UInt8]
    /// The containing directory, open; nil for operands and `--files-from` paths (then `name` is
    /// the whole path, relative to the working directory or absolute).
    let parent: DirectoryHandle?
    /// The last component inside `parent`, or the whole path when `parent` is nil.
    let name: [UInt8]
    let kind: FileKind
    let origin: Origin
    /// Whether opening this entry should follow a final symlink (false: use `O_NOFOLLOW` /
    /// `AT_SYMLINK_NOFOLLOW`).
    let followSymlinks: Bool
    /// Set when the entry could not be visited; `kind` is then what was known (maybe `.unknown`).
    let error: WalkError?
    /// Directory depth below the operand (0 for operands and list paths).
    let depth: Int
    /// `readdir` said `DT_REG` (no `stat` was needed to learn `kind`): detection may skip its own
    /// look before opening (`FileSniffer.detect(...knownRegular:)`), which still checks the open
    /// descriptor with `fstat` before reading.
    var knownRegular = false

    /// The lossless text form of `path` (see `PathText.display`).
    var displayPath: String { PathText.display(path) }

    /// Whether `path` is valid UTF-8.
    var pathIsUTF8: Bool { PathText.isValidUTF8(path) }

    /// The last component of the path (bytes), for extension checks.
    var baseName: ArraySlice<UInt8> { WalkEntry.baseName(of: path) }

    /// The filename extension (lower-cased only if ASCII; without the dot), or nil: none for
    /// "name", ".hidden" or "name.".
    var filenameExtension: String? { WalkEntry.filenameExtension(of: path) }

    /// The last component of `path` (trailing slashes left out).
    static func baseName(of path: [UInt8]) -> ArraySlice<UInt8> {
        var end = path.endIndex
        while end > path.startIndex + 1, path[end - 1] == UInt8(ascii: "/") { end -= 1 }
        let slash = path[..<end].lastIndex(of: UInt8(ascii: "/"))
        return path[(slash.map { $0 + 1 } ?? path.startIndex)..<end]
    }

    /// The filename extension of `path` (see `filenameExtension`).
    static func filenameExtension(of path: [UInt8]) -> String? {
        let base = baseName(of: path)
        guard let dot = base.lastIndex(of: UInt8(ascii: ".")), dot > base.startIndex, dot + 1 < base.endIndex else {
            return nil
        }
        let bytes = base[(dot + 1)...]
        guard PathText.isValidUTF8(bytes) else { return nil }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Calls `body` with a directory descriptor and a NUL-terminated name relative to it
    /// (`AT_FDCWD` and the whole path when there is no parent).
    func withLocation<R>(_ body: (Int32, UnsafePointer<CChar>) throws -> R) rethrows -> R {
        let dir = parent?.fd ?? AT_FDCWD
        return try WalkEntry.withCString(name) { try body(dir, $0) }
    }

    /// `bytes` NUL-terminated, in a temporary buffer (on the stack when small): no heap
    /// allocation per file.
    static func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) throws -> R) rethrows -> R {
        try withUnsafeTemporaryAllocation(of: CChar.self, capacity: bytes.count + 1) { buffer in
            bytes.withUnsafeBufferPointer { source in
                if let from = source.baseAddress, source.count > 0 {
                    UnsafeMutableRawPointer(buffer.baseAddress!).copyMemory(from: from, byteCount: source.count)
                }
            }
            buffer[bytes.count] = 0
            return try body(UnsafePointer(buffer.baseAddress!))
        }
    }
}

// MARK: - The walker

/// Paths listed in a file or on standard input, newline- or NUL-separated, read incrementally.
final class FilesFromSource {
    private let fd: Int32
    private let ownsFD: Bool
    private let separator: UInt8
    private var buffer: [UInt8] = []
    private var start = 0
    private var atEOF = false
    /// "-" or the list file's path, for messages.
    let label: String

    /// - Throws: `ValidationError` when the file cannot be opened.
    init(path: String, separator: UInt8) throws {
        self.separator = separator
        label = path
        if path == "-" {
            fd = 0
            ownsFD = false
        } else {
            var bytes = ArgumentBytes.raw(path)
            bytes.append(0)
            let opened = bytes.withUnsafeBufferPointer {
                $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY | O_CLOEXEC) }
            }
            guard opened >= 0 else {
                throw ValidationError("--files-from \(path): \(WalkError.message(errno))")
            }
            fd = opened
            ownsFD = true
        }
    }

    /// Reads from an already open descriptor (not closed).
    init(fileDescriptor: Int32, separator: UInt8, label: String) {
        fd = fileDescriptor
        ownsFD = false
        self.separator = separator
        self.label = label
    }

    deinit { if ownsFD { close(fd) } }

    /// The next non-empty path, or nil at the end (or on a read error, reported in `readError`).
    func next() -> [UInt8]? {
        while true {
            if let sep = buffer[start...].firstIndex(of: separator) {
                let item = Array(buffer[start..<sep])
                start = sep + 1
                if item.isEmpty { continue }
                return item
            }
            if atEOF {
                guard start < buffer.count else { return nil }
                let item = Array(buffer[start...])
                start = buffer.count
                return item
            }
            if start > 0 {
                buffer.removeFirst(start)
                start = 0
            }
            let old = buffer.count
            buffer.append(contentsOf: repeatElement(0, count: 65536))
            var n: Int
            repeat {
                n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress! + old, 65536) }
            } while n < 0 && errno == EINTR
            if n < 0 { readError = WalkError(errno: errno) }
            buffer.removeLast(65536 - max(n, 0))
            if n <= 0 { atEOF = true }
        }
    }

    /// Set when reading the list failed.
    private(set) var readError: WalkError?
}

/// Walks operands and `--files-from` paths, recursively, in a deterministic order. Not
/// thread-safe: iterate on one thread; the entries are `Sendable` and can go to workers.
final class Walker: IteratorProtocol, Sequence {
    private struct Frame {
        let handle: DirectoryHandle
        let prefix: [UInt8]
        let names: [(name: [UInt8], type: UInt8)]
        var index: Int
        let device: UInt64
        let inode: UInt64
        let depth: Int
    }

    let options: WalkOptions
    private var operands: [[UInt8]]
    private var operandIndex = 0
    private let filesFrom: FilesFromSource?
    private var stack: [Frame] = []
    private var pending: [WalkEntry] = []

    /// - Parameters:
    ///   - operands: paths as raw bytes (use `ArgumentBytes.raw` for command-line strings).
    ///   - filesFrom: paths read after the operands.
    init(operands: [[UInt8]], filesFrom: FilesFromSource? = nil, options: WalkOptions = WalkOptions()) {
        self.operands = operands
        self.filesFrom = filesFrom
        self.options = options
    }

    /// Set when reading `--files-from` failed (the walk ends early).
    var filesFromError: WalkError? { filesFrom?.readError }

    func next() -> WalkEntry? {
        while true {
            if !pending.isEmpty { return pending.removeFirst() }
            if stack.isEmpty {
                guard let (path, origin) = nextTopLevel() else { return nil }
                if let entry = visitTopLevel(path, origin: origin) { return entry }
                continue
            }
            let top = stack.count - 1
            if stack[top].index == stack[top].names.count {
                stack.removeLast()
                continue
            }
            let item = stack[top].names[stack[top].index]
            stack[top].index += 1
            if let entry = visitChild(item.name, dType: item.type, in: stack[top]) { return entry }
        }
    }

    private func nextTopLevel() -> ([UInt8], WalkEntry.Origin)? {
        if operandIndex < operands.count {
            defer { operandIndex += 1 }
            return (operands[operandIndex], .operand)
        }
        if let path = filesFrom?.next() { return (path, .filesFrom) }
        return nil
    }

    private func visitTopLevel(_ path: [UInt8], origin: WalkEntry.Origin) -> WalkEntry? {
        if options.dashIsStandardInput && origin == .operand && path == [UInt8(ascii: "-")] {
            return WalkEntry(path: path, parent: nil, name: path, kind: .standardInput, origin: origin,
                             followSymlinks: true, error: nil, depth: 0)
        }
        var st = stat()
        let rc = withCString(path) { fstatat(AT_FDCWD, $0, &st, 0) }
        if rc != 0 {
            return WalkEntry(path: path, parent: nil, name: path, kind: .unknown, origin: origin,
                             followSymlinks: true, error: WalkError(errno: errno), depth: 0)
        }
        let kind = FileKind(mode: st.st_mode)
        if kind == .directory {
            if origin == .filesFrom && !options.recurseFilesFromDirectories { return nil }
            return descend(parent: nil, name: path, path: path, origin: origin, follow: true, depth: 0)
        }
        if kind.isSpecial && !options.includeSpecialFiles { return nil }
        return WalkEntry(path: path, parent: nil, name: path, kind: kind, origin: origin,
                         followSymlinks: true, error: nil, depth: 0)
    }

    private func visitChild(_ name: [UInt8], dType: UInt8, in frame: Frame) -> WalkEntry? {
        if !options.includeHidden && name.first == UInt8(ascii: ".") { return nil }
        let path = frame.prefix + name
        let depth = frame.depth + 1
        var kind = FileKind(dType: dType)
        if kind == nil || (kind == .symlink && options.followSymlinks) {
            var st = stat()
            let flags = options.followSymlinks ? 0 : AT_SYMLINK_NOFOLLOW
            let rc = withCString(name) { fstatat(frame.handle.fd, $0, &st, flags) }
            if rc != 0 {
                // Vanished since readdir, or a dangling symlink when following.
                return WalkEntry(path: path, parent: frame.handle, name: name, kind: kind ?? .unknown,
                                 origin: .tree, followSymlinks: options.followSymlinks,
                                 error: WalkError(errno: errno), depth: depth)
            }
            kind = FileKind(mode: st.st_mode)
        }
        switch kind! {
        case .symlink:
            return nil  // not following: skipped silently
        case .directory:
            return descend(parent: frame.handle, name: name, path: path, origin: .tree,
                           follow: options.followSymlinks, depth: depth)
        case let k where k.isSpecial:
            guard options.includeSpecialFiles else { return nil }
            return WalkEntry(path: path, parent: frame.handle, name: name, kind: k, origin: .tree,
                             followSymlinks: options.followSymlinks, error: nil, depth: depth)
        case let k:
            return WalkEntry(path: path, parent: frame.handle, name: name, kind: k, origin: .tree,
                             followSymlinks: options.followSymlinks, error: nil, depth: depth,
                             knownRegular: Int(dType) == Int(DT_REG))
        }
    }

    /// Opens and lists a directory, pushing a frame; returns an entry to yield (an error, or the
    /// directory itself with `yieldDirectories`), or nil.
    private func descend(parent: DirectoryHandle?, name: [UInt8], path: [UInt8], origin: WalkEntry.Origin,
                         follow: Bool, depth: Int) -> WalkEntry? {
        func failure(_ error: WalkError) -> WalkEntry {
            WalkEntry(path: path, parent: parent, name: name, kind: .directory, origin: origin,
                      followSymlinks: follow, error: error, depth: depth)
        }
        let flags = O_RDONLY | O_DIRECTORY | O_CLOEXEC | O_NONBLOCK | (follow ? 0 : O_NOFOLLOW)
        var fd: Int32
        repeat {
            fd = withCString(name) { openat(parent?.fd ?? AT_FDCWD, $0, flags) }
        } while fd < 0 && errno == EINTR
        if fd < 0 { return failure(WalkError(errno: errno)) }
        let handle = DirectoryHandle(fd: fd)
        var st = stat()
        if fstat(fd, &st) != 0 { return failure(WalkError(errno: errno)) }
        let device = UInt64(st.st_dev), inode = UInt64(st.st_ino)
        if stack.contains(where: { $0.device == device && $0.inode == inode }) {
            return failure(WalkError(kind: .loop))
        }
        // List with a duplicate descriptor (closedir closes it); keep `fd` for openat.
        let listFD = dup(fd)
        if listFD < 0 { return failure(WalkError(errno: errno)) }
        guard let dir = fdopendir(listFD) else {
            let code = errno
            close(listFD)
            return failure(WalkError(errno: code))
        }
        var names: [(name: [UInt8], type: UInt8)] = []
        errno = 0
        while let ent = readdir(dir) {
            let entryName: [UInt8] = withUnsafePointer(to: &ent.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: UInt8.self, capacity: MemoryLayout.size(ofValue: tuple.pointee)) { p in
                    Array(UnsafeBufferPointer(start: p, count: strlen(UnsafeRawPointer(p).assumingMemoryBound(to: CChar.self))))
                }
            }
            if entryName == [46] || entryName == [46, 46] { continue }
            names.append((entryName, ent.pointee.d_type))
        }
        let readError = errno
        closedir(dir)
        if readError != 0 { return failure(WalkError(errno: readError)) }
        names.sort { Walker.bytewisePrecedes($0.name, $1.name) }
        var prefix = path
        if prefix.last != UInt8(ascii: "/") { prefix.append(UInt8(ascii: "/")) }
        stack.append(Frame(handle: handle, prefix: prefix, names: names, index: 0,
                           device: device, inode: inode, depth: depth))
        if options.yieldDirectories {
            return WalkEntry(path: path, parent: parent, name: name, kind: .directory, origin: origin,
                             followSymlinks: follow, error: nil, depth: depth)
        }
        return nil
    }

    /// `a.lexicographicallyPrecedes(b)` (unsigned bytes, a prefix first), with `memcmp`.
    static func bytewisePrecedes(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        a.withUnsafeBufferPointer { pa in
            b.withUnsafeBufferPointer { pb in
                let n = Swift.min(pa.count, pb.count)
                if n > 0 {
                    let c = memcmp(pa.baseAddress!, pb.baseAddress!, n)
                    if c != 0 { return c < 0 }
                }
                return pa.count < pb.count
            }
        }
    }

    private func withCString<R>(_ bytes: [UInt8], _ body: (UnsafePointer<CChar>) -> R) -> R {
        WalkEntry.withCString(bytes, body)
    }
}

// MARK: - Bytes and text

/// Raw command-line bytes: Swift decodes argv as UTF-8 with repair, which loses invalid bytes.
enum ArgumentBytes {
    /// The raw argv bytes of `argument` (the first argv entry that decodes to it), or its UTF-8.
    static func raw(_ argument: String) -> [UInt8] {
        let argv = CommandLine.unsafeArgv
        for i in 1..<Int(CommandLine.argc) {
            guard let p = argv[i] else { continue }
            let bytes = UnsafeRawBufferPointer(start: p, count: strlen(p))
            if PathText.isValidUTF8(bytes) { continue }
            if String(decoding: bytes, as: UTF8.self) == argument { return Array(bytes) }
        }
        return Array(argument.utf8)
    }
}

/// How paths are shown as text, losslessly.
///
/// A path that is valid UTF-8 is shown as it is. A path that is not is shown with each byte
/// that is not part of valid UTF-8 written `%XX` (two upper-case hex digits) and each `%` written
/// `%25`; valid characters stay as they are. (JSON and CSV output also carry the raw bytes of
/// such a path, base64-encoded, in `pathBytes`.)
enum PathText {
    static func isValidUTF8<C: Collection>(_ bytes: C) -> Bool where C.Element == UInt8 {
        var i = bytes.startIndex
        while i != bytes.endIndex {
            let n = scalarLength(bytes, at: i)
            if n == 0 { return false }
            i = bytes.index(i, offsetBy: n)
        }
        return true
    }

    /// The length of the valid UTF-8 scalar at `i`, or 0.
    static func scalarLength<C: Collection>(_ b: C, at i: C.Index) -> Int where C.Element == UInt8 {
        let c0 = b[i]
        if c0 < 0x80 { return 1 }
        func cont(_ k: Int) -> UInt8? {
            let j = b.index(i, offsetBy: k, limitedBy: b.endIndex)
            guard let j, j != b.endIndex else { return nil }
            let c = b[j]
            return c & 0xC0 == 0x80 ? c : nil
        }
        switch c0 {
        case 0xC2...0xDF: return cont(1) != nil ? 2 : 0
        case 0xE0...0xEF:
            guard let c1 = cont(1), cont(2) != nil else { return 0 }
            if c0 == 0xE0 && c1 < 0xA0 { return 0 }
            if c0 == 0xED && c1 >= 0xA0 { return 0 }  // surrogates
            return 3
        case 0xF0...0xF4:
            guard let c1 = cont(1), cont(2) != nil, cont(3) != nil else { return 0 }
            if c0 == 0xF0 && c1 < 0x90 { return 0 }
            if c0 == 0xF4 && c1 >= 0x90 { return 0 }
            return 4
        default: return 0
        }
    }

    /// The lossless text form (see the type's documentation).
    static func display(_ bytes: [UInt8]) -> String {
        if isValidUTF8(bytes) { return String(decoding: bytes, as: UTF8.self) }
        let hex = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var i = 0
        while i < bytes.count {
            let n = scalarLength(bytes, at: i)
            if n == 0 {
                out += [UInt8(ascii: "%"), hex[Int(bytes[i] >> 4)], hex[Int(bytes[i] & 15)]]
                i += 1
            } else if bytes[i] == UInt8(ascii: "%") {
                out += Array("%25".utf8)
                i += 1
            } else {
                out += bytes[i..<(i + n)]
                i += n
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// Standard base64 (with padding).
    static func base64(_ bytes: [UInt8]) -> String {
        let table = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        var out: [UInt8] = []
        var i = 0
        while i + 2 < bytes.count {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8 | UInt32(bytes[i + 2])
            out += [table[Int(v >> 18)], table[Int(v >> 12 & 63)], table[Int(v >> 6 & 63)], table[Int(v & 63)]]
            i += 3
        }
        let rest = bytes.count - i
        if rest == 1 {
            let v = UInt32(bytes[i]) << 16
            out += [table[Int(v >> 18)], table[Int(v >> 12 & 63)], UInt8(ascii: "="), UInt8(ascii: "=")]
        } else if rest == 2 {
            let v = UInt32(bytes[i]) << 16 | UInt32(bytes[i + 1]) << 8
            out += [table[Int(v >> 18)], table[Int(v >> 12 & 63)], table[Int(v >> 6 & 63)], UInt8(ascii: "=")]
        }
        return String(decoding: out, as: UTF8.self)
    }
}
