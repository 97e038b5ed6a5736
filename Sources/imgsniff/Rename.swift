import ImageSniff
import IMGSniffKit
import ImageSniffScan

enum Rename {
    enum ConfidenceFloor: String, CaseIterable { case conclusive, family, likely }
    enum ExtensionCase: String, CaseIterable { case lower, upper }
    enum ConflictPolicy: String, CaseIterable { case skip, suffix }

    static let spec = CommandSpec(
        name: "rename",
        abstract: "Give image files the filename extension their content calls for (a plan unless --apply).",
        discussion: """
        Without --apply nothing changes: the plan is printed (old name -> new name, the detected \
        type and why; files kept or skipped and why).

        What is renamed, by default: files whose content is an image named conclusively, read \
        whole (not truncated).
          - a file without an extension gets its type's preferred one (jpg, png, heic, nef, ...);
          - an extension that fits is kept: one that names the type, a supertype or the family, \
        in any case (.JPG, .jpeg, .tif on a NEF), a member of a family answer (.dng on a TIFF \
        whose maker could not be told), a variant's conventional name (.tx and .svs for TIFF, \
        .heic for a HEIF sequence, .avif for animated AVIF, .jpc for a codestream, .rle for a \
        Windows RLE bitmap) or a documented alias (a PNG favicon.ico, logo.svg.gz); `imgsniff \
        scan --mismatches` uses the same rule;
          - an extension naming another type is replaced only with --fix;
          - an extension the catalog does not know (.md, .docx, .tgz) never gets a second one; \
        with --fix an image's is replaced;
          - unknown content is never renamed; other content (text, archives, media) only with \
        --all-types, and never a file conventionally named without an extension (Makefile, \
        README, LICENSE, known_hosts, id_rsa, config) or an executable; family answers (a TIFF whose maker cannot be told) \
        only with --min-confidence family, heuristic answers (TGA by size) only with \
        --min-confidence likely, and files that end before detection's checks were done only \
        with --include-truncated;
          - backups, temporaries and partial copies keep their names (x.png~, x.jpg.1, x.part, \
        x.crdownload, x.tmp, x.bak, exiftool's x.jpg_original, x., #x#), even with --fix, \
        and nothing inside a version-control directory (.git, .hg, .svn, DVC's .dvc, a bare x.git, ...; by \
        the directory's real path) is ever renamed;
          - each name of a hard-linked file is a name of its own.
        An extension is a final .xyz of 1 to 16 letters, digits, '_' or '-', with a letter: \
        "report.2024" has none.

        Conflicts are found before anything moves: a name that exists (and that no rename of the \
        plan frees), or that two files would get, is skipped and reported, or with --on-conflict \
        suffix becomes name-1.ext, name-2.ext, ... (of files sharing a free name, the first \
        keeps it). Nothing is ever overwritten: renames are atomic \
        and no-clobber (renameat2 RENAME_NOREPLACE), relative to the file's directory; the file \
        under the new name is checked afterwards and put back if it is not the one planned. \
        Symbolic links are never renamed, and those inside directories never followed (-L is \
        refused); a link named on the command line leads to its directory, as with find -H.

        --apply writes a journal (JSON lines): each batch's intents reach the disk before its \
        renames, so --undo restores every name even after a crash or kill -9. Default journal: \
        $XDG_STATE_HOME/imgsniff/ (or ~/.local/state/imgsniff/) rename-YYYYMMDD-HHMMSS-PID.jsonl; \
        its path is printed before the first rename. Every line is signed with a key kept beside \
        the journals (journal.key, mode 0600): --undo acts only on lines signed under your key, \
        only inside the directories the run that wrote the journal recorded, only from a journal \
        that is yours and not writable by others (a journal of imgsniff 0.1 or 0.2 carries no \
        signature: --accept-unsigned). It reverts the last rename first, reads the journal from \
        its end (any size), refuses (per file) where the file is gone or changed or the old name \
        is taken, never removes a name (a second link left by an interrupted rename is reported), \
        and can be run again safely. --undo last takes the journal written last (by its \
        modification time) in the default directory. Ctrl-C stops between \
        renames and says how to undo.

        Exit status: 0 done (conflicts are reported, not errors); 1 some file could not be read \
        or renamed, or (--undo) some entry was refused or left a second name, a journal line was \
        damaged, or the journal has no end record (its run was killed, or it was cut short: renames \
        after its last entry may not be recorded); 2 the journal or the output could not be \
        written or read; 64 usage error; 130 interrupted (143 by SIGTERM).

        Examples:
          imgsniff rename ~/recovered               # the plan; nothing changes
          imgsniff rename --apply ~/recovered       # do it; prints the journal
          imgsniff rename --apply --fix ~/recovered # also fix wrong extensions
          imgsniff rename --apply --on-conflict suffix DIR
          find DIR -type f -print0 | imgsniff rename --files-from - -0 --apply
          imgsniff rename --undo last               # revert the newest journal
        """,
        argument: ArgumentSpec(name: "path", help: "Files and directories to rename in (directories are walked recursively).", completion: .file),
        options: Traversal.options + [
            OptionSpec(long: "apply", help: "Carry out the plan (default: only show it)."),
            OptionSpec(long: "fix", help: "Also replace extensions that name another type than the content (and an image's unknown extension)."),
            OptionSpec(long: "all-types", help: "Rename files whose content is not an image too (text, archives, documents, media)."),
            OptionSpec(long: "min-confidence", kind: .value, valueName: "confidence",
                       help: "The least confidence that renames: conclusive (default), family (also a family answer: a TIFF whose maker could not be told gets .tiff) or likely (also heuristic answers: TGA by its size, MP3 by its frames).",
                       choices: ConfidenceFloor.allCases.map(\.rawValue)),
            OptionSpec(long: "include-truncated", help: "Also rename files whose detection says they end before its checks were done (cut short, or only starting like a format)."),
            OptionSpec(long: "extension-case", kind: .value, valueName: "case",
                       help: "Case of the extensions written: lower or upper (default: as the extension replaced is written, else lower).",
                       choices: ExtensionCase.allCases.map(\.rawValue)),
            OptionSpec(long: "on-conflict", kind: .value, valueName: "policy",
                       help: "When a new name is taken or shared: skip (report it) or suffix (name-1.ext, ...).",
                       choices: ConflictPolicy.allCases.map(\.rawValue), defaultValue: "skip"),
            OptionSpec(long: "journal", kind: .value, valueName: "file", help: "Where --apply writes its journal (never an existing file).", completion: .file),
            OptionSpec(long: "undo", kind: .value, valueName: "journal", help: "Revert the renames a journal records, last first ('last': the newest journal).", completion: .file),
            OptionSpec(long: "accept-unsigned", help: "With --undo: take a journal of imgsniff 0.1 or 0.2, which carries no signature (only one you know imgsniff wrote: its entries still must lie inside its roots)."),
            OptionSpec(long: "format", kind: .value, valueName: "format", help: "Output: table or ndjson (default: table on a terminal, ndjson otherwise).",
                       choices: RenameFormat.allCases.map(\.rawValue)),
            OptionSpec(long: "color", kind: .value, valueName: "when", help: "Colour the table: auto, always or never.",
                       choices: ColorChoice.allCases.map(\.rawValue), defaultValue: "auto"),
        ]
    )

    static let integers = Traversal.integers

    static func validate(_ p: ParsedArguments) throws(UsageError) {
        try Traversal.validate(p)
        if p.flag("follow-symlinks") {
            throw UsageError(message: "rename never follows symbolic links (-L): it renames only inside the directories it is given.")
        }
        let undo = p.value("undo") != nil
        if p.flag("accept-unsigned") && !undo { throw UsageError(message: "--accept-unsigned only applies with --undo.") }
        if undo {
            if !p.operands.isEmpty || p.value("files-from") != nil { throw UsageError(message: "--undo takes a journal, not paths.") }
            let planning = ["apply", "fix", "all-types", "journal", "on-conflict", "extension-case", "min-confidence", "include-truncated"]
            if planning.contains(where: { p.flag($0) }) {
                throw UsageError(message: "--undo cannot be combined with --apply, --fix, --all-types, --min-confidence, --include-truncated, --journal, --on-conflict or --extension-case.")
            }
            return
        }
        if p.operands.isEmpty && p.value("files-from") == nil {
            throw UsageError(message: "Give the files or directories to rename in (use '.' for the current directory), or --files-from.")
        }
        if p.value("journal") != nil && !p.flag("apply") { throw UsageError(message: "--journal only applies with --apply.") }
        if p.operands.contains("-") { throw UsageError(message: "Standard input ('-') has no name to change: give files or directories.") }
        if let journal = p.value("journal"), (try? FileDescriptor.currentDirectory.status(of: ArgumentBytes.raw(journal), followSymlink: false)) != nil {
            throw UsageError(message: "--journal \(journal): the file exists (a journal never overwrites anything; choose a new name).")
        }
    }

    static func run(_ p: ParsedArguments) -> Int32 {
        let format = p.choice("format", as: RenameFormat.self) ?? (FileDescriptor.standardOutput.isTerminal ? .table : .ndjson)
        let color = p.choice("color", as: ColorChoice.self) ?? .auto
        let apply = p.flag("apply"), journal = p.value("journal")
        let palette = Palette(enabled: format == .table && color.isEnabled())
        Interrupt.install()
        if let undo = p.value("undo") {
            return RenameRun.undo(journal: ArgumentBytes.raw(undo), format: format, acceptUnsigned: p.flag("accept-unsigned"),
                                  width: Terminal.width(), palette: palette,
                                  hooks: RenameHooks.fromEnvironment())
        }
        var options = RenameOptions()
        options.operands = p.operands.map(ArgumentBytes.raw)
        options.filesFrom = p.value("files-from").map(ArgumentBytes.raw)
        options.nulSeparated = p.flag("null")
        options.walk = Traversal.walkOptions(p)
        options.policy.fix = p.flag("fix")
        options.policy.allTypes = p.flag("all-types")
        switch p.choice("min-confidence", as: ConfidenceFloor.self) ?? .conclusive {
        case .conclusive: options.policy.minimumConfidence = .conclusive
        case .family: options.policy.minimumConfidence = .family
        case .likely: options.policy.minimumConfidence = .likely
        }
        options.policy.includeTruncated = p.flag("include-truncated")
        options.policy.upperCase = p.choice("extension-case", as: ExtensionCase.self).map { $0 == .upper }
        options.policy.suffixOnConflict = p.value("on-conflict") == ConflictPolicy.suffix.rawValue
        options.apply = apply
        options.journal = journal.map(ArgumentBytes.raw)
        options.argv = CommandLine.arguments
        options.format = format
        options.palette = palette
        options.width = Terminal.width()
        options.progress = FileDescriptor.standardError.isTerminal
        options.hooks = RenameHooks.fromEnvironment()
        return RenameRun.run(options)
    }
}
