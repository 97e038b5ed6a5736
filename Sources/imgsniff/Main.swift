// imgsniff: a thin layer of ArgumentParser commands over IMGSniffKit. Each subcommand declares
// its options and help, turns them into the library's options, and calls it.

import ArgumentParser
import IMGSniffKit

@main
enum Main {
    static func main() {
        // A write past a file-size limit fails with EFBIG (reported) rather than killing the process.
        signal(SIGXFSZ, SIG_IGN)
        // `-h` is the short help (usage, the main options, two examples); `--help` the complete one.
        let arguments = ShortOptions.expand(Array(CommandLine.arguments.dropFirst()))
        if let short = ShortHelp.text(for: arguments) {
            FileDescriptor.standardOutput.writeAllIgnoringErrors(short)
            exit(0)
        }
        // Start-up: the commonest invocations skip ArgumentParser (its reflection is most of a
        // one-file scan's time); everything else goes through it.
        if arguments == ["--version"] {
            FileDescriptor.standardOutput.writeAllIgnoringErrors(IMGSniff.version + "\n")
            exit(0)
        }
        if let request = ScanRequest.fastPath(arguments) { exit(request.run()) }
        IMGSniff.main(arguments)
    }
}

struct IMGSniff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imgsniff",
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
        version: IMGSniff.version,
        subcommands: [Scan.self, Rename.self, Types.self],
        helpNames: [.long]
    )

    static let version = "0.2.0"
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
