import ArgumentParser
import ImageSniff
import IMGSniffKit

struct Rename: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
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
        README, LICENSE) or an executable; family answers (a TIFF whose maker cannot be told) \
        only with --min-confidence family, heuristic answers (TGA by size) only with \
        --min-confidence likely, and files that end before detection's checks were done only \
        with --include-truncated;
          - backups and partial copies keep their names (x.png~, x.jpg.1, x.jpg.part, x., #x#), \
        and nothing inside a version-control directory (.git, .hg, .svn, a bare x.git, ...; by \
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
        and can be run again safely. --undo last takes the newest journal. Ctrl-C stops between \
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
        helpNames: [.long]
    )

    @Argument(help: ArgumentHelp("Files and directories to rename in (directories are walked recursively).", valueName: "path"),
              completion: .file())
    var paths: [String] = []

    @OptionGroup(title: "Traversal") var traversal: Traversal

    @Flag(help: "Carry out the plan (default: only show it).")
    var apply = false

    @Flag(help: "Also replace extensions that name another type than the content (and an image's unknown extension).")
    var fix = false

    @Flag(help: "Rename files whose content is not an image too (text, archives, documents, media).")
    var allTypes = false

    @Option(name: .customLong("min-confidence"), help: "The least confidence that renames: conclusive (default), family (also a family answer: a TIFF whose maker could not be told gets .tiff) or likely (also heuristic answers: TGA by its size, MP3 by its frames).")
    var minConfidence: ConfidenceFloor = .conclusive

    @Flag(name: .customLong("include-truncated"), help: "Also rename files whose detection says they end before its checks were done (cut short, or only starting like a format).")
    var includeTruncated = false

    @Option(name: .customLong("extension-case"), help: "Case of the extensions written: lower or upper (default: as the extension replaced is written, else lower).")
    var extensionCase: ExtensionCase?

    @Option(name: .customLong("on-conflict"), help: "When a new name is taken or shared: skip (report it) or suffix (name-1.ext, ...).")
    var onConflict: ConflictPolicy = .skip

    @Option(help: ArgumentHelp("Where --apply writes its journal (never an existing file).", valueName: "file"), completion: .file())
    var journal: String?

    @Option(help: ArgumentHelp("Revert the renames a journal records, last first ('last': the newest journal).", valueName: "journal"),
            completion: .file())
    var undo: String?

    @Flag(name: .customLong("accept-unsigned"), help: "With --undo: take a journal of imgsniff 0.1 or 0.2, which carries no signature (only one you know imgsniff wrote: its entries still must lie inside its roots).")
    var acceptUnsigned = false

    @Option(help: "Output: table or ndjson (default: table on a terminal, ndjson otherwise).")
    var format: RenameFormat?

    @Option(help: "Colour the table: auto, always or never.")
    var color: ColorChoice = .auto

    enum ConfidenceFloor: String, ExpressibleByArgument, CaseIterable { case conclusive, family, likely }
    enum ExtensionCase: String, ExpressibleByArgument, CaseIterable { case lower, upper }
    enum ConflictPolicy: String, ExpressibleByArgument, CaseIterable { case skip, suffix }

    func validate() throws {
        if traversal.followSymlinks {
            throw ValidationError("rename never follows symbolic links (-L): it renames only inside the directories it is given.")
        }
        if acceptUnsigned && undo == nil { throw ValidationError("--accept-unsigned only applies with --undo.") }
        if undo != nil {
            if !paths.isEmpty || traversal.filesFrom != nil { throw ValidationError("--undo takes a journal, not paths.") }
            if apply || fix || allTypes || journal != nil || onConflict != .skip || extensionCase != nil || minConfidence != .conclusive || includeTruncated {
                throw ValidationError("--undo cannot be combined with --apply, --fix, --all-types, --min-confidence, --include-truncated, --journal, --on-conflict or --extension-case.")
            }
            return
        }
        if paths.isEmpty && traversal.filesFrom == nil {
            throw ValidationError("Give the files or directories to rename in (use '.' for the current directory), or --files-from.")
        }
        if journal != nil && !apply { throw ValidationError("--journal only applies with --apply.") }
        if paths.contains("-") { throw ValidationError("Standard input ('-') has no name to change: give files or directories.") }
        if let journal, (try? FileDescriptor.currentDirectory.status(of: ArgumentBytes.raw(journal), followSymlink: false)) != nil {
            throw ValidationError("--journal \(journal): the file exists (a journal never overwrites anything; choose a new name).")
        }
    }

    func run() throws {
        let format = self.format ?? (FileDescriptor.standardOutput.isTerminal ? .table : .ndjson)
        let palette = Palette(enabled: format == .table && color.isEnabled())
        Interrupt.install()
        if let undo {
            let status = RenameRun.undo(journal: ArgumentBytes.raw(undo), format: format, acceptUnsigned: acceptUnsigned,
                                        width: Terminal.width(), palette: palette,
                                        hooks: RenameHooks.fromEnvironment())
            if status != 0 { throw ExitCode(status) }
            return
        }
        var options = RenameOptions()
        options.operands = paths.map(ArgumentBytes.raw)
        options.filesFrom = traversal.filesFromBytes
        options.nulSeparated = traversal.null
        options.walk = traversal.walkOptions
        options.policy.fix = fix
        options.policy.allTypes = allTypes
        switch minConfidence {
        case .conclusive: options.policy.minimumConfidence = .conclusive
        case .family: options.policy.minimumConfidence = .family
        case .likely: options.policy.minimumConfidence = .likely
        }
        options.policy.includeTruncated = includeTruncated
        options.policy.upperCase = extensionCase.map { $0 == .upper }
        options.policy.suffixOnConflict = onConflict == .suffix
        options.apply = apply
        options.journal = journal.map(ArgumentBytes.raw)
        options.argv = CommandLine.arguments
        options.format = format
        options.palette = palette
        options.width = Terminal.width()
        options.progress = FileDescriptor.standardError.isTerminal
        options.hooks = RenameHooks.fromEnvironment()
        let status = RenameRun.run(options)
        if status != 0 { throw ExitCode(status) }
    }
}
