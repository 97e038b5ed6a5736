// imgsniff: a thin layer over IMGSniffKit. Each subcommand declares its options and help as data
// (Arguments/), turns what the parser found into the library's options, and calls it.

import ImageSniff
import IMGSniffKit
import ImageSniffScan

@main
enum Main {
    static func main() {
        // A write past a file-size limit fails with EFBIG (reported) rather than killing the process.
        signal(SIGXFSZ, SIG_IGN)
        exit(IMGSniff.run(Array(CommandLine.arguments.dropFirst())))
    }
}

enum IMGSniff {
    static let version = ImageSniffer.version

    static let spec = CommandSpec(
        name: "imgsniff",
        abstract: "Tell image formats from their bytes, and name them with Uniform Type Identifiers.",
        discussion: """
        Files lose their names; their bytes still say what they are. imgsniff reads the first \
        4 KiB of each file (more, wherever it lies, only when a format needs it: a TIFF's \
        directory at the end) and reports its type the way macOS ImageIO names it \
        (public.jpeg, com.nikon.raw-image, ...).

        Examples:
          imgsniff scan ~/recovered                 # what is in there
          imgsniff scan --format ndjson dir | jq .  # one JSON object per file
          imgsniff scan --mismatches downloads      # files whose extension lies
          imgsniff rename dir                       # the plan; --apply does it
          imgsniff types nef                        # what .nef names
        """,
        subcommands: [Scan.spec, Rename.spec, Types.spec]
    )

    /// Runs the command line `arguments` (after the program's name); the exit status.
    static func run(_ arguments: [String]) -> Int32 {
        // `-h` is the short help (usage, the main options, two examples); `--help` the complete one.
        if let short = ShortHelp.text(for: arguments) { return print(short) }
        let options = arguments.prefix { $0 != "--" }
        let width = Terminal.width() ?? 80
        guard let first = arguments.first else { return print(ShortHelp.root) }
        switch first {
        case "--version": return print(version + "\n")
        case "--help": return print(HelpText.full(spec, width: width))
        case "--generate-completion-script":
            guard arguments.count == 2, let script = HelpText.completionScript(spec, shell: arguments[1]) else {
                return usage(UsageError(message: "--generate-completion-script takes one shell: bash, zsh or fish"), spec)
            }
            return print(script)
        case "--generate-manual":
            // make man: the date and authors come from the Makefile.
            guard arguments.count == 3 else { return usage(UsageError(message: "--generate-manual DATE AUTHORS"), spec) }
            return print(HelpText.manual(spec, date: arguments[1], authors: arguments[2]))
        case "help":
            guard arguments.count <= 2 else { return usage(UsageError(message: "help takes one subcommand"), spec) }
            guard arguments.count == 2 else { return print(HelpText.full(spec, width: width)) }
            guard let command = spec.subcommands.first(where: { $0.name == arguments[1] }) else {
                return usage(UsageError(message: "Unknown subcommand '\(arguments[1])'"), spec)
            }
            return print(HelpText.full(command, width: width))
        default:
            break
        }
        guard let command = spec.subcommands.first(where: { $0.name == first }) else {
            if first.hasPrefix("-") { return usage(UsageError(message: "Unknown option '\(first)'"), spec) }
            var message = "Unknown subcommand '\(first)'"
            if let near = ParsedArguments.nearest(to: first, in: spec.subcommands.map(\.name)) { message += ". Did you mean '\(near)'?" }
            return usage(UsageError(message: message), spec)
        }
        let rest = Array(arguments.dropFirst())
        if options.contains("--help") { return print(HelpText.full(command, width: width)) }
        if options.contains("--version") { return print(version + "\n") }
        do throws(UsageError) {
            switch command.name {
            case "scan":
                let request = try Scan.request(ParsedArguments.parse(rest, for: command, integers: Scan.integers))
                return request.run()
            case "rename":
                let parsed = try ParsedArguments.parse(rest, for: command, integers: Rename.integers)
                try Rename.validate(parsed)
                return Rename.run(parsed)
            default:
                let parsed = try ParsedArguments.parse(rest, for: command)
                try Types.validate(parsed)
                return Types.run(parsed)
            }
        } catch {
            return usage(error, command)
        }
    }

    private static func print(_ text: String) -> Int32 {
        FileDescriptor.standardOutput.writeAllIgnoringErrors(text)
        return 0
    }

    private static func usage(_ error: UsageError, _ command: CommandSpec) -> Int32 {
        FileDescriptor.standardError.writeAllIgnoringErrors(HelpText.error(error, command))
        return ExitStatus.usage
    }
}

extension FileDescriptor {
    func writeAllIgnoringErrors(_ text: String) { try? writeAll(Array(text.utf8)) }
}

/// Raw command-line bytes: Swift decodes argv as UTF-8 with repair, which loses invalid bytes.
enum ArgumentBytes {
    /// The raw argv bytes of `argument` (the first argv entry that decodes to it), or its UTF-8.
    static func raw(_ argument: String) -> [UInt8] {
        let argv = CommandLine.unsafeArgv
        for i in 1..<Int(CommandLine.argc) {
            guard let p = argv[i] else { continue }
            let bytes = UnsafeRawBufferPointer(start: p, count: strlen(p))
            if Path.isValidUTF8(bytes) { continue }
            if String(decoding: bytes, as: UTF8.self) == argument { return Array(bytes) }
        }
        return Array(argument.utf8)
    }
}
