import ImageSniff

/// A record encodes as `imgsniff scan --format ndjson` writes it (schema version 2,
/// `docs/scan-record.schema.json`), and a line of that output decodes into a record: a program can
/// write the command's records and read them back. `properties` is present when the record has
/// them (null for anything but an image), `libmagic` when it was cross-checked. A record read back
/// keeps its problem as its code and message (`ScanProblem.recorded`), and counts as a failure when
/// it has one; `"libmagic": null` (a record the cross-check did not reach) reads as no cross-check.
extension ScanRecord: Codable {
    private enum Keys: String, CodingKey {
        case schemaVersion, path, pathBytes, uti, description, mime, preferredExtension, `extension`, isImage
        case confidence, animated, completeness, extensionMatches, error, properties, libmagic
    }

    private enum ErrorKeys: String, CodingKey { case code, message }
    private enum MagicKeys: String, CodingKey { case mime, description, uti, verdict, error }
    private enum PropertyKeys: String, CodingKey {
        case width, height, bitDepth, colorModel, hasAlpha, frameCount, orientation, hasGainMap, hasICCProfile, codedWidth, codedHeight
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(RecordEncoder.schemaVersion, forKey: .schemaVersion)
        try c.encode(displayPath, forKey: .path)
        if !Path.isValidUTF8(path) { try c.encode(Base64.encodeToString(path), forKey: .pathBytes) }
        if let d = detection {
            let type = d.type
            try c.encode(type.identifier, forKey: .uti)
            try c.encode(d.isUnknown ? (length == 0 ? "empty" : "data") : type.localizedDescription, forKey: .description)
            try c.encode(type.preferredMIMEType, forKey: .mime)
            try c.encode(type.preferredFilenameExtension, forKey: .preferredExtension)
            try c.encode(type.preferredFilenameExtension, forKey: .extension)
            try c.encode(type.isImage, forKey: .isImage)
            try c.encode(d.confidence, forKey: .confidence)
            try c.encode(d.isAnimated, forKey: .animated)
            try c.encode(d.completeness == .truncated ? "truncated" : "complete", forKey: .completeness)
            try c.encode(extensionMatches, forKey: .extensionMatches)
            try c.encodeNil(forKey: .error)
        } else {
            let problem = self.problem ?? .file(FileError(kind: .system, code: EIO))
            try c.encodeNil(forKey: .uti)
            try c.encode(problem.message, forKey: .description)
            for key in [Keys.mime, .preferredExtension, .extension, .isImage, .confidence, .animated, .completeness, .extensionMatches] {
                try c.encodeNil(forKey: key)
            }
            var e = c.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error)
            try e.encode(problem.code, forKey: .code)
            try e.encode(problem.message, forKey: .message)
        }
        if let p = properties {
            if detection?.type.isImage == true {
                // Every field, null when the header does not state it (as the command writes it).
                var n = c.nestedContainer(keyedBy: PropertyKeys.self, forKey: .properties)
                try n.encode(p.width, forKey: .width)
                try n.encode(p.height, forKey: .height)
                try n.encode(p.bitDepth, forKey: .bitDepth)
                try n.encode(p.colorModel, forKey: .colorModel)
                try n.encode(p.hasAlpha, forKey: .hasAlpha)
                try n.encode(p.frameCount, forKey: .frameCount)
                try n.encode(p.orientation, forKey: .orientation)
                try n.encode(p.hasGainMap, forKey: .hasGainMap)
                try n.encode(p.hasICCProfile, forKey: .hasICCProfile)
                try n.encode(p.codedWidth, forKey: .codedWidth)
                try n.encode(p.codedHeight, forKey: .codedHeight)
            } else {
                try c.encodeNil(forKey: .properties)
            }
        }
        switch crossCheck {
        case .compared(let f)?:
            var m = c.nestedContainer(keyedBy: MagicKeys.self, forKey: .libmagic)
            try m.encode(f.mimeType, forKey: .mime)
            try m.encode(f.description, forKey: .description)
            try m.encode(f.uti, forKey: .uti)
            try m.encode(f.verdict, forKey: .verdict)
        case .failed(let message)?:
            var m = c.nestedContainer(keyedBy: MagicKeys.self, forKey: .libmagic)
            for key in [MagicKeys.mime, .description, .uti, .verdict] { try m.encodeNil(forKey: key) }
            try m.encode(message, forKey: .error)
        case nil:
            break
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let version = try c.decode(Int.self, forKey: .schemaVersion)
        guard version == RecordEncoder.schemaVersion else {
            throw DecodingError.dataCorruptedError(forKey: .schemaVersion, in: c, debugDescription: "schema version \(version); this release reads \(RecordEncoder.schemaVersion)")
        }
        var raw: [UInt8]
        if let encoded = try c.decodeIfPresent(String.self, forKey: .pathBytes) {
            guard let bytes = Base64.decode(encoded) else {
                throw DecodingError.dataCorruptedError(forKey: .pathBytes, in: c, debugDescription: "not base64")
            }
            raw = bytes
        } else {
            raw = Array(try c.decode(String.self, forKey: .path).utf8)
        }
        self.init(path: raw)
        if let type = try c.decodeIfPresent(ImageType.self, forKey: .uti) {
            let completeness: Detection.Completeness = try c.decodeIfPresent(String.self, forKey: .completeness) == "truncated" ? .truncated : .complete
            detection = Detection(type: type, confidence: try c.decode(Detection.Confidence.self, forKey: .confidence),
                                  isAnimated: try c.decodeIfPresent(Bool.self, forKey: .animated) ?? false, completeness: completeness)
            if try c.decodeIfPresent(String.self, forKey: .description) == "empty" { length = 0 }
            extensionMatches = try c.decodeIfPresent(Bool.self, forKey: .extensionMatches)
        }
        if c.contains(.error), try !c.decodeNil(forKey: .error) {
            let e = try c.nestedContainer(keyedBy: ErrorKeys.self, forKey: .error)
            problem = .recorded(code: try e.decode(String.self, forKey: .code), message: try e.decode(String.self, forKey: .message))
            isFailure = true
        }
        if c.contains(.properties) {
            properties = try c.decodeIfPresent(ImageProperties.self, forKey: .properties) ?? .unknown
        }
        if c.contains(.libmagic), try !c.decodeNil(forKey: .libmagic) {
            let m = try c.nestedContainer(keyedBy: MagicKeys.self, forKey: .libmagic)
            if let message = try m.decodeIfPresent(String.self, forKey: .error) {
                crossCheck = .failed(message)
            } else {
                crossCheck = .compared(CrossCheckFields(mimeType: try m.decode(String.self, forKey: .mime),
                                                        description: try m.decode(String.self, forKey: .description),
                                                        uti: try m.decodeIfPresent(String.self, forKey: .uti),
                                                        verdict: try m.decode(String.self, forKey: .verdict)))
            }
        }
    }
}
