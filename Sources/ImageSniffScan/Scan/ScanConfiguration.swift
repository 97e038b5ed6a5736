import ImageSniff

/// Output formats of `scan`.
package enum ScanFormat: String, Sendable, CaseIterable {
    case table, ndjson, json, csv
}

/// Which records a scan lists.
public struct ScanFilter: Sendable {
    public var onlyImages = false
    /// Content conforming to any of these (`--type`).
    public var types: [ImageType] = []
    /// Content nothing recognised (`--type unknown`).
    public var unknown = false
    /// Files whose extension names another type (`--mismatches`).
    public var mismatches = false
    /// Images of at least this many pixels, by their header (`--min-pixels`); an image whose
    /// header states no size does not pass.
    public var minPixels: Int?

    public init() {}

    public var isActive: Bool { onlyImages || !types.isEmpty || unknown || mismatches || minPixels != nil }

    /// Whether a detected file passes.
    public func includes(_ detection: Detection, extensionMatches: Bool?, properties: ImageProperties? = nil) -> Bool {
        if onlyImages && !detection.type.isImage { return false }
        if let minPixels {
            guard detection.type.isImage, let pixels = properties?.pixelCount, pixels >= minPixels else { return false }
        }
        if !types.isEmpty || unknown {
            let typeMatch = types.contains { detection.type.conforms(to: $0) && !detection.isUnknown }
            if !typeMatch && !(unknown && detection.isUnknown) { return false }
        }
        if mismatches && extensionMatches != false { return false }
        return true
    }
}

/// Everything a scan's workers need to turn a walk entry into a record.
package struct ScanSettings: Sendable {
    package var filter = ScanFilter()
    /// Use each file's extension as the detection hint (when the catalog knows it).
    package var hintFromExtension = false
    /// The detection hint for every file (`--hint`): an identifier, extension or MIME type. With
    /// `hintFromExtension`, a file's known extension comes first.
    package var hint: String?

    /// The hint for a file with this extension.
    func hint(forExtension fileExtension: String?) -> String? {
        if hintFromExtension, let fileExtension, !ImageType.types(hint: fileExtension).isEmpty { return fileExtension }
        return hint
    }
    /// Ask for a second opinion too (`--cross-check`), from what `makeCrossChecker` makes.
    package var crossCheck = false
    /// Makes a worker's cross-checker (the command's is libmagic).
    package var makeCrossChecker: (@Sendable () -> any CrossChecker)?
    /// Read each image's properties from its header (`--properties`).
    package var properties = false
    /// Check that each file is whole (`--verify`: `ReadBudget.verify`).
    package var verify = false
    /// Whether the workers read properties (asked for, or needed by `--min-pixels`).
    package var readsProperties: Bool { properties || filter.minPixels != nil }
    /// Encode records for this format on the workers (nil: records go to the main thread whole).
    package var encoding: ScanFormat? = .ndjson
    /// Whether the output shows each listed record's error (the table does; `--summary`,
    /// `--print0` and `--quiet` do not, so their errors go to standard error).
    package var recordsShowErrors = true

    package init() {}
}
