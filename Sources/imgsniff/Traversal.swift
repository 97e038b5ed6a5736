import ImageSniff
import IMGSniffKit
import ImageSniffScan

/// The traversal options `scan` and `rename` share.
enum Traversal {
    static let group = "Traversal"

    static let options: [OptionSpec] = [
        OptionSpec(long: "files-from", kind: .value, valueName: "file",
                   help: "Read the paths to process from FILE ('-' for standard input), one per line, or NUL-separated with -0. A directory listed there is reported as a directory, not walked.",
                   completion: .file, group: group),
        OptionSpec(long: "null", short: "0",
                   help: "Paths in --files-from are separated by NUL bytes (as `find -print0` writes them). For NUL-separated output, see scan's --print0.",
                   group: group),
        OptionSpec(long: "hidden", help: "Include names starting with '.' met inside directories (paths given explicitly are always included).", group: group),
        OptionSpec(long: "follow-symlinks", short: "L",
                   help: "Follow symbolic links met inside directories; each directory is visited once, so loops and link lattices end. Without it they are skipped; a link given explicitly is always followed.",
                   group: group),
        OptionSpec(long: "max-depth", kind: .value, valueName: "n", help: "Descend at most N levels below each directory operand (1: its own entries only).", group: group),
        OptionSpec(long: "one-file-system", short: "x", help: "Do not descend into directories on other file systems than the operand's.", group: group),
        OptionSpec(long: "exclude", kind: .repeated, valueName: "glob",
                   help: "Skip names matching the shell pattern GLOB (a pattern with '/' is matched against the path below the operand). Repeatable.",
                   group: group),
        OptionSpec(long: "pseudo-filesystems",
                   help: "Also walk procfs, sysfs, debugfs, cgroup and the like (skipped and reported by default: their files are the kernel's state, and some never end).",
                   group: group),
    ]

    /// The integer-valued options among them.
    static let integers: Set<String> = ["max-depth"]

    static func validate(_ p: ParsedArguments) throws(UsageError) {
        if p.flag("null") && p.value("files-from") == nil { throw UsageError(message: "-0/--null only applies to --files-from.") }
        if let depth = p.int("max-depth"), depth < 0 { throw UsageError(message: "--max-depth must be 0 or more.") }
    }

    static func walkOptions(_ p: ParsedArguments) -> WalkOptions {
        var options = WalkOptions()
        options.followSymlinks = p.flag("follow-symlinks")
        options.includeHidden = p.flag("hidden")
        options.maxDepth = p.int("max-depth")
        options.oneFileSystem = p.flag("one-file-system")
        options.includePseudoFilesystems = p.flag("pseudo-filesystems")
        options.excludes = p.all("exclude").map(ArgumentBytes.raw)
        return options
    }
}
