import ImageSniff

/// Encodes scan records as NDJSON, JSON or CSV, straight into bytes, on the worker threads (one
/// encoder per thread: it caches the encoded fields of each type it meets).
///
/// A record (schema version 2):
///
///     {"schemaVersion":2,"path":"photos/IMG_1","uti":"public.jpeg","description":"JPEG image",
///      "mime":"image/jpeg","preferredExtension":"jpg","extension":"jpg","isImage":true,
///      "confidence":"conclusive","animated":false,"completeness":"complete",
///      "extensionMatches":null,"error":null}
///
/// `pathBytes` (base64 of the raw name) follows `path` when the name is not valid UTF-8;
/// `properties` follows `error` with `--properties` (null for anything but an image; inside, a
/// field the header does not state is null); `libmagic` ends the record with `--cross-check`. `extension` repeats `preferredExtension`
/// for readers of schema 1 (the detected type's extension, not the file's). A file that could
/// not be read has null detection fields, its problem in words as `description`, and
/// `"error":{"code":…,"message":…}`. An NDJSON record ends with "\n", a CSV row with "\r\n"; a
/// JSON record has no separator (`ScanOutput` adds it).
package final class RecordEncoder {
    package static let schemaVersion = 2

    package static let csvColumns = ["path", "uti", "description", "mime", "preferredExtension", "extension", "isImage",
                                    "confidence", "animated", "completeness", "extensionMatches", "error", "pathBytes"]
    package static let crossCheckColumns = ["libmagicMime", "libmagicDescription", "libmagicUti", "libmagicVerdict"]
    package static let propertyColumns = ["width", "height", "bitDepth", "colorModel", "hasAlpha", "frameCount", "orientation",
                                         "hasGainMap", "hasICCProfile", "codedWidth", "codedHeight"]

    /// The CSV header for these options.
    package static func csvHeader(crossCheck: Bool, properties: Bool) -> [String] {
        csvColumns + (properties ? propertyColumns : []) + (crossCheck ? crossCheckColumns : [])
    }

    let format: ScanFormat
    let crossCheck: Bool
    let properties: Bool
    /// Per `ImageType.rawValue` (and one more slot for empty files), made on first use: the
    /// type's fields, JSON or CSV. A raw buffer: no exclusivity check or uniqueness test per record.
    private let typeFragments: UnsafeMutablePointer<[UInt8]?>
    private static let slots = 257
    private var confidenceFragments: [[UInt8]] = []
    /// Where a JSON record is gathered before it goes into the caller's array in one append
    /// (see `Gather`); kept from record to record.
    private var scratch = Gather.Storage(capacity: 1024)

    package init(format: ScanFormat, crossCheck: Bool, properties: Bool = false) {
        self.format = format
        self.crossCheck = crossCheck
        self.properties = properties
        typeFragments = .allocate(capacity: RecordEncoder.slots)
        typeFragments.initialize(repeating: nil, count: RecordEncoder.slots)
        confidenceFragments = Array(repeating: [], count: Detection.Confidence.allCases.count)
        for c in Detection.Confidence.allCases {
            var bytes: [UInt8] = []
            if format == .csv {
                bytes.append(UInt8(ascii: ","))
                bytes.append(contentsOf: CSV.field(c.rawValue).utf8)
                bytes.append(UInt8(ascii: ","))
            } else {
                bytes.append(static: ",\"confidence\":")
                JSON.appendString(c.rawValue, to: &bytes)
                bytes.append(static: ",\"animated\":")
            }
            confidenceFragments[RecordEncoder.position(c)] = bytes
        }
    }

    /// `c`'s slot in `confidenceFragments` (`allCases.firstIndex(of:)` made an array each record).
    private static func position(_ c: Detection.Confidence) -> Int {
        switch c {
        case .conclusive: 0
        case .likely: 1
        case .family: 2
        case .hinted: 3
        case .unknown: 4
        }
    }

    deinit {
        typeFragments.deinitialize(count: RecordEncoder.slots)
        typeFragments.deallocate()
        scratch.base.deallocate()
    }

    /// Appends the record `r` (nothing for the table format).
    package func encode(_ r: ScanRecord, into out: inout [UInt8]) {
        switch format {
        case .ndjson:
            json(r, lineFeed: true, into: &out)
        case .json:
            json(r, lineFeed: false, into: &out)
        case .csv:
            csv(r, into: &out)
        case .table:
            break
        }
    }

    private func typeFragment(_ type: ImageType, empty: Bool) -> [UInt8] {
        let slot = empty ? RecordEncoder.slots - 1 : type.index
        if let cached = typeFragments[slot] { return cached }
        let description = empty ? "empty" : (type == .data ? "data" : type.localizedDescription)
        var bytes: [UInt8] = []
        if format == .csv {
            let cells = [type.identifier, description, type.preferredMIMEType ?? "", type.preferredFilenameExtension ?? "",
                         type.preferredFilenameExtension ?? "", type.isImage ? "true" : "false"]
            for cell in cells {
                bytes.append(UInt8(ascii: ","))
                bytes.append(contentsOf: CSV.field(cell).utf8)
            }
        } else {
            func member(_ key: StaticString, _ value: String?) {
                bytes.append(static: ",\"")
                bytes.append(static: key)
                bytes.append(static: "\":")
                if let value { JSON.appendString(value, to: &bytes) } else { bytes.append(static: "null") }
            }
            member("uti", type.identifier)
            member("description", description)
            member("mime", type.preferredMIMEType)
            member("preferredExtension", type.preferredFilenameExtension)
            member("extension", type.preferredFilenameExtension)
            bytes.append(static: type.isImage ? ",\"isImage\":true" : ",\"isImage\":false")
        }
        typeFragments[slot] = bytes
        return bytes
    }

    private func json(_ r: ScanRecord, lineFeed: Bool, into out: inout [UInt8]) {
        var g = Gather(scratch)
        g.put("{\"schemaVersion\":2,")
        RecordEncoder.appendJSONPath(r.path, into: &g)
        if let d = r.detection {
            g.put(typeFragment(d.type, empty: d.isUnknown && r.length == 0))
            g.put(confidenceFragments[RecordEncoder.position(d.confidence)])
            g.put(d.isAnimated ? "true" : "false")
            g.put(d.completeness == .truncated ? ",\"completeness\":\"truncated\"" : ",\"completeness\":\"complete\"")
            switch r.extensionMatches {
            case .some(true): g.put(",\"extensionMatches\":true,\"error\":null")
            case .some(false): g.put(",\"extensionMatches\":false,\"error\":null")
            case .none: g.put(",\"extensionMatches\":null,\"error\":null")
            }
        } else {
            let problem = r.problem ?? .file(FileError(kind: .system, code: EIO))
            var bytes: [UInt8] = []
            bytes.append(static: ",\"uti\":null,\"description\":")
            JSON.appendString(problem.message, to: &bytes)
            bytes.append(static: ",\"mime\":null,\"preferredExtension\":null,\"extension\":null,\"isImage\":null,\"confidence\":null,\"animated\":null,\"completeness\":null,\"extensionMatches\":null,\"error\":")
            RecordEncoder.appendJSONError(code: problem.code, message: problem.message, into: &bytes)
            g.put(bytes)
        }
        if properties {
            g.put(",\"properties\":")
            if let p = r.properties, r.detection?.type.isImage == true {
                var bytes: [UInt8] = []
                RecordEncoder.appendJSONProperties(p, into: &bytes)
                g.put(bytes)
            } else {
                g.put("null")
            }
        }
        if crossCheck {
            var bytes: [UInt8] = []
            bytes.append(static: ",\"libmagic\":")
            switch r.crossCheck {
            case .compared(let result)?:
                bytes.append(static: "{\"mime\":")
                JSON.appendString(result.mimeType, to: &bytes)
                bytes.append(static: ",\"description\":")
                JSON.appendString(result.description, to: &bytes)
                bytes.append(static: ",\"uti\":")
                if let theirs = result.uti { JSON.appendString(theirs, to: &bytes) } else { bytes.append(static: "null") }
                bytes.append(static: ",\"verdict\":")
                JSON.appendString(result.verdict, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            case .failed(let message)?:
                bytes.append(static: "{\"mime\":null,\"description\":null,\"uti\":null,\"verdict\":null,\"error\":")
                JSON.appendString(message, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            case nil:
                bytes.append(static: "null")
            }
            g.put(bytes)
        }
        g.put(lineFeed ? "}\n" : "}")
        out.append(contentsOf: g.bytes)
        scratch = g.storage
    }

    /// The property values in `propertyColumns` order, as text (empty: not stated).
    static func propertyCells(_ p: ImageProperties) -> [String] {
        func text(_ v: Int?) -> String { v.map(String.init) ?? "" }
        func text(_ v: Bool?) -> String { v.map { $0 ? "true" : "false" } ?? "" }
        return [text(p.width), text(p.height), text(p.bitDepth), p.colorModel?.rawValue ?? "", text(p.hasAlpha), text(p.frameCount),
                text(p.orientation), text(p.hasGainMap), text(p.hasICCProfile), text(p.codedWidth), text(p.codedHeight)]
    }

    /// `{"width":…,…}`: every field of `propertyColumns`, null when not stated.
    static func appendJSONProperties(_ p: ImageProperties, into out: inout [UInt8]) {
        out.append(UInt8(ascii: "{"))
        let values = propertyCells(p)
        for (i, name) in propertyColumns.enumerated() {
            if i > 0 { out.append(UInt8(ascii: ",")) }
            JSON.appendString(name, to: &out)
            out.append(UInt8(ascii: ":"))
            let value = values[i]
            if value.isEmpty { out.append(static: "null") } else if name == "colorModel" { JSON.appendString(value, to: &out) } else { out.append(contentsOf: value.utf8) }
        }
        out.append(UInt8(ascii: "}"))
    }

    /// `{"code":…,"message":…}`: the one shape of an error in every record the command writes.
    package static func appendJSONError(code: String, message: String, into out: inout [UInt8]) {
        out.append(static: "{\"code\":")
        JSON.appendString(code, to: &out)
        out.append(static: ",\"message\":")
        JSON.appendString(message, to: &out)
        out.append(UInt8(ascii: "}"))
    }

    private func csv(_ r: ScanRecord, into out: inout [UInt8]) {
        let pathIsUTF8 = RecordEncoder.appendCSVPath(r.path, into: &out)
        if let d = r.detection {
            out.append(contentsOf: typeFragment(d.type, empty: d.isUnknown && r.length == 0))
            out.append(contentsOf: confidenceFragments[RecordEncoder.position(d.confidence)])
            out.append(static: d.isAnimated ? "true," : "false,")
            out.append(static: d.completeness == .truncated ? "truncated," : "complete,")
            switch r.extensionMatches {
            case .some(true): out.append(static: "true,,")
            case .some(false): out.append(static: "false,,")
            case .none: out.append(static: ",,")
            }
        } else {
            let message = r.problem?.message ?? "error"
            out.append(static: ",,")
            out.append(contentsOf: CSV.field(message).utf8)
            out.append(static: ",,,,,,,,,")
            // The error cell: the code, then the message (JSON's error object, flattened).
            out.append(contentsOf: CSV.field(r.problem.map { "\($0.code): \(message)" } ?? message).utf8)
            out.append(UInt8(ascii: ","))
        }
        if !pathIsUTF8 { out.append(contentsOf: Base64.encode(r.path)) }
        if properties {
            let cells = r.properties.map(RecordEncoder.propertyCells) ?? Array(repeating: "", count: RecordEncoder.propertyColumns.count)
            for cell in cells {
                out.append(UInt8(ascii: ","))
                out.append(contentsOf: CSV.field(cell).utf8)
            }
        }
        if crossCheck {
            var cells = ["", "", "", ""]
            switch r.crossCheck {
            case .compared(let result)?:
                cells = [result.mimeType, result.description, result.uti ?? "", result.verdict]
            case .failed(let message)?:
                cells = ["", message, "", ""]
            case nil: break
            }
            for cell in cells {
                out.append(UInt8(ascii: ","))
                out.append(contentsOf: CSV.field(cell).utf8)
            }
        }
        out.append(static: "\r\n")
    }

    /// Per byte: 1 = needs JSON escaping, 2 = needs CSV quoting, 4 = not ASCII.
    private static let byteClasses: [UInt8] = (0...255).map { (b: Int) -> UInt8 in
        var c: UInt8 = 0
        if b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F { c |= 1 }
        if b == 0x2C || b == 0x22 || b == 0x0A || b == 0x0D { c |= 2 }
        if b >= 0x80 { c |= 4 }
        return c
    }

    private static func classes(_ p: UnsafeBufferPointer<UInt8>) -> UInt8 {
        var seen: UInt8 = 0
        byteClasses.withUnsafeBufferPointer { table in
            for b in p { seen |= table[Int(b)] }
        }
        return seen
    }

    /// `"path":"…"` (and `,"pathBytes":"…"` for a name that is not UTF-8), with a fast path for
    /// the common name that needs no escaping.
    private static func appendJSONPath(_ path: [UInt8], into g: inout Gather) {
        let plain: Bool = path.withUnsafeBufferPointer { p in
            // Valid UTF-8 with nothing to escape: as it is.
            let seen = classes(p)
            guard seen & 1 == 0, seen & 4 == 0 || Path.isValidUTF8(p) else { return false }
            g.put("\"path\":\"")
            g.put(UnsafeRawBufferPointer(p))
            g.put("\"")
            return true
        }
        if !plain {
            var bytes: [UInt8] = []
            JSON.appendPath("path", path, to: &bytes)
            g.put(bytes)
        }
    }

    /// The CSV path cell; returns whether the path is valid UTF-8.
    static func appendCSVPath(_ path: [UInt8], into out: inout [UInt8]) -> Bool {
        path.withUnsafeBufferPointer { p in
            let seen = classes(p)
            if seen & 4 != 0 && !Path.isValidUTF8(p) {
                out.append(contentsOf: CSV.field(Path.display(Array(p))).utf8)
                return false
            }
            if seen & 2 == 0 {
                out.append(contentsOf: p)
            } else {
                out.append(UInt8(ascii: "\""))
                for b in p {
                    if b == UInt8(ascii: "\"") { out.append(b) }
                    out.append(b)
                }
                out.append(UInt8(ascii: "\""))
            }
            return true
        }
    }
}

/// RFC 4180 fields.
package enum CSV {
    /// Quoted when it holds a comma, quote, CR or LF; quotes doubled.
    package static func field(_ s: String) -> String {
        guard s.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) else { return s }
        var out = "\""
        for scalar in s.unicodeScalars {
            if scalar == "\"" { out += "\"\"" } else { out.unicodeScalars.append(scalar) }
        }
        return out + "\""
    }

    /// A header or row.
    package static func row(_ cells: [String]) -> String { cells.map(field).joined(separator: ",") + "\r\n" }
}

/// A JSON record's bytes, gathered in one buffer before they go into the caller's array in one
/// append. An append to an `Array` costs about a hundred instructions whatever its length, and a
/// record took seven or more: callgrind over the bench tree (`scan --jobs 1`, 20,000 files) put
/// the encoder at 35 million instructions, 1,745 a record.
private struct Gather {
    /// The buffer, kept by the encoder from one record to the next.
    struct Storage {
        var base: UnsafeMutableRawPointer
        var capacity: Int

        init(capacity: Int) {
            base = .allocate(byteCount: capacity, alignment: 16)
            self.capacity = capacity
        }
    }

    private(set) var storage: Storage
    private var count = 0

    init(_ storage: Storage) { self.storage = storage }

    /// The bytes gathered so far.
    var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: storage.base, count: count) }

    @inline(__always)
    mutating func put(_ p: UnsafeRawBufferPointer) {
        guard let source = p.baseAddress, p.count > 0 else { return }
        if storage.capacity - count < p.count { grow(to: count + p.count) }
        (storage.base + count).copyMemory(from: source, byteCount: p.count)
        count += p.count
    }

    @inline(__always)
    mutating func put(_ s: StaticString) {
        put(UnsafeRawBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    @inline(__always)
    mutating func put(_ a: [UInt8]) {
        a.withUnsafeBytes { put($0) }
    }

    /// At least `needed` bytes, keeping those gathered.
    private mutating func grow(to needed: Int) {
        let grown = Storage(capacity: Swift.max(needed, 2 * storage.capacity))
        grown.base.copyMemory(from: storage.base, byteCount: count)
        storage.base.deallocate()
        storage = grown
    }
}
