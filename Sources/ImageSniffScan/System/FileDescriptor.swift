// File descriptors as a type: open, read, write and ask for status with errors as `Errno`, EINTR
// retried (see `retryingOnInterrupt`), paths as bytes. In the spirit of swift-system's
// `FileDescriptor`, with only what the command needs.

/// An open file descriptor. Not closed automatically: call `close()` (or use `closeAfter`).
package struct FileDescriptor: Sendable, Hashable {
    package let rawValue: Int32

    package init(rawValue: Int32) { self.rawValue = rawValue }

    package static let standardInput = FileDescriptor(rawValue: 0)
    package static let standardOutput = FileDescriptor(rawValue: 1)
    package static let standardError = FileDescriptor(rawValue: 2)
    /// `AT_FDCWD`: paths relative to it are relative to the working directory.
    package static let currentDirectory = FileDescriptor(rawValue: AT_FDCWD)

    /// Flags every open adds: close on exec, no controlling terminal.
    static let baseFlags = O_CLOEXEC | O_NOCTTY

    /// `openat(directory, path, flags | O_CLOEXEC | O_NOCTTY, mode)`.
    package static func open(_ path: [UInt8], relativeTo directory: FileDescriptor = .currentDirectory,
                            flags: Int32, mode: mode_t = 0) throws(Errno) -> FileDescriptor {
        let fd = try Path.withCString(path) { (p) throws(Errno) -> Int32 in
            try retryingOnInterrupt { openat(directory.rawValue, p, flags | baseFlags, mode) }
        }
        return FileDescriptor(rawValue: fd)
    }

    /// Opens a directory for listing and for opening what is in it.
    package static func openDirectory(_ path: [UInt8], relativeTo directory: FileDescriptor = .currentDirectory,
                                     followSymlink: Bool = true) throws(Errno) -> FileDescriptor {
        try open(path, relativeTo: directory, flags: O_RDONLY | O_DIRECTORY | O_NONBLOCK | (followSymlink ? 0 : O_NOFOLLOW))
    }

    package func close() { _ = Glibc_close(rawValue) }

    /// Runs `body`, then closes the descriptor.
    package func closeAfter<R, E: Error>(_ body: (FileDescriptor) throws(E) -> R) throws(E) -> R {
        defer { close() }
        return try body(self)
    }

    /// One `read` (short reads are possible; 0 at the end).
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        return try retryingOnInterrupt { Glibc_read(rawValue, base, buffer.count) }
    }

    /// One `read` that stops (throwing EINTR) when a signal asked the run to stop: standard input
    /// may be a pipe that stays idle for ever (`sleep 1000 | imgsniff scan -`).
    package func readUnlessInterrupted(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        guard let base = buffer.baseAddress, buffer.count > 0 else { return 0 }
        while true {
            let n = Glibc_read(rawValue, base, buffer.count)
            if n >= 0 { return n }
            let e = errno
            if e != EINTR || Interrupt.requested { throw Errno(e) }
        }
    }

    /// Reads until `buffer` is full or the end: returns how many bytes it holds.
    package func readFully(into buffer: UnsafeMutableRawBufferPointer) throws(Errno) -> Int {
        var done = 0
        while done < buffer.count {
            let n = try read(into: UnsafeMutableRawBufferPointer(rebasing: buffer[done...]))
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// `pread` until `buffer` is full or the end: returns how many bytes it holds.
    package func read(into buffer: UnsafeMutableRawBufferPointer, atOffset offset: Int) throws(Errno) -> Int {
        var done = 0
        while done < buffer.count {
            let n = try retryingOnInterrupt { pread(rawValue, buffer.baseAddress! + done, buffer.count - done, off_t(offset + done)) }
            if n == 0 { break }
            done += n
        }
        return done
    }

    /// Writes every byte (retrying short writes), or throws. `stopsOnInterrupt`: stops, throwing
    /// EINTR, when a signal asked the run to stop, also after a write the signal cut short (the
    /// reader of a pipe may not read for a long time: `imgsniff scan | less`, and Ctrl-C).
    package func writeAll(_ bytes: UnsafeRawBufferPointer, stopsOnInterrupt: Bool = false) throws(Errno) {
        var done = 0
        while done < bytes.count {
            let n = Glibc_write(rawValue, bytes.baseAddress! + done, bytes.count - done)
            if n < 0 {
                let e = errno
                if e != EINTR || (stopsOnInterrupt && Interrupt.requested) { throw Errno(e) }
                continue
            }
            if n == 0 { throw Errno.noSpace }
            done += n
            if stopsOnInterrupt && done < bytes.count && Interrupt.requested { throw Errno.interrupted }
        }
    }

    package func writeAll(_ bytes: [UInt8]) throws(Errno) {
        let result: Result<Void, Errno> = bytes.withUnsafeBytes { raw in
            do throws(Errno) { try writeAll(raw); return .success(()) } catch { return .failure(error) }
        }
        try result.get()
    }

    /// `fstat`.
    package func status() throws(Errno) -> FileStatus {
        var st = stat()
        _ = try retryingOnInterrupt { fstat(rawValue, &st) }
        return FileStatus(st)
    }

    /// `fstatat(self, name, followSymlink ? 0 : AT_SYMLINK_NOFOLLOW)`.
    package func status(of name: [UInt8], followSymlink: Bool) throws(Errno) -> FileStatus {
        try status(of: name[...], followSymlink: followSymlink)
    }

    /// `status(of:followSymlink:)` for a name that is part of an array (a path's last component).
    package func status(of name: ArraySlice<UInt8>, followSymlink: Bool) throws(Errno) -> FileStatus {
        var st = stat()
        _ = try Path.withCString(name) { (p) throws(Errno) -> Int32 in
            try retryingOnInterrupt { fstatat(rawValue, p, &st, followSymlink ? 0 : AT_SYMLINK_NOFOLLOW) }
        }
        return FileStatus(st)
    }

    /// `fdatasync`: the data written so far is on disk.
    package func synchronizeData() throws(Errno) {
        #if canImport(Darwin)
        _ = try retryingOnInterrupt { fsync(rawValue) }
        #else
        _ = try retryingOnInterrupt { fdatasync(rawValue) }
        #endif
    }

    /// `isatty`.
    package var isTerminal: Bool { isatty(rawValue) == 1 }
}

// The libc functions whose Swift names the methods above shadow.
@inline(__always) private func Glibc_close(_ fd: Int32) -> Int32 { close(fd) }
@inline(__always) private func Glibc_read(_ fd: Int32, _ p: UnsafeMutableRawPointer, _ n: Int) -> Int { read(fd, p, n) }
@inline(__always) private func Glibc_write(_ fd: Int32, _ p: UnsafeRawPointer, _ n: Int) -> Int { write(fd, p, n) }
