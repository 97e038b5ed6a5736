// The rename journal: JSON lines, one intent written and flushed to disk before each rename,
// so that `imgsniff rename --undo JOURNAL` can put every file back even after a `kill -9`.
//
// Format (version 1), one JSON object per line:
//
//     {"imgsniff":"rename-journal","version":1,"cwd":"/home/me","time":"2024-05-01T12:00:00Z","pid":123,"argv":["imgsniff","rename","--apply","."]}
//     {"n":1,"dir":"/home/me/photos","from":"a","to":"a.png","size":1234,"mtime":1714564800,"mtimeNsec":123456789,"ino":42,"dev":2049}
//     {"done":1}
//     {"n":2,...}
//     {"failed":2,"reason":"target exists"}
//
// - The header comes first. `argv` and `cwd` are informative.
// - An intent line (`n`, counting from 1) is written and `fdatasync`'d BEFORE its rename. `dir` is
//   the absolute path of the directory (the one the rename was relative to, as the kernel names
//   it), `from` and `to` are single names in it (never containing `/`). `size`, `mtime` (seconds),
//   `mtimeNsec`, `ino` and `dev` identify the file; a rename changes none of them, so undo can
//   tell whether the file under `to` is still the one that was renamed.
// - `{"done":n}` / `{"failed":n,...}` follow the rename. They are advice only (not synced):
//   undo never relies on them, it looks at the files.
// - Names are bytes on Linux. When `dir`, `from` or `to` is not valid UTF-8, the string field
//   holds the `%XX` display form (see `PathText`) and `dirBytes` / `fromBytes` / `toBytes` hold the exact bytes
//   (standard base64); readers take the `…Bytes` field when present. So names round-trip
//   losslessly.
// - A reader skips a line it cannot parse (the last line may be cut short by a crash: its rename
//   never happened, since the intent is synced before the rename).

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// One intended rename, as recorded in the journal.
struct JournalEntry: Equatable {
    var n: Int
    /// The absolute directory path, as bytes.
    var dir: [UInt8]
    var from: [UInt8]
    var to: [UInt8]
    var size: Int64
    var mtime: Int64
    var mtimeNsec: Int64
    var ino: UInt64
    var dev: UInt64
}

enum JournalError: Error, CustomStringConvertible {
    case cannotCreate(String, String)
    case writeFailed(String, String)
    case cannotRead(String, String)
    case notAJournal(String)

    var description: String {
        switch self {
        case .cannotCreate(let path, let why): return "cannot create journal \(path): \(why)"
        case .writeFailed(let path, let why): return "cannot write journal \(path): \(why)"
        case .cannotRead(let path, let why): return "cannot read journal \(path): \(why)"
        case .notAJournal(let path): return "\(path) is not an imgsniff rename journal (no header line)"
        }
    }
}

/// Appends to a new journal file; every intent is on disk before `writeIntent` returns.
final class JournalWriter {
    let path: String
    private let fd: Int32

    /// Creates the journal (never replaces an existing file: `O_EXCL`), writes and syncs the
    /// header, and syncs the directory that holds it.
    init(path: String, argv: [String]) throws {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_CLOEXEC, 0o600)
        if fd < 0 { throw JournalError.cannotCreate(path, String(cString: strerror(errno))) }
        self.fd = fd
        let cwd = FileManager.default.currentDirectoryPath
        var header = "{\"imgsniff\":\"rename-journal\",\"version\":1"
        header += ",\"cwd\":" + RenameJSON.string(cwd)
        header += ",\"time\":" + RenameJSON.string(JournalWriter.utcTimestamp())
        header += ",\"pid\":\(getpid())"
        header += ",\"argv\":[" + argv.map(RenameJSON.string).joined(separator: ",") + "]}"
        try write(header, sync: true)
        // Make the new directory entry durable too.
        let parent = (path as NSString).deletingLastPathComponent
        let dfd = open(parent.isEmpty ? "." : parent, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if dfd >= 0 { _ = fsync(dfd); close(dfd) }
    }

    deinit { close(fd) }

    /// Records an intent and flushes it to disk: call before the rename.
    func writeIntent(_ e: JournalEntry) throws {
        var line = "{\"n\":\(e.n)"
        line += RenameJSON.bytesField("dir", e.dir)
        line += RenameJSON.bytesField("from", e.from)
        line += RenameJSON.bytesField("to", e.to)
        line += ",\"size\":\(e.size),\"mtime\":\(e.mtime),\"mtimeNsec\":\(e.mtimeNsec),\"ino\":\(e.ino),\"dev\":\(e.dev)}"
        try write(line, sync: true)
    }

    /// Records that rename `n` happened (advice only; not synced).
    func writeDone(_ n: Int) throws { try write("{\"done\":\(n)}", sync: false) }

    /// Records that rename `n` did not happen and why (advice only; not synced).
    func writeFailed(_ n: Int, reason: String) throws {
        try write("{\"failed\":\(n),\"reason\":\(RenameJSON.string(reason))}", sync: false)
    }

    private func write(_ line: String, sync: Bool) throws {
        let bytes = Array((line + "\n").utf8)
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, bytes.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                throw JournalError.writeFailed(path, String(cString: strerror(errno)))
            }
            done += n
        }
        if sync {
            while fdatasync(fd) != 0 {
                if errno == EINTR { continue }
                throw JournalError.writeFailed(path, String(cString: strerror(errno)))
            }
        }
    }

    static func utcTimestamp() -> String { formatNow("%Y-%m-%dT%H:%M:%SZ", utc: true) }

    /// The current time through `strftime`, in UTC or local time.
    private static func formatNow(_ format: String, utc: Bool) -> String {
        var t = time(nil)
        var tmv = tm()
        if utc { gmtime_r(&t, &tmv) } else { localtime_r(&t, &tmv) }
        var buf = [CChar](repeating: 0, count: 32)
        strftime(&buf, buf.count, format, &tmv)
        return String(cString: buf)
    }

    /// Where a journal goes when `--journal` is not given:
    /// `$XDG_STATE_HOME/imgsniff/`, else `~/.local/state/imgsniff/`, else the current directory;
    /// named `rename-YYYYMMDD-HHMMSS-PID.jsonl` (local time). Creates the directory (mode 0700).
    static func defaultPath() -> String {
        let name = "rename-\(formatNow("%Y%m%d-%H%M%S", utc: false))-\(getpid()).jsonl"
        let env = ProcessInfo.processInfo.environment
        var base: String?
        if let xdg = env["XDG_STATE_HOME"], xdg.hasPrefix("/") {
            base = xdg + "/imgsniff"
        } else if let home = env["HOME"], !home.isEmpty {
            base = home + "/.local/state/imgsniff"
        }
        if let base {
            try? FileManager.default.createDirectory(atPath: base, withIntermediateDirectories: true,
                                                     attributes: [.posixPermissions: 0o700])
            var isDir: ObjCBool = false
            if FileManager.default.fileExists(atPath: base, isDirectory: &isDir), isDir.boolValue {
                return base + "/" + name
            }
        }
        return name
    }
}

/// A journal read back: its entries in the order they were written, and which were marked done.
struct JournalContents {
    var entries: [JournalEntry] = []
    var done: Set<Int> = []
    var failed: Set<Int> = []
    /// Lines that could not be parsed (1-based line numbers); a crash can cut the last one short.
    var badLines: [Int] = []

    init(path: String) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw JournalError.cannotRead(path, String(cString: strerror(errno)))
        }
        var sawHeader = false
        var lineNumber = 0
        for line in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.isEmpty { continue }
            guard let object = try? JSONSerialization.jsonObject(with: Data(line)) as? [String: Any] else {
                badLines.append(lineNumber)
                continue
            }
            if object["imgsniff"] as? String == "rename-journal" {
                sawHeader = true
                continue
            }
            if let n = Self.int(object["done"]) { done.insert(n); continue }
            if let n = Self.int(object["failed"]) { failed.insert(n); continue }
            guard let n = Self.int(object["n"]),
                  let dir = Self.bytes(object, "dir"), let from = Self.bytes(object, "from"),
                  let to = Self.bytes(object, "to"),
                  let size = Self.int(object["size"]), let mtime = Self.int(object["mtime"]),
                  let ino = Self.uint(object["ino"]), let dev = Self.uint(object["dev"]) else {
                badLines.append(lineNumber)
                continue
            }
            entries.append(JournalEntry(n: n, dir: dir, from: from, to: to, size: Int64(size),
                                        mtime: Int64(mtime), mtimeNsec: Int64(Self.int(object["mtimeNsec"]) ?? 0),
                                        ino: ino, dev: dev))
        }
        if !sawHeader { throw JournalError.notAJournal(path) }
    }

    private static func int(_ value: Any?) -> Int? {
        if let n = value as? Int { return n }
        if let n = value as? NSNumber { return n.intValue }
        return nil
    }

    private static func uint(_ value: Any?) -> UInt64? {
        if let n = value as? UInt64 { return n }
        if let n = value as? Int, n >= 0 { return UInt64(n) }
        if let n = value as? NSNumber { return n.uint64Value }
        return nil
    }

    /// The exact bytes of a name field: `<key>Bytes` when present, else the string's UTF-8.
    private static func bytes(_ object: [String: Any], _ key: String) -> [UInt8]? {
        if let b64 = object[key + "Bytes"] as? String {
            guard let data = Data(base64Encoded: b64) else { return nil }
            return Array(data)
        }
        guard let s = object[key] as? String else { return nil }
        return Array(s.utf8)
    }
}

/// JSON text helpers shared by the journal and the rename output.
enum RenameJSON {
    /// A JSON string literal (the same escaping as scan's records).
    static func string(_ s: String) -> String { Encode.json(s) }

    /// `,"key":"text"` and, when the bytes are not valid UTF-8, `,"keyBytes":"base64"` too.
    static func bytesField(_ key: String, _ bytes: [UInt8]) -> String {
        if let s = String(validating: bytes, as: UTF8.self) {
            return ",\"\(key)\":" + string(s)
        }
        return ",\"\(key)\":" + string(PathText.display(bytes))
            + ",\"\(key)Bytes\":\"" + Data(bytes).base64EncodedString() + "\""
    }
}
