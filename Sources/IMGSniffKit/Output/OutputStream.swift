import ImageSniffScan
/// Buffered output to a file descriptor that remembers the first write error, so that a full
/// disk or a closed pipe ends the command with a clear message and a failing status rather than
/// silently (see `OutputFailure`).
package final class OutputStream {
    package let fd: FileDescriptor
    private var bytes: [UInt8] = []
    private let limit: Int
    /// The first error a write met; nothing more is written after it.
    package private(set) var failure: Errno?
    /// A write was given up because a signal asked the run to stop (the reader was not
    /// reading); nothing more is written, and it is not a failure: the run ends as interrupted.
    package private(set) var interrupted = false

    package init(fd: FileDescriptor = .standardOutput, bufferSize: Int = 1 << 16) {
        self.fd = fd
        limit = bufferSize
        bytes.reserveCapacity(bufferSize + 4096)
    }

    deinit { flush() }

    package func write(_ s: String) {
        bytes.append(contentsOf: s.utf8)
        if bytes.count >= limit { flush() }
    }

    package func write(_ more: [UInt8]) {
        bytes.append(contentsOf: more)
        if bytes.count >= limit { flush() }
    }

    package func write(_ more: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: more)
        if bytes.count >= limit { flush() }
    }

    /// Writes what is buffered.
    package func flush() {
        defer { bytes.removeAll(keepingCapacity: true) }
        guard failure == nil, !interrupted, !bytes.isEmpty else { return }
        let result: Result<Void, Errno> = bytes.withUnsafeBytes { raw in
            do throws(Errno) { try fd.writeAll(raw, stopsOnInterrupt: true); return .success(()) } catch { return .failure(error) }
        }
        if case .failure(let error) = result {
            if error == .interrupted { interrupted = true } else { failure = error }
        }
    }
}

/// How a run ends when its output could not be written: a closed pipe (`imgsniff scan | head`)
/// ends quietly, as `head`'s other writers do; anything else is reported and fails.
package enum OutputFailure {
    /// The message for standard error and the exit status, or nil for a quiet end.
    package static func report(_ error: Errno, what: String = "standard output") -> (message: String?, status: Int32) {
        if error == .brokenPipe { return (nil, 141) }
        return ("imgsniff: cannot write \(what): \(error)", 2)
    }
}

/// One-line messages on standard error, written at once (unbuffered).
package enum StandardError {
    /// Writes a line (or lines: line feeds are kept). Other control characters (a file name's
    /// escape sequences, a carriage return from a Windows list) are shown as `?`, as in the
    /// table: they never reach the terminal.
    package static func line(_ text: String) {
        var bytes = Array(Visible.text(text, keepingLineFeeds: true).utf8)
        bytes.append(0x0A)
        try? FileDescriptor.standardError.writeAll(bytes)
    }
}
