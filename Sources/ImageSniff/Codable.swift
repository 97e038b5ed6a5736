// Results a program keeps or sends: each is Codable, in the shape `imgsniff scan --format ndjson`
// uses where the two meet (a type by its identifier, enums by their names).
//
//     {"type":"public.png","confidence":"conclusive","isAnimated":false,"completeness":"complete"}

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A type encodes as its identifier (`"public.jpeg"`), which stays the same from release to
/// release; an identifier this release does not know fails to decode.
extension ImageType: Codable {
    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        let identifier = try container.decode(String.self)
        guard let type = ImageType(identifier) else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown type identifier \(identifier)")
        }
        self = type
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(identifier)
    }
}

/// `"conclusive"`, `"likely"`, `"family"`, `"hinted"` or `"unknown"`.
extension Detection.Confidence: Codable {}

/// `"complete"` or `"truncated"`; a prefix that needs more is `{"needsMoreData": 8192}`.
extension Detection.Completeness: Codable {
    private enum Keys: String, CodingKey { case needsMoreData }

    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.singleValueContainer(), let name = try? container.decode(String.self) {
            switch name {
            case "complete": self = .complete
            case "truncated": self = .truncated
            default: throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown completeness \(name)")
            }
            return
        }
        let keyed = try decoder.container(keyedBy: Keys.self)
        self = .needsMoreData(try keyed.decode(Int.self, forKey: .needsMoreData))
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .complete:
            var c = encoder.singleValueContainer()
            try c.encode("complete")
        case .truncated:
            var c = encoder.singleValueContainer()
            try c.encode("truncated")
        case .needsMoreData(let n):
            var c = encoder.container(keyedBy: Keys.self)
            try c.encode(n, forKey: .needsMoreData)
        }
    }
}

/// `{"type", "confidence", "isAnimated", "completeness"}`.
extension Detection: Codable {
    private enum Keys: String, CodingKey { case type, confidence, isAnimated, completeness }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(type: try c.decode(ImageType.self, forKey: .type),
                  confidence: try c.decode(Confidence.self, forKey: .confidence),
                  isAnimated: try c.decodeIfPresent(Bool.self, forKey: .isAnimated) ?? false,
                  completeness: try c.decodeIfPresent(Completeness.self, forKey: .completeness) ?? .complete)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(type, forKey: .type)
        try c.encode(confidence, forKey: .confidence)
        try c.encode(isAnimated, forKey: .isAnimated)
        try c.encode(completeness, forKey: .completeness)
    }
}

/// `{"detection": {...}, "properties": {...}}`.
extension Inspection: Codable {
    private enum Keys: String, CodingKey { case detection, properties }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        self.init(detection: try c.decode(Detection.self, forKey: .detection),
                  properties: try c.decodeIfPresent(ImageProperties.self, forKey: .properties) ?? .unknown)
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(detection, forKey: .detection)
        try c.encode(properties, forKey: .properties)
    }
}

/// `{"code": "ENOENT", "message": "no such file or directory", "errno": 2}`: the code is a
/// stable name (an errno name, or `notRegular`, `directory`), as in `imgsniff scan`'s records;
/// the message is for people and may change.
extension FileError: Codable {
    private enum Keys: String, CodingKey { case code, message, errno, what }

    /// The stable name of the error: `notFound`'s errno name (`ENOENT`), `notRegular`, ...
    public var codeName: String {
        switch kind {
        case .notRegularFile: return "notRegular"
        case .isDirectory: return "directory"
        case .notFound where code == 0: return "ENOENT"
        case .permissionDenied where code == 0: return "EACCES"
        default: return ErrnoName.name(code == 0 ? EIO : code)
        }
    }

    public init(from decoder: any Decoder) throws {
        let c = try decoder.container(keyedBy: Keys.self)
        let name = try c.decode(String.self, forKey: .code)
        let number = try c.decodeIfPresent(Int32.self, forKey: .errno) ?? ErrnoName.number(name) ?? 0
        switch name {
        case "notRegular": self.init(kind: .notRegularFile(try c.decodeIfPresent(String.self, forKey: .what) ?? "unknown"), code: number)
        case "directory": self.init(kind: .isDirectory, code: number == 0 ? EISDIR : number)
        default: self.init(errno: number)
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var c = encoder.container(keyedBy: Keys.self)
        try c.encode(codeName, forKey: .code)
        try c.encode(description, forKey: .message)
        if code != 0 { try c.encode(code, forKey: .errno) }
        if case .notRegularFile(let what) = kind { try c.encode(what, forKey: .what) }
    }
}

/// errno names for the errors a read meets (the rest are "E" and the number, as imgsniff writes them).
enum ErrnoName {
    static let table: [(Int32, String)] = [
        (EPERM, "EPERM"), (ENOENT, "ENOENT"), (EIO, "EIO"), (ENXIO, "ENXIO"), (EBADF, "EBADF"), (EAGAIN, "EAGAIN"),
        (ENOMEM, "ENOMEM"), (EACCES, "EACCES"), (EFAULT, "EFAULT"), (EBUSY, "EBUSY"), (ENODEV, "ENODEV"),
        (ENOTDIR, "ENOTDIR"), (EISDIR, "EISDIR"), (EINVAL, "EINVAL"), (ENFILE, "ENFILE"), (EMFILE, "EMFILE"),
        (ETXTBSY, "ETXTBSY"), (EFBIG, "EFBIG"), (ENOSPC, "ENOSPC"), (ESPIPE, "ESPIPE"), (EROFS, "EROFS"),
        (ELOOP, "ELOOP"), (ENAMETOOLONG, "ENAMETOOLONG"), (EOVERFLOW, "EOVERFLOW"), (ESTALE, "ESTALE"),
        (EINTR, "EINTR"), (ETIMEDOUT, "ETIMEDOUT"), (ENOTCONN, "ENOTCONN"), (EOPNOTSUPP, "EOPNOTSUPP"),
        (EEXIST, "EEXIST"), (EPIPE, "EPIPE"), (EXDEV, "EXDEV"),
    ]

    static func name(_ code: Int32) -> String { table.first { $0.0 == code }?.1 ?? "E\(code)" }
    static func number(_ name: String) -> Int32? {
        if name.hasPrefix("E"), let n = Int32(name.dropFirst()) { return n }
        return table.first { $0.1 == name }?.0
    }
}
