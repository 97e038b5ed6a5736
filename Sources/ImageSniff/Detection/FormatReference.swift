// The format reference (docs/formats.md), written from the registry and the catalog so that it
// cannot drift: a test compares the file with this text.

enum FormatReference {
    /// The whole document.
    static func markdown() -> String {
        var out = """
        # Formats

        <!-- Written from the registry of format families (Sources/ImageSniff/Detection/Registry.swift) and the
        catalog by `FormatReference.markdown()`; the test suite checks it is current. Do not edit: run
        `IMAGESNIFF_WRITE_REFERENCE=1 swift test --filter RegistryTests`. -->

        Every format family, its detection rules (tried in this order among those that share a first
        byte: strong signatures before heuristics; rules whose evidence is elsewhere come after every
        signature, text last), the types each rule can answer, and whether their properties are read
        (width, height, depth, colour model, alpha, frames, orientation, gain map, ICC profile).


        """
        var families = 0, rules = 0
        for family in Registry.families {
            families += 1
            out += "## \(family)\n\n"
            out += "| rule | starts | types | properties |\n|---|---|---|---|\n"
            for rule in family.rules {
                rules += 1
                let start: String
                switch rule.start {
                case .firstByte(let bytes): start = bytes.map { hex($0) }.joined(separator: " ")
                case .elsewhere: start = "elsewhere"
                }
                let strength = rule.strength == .heuristic ? " (heuristic)" : ""
                let types = rule.produces.map { "`\($0.identifier)`" }.joined(separator: ", ")
                let images = rule.produces.filter(\.isImage)
                let unread = images.filter { PropertyRegistry.byType[$0] == nil }
                let notes = unread.map { "`\($0.identifier)` (\(PropertyRegistry.notStated[$0] ?? "?"))" }.joined(separator: ", ")
                let propsText = images.isEmpty ? "" : unread.isEmpty ? "read"
                    : unread.count == images.count ? "not stated: " + notes : "read, but not for " + notes
                out += "| \(rule.name)\(strength) | \(start) | \(types) | \(propsText.isEmpty ? "-" : propsText) |\n"
            }
            out += "\n"
        }
        out += "## Types\n\n| identifier | conforms to | extensions | MIME types |\n|---|---|---|---|\n"
        for type in ImageType.allCases where !type.isAbstract {
            out += "| `\(type.identifier)` | \(type.parents.map { "`\($0.identifier)`" }.joined(separator: ", ")) | "
                + "\(type.filenameExtensions.joined(separator: ", ")) | \(type.mimeTypes.joined(separator: ", ")) |\n"
        }
        out += "\n## Extensions that fit other types\n\nWhat `Detection.extensionFits` takes besides the catalog's extensions "
            + "(`imgsniff scan --mismatches` and `imgsniff rename` use it):\n\n| extensions | content | why |\n|---|---|---|\n"
        for alias in ExtensionAlias.all {
            out += "| \(alias.extensions.map { ".\($0)" }.joined(separator: " ")) | "
                + "\(alias.contents.map { "`\($0.identifier)`" }.joined(separator: ", ")) | \(alias.reason) |\n"
        }
        out += "\n\(families) families, \(rules) rules, \(ImageType.allCases.filter { !$0.isAbstract }.count) types.\n"
        return out
    }

    private static func hex(_ b: UInt8) -> String {
        let digits = Array("0123456789ABCDEF")
        return "`" + String(digits[Int(b >> 4)]) + String(digits[Int(b & 0x0F)]) + "`"
    }
}
