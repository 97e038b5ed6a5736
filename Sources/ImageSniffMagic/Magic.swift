// A thin wrapper over libmagic (the engine of `file`), for cross-checking ImageSniff's answers.
// The core library never needs it: this module is separate and links libmagic through the
// `CLibMagic` system-library target.

import CLibMagic
import ImageSniff

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An error from libmagic: the database could not be loaded, or a file could not be examined.
public struct MagicError: Error, Sendable, Hashable, CustomStringConvertible {
    /// libmagic's own text (`magic_error`), or ours when libmagic gave none.
    public let message: String
    /// The `errno` behind the error (`magic_errno`, or the failing system call's), or 0.
    public let code: Int32

    public init(_ message: String, code: Int32 = 0) {
        self.message = message
        self.code = code
    }

    public var description: String { message }
}

/// What libmagic says about some bytes or a file.
public struct MagicResult: Sendable, Hashable {
    /// The MIME type (`file --mime-type`), e.g. `"image/x-canon-cr2"`. Unknown binary data is
    /// `application/octet-stream`, an empty file `application/x-empty` (libmagic says
    /// `inode/x-empty` only when it stats a path itself, as `file` does).
    public let mimeType: String
    /// The description (`file -b`), e.g. `"Canon CR2 raw image data, version 2.0"`.
    public let description: String
    /// The extensions libmagic associates with the match (`file --extension`), without dots;
    /// empty when it knows none, nil when not asked for.
    public let extensions: [String]?

    public init(mimeType: String, description: String, extensions: [String]? = nil) {
        self.mimeType = mimeType
        self.description = description
        self.extensions = extensions
    }
}

/// One libmagic handle (`magic_t`) with its database loaded.
///
/// libmagic handles are not thread-safe, so neither is this class: **use one instance per
/// thread** (each worker of a parallel scan creates its own, or calls `Magic.forCurrentThread()`).
/// Loading the database costs a few milliseconds and about a megabyte; a lookup costs roughly
/// 50 times what ImageSniff's detection does, so create an instance once and reuse it.
///
/// ```swift
/// let magic = try Magic()                         // honours $MAGIC, like `file`
/// let r = try magic.identify(fileAt: "a.nef")     // MIME type and description
/// r.mimeType                                      // "image/tiff"
/// ```
public final class Magic {
    private let cookie: magic_t
    private var flags: Int32

    /// Base flags of every query: report system errors as errors rather than as text.
    private static let baseFlags = MAGIC_ERROR

    /// Opens a handle and loads a magic database.
    ///
    /// - Parameter databasePath: a compiled `.mgc` file or a colon-separated list, or nil for
    ///   libmagic's default, which honours `$MAGIC` exactly as `file` does.
    /// - Throws: `MagicError` with libmagic's message when the database cannot be loaded.
    public init(databasePath: String? = nil) throws(MagicError) {
        guard let cookie = magic_open(Self.baseFlags) else {
            throw MagicError("libmagic: cannot create a handle (\(Magic.errnoText(errno)))", code: errno)
        }
        if magic_load(cookie, databasePath) != 0 {
            let error = Magic.error(cookie, fallback: "cannot load the magic database")
            magic_close(cookie)
            let source = databasePath ?? getenv("MAGIC").map { String(cString: $0) }
            throw MagicError("libmagic: \(error.message)" + (source.map { " (database: \($0))" } ?? ""),
                             code: error.code)
        }
        self.cookie = cookie
        self.flags = Self.baseFlags
    }

    deinit { magic_close(cookie) }

    /// The version of the linked libmagic, e.g. 544 for 5.44.
    public static var version: Int { Int(magic_version()) }

    // MARK: Bytes

    /// Identifies bytes held in memory, taken to be the whole data.
    ///
    /// - Parameter extensions: also ask for libmagic's extensions (a third lookup).
    public func identify(_ bytes: UnsafeRawBufferPointer, extensions: Bool = false) throws(MagicError) -> MagicResult {
        try identify(extensions: extensions) { (cookie) in
            magic_buffer(cookie, bytes.baseAddress, bytes.count)
        }
    }

    /// Identifies bytes held in memory, taken to be the whole data.
    public func identify<Bytes: Collection>(_ bytes: Bytes, extensions: Bool = false) throws(MagicError) -> MagicResult
    where Bytes.Element == UInt8 {
        let result = bytes.withContiguousStorageIfAvailable { (buffer) -> Result<MagicResult, MagicError> in
            do throws(MagicError) {
                return .success(try identify(UnsafeRawBufferPointer(buffer), extensions: extensions))
            } catch { return .failure(error) }
        }
        if let result { return try result.get() }
        let copy = Array(bytes)
        let copied = copy.withUnsafeBytes { (buffer) -> Result<MagicResult, MagicError> in
            do throws(MagicError) {
                return .success(try identify(buffer, extensions: extensions))
            } catch { return .failure(error) }
        }
        return try copied.get()
    }

    /// libmagic's MIME type for bytes held in memory.
    public func mimeType<Bytes: Collection>(of bytes: Bytes) throws(MagicError) -> String where Bytes.Element == UInt8 {
        try identify(bytes).mimeType
    }

    // MARK: Files

    /// Identifies the file at `path`, following symbolic links.
    ///
    /// Unlike `magic_file`, this never opens a FIFO, socket or device: the path is checked with
    /// `stat` first, opened with `O_NONBLOCK`, checked again with `fstat`, and handed to
    /// `magic_descriptor`, so libmagic sees the real file (its size and tail included), exactly
    /// as `file` would.
    public func identify(fileAt path: String, extensions: Bool = false) throws(MagicError) -> MagicResult {
        var st = stat()
        if stat(path, &st) != 0 { throw Magic.systemError("cannot stat", path: path) }
        try Magic.requireRegular(st.st_mode, path: path)
        let fd = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY)
        if fd < 0 { throw Magic.systemError("cannot open", path: path) }
        defer { close(fd) }
        return try identify(fileDescriptor: fd, extensions: extensions)
    }

    /// Identifies an open regular file, from its start. The descriptor's offset is left as it was
    /// and the descriptor stays open.
    public func identify(fileDescriptor fd: Int32, extensions: Bool = false) throws(MagicError) -> MagicResult {
        var st = stat()
        if fstat(fd, &st) != 0 { throw Magic.systemError("cannot stat", path: nil) }
        try Magic.requireRegular(st.st_mode, path: nil)
        return try identify(extensions: extensions) { (cookie) in
            // magic_descriptor reads from the current offset and puts it back; start at 0.
            let saved = lseek(fd, 0, SEEK_CUR)
            if saved > 0 { lseek(fd, 0, SEEK_SET) }
            defer { if saved > 0 { lseek(fd, saved, SEEK_SET) } }
            return magic_descriptor(cookie, fd)
        }
    }

    // MARK: Internals

    private func identify(extensions: Bool, _ query: (magic_t) -> UnsafePointer<CChar>?) throws(MagicError) -> MagicResult {
        let mime = try run(MAGIC_MIME_TYPE, query)
        let description: String
        do {
            description = try run(MAGIC_NONE, query)
        } catch where error.code == 0 {
            // Not a system error but one of libmagic's own limits, met while describing (a JPEG
            // with more than 50 segments of Photoshop data: "name use count (50) exceeded"):
            // `file` prints it as the description, and the MIME type it found stands.
            description = "ERROR: \(error.message)"
        }
        var list: [String]?
        if extensions {
            let text = try run(MAGIC_EXTENSION, query)
            list = text == "???" ? [] : text.split(separator: "/").map(String.init).filter { $0 != "???" }
        }
        return MagicResult(mimeType: mime, description: description, extensions: list)
    }

    private func run(_ mode: Int32, _ query: (magic_t) -> UnsafePointer<CChar>?) throws(MagicError) -> String {
        let wanted = Self.baseFlags | mode
        if flags != wanted {
            if magic_setflags(cookie, wanted) != 0 {
                throw MagicError("libmagic: flags not supported (\(wanted))", code: EINVAL)
            }
            flags = wanted
        }
        guard let text = query(cookie) else {
            throw Magic.error(cookie, fallback: "no answer")
        }
        return String(cString: text)
    }

    private static func error(_ cookie: magic_t, fallback: String) -> MagicError {
        let code = magic_errno(cookie)
        if let text = magic_error(cookie) { return MagicError(String(cString: text), code: code) }
        return MagicError(code != 0 ? errnoText(code) : fallback, code: code)
    }

    private static func requireRegular(_ mode: mode_t, path: String?) throws(MagicError) {
        let kind = mode & S_IFMT
        guard kind != S_IFREG else { return }
        let what: String
        switch kind {
        case S_IFDIR: what = "a directory"
        case S_IFIFO: what = "a FIFO"
        case S_IFSOCK: what = "a socket"
        case S_IFCHR, S_IFBLK: what = "a device"
        default: what = "not a regular file"
        }
        throw MagicError((path.map { "\($0): " } ?? "") + "not examined: \(what)",
                         code: kind == S_IFDIR ? EISDIR : EINVAL)
    }

    private static func systemError(_ what: String, path: String?) -> MagicError {
        let code = errno
        return MagicError((path.map { "\($0): " } ?? "") + "\(what) (\(errnoText(code)))", code: code)
    }

    static func errnoText(_ code: Int32) -> String {
        strerror(code).map { String(cString: $0) } ?? "error \(code)"
    }
}

// MARK: - One instance per thread

extension Magic {
    /// The calling thread's own `Magic` on the default database (honouring `$MAGIC`), created on
    /// first use and released when the thread exits. For worker pools whose threads outlive a
    /// single task (Dispatch's, the CLI's): every worker gets one handle, loaded once.
    ///
    /// Never pass the returned instance to another thread, and in async code use it without an
    /// `await` in between (a task may resume on another thread).
    public static func forCurrentThread() throws(MagicError) -> Magic {
        let key = ThreadSlot.key
        if let raw = pthread_getspecific(key) {
            return Unmanaged<Magic>.fromOpaque(raw).takeUnretainedValue()
        }
        let magic = try Magic()
        pthread_setspecific(key, Unmanaged.passRetained(magic).toOpaque())
        return magic
    }
}

private enum ThreadSlot {
    static let key: pthread_key_t = {
        var key = pthread_key_t()
        let status = pthread_key_create(&key) { raw in
            #if canImport(Darwin)
            Unmanaged<Magic>.fromOpaque(raw).release()
            #else
            if let raw { Unmanaged<Magic>.fromOpaque(raw).release() }
            #endif
        }
        precondition(status == 0, "pthread_key_create failed: \(status)")
        return key
    }()
}
