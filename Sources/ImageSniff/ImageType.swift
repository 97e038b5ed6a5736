// The public face of a type, named after Apple's `UTType` so that code reads the same on both
// platforms: `identifier`, `conforms(to:)`, `supertypes`, `preferredFilenameExtension`,
// `preferredMIMEType`, `tags`.

extension ImageType {
    private var declared: TypeDeclaration { Catalog.declarations[index] }

    /// The Uniform Type Identifier, e.g. `"public.jpeg"` or `"com.nikon.raw-image"`.
    public var identifier: String { declared.identifier }

    /// The types this one directly conforms to, as declared.
    public var parents: [ImageType] { declared.parents }

    /// Every type this one conforms to, directly or transitively (not including itself).
    public var supertypes: Set<ImageType> {
        Set(ImageType.allCases.filter { Catalog.ancestors[index].contains($0) })
    }

    /// Whether this type is `other` or conforms to it, directly or transitively.
    ///
    /// - Complexity: O(1).
    public func conforms(to other: ImageType) -> Bool {
        self == other || Catalog.ancestors[index].contains(other)
    }

    /// Whether `other` conforms to this type (the reverse of `conforms(to:)`).
    public func isSupertype(of other: ImageType) -> Bool { other.conforms(to: self) }

    /// Whether this type conforms to `public.image`.
    public var isImage: Bool { conforms(to: .image) }

    /// A short human description, e.g. "JPEG image".
    public var localizedDescription: String { declared.description }

    /// The extension a file of this type should carry (without the dot), if the type has one.
    public var preferredFilenameExtension: String? { declared.extensions.first }

    /// Every filename extension of this type, preferred first, lower case, without the dot.
    public var filenameExtensions: [String] { declared.extensions }

    /// The MIME type to report for this type, if it has one.
    public var preferredMIMEType: String? { declared.mimeTypes.first }

    /// Every MIME type of this type, preferred first.
    public var mimeTypes: [String] { declared.mimeTypes }

    /// Tags in the spirit of `UTType.tags`: `"public.filename-extension"` and `"public.mime-type"`.
    public var tags: [String: [String]] {
        ["public.filename-extension": declared.extensions, "public.mime-type": declared.mimeTypes]
    }

    /// Whether the catalog declares this type as an abstract node with no bytes of its own
    /// (`public.image`, `public.camera-raw-image`, ...).
    public var isAbstract: Bool { declared.extensions.isEmpty && declared.mimeTypes.isEmpty }

    /// The node detection reports when the bytes cannot tell this type from its siblings, if any.
    public var detectionFamily: ImageType? { declared.family }

    /// The detection-family nodes above this type, nearest first (NEF: TIFF; JPEG-LS: JPEG).
    public var detectionFamilyChain: some Sequence<ImageType> {
        sequence(state: self) { (current: inout ImageType) -> ImageType? in
            guard let next = current.detectionFamily else { return nil }
            current = next
            return next
        }
    }

    /// Whether this type is `node` or has it up its detection-family chain: the members a hint
    /// may choose when detection stops at `node` (hint rule 2; see the HowHintsWork article).
    public func belongs(toFamily node: ImageType) -> Bool {
        self == node || detectionFamilyChain.contains(node)
    }

    /// Whether no detection rule produces this type from bytes alone: only a hint names it, when
    /// detection stops at its family (a Canon TIFF RAW is, byte for byte, a Canon TIFF).
    public var isNamedOnlyByHint: Bool { declared.hintOnly }

    /// Whether a hint may name this type when the bytes match nothing at all: formats without
    /// magic (TGA, WBMP, PICT) whose header fields are plausible (hint rule 3).
    public var acceptsHintWithoutMagic: Bool { Detector.hintPlausibility(for: self) != nil }

    /// Whether detection can stop at this type for want of evidence (some type names it as its
    /// detection family): TIFF, HEIF, JPEG, ...
    public var isFamilyNode: Bool { ImageType.allCases.contains { $0.detectionFamily == self } }

    /// The type with this identifier (case-insensitive), or nil.
    public init?(_ identifier: String) {
        guard let type = Catalog.byIdentifier[Catalog.lowercased(identifier)] else { return nil }
        self = type
    }

    /// The preferred type for a filename extension, with or without the dot, in any case
    /// (`"JPG"`, `".jpeg"`), or nil when no type declares it.
    public init?(filenameExtension: String) {
        guard let type = ImageType.types(filenameExtension: filenameExtension).first else { return nil }
        self = type
    }

    /// The preferred type for a MIME type (case-insensitive, parameters ignored), or nil.
    public init?(mimeType: String) {
        guard let type = ImageType.types(mimeType: mimeType).first else { return nil }
        self = type
    }

    /// Every type that declares this filename extension, preferred first.
    public static func types(filenameExtension: String) -> [ImageType] {
        var ext = Substring(filenameExtension)
        if ext.first == "." { ext = ext.dropFirst() }
        return Catalog.byExtension[Catalog.lowercased(String(ext))] ?? []
    }

    /// Every type that declares this MIME type, those preferring it first.
    public static func types(mimeType: String) -> [ImageType] {
        var mime = Substring(mimeType)
        if let semicolon = mime.firstIndex(of: ";") { mime = mime[..<semicolon] }
        while mime.last == " " { mime = mime.dropLast() }
        while mime.first == " " { mime = mime.dropFirst() }
        return Catalog.byMIMEType[Catalog.lowercased(String(mime))] ?? []
    }

    /// The types a hint names: an identifier, a MIME type (has a `/`) or a filename extension.
    /// A hint that names nothing known gives an empty list.
    public static func types(hint: String) -> [ImageType] {
        if let type = ImageType(hint) { return [type] }
        if hint.utf8.contains(UInt8(ascii: "/")) { return types(mimeType: hint) }
        return types(filenameExtension: hint)
    }
}

extension ImageType: CustomStringConvertible {
    public var description: String { identifier }
}

// Names that mirror `UTType`'s static members.
extension ImageType {
    /// `public.camera-raw-image`, under the name `UTType` gives it (`UTType.rawImage`).
    public static var rawImage: ImageType { .cameraRawImage }
}
