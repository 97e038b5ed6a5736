import ImageSniff
import IMGSniffKit
import ImageSniffScan

enum Types {
    static let spec = CommandSpec(
        name: "types",
        abstract: "Look up types by extension, MIME type or identifier, or list every type ImageSniff knows.",
        discussion: """
        With a QUERY (an extension such as nef or .JPG, a MIME type such as image/heic, or an \
        identifier such as public.tiff), prints each type it names: identifier, description, \
        what it conforms to, extensions, MIME types and how detection tells it apart. Without one, \
        lists every type in catalog order (abstract types first, then image formats, then the \
        neighbouring formats detection tells apart from images); the first extension and MIME \
        type are the preferred ones.

        JSON: an array of objects with identifier, description, parents, supertypes, extensions, \
        mimeTypes, isImage, isAbstract, detectionFamily (or null) and hintOnly.

        Exit status: 0 found; 1 the query names nothing; 64 usage error.

        Examples:
          imgsniff types nef
          imgsniff types image/heic
          imgsniff types --only-images --format json | jq -r '.[].identifier'
          imgsniff types --format markdown     # docs/supported-formats.md's table
        """,
        argument: ArgumentSpec(name: "query", help: "An extension, MIME type or identifier to look up. A conventional name that is no type's own extension (.jpc for a JPEG 2000 codestream) lists the types it fits, as rename sees it.", repeated: false,
                               completion: .list(ImageType.allCases.map(\.identifier))),
        options: [
            OptionSpec(long: "format", kind: .value, valueName: "format", help: "Output format: table, json or markdown.",
                       choices: TypesFormat.allCases.map(\.rawValue), defaultValue: "table"),
            OptionSpec(long: "only-images", help: "Only list types that conform to public.image."),
        ]
    )

    static func validate(_ p: ParsedArguments) throws(UsageError) {
        if p.operands.count > 1 { throw UsageError(message: "Unexpected argument '\(p.operands[1])' (one query at a time)") }
    }

    static func run(_ p: ParsedArguments) -> Int32 {
        let format = p.choice("format", as: TypesFormat.self) ?? .table
        let onlyImages = p.flag("only-images")
        let output = OutputStream()
        if let query = p.operands.first {
            var found = TypesListing.lookup(query).filter { !onlyImages || $0.isImage }
            if found.isEmpty {
                // Not a type's own extension, but a name the programs that open such files accept
                // (.jpc for a JPEG 2000 codestream): what `rename` and `--mismatches` keep.
                let ext = (query.hasPrefix(".") ? String(query.dropFirst()) : query).lowercased()
                for alias in ExtensionAlias.rows(for: ext) {
                    let types = alias.contents.filter { !onlyImages || $0.isImage }
                    guard !types.isEmpty else { continue }
                    StandardError.line("imgsniff types: '.\(ext)' is no type's own extension, but fits \(types.map(\.identifier).joined(separator: ", ")): \(alias.reason)")
                    found += types.filter { !found.contains($0) }
                }
            }
            guard !found.isEmpty else {
                StandardError.line("imgsniff types: '\(query)' names no known type (an extension, MIME type or identifier; `imgsniff types` lists them)")
                return ExitStatus.noMatch
            }
            output.write(TypesListing.render(found, format: format, detailed: true))
        } else {
            let types = ImageType.allCases.filter { !onlyImages || $0.isImage }
            output.write(TypesListing.render(types, format: format, width: Terminal.width()))
        }
        output.flush()
        if let failure = output.failure {
            let (message, status) = OutputFailure.report(failure)
            if let message { StandardError.line(message) }
            return status
        }
        return 0
    }
}
