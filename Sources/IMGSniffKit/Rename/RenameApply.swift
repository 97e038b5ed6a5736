import ImageSniffScan
import CSystemShim

// Carrying out a plan, a batch at a time:
//   1. for each rename of the batch: reopen its directory by path and check it is the planned one
//      (device and inode), check the file is still the planned one and the new name free;
//   2. write the batch's intents to the journal and fdatasync it (one write, one sync);
//   3. rename each with `renameat2(RENAME_NOREPLACE)` relative to the directory, then `lstat` the
//      new name: a file that is not the planned one (swapped in between) is renamed back;
//   4. append the batch's `done` marks (not synced).
// A kill at any point leaves each file under its old or its new name, and the journal names every
// rename that may have happened. A journal write that fails stops the run before any rename of
// that batch.

/// Test hooks, for the crash tests (environment variables; not for users):
///   IMGSNIFF_RENAME_DELAY_US=N    sleep N microseconds before each rename (and each one undone);
///   IMGSNIFF_RENAME_FORCE_LINK=1  use the link + unlink fallback instead of renameat2.
package struct RenameHooks: Sendable {
    package var delayMicroseconds: UInt32 = 0
    package var forceLink = false

    package init() {}

    package static func fromEnvironment() -> RenameHooks {
        var hooks = RenameHooks()
        hooks.delayMicroseconds = Environment.value("IMGSNIFF_RENAME_DELAY_US").flatMap { UInt32($0) } ?? 0
        hooks.forceLink = Environment.value("IMGSNIFF_RENAME_FORCE_LINK") == "1"
        return hooks
    }

    var renameFlags: Int32 { forceLink ? Int32(IMGSNIFF_RENAME_LINK_ONLY) : 0 }
}

/// No-clobber rename within one directory.
enum Renaming {
    /// `from` -> `to` in `directory`, never replacing `to` (EEXIST when it exists).
    static func rename(_ directory: FileDescriptor, _ from: [UInt8], _ to: [UInt8], hooks: RenameHooks) throws(Errno) {
        let rc = Path.withCString(from) { f in
            Path.withCString(to) { t in imgsniff_rename_noreplace_flags(directory.rawValue, f, t, hooks.renameFlags) }
        }
        if rc != 0 { throw Errno.current }
    }

    /// The absolute path of an open directory, as the kernel names it, or nil.
    static func absolutePath(of fd: FileDescriptor) -> [UInt8]? {
        var buffer = [UInt8](repeating: 0, count: Int(PATH_MAX) + 1)
        let n = buffer.withUnsafeMutableBufferPointer { b in
            b.withMemoryRebound(to: CChar.self) { readlink("/proc/self/fd/\(fd.rawValue)", $0.baseAddress!, $0.count - 1) }
        }
        guard n > 0, buffer[0] == UInt8(ascii: "/") else { return nil }
        let path = Array(buffer[..<n])
        if path.count >= 10, Array(path.suffix(10)) == Array(" (deleted)".utf8) { return nil }
        return path
    }

    /// The real path of `path` (`realpath`), or nil.
    static func realPath(_ path: [UInt8]) -> [UInt8]? {
        Path.withCString(path) { p -> [UInt8]? in
            guard let r = realpath(p, nil) else { return nil }
            defer { free(r) }
            return Path.bytes(r)
        }
    }

    /// Whether `directory` is one of `roots` or inside one.
    static func isWithin(_ directory: [UInt8], roots: [[UInt8]]) -> Bool {
        roots.contains { root in
            directory == root || (directory.count > root.count && directory.starts(with: root)
                                  && (root.last == UInt8(ascii: "/") || directory[root.count] == UInt8(ascii: "/")))
        }
    }
}

/// Opens the plan's directories by path, checking their identity, and keeps up to `limit` open.
/// It never closes one by itself: a batch's intents hold its descriptors until the batch's renames
/// are done, so the applier ends a batch early when the cache is full and calls `closeAll()` between
/// batches.
final class DirectoryCache {
    private var open: [DirectoryIdentity: (fd: FileDescriptor, absolute: [UInt8]?)] = [:]
    let limit: Int

    init(limit: Int = 64) { self.limit = max(1, limit) }

    /// Whether `get` for `id` would have to open one more directory when no more may be open.
    func isFull(for id: DirectoryIdentity) -> Bool { open[id] == nil && open.count >= limit }

    func get(_ path: [UInt8], _ id: DirectoryIdentity) -> (fd: FileDescriptor, absolute: [UInt8]?)? {
        if let hit = open[id] { return hit }
        guard let fd = try? FileDescriptor.openDirectory(path) else { return nil }
        guard let status = try? fd.status(), status.device == id.device, status.inode == id.inode else {
            fd.close()
            return nil
        }
        let absolute = Renaming.absolutePath(of: fd) ?? Renaming.realPath(path)
        open[id] = (fd, absolute)
        return (fd, absolute)
    }

    func closeAll() {
        for (_, entry) in open { entry.fd.close() }
        open.removeAll()
    }

    deinit { closeAll() }
}

/// Applies a plan.
package struct RenameApplier {
    /// Renames per journal sync.
    package var batchSize = 512
    /// Directories held open at once (a batch ends early when its next file needs one more).
    package var openDirectoryLimit = 64
    package var hooks = RenameHooks()
    /// Called once, with the journal's path, before the first rename.
    package var journalCreated: ([UInt8]) -> Void = { _ in }
    /// Called with the number of renames done so far.
    package var progress: (Int) -> Void = { _ in }

    package init() {}

    /// What applying did.
    package struct Result {
        package var journal: [UInt8]?
        /// The journal could not be created or written: the run stopped there.
        package var journalFailure: JournalError?
        package var interrupted = false
        package var renamed = 0
    }

    /// Renames the plan's `.rename` items (turning them into `.renamed`, `.skip` or `.error`).
    package func apply(_ items: inout [RenamePlanItem], order: [Int], journalPath: () -> [UInt8], header: JournalHeader) -> Result {
        var result = Result()
        let cache = DirectoryCache(limit: openDirectoryLimit)
        var journal: JournalWriter?
        var n = 0
        let pending = order.filter { if case .rename = items[$0].disposition { return true } else { return false } }
        var position = 0
        batches: while position < pending.count {
            if Interrupt.requested {
                result.interrupted = true
                for i in pending[position...] { items[i].disposition = .skip(.interrupted) }
                break
            }
            // Directories are closed only here, between batches: no intent holds their descriptors.
            cache.closeAll()
            let batchStart = position
            // 1. Check, and make the batch's intents. The batch ends at `batchSize` intents, or
            // before a file whose directory would be one too many to hold open.
            var intents: [(index: Int, entry: JournalEntry, fd: FileDescriptor, reason: RenameReason)] = []
            // The names this batch's renames free: a rename that takes one (the plan ordered it
            // after the rename that frees it) waits for the next batch, when the name is free.
            var freeing: Set<NameInDirectory> = []
            while position < pending.count && intents.count < batchSize {
                let i = pending[position]
                if let id = items[i].directory, cache.isFull(for: id) { break }
                if let id = items[i].directory, let target = items[i].target,
                   freeing.contains(NameInDirectory(directory: id, name: RenamePlanner.folded(target))) { break }
                position += 1
                guard case .rename(let target, let reason, _) = items[i].disposition else { continue }
                let item = items[i]
                guard let id = item.directory, let dir = cache.get(item.directoryPath, id) else {
                    items[i].disposition = .error(.directoryChanged)
                    continue
                }
                guard let absolute = dir.absolute else {
                    items[i].disposition = .error(.noAbsolutePath)
                    continue
                }
                guard let status = try? dir.fd.status(of: item.name, followSymlink: false), status.kind == .regular,
                      let planned = item.file, status.isSameFile(as: planned) else {
                    items[i].disposition = .error(.fileChanged)
                    continue
                }
                if (try? dir.fd.status(of: target, followSymlink: false)) != nil {
                    items[i].disposition = .skip(.conflict("'\(Path.display(target))' appeared after the plan; not overwritten"))
                    continue
                }
                n += 1
                intents.append((i, JournalEntry(n: n, directory: absolute, from: item.name, to: target, file: status), dir.fd, reason))
                freeing.insert(NameInDirectory(directory: id, name: RenamePlanner.folded(item.name)))
            }
            guard !intents.isEmpty else { continue }
            // 2. The intents on disk before any rename.
            do throws(JournalError) {
                if journal == nil {
                    let writer = try JournalWriter(path: journalPath(), header: header, key: try JournalKey.loadOrCreate())
                    journal = writer
                    result.journal = writer.path
                    journalCreated(writer.path)
                }
                try journal!.append(intents.map { $0.entry.encoded() }, sync: true)
            } catch {
                result.journalFailure = error
                for i in pending[batchStart...] where items[i].target != nil && !isRenamed(items[i]) {
                    items[i].disposition = .error(.journal(error.description))
                }
                break batches
            }
            // 3. The renames.
            var done: [Int] = []
            var failures: [(Int, String)] = []
            for (k, intent) in intents.enumerated() {
                if Interrupt.requested {
                    result.interrupted = true
                    for rest in intents[k...] {
                        items[rest.index].disposition = .skip(.interrupted)
                        failures.append((rest.entry.n, "interrupted"))
                    }
                    break
                }
                if hooks.delayMicroseconds > 0 { usleep(hooks.delayMicroseconds) }
                let entry = intent.entry
                do throws(Errno) {
                    try Renaming.rename(intent.fd, entry.from, entry.to, hooks: hooks)
                } catch {
                    let reason = error == .exists
                        ? "'\(Path.display(entry.to))' appeared after the plan; not overwritten"
                        : "rename failed: \(error)"
                    items[intent.index].disposition = error == .exists ? .skip(.conflict(reason)) : .error(.renameFailed(error))
                    failures.append((entry.n, reason))
                    continue
                }
                // The file now under the new name must be the one planned (not one swapped in
                // between the check and the rename): otherwise put it back.
                if let now = try? intent.fd.status(of: entry.to, followSymlink: false), now.device == entry.device,
                   RenameUndo.differences(now, entry).isEmpty {
                    items[intent.index].disposition = .renamed(to: entry.to, reason: intent.reason)
                    done.append(entry.n)
                    result.renamed += 1
                    progress(result.renamed)
                } else {
                    let back = (try? Renaming.rename(intent.fd, entry.to, entry.from, hooks: hooks)) != nil
                    let reason = "the file renamed was not the one planned (replaced in between): "
                        + (back ? "renamed back" : "could not rename it back; it is '\(Path.display(entry.to))'")
                    items[intent.index].disposition = .error(.replaced(renamedBack: back))
                    failures.append((entry.n, reason))
                }
            }
            // 4. Advice for undo.
            do throws(JournalError) {
                try journal!.done(done)
                for (number, reason) in failures { try journal!.failed(number, reason: reason) }
            } catch {
                result.journalFailure = error
                for i in pending[position...] where items[i].target != nil && !isRenamed(items[i]) {
                    items[i].disposition = .error(.journal(error.description))
                }
                break batches
            }
        }
        // The record of a run that ended (done, stopped by a journal failure or interrupted: not
        // killed) closes with the number of intents it wrote.
        if let journal, result.journalFailure == nil {
            do throws(JournalError) { try journal.end(intents: n) } catch { result.journalFailure = error }
        }
        return result
    }

    private func isRenamed(_ item: RenamePlanItem) -> Bool {
        if case .renamed = item.disposition { return true } else { return false }
    }
}
