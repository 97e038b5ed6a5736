// Reading a file under the read plan (ReadPlan.swift): one open, one pread of 4 KiB, one close on
// the common path; more of the first bytes, or a far window where it lies, only when a check asks
// for it (within the `ReadBudget`), and one pread of the last bytes for trailers. The whole file
// only for a whole-file check that walks it (`ReadBudget.verify`). No Foundation.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Why a file could not be read.
public struct FileError: Error, Sendable, Hashable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        case notFound
        case permissionDenied
        case isDirectory
        /// A FIFO, socket, device or other non-regular file: never opened.
        case notRegularFile(String)
        /// Any other system error (`errno` in `code`).
        case system
    }

    public let kind: Kind
    /// The `errno` value behind the error, or 0.
    public let code: Int32

    public init(kind: Kind, code: Int32 = 0) {
        self.kind = kind
        self.code = code
    }

    package init(errno code: Int32) {
        switch code {
        case ENOENT, ENOTDIR: self.init(kind: .notFound, code: code)
        case EACCES, EPERM: self.init(kind: .permissionDenied, code: code)
        case EISDIR: self.init(kind: .isDirectory, code: code)
        default: self.init(kind: .system, code: code)
        }
    }

    public var description: String {
        switch kind {
        case .notFound: return "no such file or directory"
        case .permissionDenied: return "permission denied"
        case .isDirectory: return "is a directory"
        case .notRegularFile(let what): return "not a regular file (\(what))"
        case .system:
            if let s = strerror(code) { return String(cString: s) }
            return "error \(code)"
        }
    }

    /// The inspection was stopped by its `FileSniffer.cancellationCheck`.
    public static let cancelled = FileError(kind: .system, code: ECANCELED)

    /// Whether the inspection was stopped by its `FileSniffer.cancellationCheck`.
    public var isCancellation: Bool { self == .cancelled }

    /// A name for the kind of a non-regular file, from its `st_mode`.
    static func fileKind(_ mode: mode_t) -> String {
        switch mode & S_IFMT {
        case S_IFIFO: return "FIFO"
        case S_IFSOCK: return "socket"
        case S_IFCHR: return "character device"
        case S_IFBLK: return "block device"
        case S_IFDIR: return "directory"
        case S_IFLNK: return "symbolic link"
        default: return "special file"
        }
    }
}

/// Reads what detection (and properties) ask for from files, into buffers it reuses: create one
/// per thread (or task) and call it for every file, so that scanning allocates nothing per file
/// that is answered from its first bytes.
public final class FileSniffer {
    /// What changes from file to file, behind a pointer: the class's stored properties would be
    /// checked for exclusive access at every use (a dozen times a file); these are not.
    private struct State {
        var buffer: UnsafeMutableRawBufferPointer
        var tailBuffer: UnsafeMutableRawBufferPointer
        var windows = WindowStore()
        var lastBytesRead = 0
        var lastReadCount = 0
        var lastLength = 0
        /// How many of the file's first bytes the buffer holds after the last detection.
        var held = 0
        var adviseRandomAccess = false
        /// The file being read was opened here (or by the scan) with O_NONBLOCK, which may be
        /// taken off it (see `pread`); never a caller's descriptor.
        var ownsDescriptor = false
        var cancellationCheck: (@Sendable () -> Bool)?
    }
    private let state: UnsafeMutablePointer<State>

    /// What each inspection may read (see `ReadBudget`).
    public let budget: ReadBudget

    /// How many bytes the last detection read from its file (the first bytes, far windows and the
    /// last bytes), for callers and tests that watch the cost.
    public var lastBytesRead: Int { state.pointee.lastBytesRead }
    /// How many `pread` calls the last detection made.
    public var lastReadCount: Int { state.pointee.lastReadCount }
    /// The length of the last file detected (as far as it could be read).
    public var lastLength: Int { state.pointee.lastLength }
    /// Tell the kernel, after opening each file by path, that it is read at random
    /// (`posix_fadvise(POSIX_FADV_RANDOM)`): no readahead beyond the bytes asked for. It saves
    /// device reads on a tree that is not in the page cache (a small file is otherwise read
    /// whole for its first 4 KiB); a later read of the same file then costs a read of its own.
    /// One more system call a file: off by default.
    package var adviseRandomAccess: Bool {
        get { state.pointee.adviseRandomAccess }
        set { state.pointee.adviseRandomAccess = newValue }
    }

    /// Asked before each read: when it returns true, the inspection stops with an error whose
    /// `isCancellation` is true (`ECANCELED`). A whole-file check (`ReadBudget.verifying`) reads
    /// all of a file that wants it, gigabytes for a large one; this is how a caller stops it (a
    /// signal's flag, a task's cancellation). Nil (the default): never stopped.
    public var cancellationCheck: (@Sendable () -> Bool)? {
        get { state.pointee.cancellationCheck }
        set { state.pointee.cancellationCheck = newValue }
    }

    public init(budget: ReadBudget = .default) {
        self.budget = budget
        state = .allocate(capacity: 1)
        state.initialize(to: State(buffer: .forReads(Limits.initialRead),
                                   tailBuffer: .allocate(byteCount: Limits.tailLength, alignment: 16)))
    }

    deinit {
        state.pointee.buffer.deallocate()
        state.pointee.tailBuffer.deallocate()
        state.pointee.windows.reset()
        state.deinitialize(count: 1)
        state.deallocate()
    }

    /// Calls `body` with the first bytes of the last file detected, as the detection read them
    /// (no more I/O; valid only during the call, and only until the next detection).
    public func withLastPrefix<R>(_ body: (UnsafeRawBufferPointer) throws -> R) rethrows -> R {
        try body(UnsafeRawBufferPointer(rebasing: state.pointee.buffer[..<state.pointee.held]))
    }

    /// Detects the format of the file at `path`, following symbolic links. Refuses (without
    /// opening it) anything that is not a regular file.
    public func detect(fileAt path: String, hint: String? = nil) throws(FileError) -> Detection {
        try inspect(fileAt: path, hint: hint, properties: false).detection
    }

    /// Detects the format of the file at `path` and reads its image's properties (see
    /// `ImageSniffer.inspect(_:hint:)`), wherever in the file they lie, within `budget`.
    public func inspect(fileAt path: String, hint: String? = nil) throws(FileError) -> Inspection {
        try inspect(fileAt: path, hint: hint, properties: true)
    }

    private func inspect(fileAt path: String, hint: String?, properties: Bool) throws(FileError) -> Inspection {
        var bytes = Array(path.utf8CString)
        return try bytes.withUnsafeMutableBufferPointer { (p) throws(FileError) -> Inspection in
            try inspect(path: p.baseAddress!, relativeTo: AT_FDCWD, hint: hint, followSymlinks: true, properties: properties)
        }
    }

    /// Detects the format of `path` (a NUL-terminated byte string, any encoding) relative to the
    /// directory `directory` (`AT_FDCWD` for the working directory).
    ///
    /// The file's status is taken with `fstatat` immediately before it is opened: FIFOs, sockets
    /// and devices are refused without being opened. A window remains between the two calls that
    /// no system call closes (a file swapped for a FIFO or device in it is opened, with
    /// `O_NONBLOCK | O_NOCTTY`); the open descriptor is checked with `fstat` (a regular file, and
    /// the same one) before a byte is read, so such a file is refused, never read.
    ///
    /// - Parameters:
    ///   - path: the file's name or path, NUL-terminated, as raw bytes.
    ///   - directory: a directory descriptor `path` is relative to, or `AT_FDCWD`.
    ///   - hint: an identifier, filename extension or MIME type (see `ImageSniffer.detect(_:hint:)`).
    ///   - followSymlinks: when false, a symbolic link is refused rather than followed.
    public func detect(path: UnsafePointer<CChar>, relativeTo directory: Int32, hint: String? = nil,
                       followSymlinks: Bool = true) throws(FileError) -> Detection {
        try inspect(path: path, relativeTo: directory, hint: hint, followSymlinks: followSymlinks, properties: false).detection
    }

    /// `detect(path:relativeTo:hint:followSymlinks:)` and the image's properties (see
    /// `inspect(fileAt:hint:)`).
    public func inspect(path: UnsafePointer<CChar>, relativeTo directory: Int32, hint: String? = nil,
                        followSymlinks: Bool = true) throws(FileError) -> Inspection {
        try inspect(path: path, relativeTo: directory, hint: hint, followSymlinks: followSymlinks, properties: true)
    }

    private func inspect(path: UnsafePointer<CChar>, relativeTo directory: Int32, hint: String?,
                         followSymlinks: Bool, properties: Bool) throws(FileError) -> Inspection {
        var before = stat()
        if fstatat(directory, path, &before, followSymlinks ? 0 : AT_SYMLINK_NOFOLLOW) != 0 { throw FileError(errno: errno) }
        guard before.st_mode & S_IFMT == S_IFREG else {
            if before.st_mode & S_IFMT == S_IFDIR { throw FileError(kind: .isDirectory, code: EISDIR) }
            throw FileError(kind: .notRegularFile(FileError.fileKind(before.st_mode)))
        }
        let flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | (followSymlinks ? 0 : O_NOFOLLOW)
        let fd = openat(directory, path, flags)
        if fd < 0 { throw FileError(errno: errno) }
        defer { close(fd) }
        #if os(Linux)
        if state.pointee.adviseRandomAccess { _ = posix_fadvise(fd, 0, 0, POSIX_FADV_RANDOM) }
        #endif
        return try inspect(fileDescriptor: fd, hint: hint, expecting: before, properties: properties)
    }

    /// Detects the format of an open file descriptor (reads with `pread`, so the file offset is
    /// left alone). The descriptor must be a regular file.
    public func detect(fileDescriptor fd: Int32, hint: String? = nil) throws(FileError) -> Detection {
        try inspect(fileDescriptor: fd, hint: hint, expecting: nil, properties: false).detection
    }

    /// `detect(fileDescriptor:hint:)` and the image's properties.
    public func inspect(fileDescriptor fd: Int32, hint: String? = nil) throws(FileError) -> Inspection {
        try inspect(fileDescriptor: fd, hint: hint, expecting: nil, properties: true)
    }

    /// `expecting`: the status taken before opening; the open file must be that one.
    private func inspect(fileDescriptor fd: Int32, hint: String?, expecting: stat?, properties: Bool) throws(FileError) -> Inspection {
        var st = stat()
        if fstat(fd, &st) != 0 { throw FileError(errno: errno) }
        guard st.st_mode & S_IFMT == S_IFREG else {
            throw FileError(kind: .notRegularFile(FileError.fileKind(st.st_mode)))
        }
        if let expecting, expecting.st_dev != st.st_dev || expecting.st_ino != st.st_ino {
            throw FileError(kind: .notRegularFile("replaced while being opened"))
        }
        return try inspect(checkedFile: fd, length: Int(st.st_size), prefix: nil, owned: expecting != nil, hint: hint, properties: properties)
    }

    /// Detects the format of a file opened and checked elsewhere (a regular file, the one meant):
    /// `length` is its size, `prefix` its first bytes as read there (up to 4 KiB; fewer than the
    /// file holds only when it shrank). The answer is the one `inspect(fileDescriptor:)` gives:
    /// the prefix takes the place of the first read, and the rest is read as usual. What a scan
    /// that reads many files' first bytes at once (io_uring) hands over.
    package func inspect(openedFile fd: Int32, length: Int, prefix: UnsafeRawBufferPointer,
                         hint: String?, properties: Bool) throws(FileError) -> Inspection {
        try inspect(checkedFile: fd, length: length, prefix: prefix, owned: true, hint: hint, properties: properties)
    }

    private func inspect(checkedFile fd: Int32, length size: Int, prefix: UnsafeRawBufferPointer?, owned: Bool,
                         hint: String?, properties: Bool) throws(FileError) -> Inspection {
        state.pointee.ownsDescriptor = owned
        state.pointee.lastBytesRead = 0
        state.pointee.lastReadCount = 0
        state.pointee.held = 0
        state.pointee.windows.reset()
        var source = FileSource(sniffer: self, fd: fd, length: size)
        defer {
            state.pointee.lastLength = source.length
            state.pointee.held = source.held
        }
        // The first read: 4 KiB settles nearly every file.
        let first: Int
        if let prefix {
            let given = min(prefix.count, size, Limits.initialRead)
            if given > 0 { state.pointee.buffer.baseAddress!.copyMemory(from: prefix.baseAddress!, byteCount: given) }
            state.pointee.lastBytesRead = given
            state.pointee.lastReadCount = 1
            // A read may give less than asked without the file having shrunk (a network file
            // system): read on, as the usual path's read loop does.
            first = try read(fd, have: given, count: min(size, Limits.initialRead))
        } else {
            first = try read(fd, count: min(size, Limits.initialRead))
        }
        source.held = first
        if first < min(size, Limits.initialRead) { source.length = first }  // shrank under us
        return try Inspector.run(&source, hint: hint, properties: properties)
    }

    /// The source the inspector reads this file through.
    private struct FileSource: ReadSource {
        let sniffer: FileSniffer
        let fd: Int32
        var length: Int
        var held = 0
        var tail: UnsafeRawBufferPointer?

        init(sniffer: FileSniffer, fd: Int32, length: Int) {
            self.sniffer = sniffer
            self.fd = fd
            self.length = length
        }

        var budget: ReadBudget { sniffer.budget }
        var reach: Reach { sniffer.state.pointee.windows.reach(sniffer.budget) }

        mutating func growPrefix(to n: Int) throws(FileError) {
            let got = try sniffer.read(fd, have: held, count: n)
            if got < n { length = got }  // shrank while we read
            held = got
        }

        var nearWindowsLeft: Int { ReadPlan.nearWindows - sniffer.state.pointee.windows.nearReads }

        mutating func fetchNearWindow(_ window: Range<Int>) throws(FileError) {
            try fetchWindow(window, near: true)
        }

        mutating func fetchWindow(_ window: Range<Int>) throws(FileError) {
            try fetchWindow(window, near: false)
        }

        private mutating func fetchWindow(_ window: Range<Int>, near: Bool) throws(FileError) {
            let fd = self.fd
            var failure: FileError?
            var got = 0
            let sniffer = self.sniffer
            sniffer.state.pointee.windows.add(window, near: near) { buffer in
                do throws(FileError) {
                    got = try FileSniffer.pread(fd, into: buffer, at: window.lowerBound, sniffer: sniffer)
                } catch {
                    failure = error
                }
                return got
            }
            if let failure { throw failure }
            if got < window.count && window.lowerBound + got < length { length = window.lowerBound + got }
        }

        mutating func readTail() throws(FileError) -> Bool {
            let n = min(Limits.tailLength, length)
            let got = Glibc.pread(fd, sniffer.state.pointee.tailBuffer.baseAddress, n, off_t(length - n))
            sniffer.state.pointee.lastReadCount += 1
            sniffer.state.pointee.lastBytesRead += max(got, 0)
            if got != n {
                length = held  // shrank: what we hold is all there is
                return false
            }
            tail = UnsafeRawBufferPointer(rebasing: sniffer.state.pointee.tailBuffer[..<n])
            return true
        }

        /// The walk reads the file forward in blocks (`FrameWalk.blockSize`) from what it wants
        /// next (a block's bytes it does not want are passed over in memory, a gap by the offset).
        mutating func walk(_ w: inout FrameWalk) throws(FileError) -> FrameWalk.Progress {
            let limit = w.limit(budget)
            var progress = withView { w.advance($0, length: length, limit: limit) }
            guard case .wants = progress else { return progress }
            var size = w.blockSize
            var block = UnsafeMutableRawBufferPointer.forReads(size)
            defer { block.deallocate() }
            while case .wants(let r) = progress {
                if r.count > size && r.count <= FileSniffer.largestWalkStep {
                    // A step that wants more than a block (a TIFF IFD of thousands of entries)
                    // reads it whole.
                    block.deallocate()
                    size = r.count
                    block = .forReads(size)
                }
                let count = min(size, length - r.lowerBound)
                let got = try FileSniffer.pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: block[..<count]), at: r.lowerBound, sniffer: sniffer)
                if got < count { length = r.lowerBound + got }  // shrank while we read
                if got < r.count { return .truncated }
                let window = FarWindow(offset: r.lowerBound, bytes: UnsafeRawBufferPointer(rebasing: block[..<got]))
                progress = withUnsafePointer(to: window) {
                    w.advance(ByteView(base: UnsafeRawBufferPointer(start: nil, count: 0), windows: UnsafeBufferPointer(start: $0, count: 1)),
                              length: length, limit: limit)
                }
            }
            return progress
        }

        func withView<R>(_ body: (ByteView) -> R) -> R {
            sniffer.state.pointee.windows.withWindows { body(ByteView(base: UnsafeRawBufferPointer(rebasing: sniffer.state.pointee.buffer[..<held]), windows: $0)) }
        }
    }

    /// The most one step of a walk reads at once when it wants more than a block (a BigTIFF IFD
    /// of 4,096 entries is 82 KB).
    static let largestWalkStep = 1 << 20

    /// Reads `buffer.count` bytes at `offset` (fewer at the end of the file), retrying on EINTR
    /// and short reads.
    fileprivate static func pread(_ fd: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int,
                                  sniffer: FileSniffer) throws(FileError) -> Int {
        var done = 0
        while done < buffer.count {
            if let check = sniffer.state.pointee.cancellationCheck, check() { throw FileError.cancelled }
            let n = Glibc.pread(fd, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done))
            sniffer.state.pointee.lastReadCount += 1
            if n < 0 {
                if errno == EINTR { continue }
                // Opened with O_NONBLOCK (a FIFO swapped in must not hang the open) and checked
                // to be a regular file: a file system that will not read it without blocking
                // (FUSE, some network ones) is let block, and read again.
                if errno == EAGAIN, sniffer.state.pointee.ownsDescriptor, clearNonBlocking(fd) { continue }
                throw FileError(errno: errno)
            }
            if n == 0 { break }
            sniffer.state.pointee.lastBytesRead += n
            done += n
        }
        return done
    }

    /// Takes O_NONBLOCK off `fd`; false when it was off already (or cannot be taken off).
    private static func clearNonBlocking(_ fd: Int32) -> Bool {
        let flags = fcntl(fd, F_GETFL)
        guard flags >= 0, flags & O_NONBLOCK != 0 else { return false }
        return fcntl(fd, F_SETFL, flags & ~O_NONBLOCK) == 0
    }

    /// Makes the buffer hold the first `count` bytes of the file, given that it holds the first
    /// `have` already: reads only the missing part (growing the buffer, keeping what it has),
    /// retrying on EINTR and short reads. Returns how many bytes it holds (less at end of file).
    private func read(_ fd: Int32, have: Int = 0, count: Int) throws(FileError) -> Int {
        if count > state.pointee.buffer.count {
            let grown = UnsafeMutableRawBufferPointer.forReads(count)
            if have > 0 { grown.baseAddress!.copyMemory(from: state.pointee.buffer.baseAddress!, byteCount: have) }
            state.pointee.buffer.deallocate()
            state.pointee.buffer = grown
        }
        guard count > have else { return count }
        return have + (try FileSniffer.pread(fd, into: UnsafeMutableRawBufferPointer(rebasing: state.pointee.buffer[have..<count]), at: have, sniffer: self))
    }
}

extension UnsafeMutableRawBufferPointer {
    /// Storage that file bytes are read into, on a cache line's boundary (64 bytes). The kernel
    /// copies a page-cache page into it by its fast path only when both ends are so aligned: read
    /// from offset 0 into malloc's 16-byte alignment, 20,000 first reads of 4 KiB took about 13 %
    /// longer (`Benchmarks/.build-floors/floor --misalign 16`, against `--misalign 0`).
    static func forReads(_ count: Int) -> UnsafeMutableRawBufferPointer {
        .allocate(byteCount: count, alignment: 64)
    }
}

extension ImageSniffer {
    /// Detects the format of the file at `path` from its first 4 KiB (more, wherever it lies,
    /// only when a format needs it, within the default `ReadBudget`). Follows symbolic links;
    /// never opens FIFOs, sockets or devices.
    public static func detect(fileAt path: String, hint: String? = nil) throws(FileError) -> Detection {
        try FileSniffer().detect(fileAt: path, hint: hint)
    }

    /// Detects the format of the file at `path` and reads its image's properties from its header
    /// (see `inspect(_:hint:)`).
    public static func inspect(fileAt path: String, hint: String? = nil) throws(FileError) -> Inspection {
        try FileSniffer().inspect(fileAt: path, hint: hint)
    }
}
