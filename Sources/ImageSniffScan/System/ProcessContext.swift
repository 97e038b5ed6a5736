import CSystemShim

// What the process knows of its surroundings: environment variables, the terminal, the clock,
// resource limits, signals. Standard library and libc only.

package enum Environment {
    /// The value of an environment variable, or nil.
    package static func value(_ name: String) -> String? {
        guard let p = getenv(name) else { return nil }
        return String(cString: p)
    }

    /// Whether a variable is set to a non-empty value.
    package static func isSet(_ name: String) -> Bool { value(name).map { !$0.isEmpty } ?? false }
}

package enum Terminal {
    /// The width of the terminal on `fd` in columns, or nil when it is not a terminal.
    /// `COLUMNS` wins when set to a number.
    package static func width(of fd: FileDescriptor = .standardOutput) -> Int? {
        if let columns = Environment.value("COLUMNS").flatMap(Int.init), columns > 0 { return columns }
        guard fd.isTerminal else { return nil }
        var size = winsize()
        guard ioctl(fd.rawValue, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }
}

package enum Clock {
    /// Seconds on the monotonic clock.
    package static func monotonic() -> Double {
        var ts = timespec()
        clock_gettime(CLOCK_MONOTONIC, &ts)
        return Double(ts.tv_sec) + Double(ts.tv_nsec) / 1e9
    }

    /// The current time through `strftime`, in UTC or local time.
    package static func format(_ pattern: String, utc: Bool) -> String {
        var t = time(nil)
        var tmv = tm()
        if utc { gmtime_r(&t, &tmv) } else { localtime_r(&t, &tmv) }
        var buffer = [CChar](repeating: 0, count: 64)
        let n = strftime(&buffer, buffer.count, pattern, &tmv)
        return String(decoding: buffer[..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }
}

package enum ResourceLimits {
    /// Raises the soft limit on open files to the hard limit; returns the soft limit in effect.
    @discardableResult
    package static func raiseOpenFileLimit() -> Int {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return 256 }
        if limit.rlim_cur < limit.rlim_max {
            var raised = limit
            raised.rlim_cur = limit.rlim_max
            if setrlimit(RLIMIT_NOFILE_VALUE, &raised) == 0 { limit = raised }
        }
        return limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    /// How many workers fit under the address-space limit (`ulimit -v`), at most `jobs`. Without
    /// a limit, `jobs`. Under one, every thread allocates from one malloc arena (each further arena
    /// reserves 64 MiB), and each worker is given `perWorker` bytes (its stack and read buffers)
    /// beside what the process maps already and a margin.
    package static func workersWithinAddressSpace(_ jobs: Int, perWorker: Int = 3 << 20) -> Int {
        var limit = rlimit()
        guard getrlimit(RLIMIT_AS_VALUE, &limit) == 0, limit.rlim_cur != rlim_t.max else { return jobs }
        _ = imgsniff_single_malloc_arena()
        let bytes = limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
        let room = bytes - mappedBytes() - (32 << 20)
        return max(1, min(jobs, room / perWorker))
    }

    /// The process's mapped address space (`/proc/self/statm`'s first field), or 0.
    static func mappedBytes() -> Int {
        guard let fd = try? FileDescriptor.open(Array("/proc/self/statm".utf8), flags: O_RDONLY) else { return 0 }
        defer { fd.close() }
        var buffer = [UInt8](repeating: 0, count: 128)
        guard let n = try? buffer.withUnsafeMutableBytes({ (raw) throws(Errno) -> Int in try fd.read(into: raw) }), n > 0 else { return 0 }
        let pages = buffer[..<n].prefix { $0 >= 0x30 && $0 <= 0x39 }.reduce(0) { $0 * 10 + Int($1 - 0x30) }
        return pages * sysconf(Int32(_SC_PAGESIZE))
    }

    /// The soft limit on open files.
    package static var openFiles: Int {
        var limit = rlimit()
        guard getrlimit(RLIMIT_NOFILE_VALUE, &limit) == 0 else { return 256 }
        return limit.rlim_cur > rlim_t(Int.max) ? Int.max : Int(limit.rlim_cur)
    }

    #if canImport(Glibc)
    private static let RLIMIT_NOFILE_VALUE = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
    private static let RLIMIT_AS_VALUE = __rlimit_resource_t(RLIMIT_AS.rawValue)
    #else
    private static let RLIMIT_NOFILE_VALUE = RLIMIT_NOFILE
    private static let RLIMIT_AS_VALUE = RLIMIT_AS
    #endif
}

package enum Processors {
    /// The processors this process may run on (its affinity mask), at least 1.
    package static var available: Int {
        let affinity = Int(imgsniff_available_processors())
        if affinity > 0 { return affinity }
        let n = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        return n > 0 ? n : 1
    }
}
