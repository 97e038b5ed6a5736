import ArgumentParser

/// The `imgsniff` command: subcommands live in their own files (Scan.swift, Types.swift, ...).
@main
struct IMGSniff: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "imgsniff",
        abstract: "Tell image formats from their bytes, and name them with Uniform Type Identifiers.",
        version: "0.1.0",
        subcommands: [
            Scan.self,
            Types.self,
            Rename.self,
            // Further subcommands go here, one per line (e.g. Rename.self).
        ],
        defaultSubcommand: nil
    )
}
