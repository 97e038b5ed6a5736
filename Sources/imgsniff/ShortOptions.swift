/// Short options bundled as every Unix tool takes them (getopt's rules): `-qj2` is `-q -j 2`,
/// `-0xj4` is `-0 -x -j 4`. ArgumentParser takes bundles of flags (`-0L`) and a value joined to
/// its option (`-j4`), but not a bundle that ends in an option with a value; this rewrites those
/// before it parses. A bundle with a letter that is not an option is left for ArgumentParser to
/// refuse with its own message.
enum ShortOptions {
    /// One command's one-letter options.
    struct Table {
        /// Flags (no value).
        let flags: Set<Character>
        /// Options that take a value.
        let valued: Set<Character>
        /// Long options that take a value: the argument after one is its value, never a bundle.
        let valuedLong: Set<String>
    }

    /// scan's and rename's. A test compares them with what `--help` lists.
    static let tables: [String: Table] = [
        "scan": Table(flags: ["0", "L", "x", "q"], valued: ["j"],
                      valuedLong: ["--files-from", "--max-depth", "--exclude", "--format", "--type", "--min-pixels",
                                   "--jobs", "--color", "--hint"]),
        "rename": Table(flags: ["0", "L", "x"], valued: [],
                        valuedLong: ["--files-from", "--max-depth", "--exclude", "--min-confidence", "--extension-case",
                                     "--on-conflict", "--journal", "--undo", "--format", "--color"]),
    ]

    /// The arguments (after the program name) with bundles split.
    static func expand(_ arguments: [String]) -> [String] {
        guard let command = arguments.first, let table = tables[command] else { return arguments }
        var out = [command]
        var i = 1
        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if a == "--" {
                out += arguments[(i - 1)...]
                break
            }
            if table.valuedLong.contains(a), i < arguments.count {
                out += [a, arguments[i]]
                i += 1
                continue
            }
            out += split(a, table) ?? [a]
        }
        return out
    }

    /// `-qj2` as `["-q", "-j", "2"]`; nil when `a` is not a bundle that needs splitting.
    private static func split(_ a: String, _ table: Table) -> [String]? {
        guard a.count > 2, a.hasPrefix("-"), !a.hasPrefix("--") else { return nil }
        var parts: [String] = []
        var rest = Substring(a.dropFirst())
        while let c = rest.first {
            rest = rest.dropFirst()
            if table.flags.contains(c) {
                parts.append("-\(c)")
            } else if table.valued.contains(c) {
                parts.append("-\(c)")
                if !rest.isEmpty { parts.append(String(rest)) }
                return parts
            } else {
                return nil
            }
        }
        return nil  // flags only: ArgumentParser takes those as they are
    }
}
