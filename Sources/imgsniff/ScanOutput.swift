// Writing scan records: NDJSON, JSON, CSV (streamed) and the terminal table (collected, then
// aligned). Output goes through `OutputBuffer`, which writes to fd 1 in large chunks.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif
import ImageSniff

/// Buffered writes to a file descriptor, in 64 KiB chunks.
final class OutputBuffer {
    private var bytes: [UInt8] = []
    private let fd: Int32
    private let limit: Int

    init(fd: Int32 = 1, limit: Int = 1 << 16) {
        self.fd = fd
        self.limit = limit
        bytes.reserveCapacity(limit + 4096)
    }

    func write(_ s: String) {
        bytes.append(contentsOf: s.utf8)
        if bytes.count >= limit { flush() }
    }

    func write(bytes more: [UInt8]) {
        bytes.append(contentsOf: more)
        if bytes.count >= limit { flush() }
    }

    func write(bytes more: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: more)
        if bytes.count >= limit { flush() }
    }

    func flush() {
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 {
                if errno == EINTR { continue }
                break  // EPIPE and the like: nothing more can be written
            }
            done += n
        }
        bytes.removeAll(keepingCapacity: true)
    }
}

/// Output formats of `scan`.
enum ScanFormat: String, CaseIterable, Sendable {
    case table, ndjson, json, csv
}

/// Escaping for JSON and CSV.
enum Encode {
    static func json(_ s: String) -> String {
        var out = "\""
        for scalar in s.unicodeScalars {
            switch scalar {
            case "\"": out += "\\\""
            case "\\": out += "\\\\"
            case "\n": out += "\\n"
            case "\r": out += "\\r"
            case "\t": out += "\\t"
            case let c where c.value < 0x20 || c.value == 0x7F:
                let hex = Array("0123456789abcdef")
                out += "\\u00" + String(hex[Int(c.value >> 4)]) + String(hex[Int(c.value & 15)])
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out + "\""
    }

    static func json(_ s: String?) -> String { s.map { json($0) } ?? "null" }

    static func json(_ v: AnnotationValue) -> String {
        switch v {
        case .string(let s): return json(s)
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .null: return "null"
        case .object(let members):
            return "{" + members.map { json($0.name) + ":" + json($0.value) }.joined(separator: ",") + "}"
        }
    }

    /// RFC 4180: quoted when it holds a comma, quote, CR or LF; quotes doubled.
    static func csv(_ s: String) -> String {
        if s.utf8.contains(where: { $0 == 44 || $0 == 34 || $0 == 10 || $0 == 13 }) {
            var out = "\""
            for c in s { out += c == "\"" ? "\"\"" : String(c) }
            return out + "\""
        }
        return s
    }

    static func csv(_ v: AnnotationValue) -> String {
        switch v {
        case .string(let s): return csv(s)
        case .bool(let b): return b ? "true" : "false"
        case .int(let i): return String(i)
        case .null: return ""
        case .object: return csv(json(v))
        }
    }
}

/// Writes records in one of the streaming formats. The records arrive already encoded by a
/// `RecordEncoder` (on the worker threads); this adds what depends on the position in the output
/// (JSON's brackets and commas, CSV's header).
struct StreamWriter {
    let format: ScanFormat
    let extraFieldNames: [String]
    let out: OutputBuffer
    private var count = 0

    init(format: ScanFormat, extraFieldNames: [String], out: OutputBuffer) {
        self.format = format
        self.extraFieldNames = extraFieldNames
        self.out = out
    }

    static let csvColumns = ["path", "uti", "mime", "extension", "isImage", "confidence", "animated",
                             "completeness", "error", "pathBytes"]

    mutating func begin() {
        switch format {
        case .json: out.write("[")
        case .csv: out.write((StreamWriter.csvColumns + extraFieldNames).map(Encode.csv).joined(separator: ",") + "\r\n")
        default: break
        }
    }

    /// Writes one record encoded by `RecordEncoder.encode(_:into:)` for this format.
    mutating func write(encoded record: UnsafeBufferPointer<UInt8>) {
        if format == .table { return }
        if format == .json { out.write(count == 0 ? "\n" : ",\n") }
        out.write(bytes: record)
        count += 1
    }

    mutating func end() {
        if format == .json { out.write(count == 0 ? "]\n" : "\n]\n") }
    }
}

/// Encodes NDJSON/JSON/CSV records straight into bytes: one per worker thread (it caches the
/// encoded fields of each type it meets). An NDJSON record ends with "\n", a CSV row with
/// "\r\n"; a JSON record has no separator (`StreamWriter` adds ",\n").
///
/// The bytes are exactly what `Encode.json`/`Encode.csv` make of the same strings (the path's
/// text form is `PathText.display`): paths are escaped byte by byte, with a fast path for the
/// common case of a path that needs no escaping at all.
final class RecordEncoder {
    let format: ScanFormat
    let extraFieldNames: [String]
    /// Per `ImageType.rawValue`, made on first use: JSON `,"uti":…,"mime":…,"extension":…,
    /// "isImage":…` or CSV `,uti,mime,extension,isImage`. (A raw buffer, not an array property:
    /// no exclusivity check or uniqueness test per record.)
    private let typeFragments: UnsafeMutablePointer<[UInt8]?>
    /// Per confidence (in `allCases` order): JSON `,"confidence":"…","animated":` or CSV
    /// `,confidence,`.
    private let confidenceFragments: [(Detection.Confidence, [UInt8])]
    /// The extra fields' JSON keys, encoded once: `,"name":`.
    private let extraKeys: [[UInt8]]

    init(format: ScanFormat, extraFieldNames: [String]) {
        self.format = format
        self.extraFieldNames = extraFieldNames
        extraKeys = extraFieldNames.map { Array(("," + Encode.json($0) + ":").utf8) }
        confidenceFragments = Detection.Confidence.allCases.map { c in
            let text = format == .csv ? "," + Encode.csv(c.rawValue) + ","
                                      : ",\"confidence\":" + Encode.json(c.rawValue) + ",\"animated\":"
            return (c, Array(text.utf8))
        }
        typeFragments = .allocate(capacity: 256)
        typeFragments.initialize(repeating: nil, count: 256)
    }

    deinit {
        typeFragments.deinitialize(count: 256)
        typeFragments.deallocate()
    }

    private func confidenceFragment(_ c: Detection.Confidence) -> [UInt8] {
        for (k, v) in confidenceFragments where k == c { return v }
        return []
    }

    /// Appends the record `r` to `out` (nothing for the table format).
    func encode(_ r: ScanRecord, into out: inout [UInt8]) {
        switch format {
        case .ndjson:
            json(r, into: &out)
            out.append(UInt8(ascii: "\n"))
        case .json:
            json(r, into: &out)
        case .csv:
            csv(r, into: &out)
        case .table:
            break
        }
    }

    private func typeFragment(_ type: ImageType) -> [UInt8] {
        if let cached = typeFragments[Int(type.rawValue)] { return cached }
        return makeTypeFragment(type)
    }

    @inline(never)
    private func makeTypeFragment(_ type: ImageType) -> [UInt8] {
        let text: String
        if format == .csv {
            text = "," + [type.identifier, type.preferredMIMEType ?? "", type.preferredFilenameExtension ?? "",
                          type.isImage ? "true" : "false"].map(Encode.csv).joined(separator: ",")
        } else {
            text = ",\"uti\":" + Encode.json(type.identifier)
                + ",\"mime\":" + Encode.json(type.preferredMIMEType)
                + ",\"extension\":" + Encode.json(type.preferredFilenameExtension)
                + ",\"isImage\":" + (type.isImage ? "true" : "false")
        }
        let bytes = Array(text.utf8)
        typeFragments[Int(type.rawValue)] = bytes
        return bytes
    }

    private func json(_ r: ScanRecord, into out: inout [UInt8]) {
        out.append(static: "{\"path\":")
        let pathIsUTF8 = RecordEncoder.jsonPath(r.path, into: &out)
        if let d = r.detection {
            out.append(contentsOf: typeFragment(d.type))
            out.append(contentsOf: confidenceFragment(d.confidence))
            if d.isAnimated { out.append(static: "true,\"error\":null") } else { out.append(static: "false,\"error\":null") }
            if d.completeness == .truncated { out.append(static: ",\"completeness\":\"truncated\"") }
        } else {
            out.append(static: ",\"uti\":null,\"mime\":null,\"extension\":null,\"isImage\":null,\"confidence\":null,\"animated\":null,\"error\":")
            RecordEncoder.jsonString(r.error ?? "unknown error", into: &out)
        }
        if !pathIsUTF8 {
            out.append(static: ",\"pathBytes\":")
            RecordEncoder.jsonString(PathText.base64(r.path), into: &out)
        }
        for (key, value) in zip(extraKeys, r.extraFields) {
            out.append(contentsOf: key)
            out.append(contentsOf: Encode.json(value).utf8)
        }
        out.append(UInt8(ascii: "}"))
    }

    private func csv(_ r: ScanRecord, into out: inout [UInt8]) {
        let pathIsUTF8 = RecordEncoder.csvPath(r.path, into: &out)
        if let d = r.detection {
            out.append(contentsOf: typeFragment(d.type))
            out.append(contentsOf: confidenceFragment(d.confidence))
            out.append(static: d.isAnimated ? "true," : "false,")
            out.append(static: d.completeness == .truncated ? "truncated,," : "complete,,")
        } else {
            out.append(static: ",,,,,,,,")
            out.append(contentsOf: Encode.csv(r.error ?? "unknown error").utf8)
            out.append(UInt8(ascii: ","))
        }
        if !pathIsUTF8 { out.append(contentsOf: PathText.base64(r.path).utf8) }
        for value in r.extraFields {
            out.append(UInt8(ascii: ","))
            out.append(contentsOf: Encode.csv(value).utf8)
        }
        out.append(static: "\r\n")
    }

    /// What a path's bytes hold: whether any needs JSON escaping (`"`, `\\`, < 0x20, 0x7F),
    /// CSV quoting (`,`, `"`, CR, LF), and whether any is not ASCII.
    private struct PathScan {
        var jsonSpecial: Bool
        var csvSpecial: Bool
        var nonASCII: Bool

        /// Per byte: 1 = needs JSON escaping, 2 = needs CSV quoting, 4 = not ASCII.
        private static let classes: [UInt8] = (0...255).map { (b: Int) -> UInt8 in
            var c: UInt8 = 0
            if b < 0x20 || b == 0x22 || b == 0x5C || b == 0x7F { c |= 1 }
            if b == 0x2C || b == 0x22 || b == 0x0A || b == 0x0D { c |= 2 }
            if b >= 0x80 { c |= 4 }
            return c
        }

        init(_ p: UnsafeBufferPointer<UInt8>) {
            var seen: UInt8 = 0
            PathScan.classes.withUnsafeBufferPointer { table in
                for b in p { seen |= table[Int(b)] }
            }
            jsonSpecial = seen & 1 != 0
            csvSpecial = seen & 2 != 0
            nonASCII = seen & 4 != 0
        }
    }

    /// Appends `Encode.json(PathText.display(path))`; returns whether the path is valid UTF-8.
    static func jsonPath(_ path: [UInt8], into out: inout [UInt8]) -> Bool {
        path.withUnsafeBufferPointer { p in
            let scan = PathScan(p)
            if scan.nonASCII && !PathText.isValidUTF8(p) {
                jsonString(PathText.display(path), into: &out)
                return false
            }
            if scan.jsonSpecial {
                jsonEscaped(p, into: &out)
            } else {
                out.append(UInt8(ascii: "\""))
                out.append(contentsOf: p)
                out.append(UInt8(ascii: "\""))
            }
            return true
        }
    }

    /// Appends `Encode.csv(PathText.display(path))`; returns whether the path is valid UTF-8.
    static func csvPath(_ path: [UInt8], into out: inout [UInt8]) -> Bool {
        path.withUnsafeBufferPointer { p in
            let scan = PathScan(p)
            if scan.nonASCII && !PathText.isValidUTF8(p) {
                out.append(contentsOf: Encode.csv(PathText.display(path)).utf8)
                return false
            }
            if !scan.csvSpecial {
                out.append(contentsOf: p)
            } else if scan.nonASCII {
                // Quotes are doubled per Character (a quote with a combining mark is one): leave
                // that to `Encode.csv`.
                out.append(contentsOf: Encode.csv(String(decoding: p, as: UTF8.self)).utf8)
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

    /// Appends `Encode.json(s)`.
    static func jsonString(_ s: String, into out: inout [UInt8]) {
        var s = s
        s.withUTF8 { jsonEscaped($0, into: &out) }
    }

    /// `Encode.json` on valid UTF-8, byte by byte (every byte of a multi-byte scalar is >= 0x80
    /// and passes through unchanged).
    static func jsonEscaped(_ p: UnsafeBufferPointer<UInt8>, into out: inout [UInt8]) {
        let hex: StaticString = "0123456789abcdef"
        out.append(UInt8(ascii: "\""))
        for b in p {
            switch b {
            case 0x22: out.append(static: "\\\"")
            case 0x5C: out.append(static: "\\\\")
            case 0x0A: out.append(static: "\\n")
            case 0x0D: out.append(static: "\\r")
            case 0x09: out.append(static: "\\t")
            case 0..<0x20, 0x7F:
                out.append(static: "\\u00")
                out.append(hex.utf8Start[Int(b >> 4)])
                out.append(hex.utf8Start[Int(b & 15)])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}

extension Array where Element == UInt8 {
    /// Appends the UTF-8 of a string literal (no String made).
    @inline(__always)
    mutating func append(static s: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }
}

/// The terminal table: rows collected, then written aligned, with a summary.
struct TableWriter {
    let color: Bool
    let extraTitles: [String]
    private var rows: [[String]] = []
    private var styles: [Style] = []

    enum Style { case image, other, unknown, error, mismatch }

    init(color: Bool, extraTitles: [String]) {
        self.color = color
        self.extraTitles = extraTitles
    }

    /// Control characters would break the layout: shown as `?` in the table only.
    private static func printable(_ s: String) -> String {
        guard s.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7F }) else { return s }
        return String(String.UnicodeScalarView(s.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? "?" : $0 }))
    }

    mutating func add(_ r: ScanRecord) {
        var row = [TableWriter.printable(r.displayPath)]
        if let d = r.detection {
            var flags: [String] = []
            if d.confidence != .conclusive && d.confidence != .unknown { flags.append(d.confidence.rawValue) }
            if d.isAnimated { flags.append("animated") }
            if d.completeness == .truncated { flags.append("truncated") }
            if r.isMismatch { flags.append("mismatch(." + TableWriter.printable(r.fileExtension ?? "") + ")") }
            row += [d.isUnknown ? "unknown" : d.type.localizedDescription, d.type.identifier,
                    d.type.preferredFilenameExtension ?? "-", flags.joined(separator: ",")]
            styles.append(r.isMismatch ? .mismatch : d.isUnknown ? .unknown : d.type.isImage ? .image : .other)
        } else {
            row += ["error: " + (r.error ?? "unknown error"), "-", "-", ""]
            styles.append(.error)
        }
        row += r.extraCells.map(TableWriter.printable)
        rows.append(row)
    }

    func write(to out: OutputBuffer, summary: [String]) {
        let header = ["PATH", "TYPE", "IDENTIFIER", "EXT", "FLAGS"] + extraTitles
        var widths = header.map(\.count)
        for row in rows {
            for (i, cell) in row.enumerated() where i < widths.count { widths[i] = max(widths[i], cell.count) }
        }
        func line(_ cells: [String], style: Style?) -> String {
            var s = ""
            for (i, cell) in cells.enumerated() {
                let last = i == cells.count - 1
                let padded = last ? cell : cell + String(repeating: " ", count: max(0, widths[i] - cell.count))
                if color, let style, i == 1 || (i == 4 && style == .mismatch) {
                    s += TableWriter.paint(padded, style)
                } else {
                    s += padded
                }
                if !last { s += "  " }
            }
            while s.last == " " { s.removeLast() }
            return s + "\n"
        }
        out.write(color ? "\u{1B}[1m" + line(header, style: nil).dropLast() + "\u{1B}[0m\n" : line(header, style: nil))
        for (row, style) in zip(rows, styles) { out.write(line(row, style: style)) }
        if !summary.isEmpty {
            out.write("\n")
            for s in summary { out.write(s + "\n") }
        }
    }

    private static func paint(_ s: String, _ style: Style) -> String {
        let code: String
        switch style {
        case .image: code = "32"
        case .other: code = "36"
        case .unknown: code = "2"
        case .error: code = "31"
        case .mismatch: code = "33"
        }
        return "\u{1B}[" + code + "m" + s + "\u{1B}[0m"
    }
}

/// Counts per type, unknowns and errors, for the closing summary.
struct ScanSummary {
    var files = 0
    var unknown = 0
    var errors = 0
    var mismatches = 0
    var perType: [ImageType: Int] = [:]

    mutating func count(_ r: ScanRecord) {
        files += 1
        if let d = r.detection {
            if d.isUnknown { unknown += 1 } else { perType[d.type, default: 0] += 1 }
            if r.isMismatch { mismatches += 1 }
        } else {
            errors += 1
        }
    }

    func lines(scanned: Int) -> [String] {
        var out = ["\(files) file\(files == 1 ? "" : "s")" + (scanned != files ? " shown (\(scanned) scanned)" : "")]
        let sorted = perType.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.identifier < $1.key.identifier }
        let width = String(sorted.first?.value ?? max(unknown, errors)).count
        let idWidth = sorted.map(\.key.identifier.count).max() ?? 0
        func pad(_ n: Int) -> String { String(repeating: " ", count: max(0, width - String(n).count)) + String(n) }
        for (type, n) in sorted {
            out.append("  " + pad(n) + "  " + type.identifier + String(repeating: " ", count: idWidth - type.identifier.count)
                       + "  " + type.localizedDescription)
        }
        if unknown > 0 { out.append("  " + pad(unknown) + "  unknown (public.data)") }
        if mismatches > 0 { out.append("  " + pad(mismatches) + "  extension mismatch\(mismatches == 1 ? "" : "es")") }
        if errors > 0 { out.append("  " + pad(errors) + "  error\(errors == 1 ? "" : "s")") }
        return out
    }
}
