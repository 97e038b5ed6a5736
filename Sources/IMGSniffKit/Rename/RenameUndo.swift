import ImageSniffScan
/// What undo did with one journal entry.
package struct UndoOutcome: Sendable {
    package enum Status: String, Sendable {
        /// Renamed back.
        case undone = "undo"
        /// The file is under its old name already, after a rename that happened.
        case alreadyUndone = "already-undone"
        /// The rename never happened (the run stopped between the intent and the rename).
        case nothingToDo = "nothing-to-do"
        /// The file is under its old name, and the new name is a second link to it (a rename by
        /// link and unlink was cut short). Undo never removes a name: the user removes it.
        case leftoverLink = "leftover-link"
        /// Not touched: the file is gone or changed, the old name is taken, or the entry is not
        /// one undo may carry out.
        case refused = "refuse"
    }
    package let entry: JournalEntry
    package let status: Status
    package let reason: String
}

/// What an undo did, counted; the entries it could not restore are the outcomes `refused` and
/// `leftoverLink`, and the numbers in `lost`.
package struct UndoSummary: Sendable {
    package var counts: [UndoOutcome.Status: Int] = [:]
    /// Intents whose line was damaged (numbered by a later line, unreadable): not undone.
    package var lost: [ClosedRange<Int>] = []
    /// Damaged lines (the first 100) and how many there were.
    package var damagedLines: [Int] = []
    package var damagedCount = 0
    /// Whether the journal ends with its run's end record (else the run was killed, or the
    /// journal was cut short: renames after its last intent may not be recorded).
    package var ended = false
    /// The highest intent number recorded.
    package var lastIntent = 0

    package var lostCount: Int { lost.reduce(0) { $0 + $1.count } }

    /// Whether everything recorded is back and the record is whole (ended, undamaged).
    package var isComplete: Bool {
        ended && damagedCount == 0 && lost.isEmpty && (counts[.refused] ?? 0) == 0 && (counts[.leftoverLink] ?? 0) == 0
    }
}

/// Reverting a journal, last rename first, read from the journal's end a block at a time. Safe to
/// run again; never overwrites anything, never removes a name.
package enum RenameUndo {
    /// Directories held open at once.
    static let openDirectoryLimit = 32

    /// Undoes `journal`, handing each outcome to `emit` as it happens (false stops).
    package static func undo(_ journal: JournalReader, hooks: RenameHooks = RenameHooks(),
                            emit: (UndoOutcome) -> Bool) throws(JournalError) -> UndoSummary {
        var summary = UndoSummary()
        let directories = DirectoryLRU(limit: openDirectoryLimit)
        defer { directories.closeAll() }
        let roots = journal.header.roots
        // Advice lines come after their intents: read backwards, they are met first. Each is
        // dropped once its intent is handled, so these sets hold about a batch.
        var done: Set<Int> = [], failed: Set<Int> = []
        // The next intent number expected (reading down), once the highest is known.
        var expected: Int?
        var highestAdvice = 0
        func lose(_ range: ClosedRange<Int>) {
            // Numbers that failed never moved a file: not lost.
            var lower = range.lowerBound
            for n in range where failed.contains(n) {
                if lower < n { summary.lost.append(lower...(n - 1)) }
                lower = n + 1
            }
            if lower <= range.upperBound { summary.lost.append(lower...range.upperBound) }
        }
        var stopped = false
        try journal.reversed { record, damagedLine in
            if let line = damagedLine {
                summary.damagedCount += 1
                if summary.damagedLines.count < 100 { summary.damagedLines.append(line) }
                return true
            }
            switch record {
            case .end(let intents)?:
                if !summary.ended && expected == nil {
                    summary.ended = true
                    expected = intents
                    summary.lastIntent = intents
                }
            case .done(let n)?:
                done.insert(n)
                highestAdvice = max(highestAdvice, n)
            case .failed(let n)?:
                failed.insert(n)
                highestAdvice = max(highestAdvice, n)
            case .intent(let entry)?:
                let top = expected ?? max(highestAdvice, entry.n)
                summary.lastIntent = max(summary.lastIntent, top)
                if top > entry.n { lose((entry.n + 1)...top) }
                expected = entry.n - 1
                let outcome = undoOne(entry, done: done.contains(entry.n), roots: roots, version: journal.header.version,
                                      directories: directories, hooks: hooks)
                done.remove(entry.n)
                failed.remove(entry.n)
                summary.counts[outcome.status, default: 0] += 1
                if !emit(outcome) {
                    stopped = true
                    return false
                }
            case nil:
                break
            }
            // Stopped by a signal: the intents not reached are still to do, not lost.
            if Interrupt.requested { stopped = true }
            return !stopped
        }
        if !stopped {
            let rest = expected ?? highestAdvice
            if rest >= 1 { lose(1...rest) }
        }
        return summary
    }

    /// Undoes one entry.
    static func undoOne(_ entry: JournalEntry, done: Bool, roots: [[UInt8]], version: Int, directories: DirectoryLRU,
                        hooks: RenameHooks) -> UndoOutcome {
        func outcome(_ status: UndoOutcome.Status, _ reason: String) -> UndoOutcome {
            UndoOutcome(entry: entry, status: status, reason: reason)
        }
        let to = Path.display(entry.to), from = Path.display(entry.from)
        if let problem = badNames(entry) { return outcome(.refused, "journal entry \(entry.n): \(problem)") }
        if !Renaming.isWithin(entry.directory, roots: roots) {
            return outcome(.refused, "journal entry \(entry.n): its directory is outside the journal's roots")
        }
        let directory: FileDescriptor
        switch directories.open(entry.directory) {
        case .success(let fd): directory = fd
        case .failure(let refusal): return outcome(.refused, refusal.reason)
        }
        var toError: Errno?, fromError: Errno?
        var atTo: FileStatus?, atFrom: FileStatus?
        do throws(Errno) { atTo = try directory.status(of: entry.to, followSymlink: false) } catch { toError = error }
        do throws(Errno) { atFrom = try directory.status(of: entry.from, followSymlink: false) } catch { fromError = error }

        if let t = atTo, differences(t, entry).isEmpty {
            let note = t.device != entry.device ? " (the device number changed, as after a remount: matched by inode, size and time)" : ""
            if let f = atFrom {
                if f.isSameFile(as: t), f.links >= 2, t.links >= 2 {
                    // Both names are links to the file: a link + unlink rename was cut short.
                    return outcome(.leftoverLink, "'\(from)' is the file again; '\(to)' is a second link to it, left by a rename "
                                   + "cut short: remove '\(to)' yourself if you want one name (undo never removes a name)\(note)")
                }
                return outcome(.refused, "'\(from)' exists again (another file): not overwritten; the renamed file stays '\(to)'")
            }
            if let fromError, fromError != .notFound { return outcome(.refused, "cannot check '\(from)': \(fromError)") }
            do throws(Errno) {
                if hooks.delayMicroseconds > 0 { usleep(hooks.delayMicroseconds) }
                try Renaming.rename(directory, entry.to, entry.from, hooks: hooks)
                // What now has the old name must be the file (not one swapped in between).
                if let now = try? directory.status(of: entry.from, followSymlink: false), differences(now, entry).isEmpty {
                    return outcome(.undone, "renamed back\(note)")
                }
                let back = (try? Renaming.rename(directory, entry.from, entry.to, hooks: hooks)) != nil
                return outcome(.refused, "the file renamed back was not the one recorded (replaced in between): "
                               + (back ? "put back as '\(to)'" : "could not put it back; it is '\(from)'"))
            } catch {
                return outcome(.refused, error == .exists
                    ? "'\(from)' appeared meanwhile: not overwritten; the renamed file stays '\(to)'"
                    : "rename back failed: \(error)")
            }
        }
        // The renamed file is not under its new name.
        if let f = atFrom, differences(f, entry).isEmpty {
            return done ? outcome(.alreadyUndone, "already under its old name")
                : outcome(.nothingToDo, "still under its old name (the rename never happened, or was undone)")
        }
        if let t = atTo {
            let fields = differences(t, entry)
            let differ = "\(fields.joined(separator: ", ")) \(fields.count == 1 ? "differs" : "differ")"
            // The same file (its inode), changed since (`touch`, an edit in place): said so, not
            // called another file.
            if t.kind == .regular && t.inode == entry.inode {
                return outcome(.refused, "'\(to)' was changed since it was renamed (\(differ)): not touched")
            }
            return outcome(.refused, "'\(to)' is not the file that was renamed (\(differ)): not touched")
        }
        if let toError, toError != .notFound { return outcome(.refused, "cannot check '\(to)': \(toError)") }
        if atFrom != nil { return outcome(.refused, "the renamed file '\(to)' is gone, and '\(from)' is another file: not touched") }
        return outcome(.refused, "the renamed file is gone: neither '\(to)' nor '\(from)' exists")
    }

    /// What makes an entry one undo must not carry out: names that are not single components, or
    /// two names that are the same (byte for byte, or but for ASCII case, which a
    /// case-insensitive file system takes as one name).
    static func badNames(_ entry: JournalEntry) -> String? {
        for name in [entry.from, entry.to] {
            if name.isEmpty || name == [46] || name == [46, 46] || name.contains(UInt8(ascii: "/")) || name.contains(0) {
                return "'\(Path.display(name))' is not a single file name"
            }
        }
        if RenamePlanner.folded(entry.from) == RenamePlanner.folded(entry.to) {
            return "both names are the same file name"
        }
        return nil
    }

    /// Which of the identifying fields differ: the device number is a hint only.
    static func differences(_ status: FileStatus, _ entry: JournalEntry) -> [String] {
        var out: [String] = []
        if status.kind != .regular { out.append("type (\(status.kind.name))") }
        if status.inode != entry.inode { out.append("inode") }
        if status.size != entry.size { out.append("size") }
        if status.modifiedSeconds != entry.modifiedSeconds || status.modifiedNanoseconds != entry.modifiedNanoseconds {
            out.append("modification time")
        }
        return out
    }
}

/// The journal's directories, opened by path (each must still be the directory its path names,
/// not one reached through a link planted since), at most `limit` open: the oldest is closed.
final class DirectoryLRU {
    private var open: [[UInt8]: Result<FileDescriptor, Refusal>] = [:]
    private var order: [[UInt8]] = []
    let limit: Int

    struct Refusal: Error { let reason: String }

    init(limit: Int) { self.limit = max(1, limit) }

    func open(_ path: [UInt8]) -> Result<FileDescriptor, Refusal> {
        if let known = open[path] { return known }
        let result: Result<FileDescriptor, Refusal>
        do throws(Errno) {
            let fd = try FileDescriptor.openDirectory(path)
            if let actual = Renaming.absolutePath(of: fd), actual != path {
                fd.close()
                result = .failure(Refusal(reason: "the directory's path now leads to \(Path.display(actual)): not touched"))
            } else {
                result = .success(fd)
            }
        } catch {
            result = .failure(Refusal(reason: "cannot open the directory: \(error)"))
        }
        if order.count >= limit, let oldest = order.first {
            order.removeFirst()
            if case .success(let fd)? = open.removeValue(forKey: oldest) { fd.close() }
        }
        open[path] = result
        order.append(path)
        return result
    }

    func closeAll() {
        for (_, entry) in open { if case .success(let fd) = entry { fd.close() } }
        open.removeAll()
        order.removeAll()
    }
}
