// `imgsniff rename`: give files the extension their content calls for. Plan by default,
// `--apply` to do it (journalled), `--undo JOURNAL` to revert.
//
// Exit status: 0 when every file was planned/renamed/kept as the rules say; conflicts (planned
// or met at apply time) are reported but are not errors, since nothing went wrong and nothing was
// overwritten. 1 when some file could not be read, stat'ed or renamed, or the journal could not
// be written (or, for --undo, when some entry was refused). 64 for usage errors.

import ArgumentParser
import Foundation
import ImageSniff
#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Give files the filename extension their content calls for (a plan unless --apply).",
        discussion: """
        Without --apply nothing changes: the plan is printed (old name -> new name, the detected \
        type and why; files kept or skipped and why).

        What is renamed:
          - a file without an extension gets its type's preferred one (jpg, png, heic, nef, ...);
          - an extension that already names the type, in any case (.JPG, .jpeg), is kept;
          - an extension naming another type is replaced only with --fix;
          - unknown content (public.data) is never renamed;
          - a family answer (a TIFF whose maker cannot be told, a mif1 HEIF) gets the family's own \
        extension (.tiff, .heif); an extension naming any member of that family (.nef, .dng, .heic) is kept.
        An "extension" is a final .xyz the type catalog knows: "report.2024" and "IMG_1.backup" have \
        none, so they become "report.2024.jpg" and "IMG_1.backup.jpg". Hidden files (.name) have no \
        extension either, and are only walked with --hidden.

        Conflicts are found before anything moves: a target name that exists, or that two files \
        would get, is skipped and reported (or, with --on-conflict suffix, becomes name-1.ext, \
        name-2.ext, ...). Nothing is ever overwritten: each rename is atomic and no-clobber \
        (renameat2 RENAME_NOREPLACE), relative to the file's directory, so a file that appears \
        after the plan is reported as a conflict, not replaced. Symbolic links are never renamed.

        --apply writes a journal (JSON lines), each rename's intent flushed to disk before the \
        rename, so that --undo restores the original names even after a crash or kill -9. Default \
        journal: $XDG_STATE_HOME/imgsniff/ (or ~/.local/state/imgsniff/) \
        rename-YYYYMMDD-HHMMSS-PID.jsonl; its path is printed at the end. --undo reverts last \
        rename first, refuses (per file) where the renamed file is gone or changed or the old name \
        is taken, and can be run again safely.

        Exit status: 0 done (conflicts are reported, not errors); 1 some file could not be read \
        or renamed, or some undo was refused; 64 usage error.

        Examples:
          imgsniff rename ~/recovered               # the plan; nothing changes
          imgsniff rename --apply ~/recovered       # do it; prints the journal
          imgsniff rename --apply --fix ~/recovered # also fix wrong extensions
          imgsniff rename --apply --on-conflict suffix --only-images DIR
          find DIR -type f -print0 | imgsniff rename --files-from - -0 --apply
          imgsniff rename --undo JOURNAL            # revert, last rename first
        """
    )

    @Argument(help: ArgumentHelp("Files and directories to rename in (directories are walked recursively).",
                                 valueName: "path"))
    var paths: [String] = []

    @OptionGroup var traversal: TraversalOptions

    @Flag(help: "Carry out the plan (default: only show it).")
    var apply = false

    @Flag(help: "Also replace extensions that name another type than the content.")
    var fix = false

    @Flag(name: .customLong("only-images"), help: "Rename only files whose content is an image (conforms to public.image).")
    var onlyImages = false

    @Option(name: .customLong("extension-case"), help: "Case of the extensions written: lower or upper.")
    var extensionCase: RenameExtensionCase = .lower

    @Option(name: .customLong("on-conflict"),
            help: "When a target name is taken or shared: skip (report it) or suffix (name-1.ext, name-2.ext, ...).")
    var onConflict: RenameConflictPolicy = .skip

    @Option(help: ArgumentHelp("Where --apply writes its journal (never an existing file).", valueName: "file"))
    var journal: String?

    @Option(help: ArgumentHelp("Revert the renames recorded in a journal, last first.", valueName: "journal"))
    var undo: String?

    @Option(help: "Output: table or ndjson (default: table on a terminal, ndjson when piped).")
    var format: RenameOutputFormat?

    func validate() throws {
        if undo != nil {
            if !paths.isEmpty || traversal.filesFrom != nil {
                throw ValidationError("--undo takes a journal, not paths.")
            }
            if fix || onlyImages || journal != nil || onConflict != .skip || extensionCase != .lower {
                throw ValidationError("--undo cannot be combined with --fix, --only-images, --journal, --on-conflict or --extension-case.")
            }
            return
        }
        if paths.isEmpty && traversal.filesFrom == nil {
            throw ValidationError("Give the files or directories to rename in (use '.' for the current directory), or --files-from.")
        }
        if journal != nil && !apply {
            throw ValidationError("--journal only applies with --apply.")
        }
    }

    func run() throws {
        let output = RenameOutput(format: format ?? (isatty(STDOUT_FILENO) == 1 ? .table : .ndjson))
        if let undo {
            try runUndo(undo, output: output)
            return
        }
        let policy = RenamePolicy(fix: fix, onlyImages: onlyImages, upperCase: extensionCase == .upper,
                                  suffixOnConflict: onConflict == .suffix)
        var planner = RenamePlanner(policy: policy)
        let walker = try traversal.makeWalker(operands: paths)
        for entry in walker { planner.add(entry) }
        planner.finish()
        var items = planner.items
        var failure: String?
        if let error = walker.filesFromError {
            failure = "--files-from \(traversal.filesFrom ?? "-"): \(error)"
        }

        var journalPath: String?
        if apply {
            do {
                let explicit = journal
                journalPath = try applyRenamePlan(&items, journalPath: { explicit ?? JournalWriter.defaultPath() },
                                                  argv: CommandLine.arguments)
            } catch {
                // The journal could not be created: nothing was renamed.
                output.error("imgsniff rename: \(error); nothing renamed")
                throw ExitCode.failure
            }
        }
        output.plan(items, applied: apply)
        output.summary(items, applied: apply, journal: journalPath)
        if let failure { output.error("imgsniff rename: \(failure)") }
        if failure != nil || items.contains(where: { $0.isError }) { throw ExitCode.failure }
    }

    private func runUndo(_ path: String, output: RenameOutput) throws {
        let contents: JournalContents
        do {
            contents = try JournalContents(path: path)
        } catch {
            output.error("imgsniff rename: \(error)")
            throw ExitCode.failure
        }
        if !contents.badLines.isEmpty {
            output.error("imgsniff rename: \(path): ignored unreadable line(s) \(contents.badLines.map(String.init).joined(separator: ", "))"
                         + " (a crash can cut the last line short; its rename never happened)")
        }
        let outcomes = undoRenames(contents)
        output.undo(outcomes)
        if outcomes.contains(where: { $0.status == .refused }) { throw ExitCode.failure }
    }
}

enum RenameExtensionCase: String, ExpressibleByArgument, CaseIterable {
    case lower, upper
}

enum RenameConflictPolicy: String, ExpressibleByArgument, CaseIterable {
    case skip, suffix
}

enum RenameOutputFormat: String, ExpressibleByArgument, CaseIterable {
    case table, ndjson
}

/// Prints plans, results and undo outcomes as a table or NDJSON.
///
/// NDJSON, one object per file:
///   {"path":"d/a","action":"rename","to":"d/a.png","uti":"public.png","confidence":"conclusive",
///    "reason":"no extension; content is public.png","applied":true}
/// `action` is rename, keep or skip; `applied` appears with --apply; `error`:true marks errors,
/// `conflict`:true conflicts. Paths that are not valid UTF-8 are shown in `%XX` form with the raw
/// bytes in `pathBytes` / `toBytes` (base64). The summary goes to stderr.
/// Undo: {"path":"/abs/d/a.png","action":"undo|already-undone|nothing-to-do|refuse","to":"/abs/d/a","reason":...}
struct RenameOutput {
    let format: RenameOutputFormat

    func error(_ text: String) {
        FileHandle.standardError.write(Data((text + "\n").utf8))
    }

    private func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    func plan(_ items: [RenamePlanItem], applied: Bool) {
        switch format {
        case .ndjson:
            var out = ""
            for item in items {
                var line = "{" + pathField("path", item.path).dropFirst()
                line += ",\"action\":\"\(item.action.rawValue)\""
                if let to = item.targetPath { line += pathField("to", to) }
                if let d = item.detection {
                    line += ",\"uti\":" + RenameJSON.string(d.type.identifier)
                    line += ",\"confidence\":\"\(d.confidence.rawValue)\""
                }
                line += ",\"reason\":" + RenameJSON.string(item.reason)
                if applied { line += ",\"applied\":\(item.applied)" }
                if item.isConflict { line += ",\"conflict\":true" }
                if item.isError { line += ",\"error\":true" }
                out += line + "}\n"
            }
            write(out)
        case .table:
            let rows = items.map { item -> [String] in
                let action = applied && item.applied ? "renamed" : item.action.rawValue
                let to = item.target.map { "-> " + PathText.display($0) } ?? ""
                return [action, PathText.display(item.path), to, item.detection?.type.identifier ?? "-", item.reason]
            }
            write(table(rows))
        }
    }

    func summary(_ items: [RenamePlanItem], applied: Bool, journal: String?) {
        let renames = items.filter { $0.action == .rename }.count
        let kept = items.filter { $0.action == .keep }.count
        let skipped = items.filter { $0.action == .skip }.count
        let conflicts = items.filter { $0.isConflict }.count
        let errors = items.filter { $0.isError }.count
        var text = applied ? "\(renames) renamed" : "\(renames) to rename"
        text += ", \(kept) kept, \(skipped) skipped"
        var notes: [String] = []
        if conflicts > 0 { notes.append("\(conflicts) conflict\(conflicts == 1 ? "" : "s")") }
        if errors > 0 { notes.append("\(errors) error\(errors == 1 ? "" : "s")") }
        if !notes.isEmpty { text += " (" + notes.joined(separator: ", ") + ")" }
        text += "."
        if !applied && renames > 0 { text += " Nothing changed: use --apply to rename." }
        var lines = [text]
        if let journal {
            lines.append("Journal: \(journal)")
            lines.append("Undo with: imgsniff rename --undo \(shellQuoted(journal))")
        }
        let block = lines.joined(separator: "\n") + "\n"
        if format == .table { write(block) } else { error(String(block.dropLast())) }
    }

    func undo(_ outcomes: [RenameUndoOutcome]) {
        switch format {
        case .ndjson:
            var out = ""
            for o in outcomes {
                let dir = o.entry.dir + [UInt8(ascii: "/")]
                out += "{" + pathField("path", dir + o.entry.to).dropFirst()
                    + ",\"action\":\"\(o.status.rawValue)\"" + pathField("to", dir + o.entry.from)
                    + ",\"reason\":" + RenameJSON.string(o.reason) + "}\n"
            }
            write(out)
        case .table:
            var rows: [[String]] = []
            for o in outcomes {
                let dir = o.entry.dir + [UInt8(ascii: "/")]
                rows.append([o.status.rawValue, PathText.display(dir + o.entry.to),
                             "-> " + PathText.display(o.entry.from), o.reason])
            }
            write(table(rows))
        }
        let count = { (s: RenameUndoOutcome.Status) in outcomes.filter { $0.status == s }.count }
        let text = "\(count(.undone)) undone, \(count(.alreadyUndone)) already undone, "
            + "\(count(.nothingToDo)) with nothing to do, \(count(.refused)) refused."
        if format == .table { write(text + "\n") } else { error(text) }
    }

    /// `,"key":"text"` plus `,"keyBytes":"base64"` for a path that is not valid UTF-8.
    private func pathField(_ key: String, _ bytes: [UInt8]) -> String {
        var field = ",\"\(key)\":" + RenameJSON.string(PathText.display(bytes))
        if !PathText.isValidUTF8(bytes) { field += ",\"\(key)Bytes\":\"" + PathText.base64(bytes) + "\"" }
        return field
    }

    /// Left-aligned columns (the last one unpadded); control characters made visible.
    private func table(_ rows: [[String]]) -> String {
        let clean = rows.map { $0.map(visible) }
        guard let columns = clean.first?.count else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in clean {
            for (i, cell) in row.enumerated() where i < columns - 1 {
                widths[i] = min(max(widths[i], cell.count), 60)
            }
        }
        var out = ""
        for row in clean {
            var line = ""
            for (i, cell) in row.enumerated() {
                if i == columns - 1 || cell.count >= widths[i] {
                    line += cell
                } else {
                    line += cell + String(repeating: " ", count: widths[i] - cell.count)
                }
                if i < columns - 1 { line += "  " }
            }
            while line.last == " " { line.removeLast() }
            out += line + "\n"
        }
        return out
    }

    private func visible(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return s }
        var r = ""
        for c in s.unicodeScalars {
            if c.value < 0x20 || c.value == 0x7F {
                r += "\\x" + (c.value < 16 ? "0" : "") + String(c.value, radix: 16, uppercase: true)
            } else {
                r.unicodeScalars.append(c)
            }
        }
        return r
    }

    private func shellQuoted(_ s: String) -> String {
        if s.allSatisfy({ $0.isLetter || $0.isNumber || "/._-+:@".contains($0) }) { return s }
        return "'" + s.replacingOccurrences(of: "'", with: "'\\''") + "'"
    }
}
