// Carrying out a plan, and undoing it from its journal.
//
// Apply, for each planned rename, in plan order:
//   1. reopen the directory by path and check it is the planned one (st_dev/st_ino);
//   2. check the file is still the planned one (regular, same st_dev/st_ino) and the target free;
//   3. write the intent to the journal and fdatasync it;
//   4. rename with `imgsniff_rename_noreplace` (renameat2(RENAME_NOREPLACE) relative to the
//      directory descriptor, names without '/'); EEXIST (a file appeared since the plan) is a
//      conflict, reported, nothing clobbered;
//   5. append `{"done":n}` (not synced).
// A kill at any point leaves each file under its old or its new name, and the journal names
// every rename that may have happened.
//
// Test hooks (environment variables, for the crash tests; not for users):
//   IMGSNIFF_RENAME_DELAY_US=N   sleep N microseconds between the journal write and each rename;
//   IMGSNIFF_RENAME_FORCE_LINK=1 use the link + unlink fallback instead of renameat2.

import CRenameShim
import Foundation
import ImageSniff
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Opens directories by path, verifying their identity, and keeps a few open.
final class RenameDirectoryCache {
    private var open: [RenameDirectoryID: (fd: Int32, absolute: [UInt8]?)] = [:]

    /// The descriptor and absolute path of a planned directory, or nil (errno set).
    func get(_ path: [UInt8], _ id: RenameDirectoryID) -> (fd: Int32, absolute: [UInt8]?)? {
        if let hit = open[id] { return hit }
        if open.count >= 64 { closeAll() }
        let fd = RenameSys.openDirectory(path, expecting: id)
        guard fd >= 0 else { return nil }
        var absolute = RenameSys.absolutePath(of: fd)
        if absolute == nil {
            absolute = RenameSys.withCName(path) { p -> [UInt8]? in
                guard let r = realpath(p, nil) else { return nil }
                defer { free(r) }
                return Array(UnsafeRawBufferPointer(start: r, count: strlen(r)))
            }
        }
        open[id] = (fd, absolute)
        return (fd, absolute)
    }

    func closeAll() {
        for (_, entry) in open { close(entry.fd) }
        open.removeAll()
    }

    deinit { closeAll() }
}

enum RenameHooks {
    static var delayMicroseconds: UInt32 {
        guard let text = ProcessInfo.processInfo.environment["IMGSNIFF_RENAME_DELAY_US"] else { return 0 }
        return UInt32(text) ?? 0
    }

    static var renameFlags: Int32 {
        ProcessInfo.processInfo.environment["IMGSNIFF_RENAME_FORCE_LINK"] == "1"
            ? Int32(IMGSNIFF_RENAME_LINK_ONLY) : 0
    }
}

/// Applies a plan; returns the journal's path when one was written (only when something was
/// about to be renamed).
///
/// - Throws: `JournalError` when the journal cannot be created: nothing has been renamed then.
func applyRenamePlan(_ items: inout [RenamePlanItem], journalPath: () -> String, argv: [String]) throws -> String? {
    let cache = RenameDirectoryCache()
    defer { cache.closeAll() }
    var journal: JournalWriter?
    var journalFailure: String?
    var n = 0
    let delay = RenameHooks.delayMicroseconds
    let flags = RenameHooks.renameFlags

    for i in items.indices where items[i].action == .rename {
        if let journalFailure {
            items[i].action = .skip
            items[i].reason = "not renamed: \(journalFailure)"
            items[i].isError = true
            continue
        }
        let item = items[i]
        guard let dirID = item.directory, let dir = cache.get(item.directoryPath, dirID) else {
            items[i].action = .skip
            items[i].reason = "directory changed or vanished since the plan"
            items[i].isError = true
            continue
        }
        guard let absolute = dir.absolute else {
            items[i].action = .skip
            items[i].reason = "cannot tell the directory's absolute path for the journal"
            items[i].isError = true
            continue
        }
        guard let st = RenameSys.lstat(dir.fd, item.name),
              st.st_mode & S_IFMT == S_IFREG,
              UInt64(st.st_dev) == item.fileDev, UInt64(st.st_ino) == item.fileIno else {
            items[i].action = .skip
            items[i].reason = "the file changed or vanished since the plan"
            items[i].isError = true
            continue
        }
        let target = item.target!
        if RenameSys.exists(dir.fd, target) {
            items[i].action = .skip
            items[i].isConflict = true
            items[i].reason = "conflict at apply time: '\(PathText.display(target))' appeared after the plan"
            continue
        }
        if journal == nil {
            journal = try JournalWriter(path: journalPath(), argv: argv)
        }
        n += 1
        let entry = JournalEntry(n: n, dir: absolute, from: item.name, to: target,
                                 size: Int64(st.st_size), mtime: Int64(st.st_mtim.tv_sec),
                                 mtimeNsec: Int64(st.st_mtim.tv_nsec),
                                 ino: UInt64(st.st_ino), dev: UInt64(st.st_dev))
        do {
            try journal!.writeIntent(entry)
        } catch {
            journalFailure = "\(error)"
            items[i].action = .skip
            items[i].reason = "not renamed: \(error)"
            items[i].isError = true
            continue
        }
        if delay > 0 { usleep(delay) }
        let rc = RenameSys.withCName(item.name) { from in
            RenameSys.withCName(target) { to in imgsniff_rename_noreplace_flags(dir.fd, from, to, flags) }
        }
        if rc == 0 {
            items[i].applied = true
            try? journal!.writeDone(n)
        } else {
            let code = errno
            items[i].action = .skip
            if code == EEXIST {
                items[i].isConflict = true
                items[i].reason = "conflict at apply time: '\(PathText.display(target))' appeared after the plan; not overwritten"
            } else {
                items[i].isError = true
                items[i].reason = "rename failed: \(WalkError.message(code))"
            }
            try? journal!.writeFailed(n, reason: items[i].reason)
        }
    }
    return journal?.path
}

// MARK: - Undo

/// What undo did with one journal entry.
struct RenameUndoOutcome {
    enum Status: String {
        /// Renamed back.
        case undone = "undo"
        /// The file is already under its old name after a rename that happened: nothing to do.
        case alreadyUndone = "already-undone"
        /// The rename never happened (interrupted between the journal write and the rename).
        case nothingToDo = "nothing-to-do"
        /// Not touched: the file is gone or changed, or the old name is taken.
        case refused = "refuse"
    }
    var entry: JournalEntry
    var status: Status
    var reason: String
}

/// Reverts a journal, last rename first. Safe to re-run; never overwrites anything.
func undoRenames(_ journal: JournalContents) -> [RenameUndoOutcome] {
    var outcomes: [RenameUndoOutcome] = []
    var dirs: [[UInt8]: Int32] = [:]
    defer { for (_, fd) in dirs { if fd >= 0 { close(fd) } } }
    let flags = RenameHooks.renameFlags

    for entry in journal.entries.reversed() {
        func outcome(_ status: RenameUndoOutcome.Status, _ reason: String) {
            outcomes.append(RenameUndoOutcome(entry: entry, status: status, reason: reason))
        }
        let to = PathText.display(entry.to), from = PathText.display(entry.from)
        if entry.from.isEmpty || entry.to.isEmpty || entry.from.contains(UInt8(ascii: "/"))
            || entry.to.contains(UInt8(ascii: "/")) {
            outcome(.refused, "malformed journal entry \(entry.n) (names must be single components)")
            continue
        }
        let fd: Int32
        if let cached = dirs[entry.dir] {
            fd = cached
        } else {
            fd = RenameSys.openDirectory(entry.dir)
            if fd < 0 {
                outcome(.refused, "cannot open the directory: \(WalkError.message(errno))")
                continue
            }
            dirs[entry.dir] = fd
        }
        if fd < 0 { continue }

        func matches(_ st: stat) -> Bool {
            st.st_mode & S_IFMT == S_IFREG && UInt64(st.st_ino) == entry.ino && UInt64(st.st_dev) == entry.dev
                && Int64(st.st_size) == entry.size && Int64(st.st_mtim.tv_sec) == entry.mtime
                && Int64(st.st_mtim.tv_nsec) == entry.mtimeNsec
        }
        let atTo = RenameSys.lstat(fd, entry.to)
        let toErrno = errno
        let atFrom = RenameSys.lstat(fd, entry.from)
        let fromErrno = errno

        if let t = atTo, matches(t) {
            if let f = atFrom {
                if f.st_ino == t.st_ino && f.st_dev == t.st_dev {
                    // Both names are links to the file: a link + unlink rename was interrupted.
                    let rc = RenameSys.withCName(entry.to) { unlinkat(fd, $0, 0) }
                    if rc == 0 {
                        outcome(.undone, "removed the leftover link '\(to)'; the file is '\(from)' again")
                    } else {
                        outcome(.refused, "cannot remove the leftover link '\(to)': \(WalkError.message(errno))")
                    }
                } else {
                    outcome(.refused, "'\(from)' exists again (another file): not overwritten; the renamed file stays '\(to)'")
                }
                continue
            }
            if fromErrno != ENOENT {
                outcome(.refused, "cannot check '\(from)': \(WalkError.message(fromErrno))")
                continue
            }
            let rc = RenameSys.withCName(entry.to) { t in
                RenameSys.withCName(entry.from) { f in imgsniff_rename_noreplace_flags(fd, t, f, flags) }
            }
            if rc == 0 {
                outcome(.undone, "renamed back")
            } else if errno == EEXIST {
                outcome(.refused, "'\(from)' appeared meanwhile: not overwritten; the renamed file stays '\(to)'")
            } else {
                outcome(.refused, "rename back failed: \(WalkError.message(errno))")
            }
            continue
        }
        // The renamed file is not under its new name.
        if let f = atFrom, matches(f) {
            if journal.done.contains(entry.n) {
                outcome(.alreadyUndone, "already under its old name")
            } else {
                outcome(.nothingToDo, "still under its old name (the rename never happened, or was undone)")
            }
            continue
        }
        if atTo != nil {
            outcome(.refused, "'\(to)' has changed since the rename (size, mtime or inode differ): not touched")
        } else if toErrno != ENOENT {
            outcome(.refused, "cannot check '\(to)': \(WalkError.message(toErrno))")
        } else if atFrom != nil {
            outcome(.refused, "the renamed file '\(to)' is gone, and '\(from)' is another file: not touched")
        } else {
            outcome(.refused, "the renamed file is gone: neither '\(to)' nor '\(from)' exists")
        }
    }
    return outcomes
}
