import CSystemShim

/// One thread's io_uring ring (see `imgsniff_ring_create`): up to `depth` files in flight, each
/// through the calls the usual path makes, their first 4 KiB read. Used by a scan worker while
/// reads wait on the device (a tree that is not in the page cache); never shared between threads.
final class ReadRing {
    private let ring: OpaquePointer
    let depth: Int

    /// A ring of `depth` slots, or nil where io_uring is refused (disabled by the kernel's
    /// `io_uring_disabled`, a container's seccomp profile, an old kernel) or turned off.
    init?(depth: Int) {
        guard Self.isAvailable, depth > 0, let ring = imgsniff_ring_create(UInt32(depth)) else { return nil }
        self.ring = ring
        self.depth = depth
    }

    private var abandoned = false

    deinit { if !abandoned { imgsniff_ring_destroy(ring) } }

    /// Leaves the ring to the kernel, unclosed: after a failure, reads in flight may still write
    /// into its buffers (a few kilobytes and descriptors kept until the process ends, once).
    func abandon() { abandoned = true }

    /// Whether scans may use io_uring: the kernel gives a ring, and `IMGSNIFF_IO_URING` is not
    /// `0` (set it to compare with the fallback, a pool of threads, or to rule io_uring out).
    static let isAvailable: Bool = Environment.value("IMGSNIFF_IO_URING") != "0" && imgsniff_ring_available() != 0

    /// Starts `name` (NUL-terminated) relative to `directory` in the idle `slot`.
    func start(slot: Int, directory: Int32, name: UnsafePointer<CChar>, followSymlinks: Bool, advise: Bool) -> Bool {
        imgsniff_ring_start(ring, UInt32(slot), directory, name, followSymlinks ? 0 : 1, advise ? 1 : 0) == 0
    }

    /// The next file done, `.idle` when none is in flight, `.failed` when the ring broke.
    func next() -> Completion {
        var result = imgsniff_ring_result()
        switch imgsniff_ring_next(ring, &result) {
        case 1:
            if result.error > 0 && result.read_failed != 0 { return .readFailed(slot: Int(result.slot), errno: result.error) }
            guard result.error == 0 else { return .fallBack(slot: Int(result.slot)) }
            return .opened(slot: Int(result.slot), fd: result.fd, length: Int(result.length),
                           prefix: UnsafeRawBufferPointer(start: result.prefix, count: Int(result.count)))
        case 0: return .idle
        default: return .failed
        }
    }

    enum Completion {
        /// The file is open (the caller closes `fd`), checked, and its first bytes are in
        /// `prefix` (valid until the slot is started again).
        case opened(slot: Int, fd: Int32, length: Int, prefix: UnsafeRawBufferPointer)
        /// The file was opened and checked, and the read of its first bytes failed with `errno`
        /// (closed already): the file's answer, as the usual path's failed read is.
        case readFailed(slot: Int, errno: Int32)
        /// A call before the read failed, or the file is not a regular one: the usual path
        /// words the answer.
        case fallBack(slot: Int)
        case idle
        case failed
    }
}
