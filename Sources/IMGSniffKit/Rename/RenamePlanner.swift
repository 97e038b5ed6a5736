import ImageSniff
import ImageSniffScan

/// Builds a plan from walk entries: `add` each, then `finish()`.
package struct RenamePlanner {
    package let policy: RenamePolicy
    package private(set) var items: [RenamePlanItem] = []
    /// The renames (indices into `items`) in the order they must happen: one that takes a name
    /// another frees comes after it.
    package private(set) var order: [Int] = []
    private let sniffer = FileSniffer()
    private var seen: Set<NameInDirectory> = []
    /// Per directory: the version-control directory it lies in, if any.
    private var versionControl: [DirectoryIdentity: String?] = [:]


    package init(policy: RenamePolicy) { self.policy = policy }

    /// Plans one entry of the walk.
    package mutating func add(_ entry: WalkEntry) {
        var (directoryPath, name) = entry.parent != nil
            ? (Array(entry.path.dropLast(entry.name.count)), Array(entry.name))
            : Path.split(entry.path)
        while directoryPath.count > 1, directoryPath.last == UInt8(ascii: "/") { directoryPath.removeLast() }
        if directoryPath.isEmpty { directoryPath = [UInt8(ascii: ".")] }
        var item = RenamePlanItem(path: entry.path, directoryPath: directoryPath, name: name, disposition: .skip(.badName))
        defer { items.append(item) }
        if let error = entry.error {
            item.disposition = .error(.walk(error))
            return
        }
        if entry.skippedFilesystem != nil { item.disposition = .skip(.notRegular(.directory)); return }
        if directoryPath.count >= Int(PATH_MAX) - 1 {
            item.disposition = .error(.pathTooLong)
            return
        }
        if entry.kind.isSpecial || entry.kind == .standardInput || entry.kind == .directory {
            item.disposition = .skip(.notRegular(entry.kind))
            return
        }
        if name.isEmpty || name == [46] || name == [46, 46] || name.contains(UInt8(ascii: "/")) { return }
        if let parent = entry.parent {
            plan(&item, in: parent.fd)
        } else {
            do throws(Errno) {
                let fd = try FileDescriptor.openDirectory(directoryPath)
                fd.closeAfter { plan(&item, in: $0) }
            } catch {
                item.disposition = .error(.system(error))
            }
        }
    }

    private mutating func plan(_ item: inout RenamePlanItem, in directory: FileDescriptor) {
        let id = (try? directory.status()).map { DirectoryIdentity(device: $0.device, inode: $0.inode) }
        item.directory = id
        // Inside a version-control directory: by the directory's real path (once per directory),
        // else by the path as walked.
        let vcs: String?
        if let id, let known = versionControl[id] {
            vcs = known
        } else {
            vcs = RenameRules.versionControlDirectory(of: directory) ?? RenameRules.versionControlDirectory(in: item.path)
            if let id { versionControl[id] = .some(vcs) }
        }
        if let vcs {
            item.disposition = .skip(.versionControl(vcs))
            return
        }
        // The file itself, never through a final symbolic link.
        let status: FileStatus
        do throws(Errno) { status = try directory.status(of: item.name, followSymlink: false) } catch {
            item.disposition = .error(.system(error))
            return
        }
        guard status.kind == .regular else {
            item.disposition = .skip(.notRegular(status.kind))
            return
        }
        item.file = status
        // The same name reached twice (an operand given twice, `d/x` and `d/./x`). Another name of
        // the same file (a hard link) is a name of its own, renamed on its own.
        let directoryID = id ?? DirectoryIdentity(device: status.device, inode: 0)
        if !seen.insert(NameInDirectory(directory: directoryID, name: item.name)).inserted {
            item.disposition = .skip(.listedTwice)
            return
        }
        do throws(FileError) {
            item.detection = try Path.withCString(item.name) { (p) throws(FileError) -> Detection in
                try sniffer.detect(path: p, relativeTo: directory.rawValue, followSymlinks: false)
            }
        } catch {
            item.disposition = .error(.file(error))
            return
        }
        item.disposition = RenameRules.decide(name: item.name, detection: item.detection!, policy: policy)
        if case .rename = item.disposition, !item.detection!.type.isImage,
           RenameRules.isConventionallyUnextended(item.name, permissions: status.permissions) {
            item.disposition = .keep(.conventionalName)
        }
        // Compressed SVG is named .svgz: browsers and libraries open a .svg as text.
        if case .rename(let to, let reason, let suffixed) = item.disposition, item.detection!.type == .svg,
           sniffer.withLastPrefix({ $0.count >= 2 && $0[0] == 0x1F && $0[1] == 0x8B }) {
            let upper = to.last.map { $0 >= 0x41 && $0 <= 0x5A } ?? false
            item.disposition = .rename(to: to + [upper ? UInt8(ascii: "Z") : UInt8(ascii: "z")], reason: reason, suffixed: suffixed)
        }
        if let target = item.target, target.count > Int(NAME_MAX) { item.disposition = .skip(.nameTooLong) }
    }

    /// Finds conflicts (targets that exist and are not freed by the plan itself, targets two files
    /// share), suffixes or skips them, and orders the renames so that one that takes a name
    /// another frees comes after it. Linear in the number of files.
    package mutating func finish() {
        var groups: [DirectoryIdentity: [Int]] = [:]
        var order: [DirectoryIdentity] = []
        for (i, item) in items.enumerated() where item.target != nil {
            guard let dir = item.directory else { continue }
            if groups[dir] == nil { order.append(dir) }
            groups[dir, default: []].append(i)
        }
        self.order = []
        for dir in order {
            self.order += resolveConflicts(in: groups[dir]!)
        }
    }

    /// Conflicts within one directory; returns the renames in the order they must happen.
    private mutating func resolveConflicts(in indices: [Int]) -> [Int] {
        let directoryPath = items[indices[0]].directoryPath
        let expected = items[indices[0]].directory!
        var existingName: [[UInt8]: [UInt8]] = [:]  // the directory's names, folded -> as on disk
        var listed = false
        if let fd = try? FileDescriptor.openDirectory(directoryPath),
           let status = try? fd.status(), status.device == expected.device, status.inode == expected.inode {
            defer { fd.close() }
            if let listing = try? DirectoryListing(fd) {
                listed = true
                for i in 0..<listing.count {
                    let name = Array(listing.name(i))
                    existingName[RenamePlanner.folded(name)] = name
                }
            }
        }
        guard listed else {
            for i in indices { items[i].disposition = .error(.directoryChanged) }
            return []
        }
        // Names compare without ASCII case: `x.PNG` beside `x.png` is a conflict (it is one on
        // case-insensitive file systems, and a trap everywhere else).
        let sources = Dictionary(indices.map { (RenamePlanner.folded(items[$0].name), $0) }, uniquingKeysWith: { a, _ in a })
        var wanted: [[UInt8]: Int] = [:]
        for i in indices { wanted[RenamePlanner.folded(items[i].target!), default: 0] += 1 }
        var claimed = Set(wanted.keys)
        var nextSuffix: [[UInt8]: Int] = [:]
        var grantedPlain: Set<[UInt8]> = []
        for i in indices {
            guard case .rename(let target, let reason, _) = items[i].disposition else { continue }
            let key = RenamePlanner.folded(target)
            // A name another rename of the plan frees is not taken (that rename comes first).
            let freedBy = sources[key].flatMap { $0 != i ? $0 : nil }
            let taken = existingName[key] != nil && freedBy == nil
            let sharing = wanted[key]!
            guard taken || sharing > 1 else { continue }
            // Shared but free: the first file keeps the name, the others are suffixed.
            if !taken && policy.suffixOnConflict && grantedPlain.insert(key).inserted { continue }
            let why = taken ? "'\(Path.display(existingName[key] ?? target))' already exists"
                            : "\(sharing) files would be named '\(Path.display(target))'"
            if policy.suffixOnConflict, let dot = target.lastIndex(of: UInt8(ascii: ".")) {
                let stem = Array(target[..<dot]), ext = Array(target[dot...])
                var k = nextSuffix[key] ?? 1
                var candidate: [UInt8] = []
                while k < 100_000 {
                    candidate = stem + Array("-\(k)".utf8) + ext
                    let folded = RenamePlanner.folded(candidate)
                    if !claimed.contains(folded) && existingName[folded] == nil { break }
                    k += 1
                }
                nextSuffix[key] = k + 1
                if k < 100_000 && candidate.count <= Int(NAME_MAX) {
                    claimed.insert(RenamePlanner.folded(candidate))
                    items[i].disposition = .rename(to: candidate, reason: reason, suffixed: true)
                    continue
                }
            }
            items[i].disposition = .skip(.conflict(why))
        }
        // A name counted as freed is taken after all when the rename that was to free it does not
        // happen (skipped for a conflict of its own): the renames waiting for it are skipped too,
        // along the whole chain, so that the plan says what --apply will do.
        var settled = false
        while !settled {
            settled = true
            for i in indices {
                guard case .rename(let target, _, _) = items[i].disposition else { continue }
                let key = RenamePlanner.folded(target)
                guard existingName[key] != nil, let frees = sources[key], frees != i, items[frees].target == nil else { continue }
                items[i].disposition = .skip(.conflict("'\(Path.display(existingName[key] ?? target))' already exists, "
                                                       + "and the rename that would free it does not happen"))
                settled = false
            }
        }
        // Order: a rename whose target another rename frees waits for it; a cycle is skipped.
        var state: [Int: Int] = [:]  // 1 visiting, 2 done
        var sequence: [Int] = []
        func visit(_ i: Int) -> Bool {
            if state[i] == 2 { return true }
            if state[i] == 1 { return false }
            state[i] = 1
            if let target = items[i].target, let frees = sources[RenamePlanner.folded(target)], frees != i,
               items[frees].target != nil {
                if !visit(frees) {
                    items[i].disposition = .skip(.cycle)
                    state[i] = 2
                    return false
                }
            }
            state[i] = 2
            if items[i].target != nil { sequence.append(i) }
            return true
        }
        for i in indices { _ = visit(i) }
        return sequence
    }

    /// A name with ASCII letters lower-cased.
    static func folded(_ name: [UInt8]) -> [UInt8] { name.map { $0 >= 0x41 && $0 <= 0x5A ? $0 | 0x20 : $0 } }
}
