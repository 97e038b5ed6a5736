// `imgsniff types`: the catalog, as a table, JSON or a Markdown table for the README.

import ArgumentParser
import ImageSniff

struct Types: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List every type ImageSniff knows: identifier, parents, extensions, MIME types.",
        discussion: """
        Types come in catalog order (abstract types first, then image formats, then the \
        neighbouring formats detection tells apart from images). The first extension and MIME \
        type of each are the preferred ones.

        JSON: an array of objects with identifier, description, parents, extensions, mimeTypes, \
        isImage, isAbstract and detectionFamily (or null).

        Markdown: a table with the columns Identifier, Description, Extensions, MIME types, Parents.

        Examples:
          imgsniff types
          imgsniff types --format json | jq -r '.[] | select(.isImage) | .identifier'
          imgsniff types --format markdown     # the README's formats table (make readme-formats)
        """
    )

    enum Format: String, CaseIterable, ExpressibleByArgument {
        case table, json, markdown
    }

    @Option(help: "Output format: table, json or markdown.")
    var format: Format = .table

    @Flag(help: "Only list types that conform to public.image.")
    var onlyImages = false

    func run() throws {
        let types = ImageType.allCases.filter { !onlyImages || $0.isImage }
        let out = OutputBuffer()
        switch format {
        case .json:
            out.write("[")
            for (i, t) in types.enumerated() {
                var s = i == 0 ? "\n" : ",\n"
                s += "{\"identifier\":" + Encode.json(t.identifier)
                s += ",\"description\":" + Encode.json(t.localizedDescription)
                s += ",\"parents\":[" + t.parents.map { Encode.json($0.identifier) }.joined(separator: ",") + "]"
                s += ",\"extensions\":[" + t.filenameExtensions.map { Encode.json($0) }.joined(separator: ",") + "]"
                s += ",\"mimeTypes\":[" + t.mimeTypes.map { Encode.json($0) }.joined(separator: ",") + "]"
                s += ",\"isImage\":" + (t.isImage ? "true" : "false")
                s += ",\"isAbstract\":" + (t.isAbstract ? "true" : "false")
                s += ",\"detectionFamily\":" + Encode.json(t.detectionFamily?.identifier) + "}"
                out.write(s)
            }
            out.write(types.isEmpty ? "]\n" : "\n]\n")
        case .markdown:
            func cell(_ s: String) -> String { s.replacingPipes() }
            func code(_ list: [String]) -> String { list.isEmpty ? "" : list.map { "`" + cell($0) + "`" }.joined(separator: ", ") }
            out.write("| Identifier | Description | Extensions | MIME types | Parents |\n")
            out.write("|---|---|---|---|---|\n")
            for t in types {
                out.write("| `\(cell(t.identifier))` | \(cell(t.localizedDescription)) | \(code(t.filenameExtensions.map { "." + $0 })) | \(code(t.mimeTypes)) | \(code(t.parents.map(\.identifier))) |\n")
            }
        case .table:
            let header = ["IDENTIFIER", "DESCRIPTION", "EXTENSIONS", "MIME TYPES", "PARENTS"]
            let rows = types.map { t in
                [t.identifier, t.localizedDescription, t.filenameExtensions.joined(separator: " "),
                 t.mimeTypes.joined(separator: " "), t.parents.map(\.identifier).joined(separator: " ")]
            }
            var widths = header.map(\.count)
            for row in rows { for (i, c) in row.enumerated() { widths[i] = max(widths[i], c.count) } }
            for row in [header] + rows {
                var line = ""
                for (i, c) in row.enumerated() {
                    line += i == row.count - 1 ? c : c + String(repeating: " ", count: widths[i] - c.count) + "  "
                }
                while line.last == " " { line.removeLast() }
                out.write(line + "\n")
            }
        }
        out.flush()
    }
}

private extension String {
    func replacingPipes() -> String {
        var s = ""
        for c in self { s += c == "|" ? "\\|" : String(c) }
        return s
    }
}
