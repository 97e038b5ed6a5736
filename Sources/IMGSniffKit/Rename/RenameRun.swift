import ImageSniff
import ImageSniffScan

/// Output formats of `rename`.
package enum RenameFormat: String, Sendable, CaseIterable {
    case table, ndjson
}

/// Everything `imgsniff rename` was asked to do.
package struct RenameOptions: Sendable {
    package var operands: [[UInt8]] = []
    package var filesFrom: [UInt8]?
    package var nulSeparated = false
    package var walk = WalkOptions()
    package var policy = RenamePolicy()
    package var apply = false
    package var journal: [UInt8]?
    package var argv: [String] = []
    package var format: RenameFormat = .ndjson
    package var palette = Palette.plain
    package var width: Int?
    package var progress = false
    package var hooks = RenameHooks()

    package init() {}
}

/// The rename of one command line: walk, plan, apply, report. Also `--undo`.
///
/// Exit status: 0 when every file was planned, renamed or kept as the rules say (conflicts are
/// reported, not errors: nothing went wrong and nothing was overwritten); 1 when some file could
/// not be read or renamed, or some undo was refused; 2 when the journal or the output could not
/// be written, or the file list could not be read; 130 when interrupted.
package enum RenameRun {
    package static func run(_ options: RenameOptions, output: OutputStream = OutputStream()) -> Int32 {
        var source: FilesFromSource?
        if let list = options.filesFrom {
            do throws(Errno) { source = try FilesFromSource(path: list, nulSeparated: options.nulSeparated) } catch {
                StandardError.line(Visible.text("imgsniff rename: --files-from \(Path.display(list)): \(error)"))
                return ExitStatus.error
            }
        }
        var walk = options.walk
        walk.followSymlinks = false  // never rename through a linked directory
        let walker = Walker(operands: options.operands, filesFrom: source, options: walk)
        var planner = RenamePlanner(policy: options.policy)
        let progress = ProgressLine(enabled: options.progress, noun: "files planned")
        var planned = 0
        for entry in walker {
            planner.add(entry)
            planned += 1
            progress.update(planned)
            if Interrupt.requested { break }
        }
        progress.clear()
        planner.finish()
        var items = planner.items
        let order = planner.order
        var fatal = false
        if let failure = walker.filesFromFailure {
            StandardError.line(Visible.text("imgsniff rename: --files-from \(Path.display(options.filesFrom ?? [])): \(failure)"))
            fatal = true
        }

        var applied: RenameApplier.Result?
        if options.apply && !Interrupt.requested {
            var applier = RenameApplier()
            applier.hooks = options.hooks
            let renameProgress = ProgressLine(enabled: options.progress, noun: "files renamed")
            applier.journalCreated = { path in
                StandardError.line("imgsniff rename: journal \(Path.display(path)) (undo with: imgsniff rename --undo \(shellQuoted(Path.display(path))))")
            }
            applier.progress = { renameProgress.update($0) }
            let header = JournalHeader(roots: roots(options, items), argv: options.argv)
            let explicit = options.journal
            applied = applier.apply(&items, order: order, journalPath: { explicit ?? JournalWriter.defaultPath() }, header: header)
            renameProgress.clear()
            if let failure = applied?.journalFailure {
                StandardError.line("imgsniff rename: \(failure); the run stopped there")
                fatal = true
            }
        }

        write(items, applied: options.apply, options: options, to: output)
        let summary = summaryText(items, applied: applied, options: options)
        if options.format == .table { output.write(summary) } else { output.flush(); StandardError.line(String(summary.dropLast())) }
        output.flush()
        if let failure = output.failure {
            let (message, status) = OutputFailure.report(failure)
            if let message { StandardError.line(message) }
            if let journal = applied?.journal { StandardError.line("imgsniff rename: journal \(Path.display(journal))") }
            return status
        }
        if Interrupt.requested { return ExitStatus.interrupted(Interrupt.signalNumber) }
        if fatal { return ExitStatus.error }
        return items.contains(where: \.isError) ? ExitStatus.noMatch : ExitStatus.success
    }

    /// The directories the run may rename in: each operand directory's real path, and the real
    /// directory of each file named directly or listed.
    static func roots(_ options: RenameOptions, _ items: [RenamePlanItem]) -> [[UInt8]] {
        var roots: [[UInt8]] = []
        var seen: Set<[UInt8]> = []
        func add(_ path: [UInt8]) {
            guard let real = Renaming.realPath(path), !Renaming.isWithin(real, roots: roots), seen.insert(real).inserted else { return }
            roots.append(real)
        }
        for operand in options.operands {
            if let status = try? FileDescriptor.currentDirectory.status(of: operand, followSymlink: true), status.kind == .directory {
                add(operand)
            } else {
                add(Path.split(operand).directory)
            }
        }
        for item in items where item.target != nil { add(item.directoryPath) }
        return roots
    }

    private static func write(_ items: [RenamePlanItem], applied: Bool, options: RenameOptions, to output: OutputStream) {
        switch options.format {
        case .ndjson:
            for item in items {
                var record = JSONObjectWriter()
                record.integer("schemaVersion", 2)
                record.path("path", item.path)
                record.string("action", item.disposition.action)
                record.path("to", item.targetPath)
                record.string("uti", item.detection?.type.identifier)
                record.string("confidence", item.detection?.confidence.rawValue)
                record.string("reason", item.reason)
                if case .error(let problem) = item.disposition {
                    record.object("error") { $0.string("code", problem.code); $0.string("message", problem.message) }
                } else {
                    record.object("error", nil)
                }
                output.write(record.line())
            }
        case .table:
            var table = TextTable(header: ["ACTION", "PATH", "NEW NAME", "TYPE", "REASON"], flexibleColumn: 1)
            for item in items {
                let style: Style? = item.isError ? .error : (item.target != nil ? .image : nil)
                table.append([item.disposition.action, Path.display(item.path), item.target.map { "-> " + Path.display($0) } ?? "",
                              item.detection?.type.identifier ?? "-", item.reason], styles: [style])
            }
            output.write(table.render(width: options.width, palette: options.palette))
        }
    }

    private static func summaryText(_ items: [RenamePlanItem], applied: RenameApplier.Result?, options: RenameOptions) -> String {
        var counts: [String: Int] = [:]
        for item in items { counts[item.disposition.action, default: 0] += 1 }
        let conflicts = items.filter { if case .skip(.conflict) = $0.disposition { return true } else { return false } }.count
        let verb = options.apply ? "\(counts["renamed"] ?? 0) renamed" : "\(counts["rename"] ?? 0) to rename"
        var text = "\(verb), \(counts["keep"] ?? 0) kept, \(counts["skip"] ?? 0) skipped"
        var notes: [String] = []
        if conflicts > 0 { notes.append("\(conflicts) conflict\(conflicts == 1 ? "" : "s")") }
        if let errors = counts["error"], errors > 0 { notes.append("\(errors) error\(errors == 1 ? "" : "s")") }
        if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
        text += "."
        if !options.apply && (counts["rename"] ?? 0) > 0 { text += " Nothing changed: use --apply to rename." }
        if applied?.interrupted == true || Interrupt.requested { text += " Interrupted." }
        var lines = [text]
        if let journal = applied?.journal {
            lines.append("Journal: \(Path.display(journal))")
            lines.append("Undo with: imgsniff rename --undo \(shellQuoted(Path.display(journal)))")
        }
        return lines.joined(separator: "\n") + "\n"
    }

    // MARK: Undo

    /// Reverts a journal (`last`: the newest in the default directory), read from its end and
    /// reported as it goes. Exit 0 when everything it records is back and the record is whole; 1
    /// when some entry was refused or left a second name, a line was damaged (an intent in it is
    /// lost), or the journal has no end record (its run was killed, or it was cut short).
    package static func undo(journal: [UInt8], format: RenameFormat, acceptUnsigned: Bool = false, width: Int? = nil,
                            palette: Palette = .plain, hooks: RenameHooks = RenameHooks(),
                            output: OutputStream = OutputStream()) -> Int32 {
        let reader: JournalReader
        do throws(JournalError) {
            let path = journal == Array("last".utf8) ? try JournalWriter.newest() : journal
            // Why there is no key, said if the journal needs one (an unsigned one does not).
            var keyProblem: JournalError?
            let key: JournalKey?
            do { key = try JournalKey.load() } catch { key = nil; keyProblem = error }
            do {
                reader = try JournalReader(path: path, key: key, acceptUnsigned: acceptUnsigned)
            } catch {
                if case .noKey = error, let keyProblem { throw keyProblem }
                throw error
            }
            if journal == Array("last".utf8) { StandardError.line("imgsniff rename: undoing \(Path.display(path))") }
        } catch {
            StandardError.line("imgsniff rename: \(error)")
            if case .empty = error { return ExitStatus.success }
            return ExitStatus.error
        }
        var table = TextTable(header: ["ACTION", "PATH", "OLD NAME", "REASON"], flexibleColumn: 1)
        let summary: UndoSummary
        do throws(JournalError) {
            summary = try RenameUndo.undo(reader, hooks: hooks) { o in
                switch format {
                case .ndjson:
                    var record = JSONObjectWriter()
                    record.integer("schemaVersion", 2)
                    record.path("path", Path.join(o.entry.directory, o.entry.to))
                    record.string("action", o.status.rawValue)
                    record.path("to", Path.join(o.entry.directory, o.entry.from))
                    record.string("reason", o.reason)
                    if o.status == .refused || o.status == .leftoverLink {
                        let code = o.status == .refused ? "refused" : "leftoverLink"
                        record.object("error") { $0.string("code", code); $0.string("message", o.reason) }
                    } else {
                        record.object("error", nil)
                    }
                    output.write(record.line())
                case .table:
                    let bad = o.status == .refused || o.status == .leftoverLink
                    table.append([o.status.rawValue, Path.display(Path.join(o.entry.directory, o.entry.to)),
                                  "-> " + Path.display(o.entry.from), o.reason], styles: [bad ? .error : nil])
                }
                return output.failure == nil
            }
        } catch {
            StandardError.line("imgsniff rename: \(error)")
            return ExitStatus.error
        }
        if format == .table { output.write(table.render(width: width, palette: palette)) }
        output.flush()
        if summary.damagedCount > 0 {
            let shown = summary.damagedLines.map(String.init).joined(separator: ", ") + (summary.damagedCount > summary.damagedLines.count ? ", ..." : "")
            StandardError.line("imgsniff rename: \(summary.damagedCount) damaged journal line(s) (\(shown)): a line that does not parse or "
                               + "whose signature fails is not acted on (a crash can cut the last line short); complete records in them were recovered")
        }
        if !summary.lost.isEmpty {
            let ranges = summary.lost.prefix(20).map { $0.count == 1 ? "#\($0.lowerBound)" : "#\($0.lowerBound)-\($0.upperBound)" }
            StandardError.line("imgsniff rename: the record of \(summary.lostCount) rename(s) (\(ranges.joined(separator: ", "))\(summary.lost.count > 20 ? ", ..." : "")) "
                               + "was in damaged lines: not undone (look for the new names by hand)")
        }
        if Interrupt.requested {
            StandardError.line("imgsniff rename: interrupted: the renames recorded before those above are not undone yet; "
                               + "run the same --undo again to finish")
        } else if !summary.ended {
            StandardError.line("imgsniff rename: the journal has no end record: the run that wrote it was killed (then every rename it made "
                               + "is recorded, and was handled above) or the journal was cut short (then renames after #\(summary.lastIntent) "
                               + "are not in it; look in \(reader.header.roots.map { Path.display($0) }.joined(separator: ", ")))")
        }
        let count = { (s: UndoOutcome.Status) in summary.counts[s] ?? 0 }
        var text = "\(count(.undone)) undone, \(count(.alreadyUndone)) already undone, "
            + "\(count(.nothingToDo)) with nothing to do, \(count(.refused)) refused"
        if count(.leftoverLink) > 0 { text += ", \(count(.leftoverLink)) left with a second name" }
        if !summary.lost.isEmpty { text += ", \(summary.lostCount) lost in damaged lines" }
        if Interrupt.requested { text += ". Interrupted" } else if !summary.ended { text += "; the journal has no end record" }
        text += "."
        if format == .table { output.write(text + "\n") } else { StandardError.line(text) }
        output.flush()
        if let failure = output.failure {
            let (message, status) = OutputFailure.report(failure)
            if let message { StandardError.line(message) }
            return status
        }
        if Interrupt.requested { return ExitStatus.interrupted(Interrupt.signalNumber) }
        return summary.isComplete ? ExitStatus.success : ExitStatus.noMatch
    }
}

/// A word as a POSIX shell reads it: as it is when safe, else in single quotes.
package func shellQuoted(_ s: String) -> String {
    let safe = s.utf8.allSatisfy { b in
        (b >= 0x30 && b <= 0x39) || ((b | 0x20) >= 0x61 && (b | 0x20) <= 0x7A) || "/._-+:=,@%".utf8.contains(b)
    }
    if safe && !s.isEmpty { return s }
    return "'" + s.replacingSingleQuotes() + "'"
}

private extension String {
    func replacingSingleQuotes() -> String {
        var out = ""
        for c in self { out += c == "'" ? "'\\''" : String(c) }
        return out
    }
}
