// Formats of one's own, told beside the built-in ones (as mimetype's `Extend` and file-type's
// custom detectors do): a type declared by its identifier, conformance, extensions and MIME types,
// and a check over the first bytes.

/// A format the catalog does not know, declared by its user.
public struct CustomType: Sendable, Hashable, Codable {
    /// The identifier, in reverse-DNS style: `"com.example.sprite"`.
    public let identifier: String
    public let description: String
    /// What the built-in detectors must have answered for the check to run: `.data` (the
    /// default) for content they do not know, or the built-in format the custom one is written in
    /// (`.zip` for a ZIP-based document, `.xml`, `.plainText`, `.tiff`...). A custom check
    /// never overrides what the bytes conclusively are, so it cannot take a JPEG for its own.
    public let within: ImageType
    /// The types it conforms to, besides its own identifier (`"public.image"` for an image format,
    /// and `within`'s identifier and supertypes when it is written in a built-in format).
    public let conformsTo: [String]
    public let filenameExtensions: [String]
    public let mimeTypes: [String]

    public init(identifier: String, description: String, within: ImageType = .data, conformsTo: [String] = [],
                filenameExtensions: [String] = [], mimeTypes: [String] = []) {
        self.identifier = identifier
        self.description = description
        self.within = within
        var parents = conformsTo
        if within != .data {
            for t in [within] + within.supertypes.sorted(by: { $0.identifier < $1.identifier }) where !parents.contains(t.identifier) {
                parents.append(t.identifier)
            }
        }
        self.conformsTo = parents
        self.filenameExtensions = filenameExtensions
        self.mimeTypes = mimeTypes
    }

    /// Whether it conforms to `identifier` (its own included).
    public func conforms(to identifier: String) -> Bool { identifier == self.identifier || conformsTo.contains(identifier) }

    /// Whether it conforms to `public.image`.
    public var isImage: Bool { conforms(to: ImageType.image.identifier) }
}

/// A check for a custom type over the first bytes of the data.
public struct CustomDetector: Sendable {
    public let type: CustomType
    /// Tells the format from the first bytes (`Limits.initialRead`, 4 KiB, or all of shorter data:
    /// what a file's first read holds, so that a file and its bytes in memory answer alike) and
    /// the data's length when known. It runs only on data the built-in detectors answered
    /// `type.within` for, and must not throw or trap.
    public let check: @Sendable (_ firstBytes: UnsafeRawBufferPointer, _ length: Int?) -> Bool

    public init(type: CustomType, check: @escaping @Sendable (_ firstBytes: UnsafeRawBufferPointer, _ length: Int?) -> Bool) {
        self.type = type
        self.check = check
    }

    /// A detector for a magic number at an offset: the commonest check.
    public init(type: CustomType, magic: [UInt8], at offset: Int = 0) {
        self.init(type: type) { bytes, _ in
            bytes.count >= offset + magic.count && bytes[offset..<(offset + magic.count)].elementsEqual(magic)
        }
    }
}

/// What a sniffer with custom detectors answers.
public enum SniffResult: Sendable, Hashable {
    /// A built-in type (no custom check matched, or none ran).
    case builtIn(Detection)
    /// A custom type, and what the built-in detectors answered (its `within`).
    case custom(CustomType, builtIn: Detection)

    /// The identifier of the answer.
    public var identifier: String {
        switch self {
        case .builtIn(let d): return d.type.identifier
        case .custom(let t, _): return t.identifier
        }
    }

    /// What the built-in detectors answered.
    public var detection: Detection {
        switch self {
        case .builtIn(let d), .custom(_, let d): return d
        }
    }
}

/// Detection with custom detectors beside the built-in ones, from bytes or files.
///
/// ```swift
/// let sprite = CustomDetector(type: CustomType(identifier: "com.example.sprite", description: "Example sprite",
///                                              conformsTo: ["public.image"], filenameExtensions: ["spr"]),
///                             magic: Array("SPR1".utf8))
/// let sniffer = CustomSniffer(detectors: [sprite])
/// switch try sniffer.detect(fileAt: path) {
/// case .custom(let type, _): print(type.identifier)           // com.example.sprite
/// case .builtIn(let detection): print(detection.type.identifier)
/// }
/// ```
///
/// The built-in detectors run first, under the same bounded reads as ever; a custom check runs
/// only on what they answered as its type's `within` (content they do not know, by default),
/// over the bytes they already read: no read more. The first detector whose check matches wins.
/// A `CustomSniffer` holds a `FileSniffer` (its read buffer): one per task or thread.
public final class CustomSniffer {
    public let detectors: [CustomDetector]
    public let budget: ReadBudget
    private let files: FileSniffer

    public init(detectors: [CustomDetector], budget: ReadBudget = .default) {
        self.detectors = detectors
        self.budget = budget
        files = FileSniffer(budget: budget)
    }

    /// Detects the format of `bytes`, taken to be the whole data.
    public func detect<Bytes: Collection>(_ bytes: Bytes, hint: String? = nil) -> SniffResult where Bytes.Element == UInt8 {
        let detection = ImageSniffer.detect(bytes, hint: hint)
        let cap = Limits.initialRead
        let length = bytes.count
        if let result = bytes.withContiguousStorageIfAvailable({ p in
            customize(detection, UnsafeRawBufferPointer(rebasing: UnsafeRawBufferPointer(p).prefix(cap)), length: length)
        }) {
            return result
        }
        let first = Array(bytes.prefix(cap))
        return first.withUnsafeBytes { customize(detection, $0, length: length) }
    }

    /// Detects the format of the file at `path` (following symbolic links).
    public func detect(fileAt path: String, hint: String? = nil) throws(FileError) -> SniffResult {
        let detection = try files.detect(fileAt: path, hint: hint)
        let length = files.lastLength
        return files.withLastPrefix { customize(detection, UnsafeRawBufferPointer(rebasing: $0.prefix(Limits.initialRead)), length: length) }
    }

    private func customize(_ detection: Detection, _ first: UnsafeRawBufferPointer, length: Int?) -> SniffResult {
        for d in detectors where d.type.within == detection.type && d.check(first, length) {
            return .custom(d.type, builtIn: detection)
        }
        return .builtIn(detection)
    }
}
