// The rename journal: JSON lines, the intents of each batch of renames written and flushed to
// disk before any of them happens, so that `imgsniff rename --undo JOURNAL` puts every file back
// even after a kill -9.
//
// Format (version 2), one JSON object per line:
//
//     {"imgsniff":"rename-journal","version":2,"time":"2026-11-22T12:00:00Z","pid":123,"uid":1000,"cwd":"/home/me","roots":["/home/me/photos"],"argv":["imgsniff","rename","--apply","photos"]}
//     {"n":1,"dir":"/home/me/photos","from":"a","to":"a.png","size":1234,"mtime":1714564800,"mtimeNsec":123456789,"ino":42,"dev":2049}
//     {"n":2,...}
//     {"done":1}
//     {"failed":2,"reason":"target exists"}
//
// - The header comes first. `roots` are the real paths of the directories the run was allowed to
//   rename in (its operands, or their directories): undo touches nothing outside them. `uid` is
//   the user who ran it; `argv`, `cwd`, `time` and `pid` are informative.
// - Intent lines (`n` counts from 1) are written and `fdatasync`'d a batch at a time, BEFORE the
//   batch's renames. `dir` is the absolute path of the directory (as the kernel names it), `from`
//   and `to` single names in it. `size`, `mtime`, `mtimeNsec`, `ino` and `dev` identify the file
//   (a rename changes none of them); the device number is a hint only (it changes when a file
//   system is mounted again).
// - `done` and `failed` lines follow the renames: advice only (not synced); undo looks at the files.
// - Names are bytes: when `dir`, `from` or `to` is not valid UTF-8, the string holds the `%XX`
//   display form and `dirBytes`/`fromBytes`/`toBytes` the exact bytes in base64.
// - A reader takes a line it cannot parse as damaged and resynchronises on the next record (a
//   crash can leave the last line cut short: its batch never started, since a batch starts only
//   once its intents are on disk).

/// One intended rename, as recorded.
public struct JournalEntry: Sendable, Equatable {
    public var n: Int
    /// The directory's absolute path, as bytes.
    public var directory: [UInt8]
    public var from: [UInt8]
    public var to: [UInt8]
    public var size: Int64
    public var modifiedSeconds: Int64
    public var modifiedNanoseconds: Int64
    public var inode: UInt64
    public var device: UInt64

    /// The member names, written and read from this one list.
    enum Key {
        static let n = "n", dir = "dir", from = "from", to = "to", size = "size", mtime = "mtime"
        static let mtimeNsec = "mtimeNsec", ino = "ino", dev = "dev", done = "done", failed = "failed", reason = "reason"
    }

    public init(n: Int, directory: [UInt8], from: [UInt8], to: [UInt8], file: FileStatus) {
        self.n = n
        self.directory = directory
        self.from = from
        self.to = to
        size = file.size
        modifiedSeconds = file.modifiedSeconds
        modifiedNanoseconds = file.modifiedNanoseconds
        inode = file.inode
        device = file.device
    }

    /// The line, without its newline.
    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.append(static: "{\"n\":")
        out.append(decimal: n)
        out.append(UInt8(ascii: ","))
        JSON.appendPath("dir", directory, to: &out)
        out.append(UInt8(ascii: ","))
        JSON.appendPath("from", from, to: &out)
        out.append(UInt8(ascii: ","))
        JSON.appendPath("to", to, to: &out)
        out.append(contentsOf: ",\"\(Key.size)\":\(size),\"\(Key.mtime)\":\(modifiedSeconds),\"\(Key.mtimeNsec)\":\(modifiedNanoseconds),\"\(Key.ino)\":\(inode),\"\(Key.dev)\":\(device)}".utf8)
        return out
    }

    /// The entry of a parsed line, or nil when it is not an intent.
    init?(_ object: JSONValue) {
        guard let n = object[Key.n]?.int64, let directory = JSON.path(object, Key.dir), let from = JSON.path(object, Key.from),
              let to = JSON.path(object, Key.to), let size = object[Key.size]?.int64, let mtime = object[Key.mtime]?.int64,
              let inode = object[Key.ino]?.uint64, let device = object[Key.dev]?.uint64 else { return nil }
        self.n = Int(n)
        self.directory = directory
        self.from = from
        self.to = to
        self.size = size
        modifiedSeconds = mtime
        modifiedNanoseconds = object[Key.mtimeNsec]?.int64 ?? 0
        self.inode = inode
        self.device = device
    }
}

/// The first line of a journal.
public struct JournalHeader: Sendable, Equatable {
    public static let currentVersion = 2
    public var version = JournalHeader.currentVersion
    public var roots: [[UInt8]]
    public var argv: [String]
    public var uid: UInt32

    public init(roots: [[UInt8]], argv: [String]) {
        self.roots = roots
        self.argv = argv
        uid = UInt32(geteuid())
    }

    func encoded() -> [UInt8] {
        var out: [UInt8] = []
        out.append(static: "{\"imgsniff\":\"rename-journal\",\"version\":")
        out.append(decimal: version)
        out.append(static: ",\"time\":")
        JSON.appendString(Clock.format("%Y-%m-%dT%H:%M:%SZ", utc: true), to: &out)
        out.append(static: ",\"pid\":")
        out.append(decimal: getpid())
        out.append(static: ",\"uid\":")
        out.append(decimal: uid)
        out.append(static: ",\"cwd\":")
        JSON.appendString(Path.display(JournalHeader.workingDirectory()), to: &out)
        out.append(static: ",\"roots\":[")
        for (i, root) in roots.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            // Roots as strings, with a parallel list of exact bytes when one is not UTF-8.
            JSON.appendString(Path.display(root), to: &out)
        }
        out.append(static: "],\"rootsBytes\":[")
        for (i, root) in roots.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSON.appendString(Base64.encodeToString(root), to: &out)
        }
        out.append(static: "],\"argv\":[")
        for (i, arg) in argv.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSON.appendString(arg, to: &out)
        }
        out.append(static: "]}")
        return out
    }

    /// The header of a parsed first line, or nil.
    init?(_ object: JSONValue) {
        guard object["imgsniff"]?.string == "rename-journal", let version = object["version"]?.int64 else { return nil }
        self.version = Int(version)
        if let encoded = object["rootsBytes"]?.array {
            roots = encoded.compactMap { $0.string.flatMap(Base64.decode) }
        } else {
            roots = object["roots"]?.array?.compactMap { $0.string.map { Array($0.utf8) } } ?? []
        }
        argv = object["argv"]?.array?.compactMap(\.string) ?? []
        uid = UInt32(object["uid"]?.int64 ?? -1)
    }

    static func workingDirectory() -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return [] }
        return buffer.withUnsafeBufferPointer { Path.bytes($0.baseAddress!) }
    }
}

public enum JournalError: Error, Sendable, CustomStringConvertible {
    case cannotCreate([UInt8], Errno)
    case writeFailed([UInt8], Errno)
    case cannotRead([UInt8], Errno)
    case notAJournal([UInt8])
    case unsupportedVersion([UInt8], Int)
    case notYours([UInt8], owner: UInt32)
    case writableByOthers([UInt8], permissions: UInt32)
    case notARegularFile([UInt8])
    case noJournal([UInt8])

    public var description: String {
        switch self {
        case .cannotCreate(let p, let e): return "cannot create journal \(Path.display(p)): \(e)"
        case .writeFailed(let p, let e): return "cannot write journal \(Path.display(p)): \(e)"
        case .cannotRead(let p, let e): return "cannot read journal \(Path.display(p)): \(e)"
        case .notAJournal(let p): return "\(Path.display(p)) is not an imgsniff rename journal (no header line)"
        case .unsupportedVersion(let p, let v): return "\(Path.display(p)): journal version \(v) is not one this imgsniff reads"
        case .notYours(let p, let owner):
            return "\(Path.display(p)) belongs to user \(owner), not to you (\(geteuid())): refusing to replay another user's journal"
        case .writableByOthers(let p, let mode):
            return "\(Path.display(p)) is writable by others (mode \(String(mode, radix: 8))): refusing to replay it (chmod go-w)"
        case .notARegularFile(let p): return "\(Path.display(p)) is not a regular file"
        case .noJournal(let dir): return "no journal in \(Path.display(dir))"
        }
    }
}

/// Appends to a new journal. A failed or short write stops the run: `append` throws, and nothing
/// is renamed whose intent is not on disk.
public final class JournalWriter {
    public let path: [UInt8]
    private let fd: FileDescriptor

    /// Creates the journal (never replacing a file: `O_EXCL`, `O_NOFOLLOW`), writes and syncs the
    /// header, and syncs the directory that holds it.
    public init(path: [UInt8], header: JournalHeader) throws(JournalError) {
        self.path = path
        do throws(Errno) {
            fd = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW, mode: 0o600)
        } catch {
            throw .cannotCreate(path, error)
        }
        try append([header.encoded()], sync: true)
        let (directory, _) = Path.split(path)
        if let dfd = try? FileDescriptor.openDirectory(directory) {
            try? dfd.synchronizeData()
            dfd.close()
        }
    }

    deinit { fd.close() }

    /// Writes lines (one write), then flushes them to disk when `sync`.
    public func append(_ lines: [[UInt8]], sync: Bool) throws(JournalError) {
        var bytes: [UInt8] = []
        for line in lines {
            bytes.append(contentsOf: line)
            bytes.append(0x0A)
        }
        do throws(Errno) {
            try fd.writeAll(bytes)
            if sync { try fd.synchronizeData() }
        } catch {
            throw .writeFailed(path, error)
        }
    }

    /// Records that renames happened (advice only).
    public func done(_ numbers: [Int]) throws(JournalError) {
        try append(numbers.map { Array("{\"\(JournalEntry.Key.done)\":\($0)}".utf8) }, sync: false)
    }

    /// Records that a rename did not happen, and why (advice only).
    public func failed(_ n: Int, reason: String) throws(JournalError) {
        var line: [UInt8] = Array("{\"\(JournalEntry.Key.failed)\":\(n),\"\(JournalEntry.Key.reason)\":".utf8)
        JSON.appendString(reason, to: &line)
        line.append(UInt8(ascii: "}"))
        try append([line], sync: false)
    }

    /// Where journals go when `--journal` is not given: `$XDG_STATE_HOME/imgsniff/`, else
    /// `~/.local/state/imgsniff/` (created with mode 0700).
    public static func defaultDirectory() -> [UInt8]? {
        var base: String
        if let xdg = Environment.value("XDG_STATE_HOME"), xdg.hasPrefix("/") {
            base = xdg
        } else if let home = Environment.value("HOME"), home.hasPrefix("/") {
            base = home + "/.local/state"
        } else {
            return nil
        }
        base += "/imgsniff"
        // Create each missing component (mode 0700 for ours).
        var built: [UInt8] = []
        for component in base.utf8.split(separator: UInt8(ascii: "/")) {
            built += [UInt8(ascii: "/")] + component
            _ = Path.withCString(built) { mkdir($0, 0o700) }
        }
        guard let status = try? FileDescriptor.currentDirectory.status(of: built, followSymlink: true), status.kind == .directory else {
            return nil
        }
        return built
    }

    /// A new journal's path: `rename-YYYYMMDD-HHMMSS-PID.jsonl` (local time) in the default
    /// directory, or in the working directory when there is none.
    public static func defaultPath() -> [UInt8] {
        let name = Array("rename-\(Clock.format("%Y%m%d-%H%M%S", utc: false))-\(getpid()).jsonl".utf8)
        // No state directory: the working directory, said as such in any message.
        guard let directory = defaultDirectory() else { return Array("./".utf8) + name }
        return Path.join(directory, name)
    }

    /// The newest journal in the default directory (`--undo last`).
    public static func newest() throws(JournalError) -> [UInt8] {
        guard let directory = defaultDirectory() else {
            throw .noJournal(Array("the state directory (neither XDG_STATE_HOME nor HOME is an absolute path one can write under)".utf8))
        }
        let fd: FileDescriptor
        do throws(Errno) { fd = try FileDescriptor.openDirectory(directory) } catch { throw .cannotRead(directory, error) }
        defer { fd.close() }
        guard let listing = try? DirectoryListing(fd) else { throw .noJournal(directory) }
        // Names sort by their time stamp; among equal names the later listing wins.
        var best: [UInt8]?
        for i in 0..<listing.count {
            let name = listing.name(i)
            guard name.starts(with: Array("rename-".utf8)), name.count > 6,
                  Array(name.suffix(6)) == Array(".jsonl".utf8) else { continue }
            if best == nil || best!.lexicographicallyPrecedes(name) { best = name }
        }
        guard let best else { throw .noJournal(directory) }
        return Path.join(directory, best)
    }
}

/// A journal read back, checked before anything moves.
public struct JournalContents: Sendable {
    public var header: JournalHeader
    public var entries: [JournalEntry] = []
    public var done: Set<Int> = []
    public var failed: Set<Int> = []
    /// Line numbers (1-based) that were damaged, with what was recovered from them.
    public var damagedLines: [Int] = []

    /// Renames whose intent was in a damaged line: numbered (a later entry, or `done` advice,
    /// shows they were made) but unreadable, so undo cannot revert them. Renames that failed
    /// are not counted: nothing moved.
    public var lostEntries: [Int] {
        guard !damagedLines.isEmpty else { return [] }
        let known = Set(entries.map(\.n))
        let highest = max(entries.map(\.n).max() ?? 0, done.max() ?? 0)
        guard highest > 0 else { return [] }
        return (1...highest).filter { !known.contains($0) && !failed.contains($0) }
    }

    /// The largest journal read.
    public static let maxSize = 1 << 30

    /// Reads a journal: it must be a regular file owned by the effective user and not writable by
    /// group or others, and its header must name a version this reader knows.
    public init(path: [UInt8]) throws(JournalError) {
        let fd: FileDescriptor
        do throws(Errno) { fd = try FileDescriptor.open(path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK) } catch {
            throw .cannotRead(path, error)
        }
        defer { fd.close() }
        let status: FileStatus
        do throws(Errno) { status = try fd.status() } catch { throw .cannotRead(path, error) }
        guard status.kind == .regular else { throw .notARegularFile(path) }
        guard status.owner == UInt32(geteuid()) else { throw .notYours(path, owner: status.owner) }
        guard status.permissions & 0o022 == 0 else { throw .writableByOthers(path, permissions: status.permissions) }
        guard status.size <= Int64(JournalContents.maxSize) else { throw .cannotRead(path, .invalid) }
        var bytes = [UInt8](repeating: 0, count: Int(status.size))
        let got: Int
        do throws(Errno) { got = try bytes.withMutableBytes { (raw) throws(Errno) -> Int in try fd.readFully(into: raw) } } catch {
            throw .cannotRead(path, error)
        }
        bytes.removeLast(bytes.count - got)

        var header: JournalHeader?
        var lineNumber = 0
        for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false) {
            lineNumber += 1
            if line.isEmpty { continue }
            var objects: [JSONValue] = []
            if let whole = try? JSONParser.parse(line) {
                objects = [whole]
            } else {
                // Damaged (a torn write): recover any complete record that starts inside it.
                damagedLines.append(lineNumber)
                var i = line.startIndex
                while i < line.endIndex {
                    if line[i] == UInt8(ascii: "{"), let object = try? JSONParser.parse(line[i...]) {
                        objects.append(object)
                        break
                    }
                    i += 1
                }
            }
            for object in objects {
                if header == nil, let h = JournalHeader(object) { header = h; continue }
                if let n = object[JournalEntry.Key.done]?.int64 { done.insert(Int(n)); continue }
                if let n = object[JournalEntry.Key.failed]?.int64 { failed.insert(Int(n)); continue }
                if let entry = JournalEntry(object) { entries.append(entry) }
            }
        }
        guard let header else { throw .notAJournal(path) }
        guard header.version == 1 || header.version == JournalHeader.currentVersion else {
            throw .unsupportedVersion(path, header.version)
        }
        self.header = header
    }
}
