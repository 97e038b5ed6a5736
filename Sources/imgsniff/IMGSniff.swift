import ArgumentParser

/// The `imgsniff` command: subcommands live in their own files (Scan.swift, Types.swift, ...).
@main
struct IMGSniff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imgsniff",
        abstract: "Tell image formats from their bytes, and name them with Uniform Type Identifiers.",
        discussion: """
        Files lose their names; their bytes still say what they are. imgsniff reads a bounded \
        prefix of each file (4 KiB, more only when a format needs it) and reports its type the \
        way macOS ImageIO names it (public.jpeg, com.nikon.raw-image, ...).

        Examples:
          imgsniff scan ~/recovered                 # what is in there (a table on a terminal)
          imgsniff scan --format ndjson dir | jq .  # one JSON object per file
          imgsniff scan --mismatches downloads      # files whose extension lies
          imgsniff rename dir                       # the plan; --apply does it, --undo reverts
          imgsniff scan --cross-check dir           # beside libmagic's answers
          imgsniff types                            # every identifier, extension and MIME type
        """,
        version: "0.1.0",
        subcommands: [
            Scan.self,
            Types.self,
            Rename.self,
            // Further subcommands go here, one per line.
        ],
        defaultSubcommand: nil
    )
}
