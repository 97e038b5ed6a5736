// Property readers: one per format family, declared with the types it reads, and the registry that
// finds the reader for a detected type. Readers work on the same `Input` as detection checks (the
// bytes in view, the data's length, the read cap) and ask for more the same way.

/// What a property reader says.
enum PropertyStep {
    /// What the header states.
    case done(ImageProperties)
    /// The reader wants the first `n` bytes to go further; `partial` is what it has so far (the
    /// answer if they cannot be had).
    case need(Int, partial: ImageProperties)
}

/// Reads the properties of the types it declares.
struct PropertyReader: Sendable {
    let types: [ImageType]
    let read: @Sendable (Input, ImageType) -> PropertyStep

    init(_ types: [ImageType], read: @escaping @Sendable (Input, ImageType) -> PropertyStep) {
        self.types = types
        self.read = read
    }
}

enum PropertyRegistry {
    /// The image types whose properties are not read, and why.
    static let notStated: [ImageType: String] = [
        .svg: "vector", .xfig: "vector", .wmf: "vector", .emf: "vector", .wordPerfectGraphics: "vector",
        .cr3: "camera RAW (its own container)", .crw: "camera RAW (its own container)", .raf: "camera RAW (its own container)",
        .mrw: "camera RAW (its own container)", .x3f: "camera RAW (its own container)", .rwz: "camera RAW (its own container)",
        .icns: "several images of several sizes", .openRaster: "a ZIP archive (its stack.xml)", .flashPix: "an OLE2 compound file",
        .photoCD: "several resolutions", .appleATX: "a texture wrapper", .gimpBrush: "not yet", .gimpHose: "not yet",
        .gimpPattern: "not yet", .aliasPIX: "not yet", .mgr: "not yet", .cmuRaster: "not yet", .microDesign: "not yet",
        .solitaireSIR: "not yet", .garminSRF: "not yet", .mcidas: "not yet", .pixar: "not yet", .pillowIM: "not yet",
        .spider: "not yet", .jbig2: "not yet", .nokiaNOL: "not yet", .nokiaNGG: "not yet", .otb: "not yet",
    ]

    /// The reader of each type (every type has at most one: CatalogTests checks it).
    static let byType: [ImageType: PropertyReader] = {
        var table: [ImageType: PropertyReader] = [:]
        for reader in Registry.readers {
            for type in reader.types where table[type] == nil { table[type] = reader }
        }
        return table
    }()
}

extension ImageSniffer {
    /// The properties of `type` from `view`, the first bytes of data of `length` bytes: `.done`,
    /// or `.need(n)` when more of the start would tell more (and can be had under the cap).
    static func readProperties(_ type: ImageType, _ view: UnsafeRawBufferPointer, length: Int) -> PropertyStep {
        guard let reader = PropertyRegistry.byType[type] else { return .done(.unknown) }
        let input = Input(view: ByteView(base: view), totalLength: length, limit: min(length, Limits.maxPrefix), tail: nil)
        switch reader.read(input, type) {
        case .done(let properties):
            return .done(properties)
        case .need(let n, let partial):
            return n > view.count && input.hasMore ? .need(min(n, input.limit), partial: partial) : .done(partial)
        }
    }

    /// Detects the format of `bytes` and reads its image's properties from its header.
    ///
    /// Costs one detection, plus one header parse for an image (a walk over GIF frames or TIFF
    /// pages at most, never past `Limits.maxPrefix`). Plain `detect(_:hint:)` does no property
    /// work.
    public static func inspect<Bytes: Collection>(_ bytes: Bytes, hint: String? = nil) -> Inspection where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ inspect(UnsafeRawBufferPointer($0), hint: hint) }) {
            return result
        }
        let count = bytes.count
        let head = Array(bytes.prefix(Limits.maxPrefix))
        let tail = count > head.count ? Array(bytes.suffix(Limits.tailLength)) : nil
        return head.withUnsafeBytes { view in
            let detection = detect(view, totalLength: count, tail: tail, hint: hint)
            return Inspection(detection: detection, properties: properties(of: detection, view, length: count))
        }
    }

    /// `inspect(_:hint:)` for raw memory.
    public static func inspect(_ buffer: UnsafeRawBufferPointer, hint: String? = nil) -> Inspection {
        let detection = detect(buffer, hint: hint)
        let view = UnsafeRawBufferPointer(rebasing: buffer.prefix(Limits.maxPrefix))
        return Inspection(detection: detection, properties: properties(of: detection, view, length: buffer.count))
    }

    /// The properties of what `detection` found, from `view`, the first bytes of data of `length`
    /// bytes (what is not in view is not read: a reader that wants more gives what it has).
    public static func properties(of detection: Detection, _ view: UnsafeRawBufferPointer, length: Int) -> ImageProperties {
        guard detection.type.isImage else { return .unknown }
        switch readProperties(detection.type, view, length: length) {
        case .done(let p), .need(_, let p): return p
        }
    }
}
