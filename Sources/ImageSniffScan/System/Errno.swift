// `errno` values as a type, and the one place that retries system calls on EINTR.

/// A system error number, with libc's text for it.
public struct Errno: Error, Sendable, Hashable, CustomStringConvertible {
    public let rawValue: Int32

    public init(_ rawValue: Int32) { self.rawValue = rawValue }

    /// The calling thread's `errno`.
    package static var current: Errno { Errno(errno) }

    package static let notFound = Errno(ENOENT)
    package static let notDirectory = Errno(ENOTDIR)
    package static let permissionDenied = Errno(EACCES)
    package static let notPermitted = Errno(EPERM)
    package static let exists = Errno(EEXIST)
    package static let interrupted = Errno(EINTR)
    package static let brokenPipe = Errno(EPIPE)
    package static let noSpace = Errno(ENOSPC)
    package static let tooManyOpenFiles = Errno(EMFILE)
    package static let loop = Errno(ELOOP)
    package static let isDirectory = Errno(EISDIR)
    package static let invalid = Errno(EINVAL)
    package static let staleHandle = Errno(ESTALE)
    package static let nameTooLong = Errno(ENAMETOOLONG)
    package static let wouldBlock = Errno(EAGAIN)

    /// libc's message, starting lower-case as command-line messages do: "no such file or directory".
    public var description: String {
        guard let s = strerror(rawValue) else { return "error \(rawValue)" }
        var text = String(cString: s)
        if let first = text.first, first.isUppercase, text.dropFirst().first?.isLowercase ?? true {
            text = first.lowercased() + text.dropFirst()
        }
        return text
    }

    /// A stable name for machines: "ENOENT", "EACCES", ... (or "E" and the number).
    public var name: String {
        switch rawValue {
        case ENOENT: return "ENOENT"
        case ENOTDIR: return "ENOTDIR"
        case EACCES: return "EACCES"
        case EPERM: return "EPERM"
        case EEXIST: return "EEXIST"
        case EISDIR: return "EISDIR"
        case ELOOP: return "ELOOP"
        case EMFILE: return "EMFILE"
        case ENFILE: return "ENFILE"
        case ENOSPC: return "ENOSPC"
        case EIO: return "EIO"
        case EPIPE: return "EPIPE"
        case ENAMETOOLONG: return "ENAMETOOLONG"
        case ESTALE: return "ESTALE"
        case EINVAL: return "EINVAL"
        case EAGAIN: return "EAGAIN"
        case EXDEV: return "EXDEV"
        case EROFS: return "EROFS"
        case EBUSY: return "EBUSY"
        case EINTR: return "EINTR"
        case ENXIO: return "ENXIO"
        case EFBIG: return "EFBIG"
        case EOVERFLOW: return "EOVERFLOW"
        default: return "E\(rawValue)"
        }
    }
}

/// Calls `body` until it does not fail with EINTR: a result below zero is a failure with `errno`
/// set. Returns the result, or throws the `Errno` of a failure.
@inline(__always)
package func retryingOnInterrupt<R: BinaryInteger>(_ body: () -> R) throws(Errno) -> R {
    while true {
        let r = body()
        if r >= 0 { return r }
        let e = errno
        if e != EINTR { throw Errno(e) }
    }
}

extension Array where Element == UInt8 {
    /// `withUnsafeMutableBytes` for a body that throws an `Errno` (the standard library's
    /// `rethrows` loses the error's type).
    package mutating func withMutableBytes<R>(_ body: (UnsafeMutableRawBufferPointer) throws(Errno) -> R) throws(Errno) -> R {
        let result: Result<R, Errno> = withUnsafeMutableBytes { raw in
            do throws(Errno) { return .success(try body(raw)) } catch { return .failure(error) }
        }
        return try result.get()
    }
}
