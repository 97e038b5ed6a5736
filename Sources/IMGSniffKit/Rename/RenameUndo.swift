/// What undo did with one journal entry.
public struct UndoOutcome: Sendable {
    public enum Status: String, Sendable {
        /// Renamed back (or a leftover second link removed).
        case undone = "undo"
        /// The file is under its old name already, after a rename that happened.
        case alreadyUndone = "already-undone"
        /// The rename never happened (the run stopped between the intent and the rename).
        case nothingToDo = "nothing-to-do"
        /// Not touched: the file is gone or changed, the old name is taken, or the entry is not
        /// one undo may carry out.
        case refused = "refuse"
    }
    public let entry: JournalEntry
    public let status: Status
    public let reason: String
}

/// Reverting a journal, last rename first. Safe to run again; never overwrites anything.
public enum RenameUndo {
    public static func undo(_ journal: JournalContents, hooks: RenameHooks = RenameHooks()) -> [UndoOutcome] {
        var outcomes: [UndoOutcome] = []
        var directories: [[UInt8]: FileDescriptor?] = [:]
        defer { for (_, fd) in directories { fd?.close() } }
        let roots = journal.header.roots

        for entry in journal.entries.reversed() {
            func outcome(_ status: UndoOutcome.Status, _ reason: String) {
                outcomes.append(UndoOutcome(entry: entry, status: status, reason: reason))
            }
            let to = Path.display(entry.to), from = Path.display(entry.from)
            if let problem = badNames(entry) {
                outcome(.refused, "journal entry \(entry.n): \(problem)")
                continue
            }
            if journal.header.version >= 2 && !Renaming.isWithin(entry.directory, roots: roots) {
                outcome(.refused, "journal entry \(entry.n): its directory is outside the journal's roots")
                continue
            }
            let directory: FileDescriptor
            if let cached = directories[entry.directory] {
                guard let cached else { continue }
                directory = cached
            } else {
                do throws(Errno) {
                    let fd = try FileDescriptor.openDirectory(entry.directory)
                    // The path must still lead to that directory (not through a link planted since).
                    if let actual = Renaming.absolutePath(of: fd), actual != entry.directory {
                        fd.close()
                        directories[entry.directory] = .some(nil)
                        outcome(.refused, "the directory's path now leads to \(Path.display(actual)): not touched")
                        continue
                    }
                    directories[entry.directory] = fd
                    directory = fd
                } catch {
                    directories[entry.directory] = .some(nil)
                    outcome(.refused, "cannot open the directory: \(error)")
                    continue
                }
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
                        do throws(Errno) {
                            _ = try Path.withCString(entry.to) { (p) throws(Errno) -> Int32 in
                                try retryingOnInterrupt { unlinkat(directory.rawValue, p, 0) }
                            }
                            outcome(.undone, "removed the leftover link '\(to)'; the file is '\(from)' again\(note)")
                        } catch {
                            outcome(.refused, "cannot remove the leftover link '\(to)': \(error)")
                        }
                    } else {
                        outcome(.refused, "'\(from)' exists again (another file): not overwritten; the renamed file stays '\(to)'")
                    }
                    continue
                }
                if let fromError, fromError != .notFound {
                    outcome(.refused, "cannot check '\(from)': \(fromError)")
                    continue
                }
                do throws(Errno) {
                    try Renaming.rename(directory, entry.to, entry.from, hooks: hooks)
                    // What now has the old name must be the file (not one swapped in between).
                    if let now = try? directory.status(of: entry.from, followSymlink: false), differences(now, entry).isEmpty {
                        outcome(.undone, "renamed back\(note)")
                    } else {
                        let back = (try? Renaming.rename(directory, entry.from, entry.to, hooks: hooks)) != nil
                        outcome(.refused, "the file renamed back was not the one recorded (replaced in between): "
                                + (back ? "put back as '\(to)'" : "could not put it back; it is '\(from)'"))
                    }
                } catch {
                    outcome(.refused, error == .exists
                        ? "'\(from)' appeared meanwhile: not overwritten; the renamed file stays '\(to)'"
                        : "rename back failed: \(error)")
                }
                continue
            }
            // The renamed file is not under its new name.
            if let f = atFrom, differences(f, entry).isEmpty {
                outcome(journal.done.contains(entry.n) ? .alreadyUndone : .nothingToDo,
                        journal.done.contains(entry.n) ? "already under its old name" : "still under its old name (the rename never happened, or was undone)")
                continue
            }
            if let t = atTo {
                let fields = differences(t, entry)
                outcome(.refused, "'\(to)' is not the file that was renamed (\(fields.joined(separator: ", ")) \(fields.count == 1 ? "differs" : "differ")): not touched")
            } else if let toError, toError != .notFound {
                outcome(.refused, "cannot check '\(to)': \(toError)")
            } else if atFrom != nil {
                outcome(.refused, "the renamed file '\(to)' is gone, and '\(from)' is another file: not touched")
            } else {
                outcome(.refused, "the renamed file is gone: neither '\(to)' nor '\(from)' exists")
            }
        }
        return outcomes
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
