import ArgumentParser
import IMGSniffKit

/// The traversal options `scan` and `rename` share.
struct Traversal: ParsableArguments {
    @Option(name: .customLong("files-from"), help: ArgumentHelp(
        "Read the paths to process from FILE ('-' for standard input), one per line, or NUL-separated with -0. A directory listed there is reported as a directory, not walked.",
        valueName: "file"), completion: .file())
    var filesFrom: String?

    @Flag(name: [.customShort("0"), .customLong("null")],
          help: "Paths in --files-from are separated by NUL bytes (as `find -print0` writes them). For NUL-separated output, see scan's --print0.")
    var null = false

    @Flag(name: .customLong("hidden"), help: "Include names starting with '.' met inside directories (paths given explicitly are always included).")
    var hidden = false

    @Flag(name: [.customShort("L"), .customLong("follow-symlinks")],
          help: "Follow symbolic links met inside directories; each directory is visited once, so loops and link lattices end. Without it they are skipped; a link given explicitly is always followed.")
    var followSymlinks = false

    @Option(name: .customLong("max-depth"), help: ArgumentHelp("Descend at most N levels below each directory operand (1: its own entries only).", valueName: "n"))
    var maxDepth: Int?

    @Flag(name: [.customShort("x"), .customLong("one-file-system")], help: "Do not descend into directories on other file systems than the operand's.")
    var oneFileSystem = false

    @Option(name: .customLong("exclude"), help: ArgumentHelp(
        "Skip names matching the shell pattern GLOB (a pattern with '/' is matched against the path below the operand). Repeatable.",
        valueName: "glob"))
    var excludes: [String] = []

    @Flag(name: .customLong("pseudo-filesystems"), help: "Also walk procfs, sysfs, debugfs, cgroup and the like (skipped and reported by default: their files are the kernel's state, and some never end).")
    var pseudoFilesystems = false

    func validate() throws {
        if null && filesFrom == nil { throw ValidationError("-0/--null only applies to --files-from.") }
        if let maxDepth, maxDepth < 0 { throw ValidationError("--max-depth must be 0 or more.") }
    }

    var walkOptions: WalkOptions {
        var options = WalkOptions()
        options.followSymlinks = followSymlinks
        options.includeHidden = hidden
        options.maxDepth = maxDepth
        options.oneFileSystem = oneFileSystem
        options.includePseudoFilesystems = pseudoFilesystems
        options.excludes = excludes.map(ArgumentBytes.raw)
        return options
    }

    var filesFromBytes: [UInt8]? { filesFrom.map(ArgumentBytes.raw) }
}

extension ColorChoice: ExpressibleByArgument {}
extension ScanFormat: ExpressibleByArgument {}
extension RenameFormat: ExpressibleByArgument {}
extension TypesFormat: ExpressibleByArgument {}
