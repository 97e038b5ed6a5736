// The command line, declared as data: each command's options, arguments and help. One
// declaration gives the parser, `--help`, the man page and the shell completions, so they cannot
// disagree. No dependency: depending on the ImageSniff library resolves nothing else.

/// How a shell completes a value.
enum Completion {
    case none
    /// A path.
    case file
    /// One of these words.
    case list([String])
}

/// One option: `--long`, with an optional one-letter name.
struct OptionSpec {
    enum Kind {
        /// No value: present or not.
        case flag
        /// A value; given again, the last one counts.
        case value
        /// A value that may be given more than once; every one counts.
        case repeated
    }

    let long: String
    var short: Character? = nil
    var kind: Kind = .flag
    /// The value's name in help (`--format <format>`).
    var valueName: String = ""
    let help: String
    /// The values allowed (an enumeration's cases), checked by the parser and listed in help.
    var choices: [String] = []
    /// The default, as help shows it.
    var defaultValue: String? = nil
    var completion: Completion = .none
    /// The help section it is listed in (nil: OPTIONS).
    var group: String? = nil

    /// `--long <value>` (or `-s, --long <value>`), as help shows it.
    var label: String {
        var s = short.map { "-\($0), " } ?? ""
        s += "--" + long
        if kind != .flag { s += " <\(valueName)>" }
        return s
    }

    /// The help text with the allowed values and the default.
    var fullHelp: String {
        var extras: [String] = []
        if !choices.isEmpty { extras.append("values: " + choices.joined(separator: ", ")) }
        if let defaultValue { extras.append("default: " + defaultValue) }
        return extras.isEmpty ? help : help + " (" + extras.joined(separator: "; ") + ")"
    }
}

/// The operands a command takes.
struct ArgumentSpec {
    let name: String
    let help: String
    var repeated = true
    var completion: Completion = .none
}

/// A command: `imgsniff` itself, or one of its subcommands.
struct CommandSpec {
    let name: String
    let abstract: String
    var discussion: String = ""
    var argument: ArgumentSpec? = nil
    var options: [OptionSpec] = []
    var subcommands: [CommandSpec] = []

    /// The options every command takes besides its own.
    static let builtIn: [OptionSpec] = [
        OptionSpec(long: "version", help: "Show the version."),
        OptionSpec(long: "help", help: "Show help information."),
    ]

    var allOptions: [OptionSpec] { options + Self.builtIn }

    /// `imgsniff scan`, or `imgsniff` for the root.
    func path(root: String = "imgsniff") -> String { name == root ? root : root + " " + name }

    /// The usage line, without its "USAGE: " prefix.
    var usage: String {
        if !subcommands.isEmpty { return "imgsniff <subcommand>" }
        var s = path()
        if options.count > 4 {
            s += " [<options>]"
        } else {
            for o in options { s += " [\(o.label.split(separator: ",").last!.trimmingPrefix(" "))]" }
        }
        if let argument { s += argument.repeated ? " [<\(argument.name)> ...]" : " [<\(argument.name)>]" }
        return s
    }
}

/// A command line that does not parse, or asks for what cannot be done together: exit 64.
struct UsageError: Error {
    let message: String
    /// The option concerned, whose help the message shows.
    var option: OptionSpec? = nil
}

/// What the parser found: option values by long name, and the operands in order.
struct ParsedArguments {
    private(set) var values: [String: [String]] = [:]
    private(set) var operands: [String] = []

    func flag(_ long: String) -> Bool { values[long] != nil }
    /// The last value given.
    func value(_ long: String) -> String? { values[long]?.last }
    /// Every value given, in order.
    func all(_ long: String) -> [String] { values[long] ?? [] }

    /// The value as an integer (the parser has checked it is one).
    func int(_ long: String) -> Int? { value(long).flatMap { Int($0) } }

    /// The value as one of an enumeration's cases (the parser has checked it is one).
    func choice<T: RawRepresentable>(_ long: String, as type: T.Type = T.self) -> T? where T.RawValue == String {
        value(long).flatMap(T.init(rawValue:))
    }

    /// Parses `arguments` (after the command's name) against `spec`: `--long`, `--long=value`,
    /// `--long value`, `-s`, `-s value`, `-svalue`, bundles of one-letter flags ending in at most
    /// one that takes a value (`-qj2`, getopt's rules); `--` ends the options; `-` is an operand.
    static func parse(_ arguments: [String], for spec: CommandSpec, integers: Set<String> = []) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        let options = spec.allOptions
        var i = 0
        var onlyOperands = false

        func take(_ option: OptionSpec, _ inline: String?, _ given: String) throws(UsageError) {
            switch option.kind {
            case .flag:
                if inline != nil { throw UsageError(message: "'\(given)' takes no value", option: option) }
                parsed.values[option.long, default: []].append("")
            case .value, .repeated:
                var value = inline
                if value == nil {
                    guard i < arguments.count else { throw UsageError(message: "Missing value for '\(option.label)'", option: option) }
                    value = arguments[i]
                    i += 1
                }
                let v = value!
                if !option.choices.isEmpty && !option.choices.contains(v) {
                    let list = option.choices.map { "'\($0)'" }
                    throw UsageError(message: "The value '\(v)' is invalid for '\(option.label)'. Please provide one of \(list.dropLast().joined(separator: ", ")) or \(list.last!).",
                                     option: option)
                }
                if integers.contains(option.long) && Int(v) == nil {
                    throw UsageError(message: "The value '\(v)' is invalid for '\(option.label)': not a whole number.", option: option)
                }
                parsed.values[option.long, default: []].append(v)
            }
        }

        while i < arguments.count {
            let a = arguments[i]
            i += 1
            if onlyOperands || a == "-" || !a.hasPrefix("-") {
                parsed.operands.append(a)
            } else if a == "--" {
                onlyOperands = true
            } else if a.hasPrefix("--") {
                let body = a.dropFirst(2)
                let name = String(body.prefix { $0 != "=" })
                let inline = body.firstIndex(of: "=").map { String(body[body.index(after: $0)...]) }
                guard let option = options.first(where: { $0.long == name }) else {
                    var message = "Unknown option '--\(name)'"
                    if let near = Self.nearest(to: name, in: options.map(\.long)) { message += ". Did you mean '--\(near)'?" }
                    throw UsageError(message: message)
                }
                try take(option, inline, "--" + name)
            } else {
                // One-letter options, bundled or not.
                var rest = Substring(a.dropFirst())
                while let c = rest.first {
                    rest = rest.dropFirst()
                    guard let option = options.first(where: { $0.short == c }) else {
                        throw UsageError(message: "Unknown option '-\(c)'" + (a.count > 2 ? " (in '\(a)')" : ""))
                    }
                    if option.kind == .flag {
                        try take(option, nil, "-\(c)")
                    } else {
                        try take(option, rest.isEmpty ? nil : String(rest), "-\(c)")
                        break
                    }
                }
            }
        }
        return parsed
    }

    /// The name closest to `name` (at most two edits away, or one it begins), for "did you mean".
    static func nearest(to name: String, in names: [String]) -> String? {
        func distance(_ a: [Character], _ b: [Character]) -> Int {
            var row = Array(0...b.count)
            for (i, x) in a.enumerated() {
                var previous = row[0]
                row[0] = i + 1
                for (j, y) in b.enumerated() {
                    let substitution = previous + (x == y ? 0 : 1)
                    previous = row[j + 1]
                    row[j + 1] = min(substitution, row[j] + 1, row[j + 1] + 1)
                }
            }
            return row[b.count]
        }
        let candidates = names.map { ($0, distance(Array(name), Array($0))) }.filter { $0.1 <= 2 || ($0.0.hasPrefix(name) && name.count >= 3) }
        return candidates.min { $0.1 < $1.1 }?.0
    }
}
