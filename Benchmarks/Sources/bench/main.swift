// bench: ImageSniff's measurements (issue 7). No Foundation: Glibc, Dispatch and the library.
//
//   bench memory  [--corpus DIR]               in-memory detection, ns per call, per format
//   bench files   [--corpus DIR]               file detection (prefix read + detect), per file
//   bench scan    [--threads N] [--ndjson] DIR in-process directory scan: files/s, peak RSS
//   bench stream  [--corpus DIR]               IncrementalSniffer: chunked vs one-shot, per chunk size
//   bench make-tree SRC DST N                  N extensionless copies of SRC's files, 100 a folder
//   bench detect-tree DIR...                   detection alone over a tree's prefixes (no I/O), ms a pass
//   bench         [--corpus DIR]               memory + files
//
// Timing: clock_gettime(CLOCK_MONOTONIC); each measurement is calibrated to batches of about
// 2 ms and reported as the median of 15 batches, in ns per call. Results feed a global sink so
// the optimizer cannot drop the calls; inputs pass through an opaque function so it cannot
// hoist them out of the loop.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import Dispatch
import ImageSniff
import Synchronization

// MARK: - Timing

nonisolated(unsafe) var sink = 0

@inline(never) @_optimize(none)
func opaque<T>(_ x: T) -> T { x }

@inline(__always) func consume(_ d: Detection) {
    sink &+= Int(unsafeBitCast(d.type, to: UInt8.self)) &+ (d.isAnimated ? 1 : 0)
}

func nowNs() -> UInt64 {
    var ts = timespec()
    clock_gettime(CLOCK_MONOTONIC, &ts)
    return UInt64(ts.tv_sec) * 1_000_000_000 + UInt64(ts.tv_nsec)
}

/// Median ns per call of `body(iterations)` (which must run its work `iterations` times).
func measure(batches: Int = 15, targetBatchNs: UInt64 = 2_000_000, _ body: (Int) -> Void) -> Double {
    body(16)  // warm up
    var n = 1
    while true {
        let t0 = nowNs()
        body(n)
        let dt = nowNs() - t0
        if dt >= targetBatchNs / 4 || n >= 1 << 26 {
            n = max(1, Int(Double(n) * Double(targetBatchNs) / Double(max(dt, 1))))
            break
        }
        n *= 4
    }
    var samples: [Double] = []
    samples.reserveCapacity(batches)
    for _ in 0..<batches {
        let t0 = nowNs()
        body(n)
        samples.append(Double(nowNs() - t0) / Double(n))
    }
    return median(samples)
}

func median(_ xs: [Double]) -> Double {
    precondition(!xs.isEmpty)
    let s = xs.sorted()
    return s.count % 2 == 1 ? s[s.count / 2] : (s[s.count / 2 - 1] + s[s.count / 2]) / 2
}

func percentile(_ xs: [Double], _ p: Double) -> Double {
    let s = xs.sorted()
    return s[min(s.count - 1, Int(Double(s.count - 1) * p + 0.5))]
}

// MARK: - Output helpers

func pad(_ s: String, _ n: Int, right: Bool = false) -> String {
    let c = s.count
    if c >= n { return s }
    let fill = String(repeating: " ", count: n - c)
    return right ? fill + s : s + fill
}

func fmt(_ x: Double, _ digits: Int = 1) -> String {
    var buf = [CChar](repeating: 0, count: 64)
    _ = withVaList([x]) { vsnprintf(&buf, 64, "%.\(digits)f", $0) }
    return String(decoding: buf.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

func writeOut(_ fd: Int32, _ s: String) {
    var s = s
    s.withUTF8 { b in _ = write(fd, b.baseAddress, b.count) }
}

func fail(_ message: String) -> Never {
    writeOut(2, "bench: \(message)\n")
    exit(1)
}

// MARK: - Corpus

struct Sample {
    var name: String       // path relative to the corpus, or a synthetic label
    var prefix: [UInt8]    // the first 4 KiB (or all of it)
    var size: Int          // the whole file's length
    var path: String?      // absolute-enough path for file detection, nil for synthetic data
}

/// Regular files under `dir`'s subfolders (top-level files are the corpus's docs and scripts),
/// hidden names skipped, sorted by path.
func corpusFiles(_ dir: String) -> [String] {
    var out: [String] = []
    func walk(_ path: String, depth: Int) {
        guard let d = opendir(path) else { return }
        defer { closedir(d) }
        while let e = readdir(d) {
            let name = withUnsafeBytes(of: e.pointee.d_name) { raw in
                String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
            }
            if name.hasPrefix(".") { continue }
            let full = path + "/" + name
            var st = stat()
            guard lstat(full, &st) == 0 else { continue }
            if st.st_mode & S_IFMT == S_IFDIR { walk(full, depth: depth + 1) }
            else if st.st_mode & S_IFMT == S_IFREG && depth > 0 { out.append(full) }
        }
    }
    walk(dir, depth: 0)
    return out.sorted()
}

func readPrefix(_ path: String, max: Int = Limits.initialRead) -> (bytes: [UInt8], size: Int)? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var st = stat()
    guard fstat(fd, &st) == 0 else { return nil }
    var buf = [UInt8](repeating: 0, count: max)
    let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress, max, 0) }
    guard n >= 0 else { return nil }
    return (Array(buf[..<n]), Int(st.st_size))
}

func locateCorpus(_ given: String?) -> String {
    for candidate in [given, "TestImages", "../TestImages"].compactMap({ $0 }) {
        var st = stat()
        if stat(candidate, &st) == 0 && st.st_mode & S_IFMT == S_IFDIR { return candidate }
    }
    fail("no corpus found: pass --corpus DIR (the project's TestImages)")
}

/// Deterministic pseudo-random bytes (xorshift), so every run sees the same "unknown" data.
func randomBytes(_ n: Int, seed: UInt64) -> [UInt8] {
    var x = seed
    return (0..<n).map { _ in
        x ^= x << 13; x ^= x >> 7; x ^= x << 17
        return UInt8(truncatingIfNeeded: x >> 24)
    }
}

/// Samples the corpus may lack: a PSD header, text, and unknown data.
func syntheticSamples() -> [(group: String, sample: Sample)] {
    var psd: [UInt8] = Array("8BPS".utf8) + [0, 1, 0, 0, 0, 0, 0, 0, 0, 3, 0, 0, 0, 64, 0, 0, 0, 64, 0, 8, 0, 3]
    psd += [UInt8](repeating: 0, count: 4096 - psd.count)
    let line = "The quick brown fox jumps over the lazy dog. 0123456789, plain ASCII text.\n"
    let text = Array(String(repeating: line, count: 4096 / line.utf8.count + 1).utf8.prefix(4096))
    let utf8Line = "Grüße aus Zürich, naïve café, 東京, emoji 🙂 and more text.\n"
    let utf8 = Array(String(repeating: utf8Line, count: 4096 / utf8Line.utf8.count).utf8)
    return [
        ("synthetic: PSD header", Sample(name: "8BPS + zeros (4 KiB)", prefix: psd, size: 1 << 20, path: nil)),
        ("synthetic: ASCII text", Sample(name: "text 4 KiB", prefix: text, size: 1 << 16, path: nil)),
        ("synthetic: UTF-8 text", Sample(name: "utf8 ~4 KiB", prefix: utf8, size: utf8.count, path: nil)),
        ("miss: random 64 B", Sample(name: "random 64 B", prefix: randomBytes(64, seed: 0x9E3779B97F4A7C15), size: 64, path: nil)),
        ("miss: random 4 KiB", Sample(name: "random 4 KiB", prefix: randomBytes(4096, seed: 0xD1B54A32D192ED03), size: 4096, path: nil)),
        ("miss: random 4 KiB of 1 MiB", Sample(name: "random 4 KiB prefix, total 1 MiB", prefix: randomBytes(4096, seed: 0xABCDEF), size: 1 << 20, path: nil)),
        ("miss: zeros 4 KiB", Sample(name: "zeros 4 KiB", prefix: [UInt8](repeating: 0, count: 4096), size: 4096, path: nil)),
    ]
}

/// The corpus grouped by detected type (identifier), at most `perGroup` files a group.
func corpusGroups(_ corpus: String, perGroup: Int = 5) -> [(group: String, samples: [Sample])] {
    let sniffer = FileSniffer()
    var groups: [String: [Sample]] = [:]
    for path in corpusFiles(corpus) {
        guard let (bytes, size) = readPrefix(path) else { continue }
        let detection: Detection
        do { detection = try sniffer.detect(fileAt: path) } catch { continue }
        let key = detection.type.identifier
        if groups[key, default: []].count >= perGroup { continue }
        let name = String(path.dropFirst(corpus.count + 1))
        groups[key, default: []].append(Sample(name: name, prefix: bytes, size: size, path: path))
    }
    return groups.sorted { $0.key < $1.key }.map { (group: $0.key, samples: $0.value) }
}

// MARK: - In-memory detection

func detectInMemory(_ s: Sample) -> Detection {
    s.prefix.withUnsafeBytes { ImageSniffer.detect($0, totalLength: s.size) }
}

func nsPerDetect(_ s: Sample) -> Double {
    s.prefix.withUnsafeBytes { raw in
        let total = s.size
        return measure { n in
            for _ in 0..<n { consume(ImageSniffer.detect(opaque(raw), totalLength: total)) }
        }
    }
}

func describe(_ d: Detection) -> String {
    var t = d.type.identifier
    if d.isAnimated { t += " anim" }
    switch d.completeness {
    case .complete: break
    case .truncated: t += " (truncated)"
    case .needsMoreData(let n): t += " (needs \(n) B)"
    }
    return t
}

func runMemory(corpus: String) {
    print("== In-memory detection: ImageSniffer.detect(first 4 KiB, totalLength: file size) ==")
    print("   ns per call, median of 15 batches; per group: median over files of each file's median (max)")
    print(pad("group (detected type)", 34) + pad("files", 6, right: true) + pad("median ns", 11, right: true)
          + pad("max ns", 9, right: true) + "  slowest file -> result")
    var all: [Double] = []
    var hitMedians: [Double] = []
    for (group, samples) in corpusGroups(corpus) {
        let times = samples.map(nsPerDetect)
        all += times
        let worst = times.indices.max { times[$0] < times[$1] }!
        if group != "public.data" { hitMedians += times }
        print(pad(group, 34) + pad("\(samples.count)", 6, right: true) + pad(fmt(median(times)), 11, right: true)
              + pad(fmt(times[worst]), 9, right: true) + "  " + samples[worst].name + " -> " + describe(detectInMemory(samples[worst])))
    }
    for (group, s) in syntheticSamples() {
        let t = nsPerDetect(s)
        print(pad(group, 34) + pad("1", 6, right: true) + pad(fmt(t), 11, right: true)
              + pad(fmt(t), 9, right: true) + "  " + s.name + " -> " + describe(detectInMemory(s)))
    }
    if !all.isEmpty {
        print("corpus files measured: \(all.count); median \(fmt(median(all))) ns, p90 \(fmt(percentile(all, 0.9))) ns, max \(fmt(all.max()!)) ns")
    }
    print("")
}

// MARK: - File detection

func runFiles(corpus: String) {
    print("== File detection: one reused FileSniffer, detect(path:relativeTo: AT_FDCWD), hot cache ==")
    print("   ns per file, median of 15 batches; 'floor' = open + pread 4 KiB + close of the same file (Swift)")
    print(pad("group (detected type)", 34) + pad("files", 6, right: true) + pad("detect ns", 11, right: true)
          + pad("floor ns", 10, right: true) + pad("ratio", 7, right: true) + "  reads/bytes of the slowest")
    let sniffer = FileSniffer()
    let buffer = UnsafeMutableRawPointer.allocate(byteCount: 4096, alignment: 4096)
    defer { buffer.deallocate() }
    var allDetect: [Double] = [], allFloor: [Double] = [], all5: [Double] = [], all4: [Double] = []
    for (group, samples) in corpusGroups(corpus) {
        var detectTimes: [Double] = [], floorTimes: [Double] = []
        var syscalls5: [Double] = [], syscalls4: [Double] = []
        var slowest = (0.0, "")
        for s in samples {
            guard let path = s.path else { continue }
            let cpath = Array(path.utf8CString)
            let t = cpath.withUnsafeBufferPointer { p in
                measure(batches: 11, targetBatchNs: 1_000_000) { n in
                    for _ in 0..<n {
                        if let d = try? sniffer.detect(path: opaque(p.baseAddress!), relativeTo: AT_FDCWD, followSymlinks: false) { consume(d) }
                    }
                }
            }
            let f = cpath.withUnsafeBufferPointer { p in
                measure(batches: 11, targetBatchNs: 1_000_000) { n in
                    for _ in 0..<n {
                        let fd = openat(AT_FDCWD, opaque(p.baseAddress!), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK)
                        if fd >= 0 { sink &+= pread(fd, buffer, 4096, 0); close(fd) }
                    }
                }
            }
            // The same syscalls as FileSniffer without detection: fstatat + openat + fstat +
            // pread + close (5 calls), and without the fstatat (4 calls).
            let f5 = cpath.withUnsafeBufferPointer { p in
                measure(batches: 11, targetBatchNs: 1_000_000) { n in
                    var st = stat()
                    for _ in 0..<n {
                        let path = opaque(p.baseAddress!)
                        guard fstatat(AT_FDCWD, path, &st, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
                        let fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW)
                        if fd >= 0 { fstat(fd, &st); sink &+= pread(fd, buffer, 4096, 0); close(fd) }
                    }
                }
            }
            let f4 = cpath.withUnsafeBufferPointer { p in
                measure(batches: 11, targetBatchNs: 1_000_000) { n in
                    var st = stat()
                    for _ in 0..<n {
                        let fd = openat(AT_FDCWD, opaque(p.baseAddress!), O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK | O_NOFOLLOW)
                        if fd >= 0 { fstat(fd, &st); sink &+= pread(fd, buffer, 4096, 0); close(fd) }
                    }
                }
            }
            detectTimes.append(t); floorTimes.append(f); syscalls5.append(f5); syscalls4.append(f4)
            if t > slowest.0 {
                _ = try? sniffer.detect(path: path, relativeToFD: AT_FDCWD)
                slowest = (t, "\(sniffer.lastReadCount) reads, \(sniffer.lastBytesRead) B: \(s.name)")
            }
        }
        guard !detectTimes.isEmpty else { continue }
        allDetect += detectTimes; allFloor += floorTimes; all5 += syscalls5; all4 += syscalls4
        print(pad(group, 34) + pad("\(detectTimes.count)", 6, right: true) + pad(fmt(median(detectTimes), 0), 11, right: true)
              + pad(fmt(median(floorTimes), 0), 10, right: true) + pad(fmt(median(detectTimes) / median(floorTimes), 2), 7, right: true)
              + "  " + slowest.1)
    }
    if !allDetect.isEmpty {
        print("all: \(allDetect.count) files; detect median \(fmt(median(allDetect), 0)) ns (p90 \(fmt(percentile(allDetect, 0.9), 0))), floor median \(fmt(median(allFloor), 0)) ns, ratio \(fmt(median(allDetect) / median(allFloor), 2))")
        print("syscalls alone, median ns: open+pread+close \(fmt(median(allFloor), 0)); open+fstat+pread+close \(fmt(median(all4), 0)); fstatat+open+fstat+pread+close (what FileSniffer does) \(fmt(median(all5), 0))")
    }
    print("")
}

extension FileSniffer {
    /// `detect(path:relativeTo:)` with a Swift string (for the bookkeeping above, not timed).
    func detect(path: String, relativeToFD fd: Int32) throws(FileError) -> Detection {
        var bytes = Array(path.utf8CString)
        return try bytes.withUnsafeMutableBufferPointer { (p) throws(FileError) -> Detection in
            try detect(path: p.baseAddress!, relativeTo: fd, followSymlinks: false)
        }
    }
}

// MARK: - In-process directory scan

/// Output of the `--ndjson` variant: a minimal JSON line per file into a 64 KiB buffer, written
/// to standard output when full (point it at /dev/null). Shows what cheap output costs.
final class LineWriter {
    var buf = [UInt8]()
    init() { buf.reserveCapacity(1 << 16) }
    func append(_ s: String) { buf.append(contentsOf: s.utf8) }
    func append(_ p: UnsafePointer<CChar>) {
        var q = p
        while q.pointee != 0 {
            let c = UInt8(bitPattern: q.pointee)
            if c == 0x22 || c == 0x5C { buf.append(0x5C) }
            buf.append(c)
            q += 1
        }
    }
    func flushIfNeeded(force: Bool = false) {
        if buf.count >= 60_000 || (force && !buf.isEmpty) {
            _ = buf.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
            buf.removeAll(keepingCapacity: true)
        }
    }
}

struct ScanTotals { var files = 0, errors = 0, unknown = 0 }

/// Files of one directory (`recurse`: and below) with `sniffer`, in readdir order.
func scanDirectory(_ parent: Int32, _ name: UnsafePointer<CChar>, prefix: String, recurse: Bool,
                   sniffer: FileSniffer, out: LineWriter?, totals: inout ScanTotals) {
    let fd = openat(parent, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
    guard fd >= 0, let d = fdopendir(fd) else { if fd >= 0 { close(fd) }; totals.errors += 1; return }
    defer { closedir(d) }
    while let e = readdir(d) {
        withUnsafeBytes(of: &e.pointee.d_name) { raw in
            let entry = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
            if entry.pointee == 0x2E { return }  // hidden, . and ..
            let type = e.pointee.d_type
            if type == UInt8(DT_DIR) {
                if recurse {
                    let sub = out == nil ? prefix : prefix + String(cString: entry) + "/"
                    scanDirectory(fd, entry, prefix: sub, recurse: true, sniffer: sniffer, out: out, totals: &totals)
                }
                return
            }
            guard type == UInt8(DT_REG) || type == UInt8(DT_UNKNOWN) else { return }
            do {
                let detection = try sniffer.detect(path: entry, relativeTo: fd, followSymlinks: false)
                totals.files += 1
                if detection.isUnknown { totals.unknown += 1 }
                if let out {
                    out.append("{\"path\":\""); out.append(prefix); out.append(entry)
                    out.append("\",\"uti\":\""); out.append(detection.type.identifier); out.append("\"}\n")
                    out.flushIfNeeded()
                } else {
                    consume(detection)
                }
            } catch {
                totals.errors += 1
            }
        }
    }
}

/// Every directory under (and including) `root`, for the threaded scan.
func listDirectories(_ root: String) -> [String] {
    var out = [root]
    guard let d = opendir(root) else { return out }
    defer { closedir(d) }
    var subs: [String] = []
    while let e = readdir(d) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        if name.hasPrefix(".") { continue }
        if e.pointee.d_type == UInt8(DT_DIR) { subs.append(root + "/" + name) }
    }
    for s in subs { out += listDirectories(s) }
    return out
}

let nextDirectory = Atomic<Int>(0)

func peakRSSKiB() -> Int {
    var ru = rusage()
    getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &ru)
    return ru.ru_maxrss
}

func runScan(roots: [String], threads: Int, ndjson: Bool) {
    let rssBefore = peakRSSKiB()
    let t0 = nowNs()
    var totals = ScanTotals()
    if threads == 1 {
        let sniffer = FileSniffer()
        let out = ndjson ? LineWriter() : nil
        for root in roots {
            scanDirectory(AT_FDCWD, root, prefix: root + "/", recurse: true, sniffer: sniffer, out: out, totals: &totals)
        }
        out?.flushIfNeeded(force: true)
    } else {
        // Directories shared among the threads by an atomic index (no output in this mode).
        let dirs = roots.flatMap(listDirectories)
        let results = UnsafeMutableBufferPointer<ScanTotals>.allocate(capacity: threads)
        results.initialize(repeating: ScanTotals())
        nonisolated(unsafe) let shared = results
        DispatchQueue.concurrentPerform(iterations: threads) { t in
            let sniffer = FileSniffer()
            var mine = ScanTotals()
            while true {
                let i = nextDirectory.wrappingAdd(1, ordering: .relaxed).oldValue
                if i >= dirs.count { break }
                scanDirectory(AT_FDCWD, dirs[i], prefix: "", recurse: false, sniffer: sniffer, out: nil, totals: &mine)
            }
            shared[t] = mine
        }
        for r in results {
            totals.files += r.files; totals.errors += r.errors; totals.unknown += r.unknown
        }
        results.deallocate()
    }
    let seconds = Double(nowNs() - t0) / 1e9
    let line = "files=\(totals.files) unknown=\(totals.unknown) errors=\(totals.errors) seconds=\(fmt(seconds, 6)) files_per_sec=\(fmt(Double(totals.files) / seconds, 0)) threads=\(threads) maxrss_kib=\(peakRSSKiB()) maxrss_before_kib=\(rssBefore) sink=\(sink & 1)\n"
    if !ndjson { writeOut(1, line) }  // with --ndjson, standard output carries the records
}

// MARK: - Tree building

func makeTree(source: String, destination: String, count: Int) {
    let files = corpusFiles(source)
    guard !files.isEmpty else { fail("no files under \(source)") }
    let contents: [[UInt8]] = files.map { path in
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { fail("cannot open \(path)") }
        defer { close(fd) }
        var st = stat()
        fstat(fd, &st)
        var buf = [UInt8](repeating: 0, count: Int(st.st_size))
        var done = 0
        while done < buf.count {
            let n = buf.withUnsafeMutableBytes { pread(fd, $0.baseAddress! + done, $0.count - done, off_t(done)) }
            if n <= 0 { break }
            done += n
        }
        return Array(buf[..<done])
    }
    mkdir(destination, 0o755)
    var bytes = 0
    for i in 0..<count {
        let folder = destination + "/d" + String(i / 100)
        if i % 100 == 0 { mkdir(folder, 0o755) }
        let path = folder + "/f" + String(i)
        let data = contents[i % contents.count]
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { fail("cannot create \(path): \(String(cString: strerror(errno)))") }
        _ = data.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        bytes += data.count
    }
    print("made \(count) files (\(bytes / 1024) KiB) in \(destination) from \(files.count) corpus files")
}

// MARK: - Streaming

/// Chunked detection as a reader does it (append until `wantsMoreData` is false, `finish()` at
/// the end) against one call on the whole file, for each corpus file whole (up to 1 MiB).
func runStream(corpus: String) {
    print("== Streaming: IncrementalSniffer fed in chunks vs ImageSniffer.detect(whole file) ==")
    print("   ns, median over the corpus files of each file's median of 11 batches")
    var files: [(name: String, bytes: [UInt8])] = []
    for path in corpusFiles(corpus) {
        guard let (bytes, size) = readPrefix(path, max: 1 << 20), bytes.count == size, size > 0 else { continue }
        files.append((path, bytes))
    }
    let oneShot = files.map { f in
        measure(batches: 11, targetBatchNs: 500_000) { n in
            for _ in 0..<n { consume(ImageSniffer.detect(opaque(f.bytes))) }
        }
    }
    print(pad("chunk bytes", 12) + pad("chunks fed", 11, right: true) + pad("ns/chunk", 10, right: true)
          + pad("total ns", 10, right: true) + pad("one-shot ns", 12, right: true) + pad("ratio", 8, right: true)
          + pad("p90 ratio", 10, right: true))
    for chunk in [64, 1460, 16_384] {
        var perChunk: [Double] = [], totals: [Double] = [], ratios: [Double] = [], fed: [Double] = []
        for (i, f) in files.enumerated() {
            var chunksFed = 0
            let total = f.bytes.withUnsafeBytes { all in
                measure(batches: 11, targetBatchNs: 500_000) { n in
                    for _ in 0..<n {
                        var sniffer = IncrementalSniffer()
                        var offset = 0
                        var count = 0
                        while sniffer.wantsMoreData && offset < all.count {
                            let end = min(offset + chunk, all.count)
                            sniffer.append(UnsafeRawBufferPointer(rebasing: all[offset..<end]))
                            offset = end
                            count += 1
                        }
                        if offset == all.count && !sniffer.isDecided { sniffer.finish() }
                        if let d = sniffer.detection { consume(d) }
                        chunksFed = count
                    }
                }
            }
            totals.append(total)
            perChunk.append(total / Double(max(chunksFed, 1)))
            fed.append(Double(chunksFed))
            ratios.append(total / oneShot[i])
        }
        print(pad("\(chunk)", 12) + pad(fmt(median(fed), 0), 11, right: true) + pad(fmt(median(perChunk)), 10, right: true)
              + pad(fmt(median(totals)), 10, right: true) + pad(fmt(median(oneShot)), 12, right: true)
              + pad(fmt(median(ratios), 2), 8, right: true) + pad(fmt(percentile(ratios, 0.9), 2), 10, right: true))
    }
    print("files: \(files.count)")
    print("")
}

// MARK: - Reads per file

/// How many reads and bytes each file costs, as `FileSniffer` counts them (`lastReadCount`,
/// `lastBytesRead`: every pread, the first one included), for plain detection, with properties,
/// and with whole-file checks: the distribution over every regular file under `roots`.
func runReads(roots: [String]) {
    var paths: [String] = []
    for root in roots {
        var st = stat()
        if stat(root, &st) == 0 && st.st_mode & S_IFMT == S_IFREG { paths.append(root) } else { paths += corpusFiles(root) + topLevelFiles(root) }
    }
    paths.sort()
    print("== reads and bytes per file (FileSniffer's own count), \(paths.count) files")
    print(pad("mode", 14) + pad("1 read", 9, right: true) + pad("reads p50", 11, right: true) + pad("p90", 6, right: true)
          + pad("p99", 6, right: true) + pad("max", 6, right: true) + pad("KiB p50", 10, right: true) + pad("p90", 8, right: true)
          + pad("p99", 8, right: true) + pad("max", 10, right: true) + pad("mean KiB", 10, right: true))
    let modes: [(String, FileSniffer, Bool)] = [
        ("detect", FileSniffer(), false),
        ("--properties", FileSniffer(), true),
        ("--verify", FileSniffer(budget: .verifying), false),
        ("both", FileSniffer(budget: .verifying), true),
    ]
    for (name, sniffer, properties) in modes {
        var reads: [Double] = [], bytes: [Double] = []
        var worst: [(Int, Int, String)] = []
        for path in paths {
            do {
                if properties { _ = try sniffer.inspect(fileAt: path) } else { _ = try sniffer.detect(fileAt: path) }
            } catch { continue }
            reads.append(Double(sniffer.lastReadCount))
            bytes.append(Double(sniffer.lastBytesRead))
            worst.append((sniffer.lastReadCount, sniffer.lastBytesRead, path))
        }
        guard !reads.isEmpty else { continue }
        let one = Double(reads.filter { $0 == 1 }.count) / Double(reads.count) * 100
        let kib = bytes.map { $0 / 1024 }
        print(pad(name, 14) + pad(fmt(one) + "%", 9, right: true) + pad(fmt(median(reads), 0), 11, right: true)
              + pad(fmt(percentile(reads, 0.9), 0), 6, right: true) + pad(fmt(percentile(reads, 0.99), 0), 6, right: true)
              + pad(fmt(reads.max()!, 0), 6, right: true) + pad(fmt(median(kib)), 10, right: true)
              + pad(fmt(percentile(kib, 0.9)), 8, right: true) + pad(fmt(percentile(kib, 0.99)), 8, right: true)
              + pad(fmt(kib.max()!), 10, right: true) + pad(fmt(kib.reduce(0, +) / Double(kib.count)), 10, right: true))
        for (r, b, path) in worst.sorted(by: { ($0.0, $0.1) > ($1.0, $1.1) }).prefix(3) {
            print("    most reads: \(r) reads, \(b / 1024) KiB  \(path)")
        }
    }
    print("")
}

/// Regular files directly in `dir` (`corpusFiles` takes only those in subfolders).
func topLevelFiles(_ dir: String) -> [String] {
    guard let d = opendir(dir) else { return [] }
    defer { closedir(d) }
    var out: [String] = []
    while let e = readdir(d) {
        let name = withUnsafeBytes(of: e.pointee.d_name) { raw in String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self) }
        if name.hasPrefix(".") { continue }
        var st = stat()
        if lstat(dir + "/" + name, &st) == 0 && st.st_mode & S_IFMT == S_IFREG { out.append(dir + "/" + name) }
    }
    return out
}

// MARK: - Detection alone over a tree

/// What detection alone costs a scan of these trees: every file's first 4 KiB is read into memory
/// first (not timed), then one pass detects them all in walk order, as `imgsniff scan --jobs 1`
/// does after its reads (no system calls, no walk, no records, no output; far reads left out:
/// detection answers from the prefix and the file's length). Median of 15 passes.
func runDetectTree(roots: [String]) {
    var samples: [(bytes: [UInt8], size: Int)] = []
    for root in roots {
        for dir in listDirectories(root) {
            for file in topLevelFiles(dir) { if let p = readPrefix(file) { samples.append(p) } }
        }
    }
    guard !samples.isEmpty else { fail("detect-tree: no files under \(roots)") }
    var passes: [Double] = []
    for _ in 0..<16 {
        let t0 = nowNs()
        for s in samples {
            s.bytes.withUnsafeBytes { consume(ImageSniffer.detect(opaque($0), totalLength: s.size)) }
        }
        passes.append(Double(nowNs() - t0) / 1e6)
    }
    passes.removeFirst()  // the warm-up pass
    let m = median(passes)
    print("== Detection alone: ImageSniffer.detect(first 4 KiB, totalLength:) over \(samples.count) files, in memory ==")
    print("median of 15 passes: \(fmt(m, 2)) ms a pass, \(fmt(m * 1e6 / Double(samples.count))) ns a file (min \(fmt(passes.min()!, 2)) ms, max \(fmt(passes.max()!, 2)) ms)")
}

// MARK: - Main

nonisolated(unsafe) var args = Array(CommandLine.arguments.dropFirst())
func option(_ name: String) -> String? {
    guard let i = args.firstIndex(of: name), i + 1 < args.count else { return nil }
    let v = args[i + 1]
    args.removeSubrange(i...i + 1)
    return v
}
func flag(_ name: String) -> Bool {
    guard let i = args.firstIndex(of: name) else { return false }
    args.remove(at: i)
    return true
}

let command = args.first.flatMap { $0.hasPrefix("-") ? nil : $0 } ?? "all"
if args.first == command { args.removeFirst() }
switch command {
case "memory":
    runMemory(corpus: locateCorpus(option("--corpus")))
case "files":
    runFiles(corpus: locateCorpus(option("--corpus")))
case "all":
    let corpus = locateCorpus(option("--corpus"))
    runMemory(corpus: corpus)
    runFiles(corpus: corpus)
case "scan":
    let threads = Int(option("--threads") ?? "1") ?? 1
    let ndjson = flag("--ndjson")
    guard !args.isEmpty else { fail("usage: bench scan [--threads N] [--ndjson] DIR...") }
    runScan(roots: args, threads: threads, ndjson: ndjson)
case "stream":
    runStream(corpus: locateCorpus(option("--corpus")))
case "reads":
    guard !args.isEmpty else { fail("usage: bench reads DIR|FILE...") }
    runReads(roots: args)
case "detect-tree":
    guard !args.isEmpty else { fail("usage: bench detect-tree DIR...") }
    runDetectTree(roots: args)
case "make-tree":
    guard args.count == 3, let n = Int(args[2]) else { fail("usage: bench make-tree SRC DST N") }
    makeTree(source: args[0], destination: args[1], count: n)
default:
    fail("unknown command \(command): memory, files, stream, scan, reads, detect-tree, make-tree or all")
}
