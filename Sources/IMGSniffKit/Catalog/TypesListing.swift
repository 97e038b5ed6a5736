import ImageSniff
import ImageSniffScan

/// Output formats of `types`.
package enum TypesFormat: String, Sendable, CaseIterable {
    case table, json, markdown
}

/// `imgsniff types`: the catalog, or the types a query names.
package enum TypesListing {
    /// The types an extension, MIME type or identifier names (several for `pic`), in catalog order.
    package static func lookup(_ query: String) -> [ImageType] {
        var found = ImageType.types(hint: query)
        // An identifier also matches as a prefix of nothing else; a MIME type or an extension may
        // name several types. A query that is an extension of some types and the MIME type of
        // others is not possible (MIME types have a slash).
        if found.isEmpty, let type = ImageType.allCases.first(where: { $0.localizedDescription.lowercased() == query.lowercased() }) {
            found = [type]
        }
        return found
    }

    package static func render(_ types: [ImageType], format: TypesFormat, detailed: Bool = false, width: Int? = nil) -> String {
        switch format {
        case .json: return json(types)
        case .markdown: return markdown(types)
        case .table: return detailed ? details(types) : table(types, width: width)
        }
    }

    static func json(_ types: [ImageType]) -> String {
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (i, t) in types.enumerated() {
            out.append(static: i == 0 ? "\n" : ",\n")
            var object = JSONObjectWriter()
            object.string("identifier", t.identifier)
            object.string("description", t.localizedDescription)
            object.strings("parents", t.parents.map(\.identifier))
            object.strings("supertypes", ImageType.allCases.filter { t.supertypes.contains($0) }.map(\.identifier))
            object.strings("extensions", t.filenameExtensions)
            object.strings("mimeTypes", t.mimeTypes)
            object.bool("isImage", t.isImage)
            object.bool("isAbstract", t.isAbstract)
            object.string("detectionFamily", t.detectionFamily?.identifier)
            object.bool("hintOnly", t.isNamedOnlyByHint)
            out.append(contentsOf: object.finished())
        }
        out.append(static: types.isEmpty ? "]\n" : "\n]\n")
        return String(decoding: out, as: UTF8.self)
    }

    static func markdown(_ types: [ImageType]) -> String {
        func cell(_ s: String) -> String { s.split(separator: "|", omittingEmptySubsequences: false).joined(separator: "\\|") }
        func code(_ list: [String]) -> String { list.isEmpty ? "" : list.map { "`" + cell($0) + "`" }.joined(separator: ", ") }
        var out = "| Identifier | Description | Extensions | MIME types | Parents |\n|---|---|---|---|---|\n"
        for t in types {
            out += "| `\(cell(t.identifier))` | \(cell(t.localizedDescription)) | \(code(t.filenameExtensions.map { "." + $0 })) | \(code(t.mimeTypes)) | \(code(t.parents.map(\.identifier))) |\n"
        }
        return out
    }

    static func table(_ types: [ImageType], width: Int?) -> String {
        var table = TextTable(header: ["IDENTIFIER", "DESCRIPTION", "EXTENSIONS", "MIME TYPES", "PARENTS"])
        for t in types {
            table.append([t.identifier, t.localizedDescription, t.filenameExtensions.joined(separator: " "),
                          t.mimeTypes.joined(separator: " "), t.parents.map(\.identifier).joined(separator: " ")])
        }
        return table.render(width: width)
    }

    /// One block per type: what a lookup prints.
    static func details(_ types: [ImageType]) -> String {
        var out = ""
        for t in types {
            if !out.isEmpty { out += "\n" }
            out += "\(t.identifier)  \(t.localizedDescription)\n"
            var rows = TextTable()
            rows.append(["  conforms to:", ImageType.allCases.filter { t.supertypes.contains($0) }.map(\.identifier).joined(separator: ", ")])
            rows.append(["  parents:", t.parents.map(\.identifier).joined(separator: ", ")])
            rows.append(["  extensions:", t.filenameExtensions.map { "." + $0 }.joined(separator: " ")])
            rows.append(["  MIME types:", t.mimeTypes.joined(separator: " ")])
            if let family = t.detectionFamily {
                rows.append(["  detection:", "told apart within \(family.identifier); " + (t.isNamedOnlyByHint ? "only a hint names it" : "a hint settles it when the bytes cannot")])
            }
            if t.acceptsHintWithoutMagic { rows.append(["  detection:", "no magic: named by plausible header fields, or by a hint"]) }
            out += rows.render()
        }
        return out
    }
}
