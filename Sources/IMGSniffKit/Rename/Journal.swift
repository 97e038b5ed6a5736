import ImageSniffScan
import CSystemShim

// The rename journal: JSON lines, the intents of each batch of renames written and flushed to
// disk before any of them happens, so that `imgsniff rename --undo JOURNAL` puts every file back
// even after a kill -9.
//
// Format (version 3), one JSON object per line, each signed:
//
//     {"imgsniff":"rename-journal","version":3,"id":"9f0c...","time":"2026-11-22T12:00:00Z","pid":123,"uid":1000,"cwd":"/home/me","roots":["/home/me/photos"],"rootsBytes":[...],"argv":[...],"mac":"..."}
//     {"n":1,"dir":"/home/me/photos","from":"a","to":"a.png","size":1234,"mtime":1714564800,"mtimeNsec":123456789,"ino":42,"dev":2049,"mac":"..."}
//     {"n":2,...}
//     {"done":1,"mac":"..."}
//     {"failed":2,"reason":"target exists","mac":"..."}
//     {"end":true,"intents":2,"mac":"..."}
//
// - The header comes first. `roots` are the real paths of the directories the run was allowed to
//   rename in (its operands, or their directories): undo touches nothing outside them. `uid` is
//   the user who ran it; `argv`, `cwd`, `time` and `pid` are informative. `id` is random.
// - Every line ends with `"mac"`: HMAC-SHA-256 (hex) of the line's bytes before `,"mac":` (and,
//   for every line after the header, the journal's `id` first), under the user's journal key
//   (`journal.key` in the state directory, 32 random bytes, mode 0600, made on first use). Undo acts
//   only on lines whose signature holds, so a journal can only act inside the directories its own
//   run recorded: a journal written by hand, or edited, renames nothing.
// - Intent lines (`n` counts from 1) are written and `fdatasync`'d a batch at a time, BEFORE the
//   batch's renames. `dir` is the absolute path of the directory (as the kernel names it), `from`
//   and `to` single names in it. `size`, `mtime`, `mtimeNsec`, `ino` and `dev` identify the file
//   (a rename changes none of them); the device number is a hint only (it changes when a file
//   system is mounted again).
// - `done` and `failed` lines follow the renames: advice only (not synced); undo looks at the files.
// - `end` closes a run that ended (done, refused or interrupted: not killed), synced, with the
//   number of intents written. Without it, the run was killed or the journal was cut short: undo
//   restores what is recorded and says that later renames may not be.
// - Names are bytes: when `dir`, `from` or `to` is not valid UTF-8, the string holds the `%XX`
//   display form and `dirBytes`/`fromBytes`/`toBytes` the exact bytes in base64.
// - A reader takes a line it cannot parse, or whose signature fails, as damaged and resynchronises
//   on the next record (a crash can leave the last line cut short: its batch never started, since
//   a batch starts only once its intents are on disk). The journal is read from its end, a block
//   at a time: its size does not matter.
// - Versions 1 and 2 (imgsniff 0.1 and 0.2) carry no signature: undo refuses them unless
//   `--accept-unsigned` says the journal is known to be one imgsniff wrote.

/// One intended rename, as recorded.
package struct JournalEntry: Sendable, Equatable {
    package var n: Int
    /// The directory's absolute path, as bytes.
    package var directory: [UInt8]
    package var from: [UInt8]
    package var to: [UInt8]
    package var size: Int64
    package var modifiedSeconds: Int64
    package var modifiedNanoseconds: Int64
    package var inode: UInt64
    package var device: UInt64

    /// The member names, written and read from this one list.
    enum Key {
        static let n = "n", dir = "dir", from = "from", to = "to", size = "size", mtime = "mtime"
        static let mtimeNsec = "mtimeNsec", ino = "ino", dev = "dev", done = "done", failed = "failed", reason = "reason"
        static let end = "end", intents = "intents"
    }

    package init(n: Int, directory: [UInt8], from: [UInt8], to: [UInt8], file: FileStatus) {
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

    /// The line, unsigned, without its newline.
    func encoded() -> [UInt8] {
        var line = JSONObjectWriter()
        line.integer("n", n)
        line.path("dir", directory)
        line.path("from", from)
        line.path("to", to)
        line.integer("size", size)
        line.integer("mtime", modifiedSeconds)
        line.integer("mtimeNsec", modifiedNanoseconds)
        line.integer("ino", inode)
        line.integer("dev", device)
        return line.finished()
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
package struct JournalHeader: Sendable, Equatable {
    package static let currentVersion = 3
    package var version = JournalHeader.currentVersion
    /// Random, in hex: every later line's signature covers it, so lines cannot move between journals.
    package var id: [UInt8]
    package var roots: [[UInt8]]
    package var argv: [String]
    package var uid: UInt32

    package init(roots: [[UInt8]], argv: [String]) {
        self.roots = roots
        self.argv = argv
        uid = UInt32(geteuid())
        var random = SystemRandomNumberGenerator()
        id = Hex.encode((0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
    }

    /// The line, unsigned (without its closing brace: `JournalKey.sign` closes it).
    func encoded() -> [UInt8] {
        var line = JSONObjectWriter()
        line.string("imgsniff", "rename-journal")
        line.integer("version", version)
        line.string("id", String(decoding: id, as: UTF8.self))
        line.string("time", Clock.format("%Y-%m-%dT%H:%M:%SZ", utc: true))
        line.integer("pid", getpid())
        line.integer("uid", uid)
        line.string("cwd", Path.display(JournalHeader.workingDirectory()))
        // Roots as strings, with a parallel list of exact bytes (for those that are not UTF-8).
        line.strings("roots", roots.map(Path.display))
        line.strings("rootsBytes", roots.map(Base64.encodeToString))
        line.strings("argv", argv)
        return line.finished()
    }

    /// The header of a parsed first line, or nil.
    init?(_ object: JSONValue) {
        guard object["imgsniff"]?.string == "rename-journal", let version = object["version"]?.int64 else { return nil }
        self.version = Int(version)
        id = object["id"]?.string.map { Array($0.utf8) } ?? []
        if let encoded = object["rootsBytes"]?.array {
            roots = encoded.compactMap { $0.string.flatMap(Base64.decode) }
        } else {
            roots = object["roots"]?.array?.compactMap { $0.string.map { Array($0.utf8) } } ?? []
        }
        argv = object["argv"]?.array?.compactMap(\.string) ?? []
        uid = UInt32(truncatingIfNeeded: object["uid"]?.int64 ?? -1)
    }

    static func workingDirectory() -> [UInt8] {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        guard getcwd(&buffer, buffer.count) != nil else { return [] }
        return buffer.withUnsafeBufferPointer { Path.bytes($0.baseAddress!) }
    }
}

package enum JournalError: Error, Sendable, CustomStringConvertible {
    case cannotCreate([UInt8], Errno)
    case cannotCreateKey([UInt8], Errno)
    /// Left by a first run of imgsniff 0.3 or earlier that a full disk stopped.
    case emptyKey([UInt8])
    case writeFailed([UInt8], Errno)
    case cannotRead([UInt8], Errno)
    case notAJournal([UInt8])
    /// Empty: the run that created it was stopped before it wrote its header, before any rename.
    case empty([UInt8])
    case unsupportedVersion([UInt8], Int)
    case unsigned([UInt8], version: Int)
    case badSignature([UInt8], key: [UInt8])
    case noKey(String)
    case badKey([UInt8], String)
    case notYours([UInt8], owner: UInt32)
    case writableByOthers([UInt8], permissions: UInt32)
    case notARegularFile([UInt8])
    case noJournal([UInt8])

    package var description: String {
        switch self {
        case .cannotCreate(let p, let e): return "cannot create journal \(Path.display(p)): \(e)"
        case .cannotCreateKey(let p, let e): return "cannot create the journal key \(Path.display(p)): \(e)"
        case .emptyKey(let p):
            return "the journal key \(Path.display(p)) is empty: a first run stopped before writing it, so no journal was signed with it; "
                + "remove it and run again"
        case .writeFailed(let p, let e): return "cannot write journal \(Path.display(p)): \(e)"
        case .cannotRead(let p, let e): return "cannot read journal \(Path.display(p)): \(e)"
        case .notAJournal(let p): return "\(Path.display(p)) is not an imgsniff rename journal (no header line)"
        case .empty(let p):
            return "\(Path.display(p)) is empty: the run that created it was stopped before it wrote anything, so it renamed nothing; nothing to undo"
        case .unsupportedVersion(let p, let v): return "\(Path.display(p)): journal version \(v) is not one this imgsniff reads"
        case .unsigned(let p, let v):
            return "\(Path.display(p)) is a version \(v) journal (imgsniff 0.\(v)), which carries no signature: anyone could have written it. "
                + "If you know imgsniff wrote it, undo it with --accept-unsigned (its entries still must lie inside its roots)"
        case .badSignature(let p, let key):
            return "\(Path.display(p)): the header's signature does not hold under the journal key \(Path.display(key)): the journal "
                + "was written under another key (another user, or another state directory: XDG_STATE_HOME, else ~/.local/state, "
                + "as the run that wrote it had them), or was changed since: refusing to act on it"
        case .noKey(let why): return "no journal key: \(why)"
        case .badKey(let p, let why): return "the journal key \(Path.display(p)) \(why): refusing to use it"
        case .notYours(let p, let owner):
            return "\(Path.display(p)) belongs to user \(owner), not to you (\(geteuid())): refusing to replay another user's journal"
        case .writableByOthers(let p, let mode):
            return "\(Path.display(p)) is writable by others (mode \(String(mode, radix: 8))): refusing to replay it (chmod go-w)"
        case .notARegularFile(let p): return "\(Path.display(p)) is not a regular file"
        case .noJournal(let dir): return "no journal in \(Path.display(dir))"
        }
    }
}

/// The key that signs the journals of one user: 32 random bytes in `journal.key` in the state
/// directory (`$XDG_STATE_HOME/imgsniff/`, else `~/.local/state/imgsniff/`), mode 0600, made on
/// first use. A journal signed under another key (another user, another machine, a key removed)
/// is refused.
package struct JournalKey: Sendable {
    let bytes: [UInt8]
    package let path: [UInt8]

    static let fileName = Array("journal.key".utf8)

    /// The key, made now if there is none.
    package static func loadOrCreate(in directory: [UInt8]? = nil) throws(JournalError) -> JournalKey {
        guard let dir = directory ?? JournalWriter.defaultDirectory() else {
            throw .noKey("no state directory to keep it in (set XDG_STATE_HOME or HOME to an absolute path)")
        }
        let path = Path.join(dir, fileName)
        if Path.withCString(path, { access($0, F_OK) }) != 0 && errno == ENOENT { try create(path, in: dir) }
        return try load(path)
    }

    /// Writes a new key aside (`journal.key.PID.RANDOM.tmp`), syncs it, and links it into place:
    /// the key has its name only once it is whole, so a full disk or two first runs at once never
    /// leave a short one. When another run linked its key first, that one stands.
    private static func create(_ path: [UInt8], in dir: [UInt8]) throws(JournalError) {
        let temporary = Path.join(dir, Array("journal.key.\(getpid()).\(UInt32.random(in: 0...UInt32.max)).tmp".utf8))
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(temporary, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
        } catch {
            throw .cannotCreateKey(path, error)
        }
        defer { _ = Path.withCString(temporary) { unlink($0) } }
        var random = SystemRandomNumberGenerator()
        let bytes = (0..<32).map { _ in UInt8.random(in: 0...255, using: &random) }
        do throws(Errno) {
            defer { fd.close() }
            try fd.writeAll(bytes)
            try fd.synchronizeData()
        } catch {
            throw .cannotCreateKey(path, error)
        }
        let linked = Path.withCString(temporary) { from in Path.withCString(path) { to in link(from, to) } }
        if linked != 0 && errno != EEXIST {
            // No hard links here (vfat, some FUSE file systems): a rename that never replaces,
            // else the key written under its name (as imgsniff 0.3 did), removed if that fails.
            let moved = Path.withCString(temporary) { from in Path.withCString(path) { to in imgsniff_rename_noreplace(AT_FDCWD, from, to) } }
            if moved != 0 && errno != EEXIST { try write(bytes, at: path) }
        }
        if let dfd = try? FileDescriptor.openDirectory(dir) {
            try? dfd.synchronizeData()
            dfd.close()
        }
    }

    /// Writes a new key under its own name (`O_EXCL`: one that exists stands), removing it if
    /// the write fails.
    private static func write(_ bytes: [UInt8], at path: [UInt8]) throws(JournalError) {
        let fd: FileDescriptor
        do throws(Errno) {
            fd = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW, mode: 0o600)
        } catch {
            if error == .exists { return }
            throw .cannotCreateKey(path, error)
        }
        do throws(Errno) {
            defer { fd.close() }
            try fd.writeAll(bytes)
            try fd.synchronizeData()
        } catch {
            _ = Path.withCString(path) { unlink($0) }
            throw .cannotCreateKey(path, error)
        }
    }

    /// The existing key (for undo).
    package static func load(in directory: [UInt8]? = nil) throws(JournalError) -> JournalKey {
        guard let dir = directory ?? JournalWriter.defaultDirectory() else {
            throw .noKey("no state directory (set XDG_STATE_HOME or HOME to an absolute path)")
        }
        return try load(Path.join(dir, fileName))
    }

    private static func load(_ path: [UInt8]) throws(JournalError) -> JournalKey {
        let fd: FileDescriptor
        do throws(Errno) { fd = try FileDescriptor.open(path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK) } catch {
            if error == .notFound {
                throw .noKey("\(Path.display(path)) does not exist: a journal is checked with the key of the user and state directory "
                             + "(XDG_STATE_HOME, else ~/.local/state) of the run that wrote it; that was another user, machine or "
                             + "state directory, or the key was removed")
            }
            throw .cannotRead(path, error)
        }
        defer { fd.close() }
        let status: FileStatus
        do throws(Errno) { status = try fd.status() } catch { throw .cannotRead(path, error) }
        guard status.kind == .regular else { throw .badKey(path, "is not a regular file") }
        guard status.owner == UInt32(geteuid()) else { throw .badKey(path, "belongs to user \(status.owner)") }
        guard status.permissions & 0o077 == 0 else { throw .badKey(path, "can be read or written by others (chmod 600)") }
        var bytes = [UInt8](repeating: 0, count: 33)
        let n: Int
        do throws(Errno) { n = try bytes.withMutableBytes { (raw) throws(Errno) -> Int in try fd.readFully(into: raw) } } catch {
            throw .cannotRead(path, error)
        }
        // Empty: a first run of an earlier imgsniff stopped (by a full disk) before writing it.
        guard n != 0 else { throw .emptyKey(path) }
        guard n == 32 else { throw .badKey(path, "is not 32 bytes long") }
        return JournalKey(bytes: Array(bytes[..<32]), path: path)
    }

    /// The signed line: `body` (a JSON object's text without its closing brace, or with it) and
    /// `,"mac":"…"}`, the signature covering `scope` (the journal's id) and then `body`.
    func sign(_ object: [UInt8], scope: [UInt8]) -> [UInt8] {
        var body = object
        if body.last == UInt8(ascii: "}") { body.removeLast() }
        var line = body
        line.append(static: ",\"mac\":\"")
        line.append(contentsOf: Hex.encode(HMAC.sha256(key: bytes, scope + body)))
        line.append(static: "\"}")
        return line
    }

    /// The length of the signature's suffix: `,"mac":"` 64 hex digits `"}`.
    static let suffixLength = 8 + 64 + 2

    /// Whether `line` carries a signature of its body under this key and `scope`.
    func verifies(_ line: ArraySlice<UInt8>, scope: [UInt8]) -> Bool {
        guard line.count > JournalKey.suffixLength else { return false }
        let split = line.endIndex - JournalKey.suffixLength
        let suffix = line[split...]
        guard suffix.starts(with: ",\"mac\":\"".utf8), suffix.last == UInt8(ascii: "}") else { return false }
        let mac = suffix.dropFirst(8).dropLast(2)
        return Hex.equal(mac, Hex.encode(HMAC.sha256(key: bytes, scope + line[line.startIndex..<split])))
    }
}

/// Appends to a new journal, signing every line. A failed or short write stops the run: `append`
/// throws, and nothing is renamed whose intent is not on disk.
package final class JournalWriter {
    package let path: [UInt8]
    private let fd: FileDescriptor
    private let key: JournalKey
    private let id: [UInt8]

    /// Creates the journal (never replacing a file: `O_EXCL`, `O_NOFOLLOW`), writes and syncs the
    /// signed header, and syncs the directory that holds it.
    package init(path: [UInt8], header: JournalHeader, key: JournalKey) throws(JournalError) {
        self.path = path
        self.key = key
        id = header.id
        do throws(Errno) {
            fd = try FileDescriptor.open(path, flags: O_WRONLY | O_CREAT | O_EXCL | O_APPEND | O_NOFOLLOW, mode: 0o600)
        } catch {
            throw .cannotCreate(path, error)
        }
        try write([key.sign(header.encoded(), scope: [])], sync: true)
        let (directory, _) = Path.split(path)
        if let dfd = try? FileDescriptor.openDirectory(directory) {
            try? dfd.synchronizeData()
            dfd.close()
        }
    }

    deinit { fd.close() }

    /// Signs and writes JSON object lines (one write), then flushes them to disk when `sync`.
    package func append(_ objects: [[UInt8]], sync: Bool) throws(JournalError) {
        try write(objects.map { key.sign($0, scope: id) }, sync: sync)
    }

    /// Writes lines as they are (tests write damaged ones through it).
    func write(_ lines: [[UInt8]], sync: Bool) throws(JournalError) {
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
    package func done(_ numbers: [Int]) throws(JournalError) {
        try append(numbers.map { Array("{\"\(JournalEntry.Key.done)\":\($0)}".utf8) }, sync: false)
    }

    /// Records that a rename did not happen, and why (advice only).
    package func failed(_ n: Int, reason: String) throws(JournalError) {
        var line: [UInt8] = Array("{\"\(JournalEntry.Key.failed)\":\(n),\"\(JournalEntry.Key.reason)\":".utf8)
        JSON.appendString(reason, to: &line)
        line.append(UInt8(ascii: "}"))
        try append([line], sync: false)
    }

    /// Closes the record of a run that ended: `intents` intents were written.
    package func end(intents: Int) throws(JournalError) {
        try append([Array("{\"\(JournalEntry.Key.end)\":true,\"\(JournalEntry.Key.intents)\":\(intents)}".utf8)], sync: true)
    }

    /// Where journals go when `--journal` is not given: `$XDG_STATE_HOME/imgsniff/`, else
    /// `~/.local/state/imgsniff/` (created with mode 0700).
    package static func defaultDirectory() -> [UInt8]? {
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
    package static func defaultPath() -> [UInt8] {
        let name = Array("rename-\(Clock.format("%Y%m%d-%H%M%S", utc: false))-\(getpid()).jsonl".utf8)
        // No state directory: the working directory, said as such in any message.
        guard let directory = defaultDirectory() else { return Array("./".utf8) + name }
        return Path.join(directory, name)
    }

    /// Whether journal name `a` was given before `b` (for journals written at the same time, on
    /// a file system whose times are coarse): by the time stamp, then the process id as a
    /// number; names of another form, as text.
    static func namedEarlier(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        /// `rename-YYYYMMDD-HHMMSS-` and the process id's digits before `.jsonl`.
        func parts(_ n: [UInt8]) -> (stamp: ArraySlice<UInt8>, pid: Int)? {
            guard n.count > 29, n[22] == UInt8(ascii: "-"),
                  let pid = Int(String(decoding: n[23..<(n.count - 6)], as: UTF8.self)) else { return nil }
            return (n[7..<22], pid)
        }
        guard let x = parts(a), let y = parts(b) else { return a.lexicographicallyPrecedes(b) }
        return x.stamp.elementsEqual(y.stamp) ? x.pid < y.pid : x.stamp.lexicographicallyPrecedes(y.stamp)
    }

    /// The newest journal in the default directory (`--undo last`): the one written last (its
    /// modification time, to the nanosecond; the name breaks a tie: `namedEarlier`). Not by
    /// name: the time in a name is local (a change of zone or daylight saving time puts a newer
    /// run first) and its process ids sort as text (run 9991 after run 10011 of the same second).
    package static func newest() throws(JournalError) -> [UInt8] {
        guard let directory = defaultDirectory() else {
            throw .noJournal(Array("the state directory (neither XDG_STATE_HOME nor HOME is an absolute path one can write under)".utf8))
        }
        let fd: FileDescriptor
        do throws(Errno) { fd = try FileDescriptor.openDirectory(directory) } catch { throw .cannotRead(directory, error) }
        defer { fd.close() }
        guard let listing = try? DirectoryListing(fd) else { throw .noJournal(directory) }
        var best: (name: [UInt8], modified: (Int64, Int64))?
        for i in 0..<listing.count {
            let name = listing.name(i)
            guard name.starts(with: Array("rename-".utf8)), name.count > 6,
                  Array(name.suffix(6)) == Array(".jsonl".utf8),
                  let status = try? fd.status(of: name, followSymlink: false), status.kind == .regular else { continue }
            let modified = (status.modifiedSeconds, status.modifiedNanoseconds)
            if let b = best, modified < b.modified || modified == b.modified && !namedEarlier(b.name, name) { continue }
            best = (name, modified)
        }
        guard let best else { throw .noJournal(directory) }
        return Path.join(directory, best.name)
    }
}

/// One line of a journal, as read back.
package enum JournalRecord: Sendable, Equatable {
    case intent(JournalEntry)
    case done(Int)
    case failed(Int)
    /// The run ended, having written this many intents.
    case end(intents: Int)
}

/// A journal, checked and read back from its end: its size does not matter (a block at a time,
/// never the whole file in memory).
package struct JournalReader {
    package let path: [UInt8]
    package let header: JournalHeader
    /// Lines in the file (the header is line 1).
    package let lineCount: Int
    /// Whether lines are checked against the key (false only for an unsigned journal accepted as such).
    package let signed: Bool
    private let key: JournalKey?
    private let size: Int

    /// The longest line taken (a longer one is damaged).
    package static let maxLine = 1 << 20
    static let block = 1 << 16

    /// Opens a journal: it must be a regular file owned by the effective user and not writable
    /// by group or others; its header must be signed under `key` (or, for versions 1 and 2 with
    /// `acceptUnsigned`, unsigned).
    package init(path: [UInt8], key: JournalKey?, acceptUnsigned: Bool = false) throws(JournalError) {
        self.path = path
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
        size = Int(status.size)
        // The header is written before any rename: a journal with nothing in it records none.
        guard size > 0 else { throw .empty(path) }

        // Forward, a block at a time: the header (line 1) and the number of lines.
        var first: [UInt8]?
        var pending: [UInt8] = []
        var lines = 0
        var offset = 0
        var buffer = [UInt8](repeating: 0, count: JournalReader.block)
        while offset < size {
            let n: Int
            do throws(Errno) {
                n = try buffer.withMutableBytes { (raw) throws(Errno) -> Int in try fd.read(into: raw, atOffset: offset) }
            } catch {
                throw .cannotRead(path, error)
            }
            if n == 0 { break }
            // Newlines counted with memchr (the file may be gigabytes long).
            buffer.withUnsafeBufferPointer { b in
                var p = 0
                while p < n {
                    guard let hit = memchr(b.baseAddress! + p, 0x0A, n - p) else {
                        if first == nil && pending.count <= JournalReader.maxLine { pending.append(contentsOf: b[p..<n]) }
                        break
                    }
                    let at = b.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
                    if first == nil {
                        pending.append(contentsOf: b[p..<at])
                        first = pending
                    }
                    lines += 1
                    p = at + 1
                }
            }
            if first == nil && pending.count > JournalReader.maxLine { throw .notAJournal(path) }
            offset += n
        }
        if first == nil { first = pending }
        if offset > 0 {
            // A last line without a newline is a line too.
            var last = [UInt8](repeating: 0, count: 1)
            let n = (try? last.withMutableBytes { (raw) throws(Errno) -> Int in try fd.read(into: raw, atOffset: offset - 1) }) ?? 0
            if n == 1 && last[0] != 0x0A { lines += 1 }
        }
        lineCount = lines
        guard let line = first, let object = try? JSONParser.parse(line), let header = JournalHeader(object) else {
            throw .notAJournal(path)
        }
        switch header.version {
        case JournalHeader.currentVersion:
            guard let key else { throw .noKey("cannot check the journal's signatures") }
            guard key.verifies(line[...], scope: []) else { throw .badSignature(path, key: key.path) }
            signed = true
        case 1, 2:
            guard acceptUnsigned else { throw .unsigned(path, version: header.version) }
            signed = false
        default:
            throw .unsupportedVersion(path, header.version)
        }
        self.header = header
        self.key = key
    }

    /// Calls `body` with each record from the last line to the second, and with the line number
    /// of each damaged line (one that does not parse, or whose signature fails: a complete record
    /// that starts inside it is recovered). `body` returns false to stop.
    package func reversed(_ body: (JournalRecord?, _ damagedLine: Int?) -> Bool) throws(JournalError) {
        let fd: FileDescriptor
        do throws(Errno) { fd = try FileDescriptor.open(path, flags: O_RDONLY | O_NOFOLLOW | O_NONBLOCK) } catch {
            throw .cannotRead(path, error)
        }
        defer { fd.close() }
        var end = size
        // The end of a line that began before the block read last (its last `maxLine` bytes at
        // most: a longer line is damaged, and only its end can hold a record glued to it).
        var carry: [UInt8] = []
        var frozen = false
        var lineNumber = lineCount + 1
        var buffer = [UInt8](repeating: 0, count: JournalReader.block)
        var first = true
        while end > 0 {
            let start = max(0, end - JournalReader.block)
            let n: Int
            do throws(Errno) {
                n = try buffer.withMutableBytes { (raw) throws(Errno) -> Int in
                    try fd.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[..<(end - start)]), atOffset: start)
                }
            } catch {
                throw .cannotRead(path, error)
            }
            var lineEnd = n
            if first, n > 0, buffer[n - 1] == 0x0A { lineEnd -= 1 }
            first = false
            while let newline = JournalReader.lastNewline(buffer, before: lineEnd) {
                let piece = buffer[(newline + 1)..<lineEnd]
                let line = carry.isEmpty ? piece : frozen ? carry[...] : (piece + carry)[...]
                lineNumber -= 1
                if !visit(line, lineNumber, tooLong: frozen, body) { return }
                carry = []
                frozen = false
                lineEnd = newline
            }
            if start == 0 { break }  // what is left is the header line
            if !frozen {
                carry = Array(buffer[..<lineEnd]) + carry
                if carry.count > JournalReader.maxLine {
                    carry = Array(carry.suffix(JournalReader.maxLine))
                    frozen = true
                }
            }
            end = start
        }
    }

    /// The index of the last newline in `buffer[..<end]` (memrchr: journals may be gigabytes long).
    static func lastNewline(_ buffer: [UInt8], before end: Int) -> Int? {
        guard end > 0 else { return nil }
        return buffer.withUnsafeBufferPointer { b -> Int? in
            guard let hit = imgsniff_memrchr(b.baseAddress!, 0x0A, UInt(end)) else { return nil }
            return b.baseAddress!.distance(to: hit.assumingMemoryBound(to: UInt8.self))
        }
    }

    private func visit(_ line: ArraySlice<UInt8>, _ number: Int, tooLong: Bool,
                       _ body: (JournalRecord?, Int?) -> Bool) -> Bool {
        if line.isEmpty { return true }
        if !tooLong, let record = record(line) { return body(record, nil) }
        // Damaged: a complete record may start inside it (a torn write glued to the next one).
        var recovered: JournalRecord?
        var i = line.startIndex + 1
        while i < line.endIndex {
            if line[i] == UInt8(ascii: "{"), let r = record(line[i...]) {
                recovered = r
                break
            }
            i += 1
        }
        if !body(nil, number) { return false }
        if let recovered { return body(recovered, nil) }
        return true
    }

    /// The record of a whole line, or nil when it does not parse or its signature fails.
    private func record(_ line: ArraySlice<UInt8>) -> JournalRecord? {
        if signed {
            guard let key, key.verifies(line, scope: header.id) else { return nil }
        }
        guard let object = try? JSONParser.parse(line) else { return nil }
        if let n = object[JournalEntry.Key.done]?.int64 { return .done(Int(n)) }
        if let n = object[JournalEntry.Key.failed]?.int64 { return .failed(Int(n)) }
        if object[JournalEntry.Key.end]?.bool == true, let n = object[JournalEntry.Key.intents]?.int64 { return .end(intents: Int(n)) }
        return JournalEntry(object).map { .intent($0) }
    }
}

extension JournalReader {
    /// Every record and damaged line, first to last (for small journals: tests, tools).
    package func all() throws(JournalError) -> (records: [JournalRecord], damagedLines: [Int]) {
        var records: [JournalRecord] = []
        var damaged: [Int] = []
        try reversed { record, line in
            if let record { records.append(record) }
            if let line { damaged.append(line) }
            return true
        }
        return (records.reversed(), damaged.reversed())
    }
}
