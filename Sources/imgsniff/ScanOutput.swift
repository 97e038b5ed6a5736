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

/// Writes records in one of the streaming formats.
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

    mutating func write(_ r: ScanRecord) {
        switch format {
        case .ndjson:
            out.write(jsonObject(r) + "\n")
        case .json:
            out.write((count == 0 ? "\n" : ",\n") + jsonObject(r))
        case .csv:
            out.write(csvRow(r) + "\r\n")
        case .table:
            break
        }
        count += 1
    }

    mutating func end() {
        if format == .json { out.write(count == 0 ? "]\n" : "\n]\n") }
    }

    func jsonObject(_ r: ScanRecord) -> String {
        var s = "{\"path\":" + Encode.json(r.displayPath)
        if let d = r.detection {
            s += ",\"uti\":" + Encode.json(d.type.identifier)
            s += ",\"mime\":" + Encode.json(d.type.preferredMIMEType)
            s += ",\"extension\":" + Encode.json(d.type.preferredFilenameExtension)
            s += ",\"isImage\":" + (d.type.isImage ? "true" : "false")
            s += ",\"confidence\":" + Encode.json(d.confidence.rawValue)
            s += ",\"animated\":" + (d.isAnimated ? "true" : "false")
            s += ",\"error\":null"
            if d.completeness == .truncated { s += ",\"completeness\":\"truncated\"" }
        } else {
            s += ",\"uti\":null,\"mime\":null,\"extension\":null,\"isImage\":null,\"confidence\":null,\"animated\":null"
            s += ",\"error\":" + Encode.json(r.error ?? "unknown error")
        }
        if !r.pathIsUTF8 { s += ",\"pathBytes\":" + Encode.json(PathText.base64(r.path)) }
        for (name, value) in zip(extraFieldNames, r.extraFields) {
            s += "," + Encode.json(name) + ":" + Encode.json(value)
        }
        return s + "}"
    }

    func csvRow(_ r: ScanRecord) -> String {
        var cells = [Encode.csv(r.displayPath)]
        if let d = r.detection {
            cells += [d.type.identifier, d.type.preferredMIMEType ?? "", d.type.preferredFilenameExtension ?? "",
                      d.type.isImage ? "true" : "false", d.confidence.rawValue, d.isAnimated ? "true" : "false",
                      d.completeness == .truncated ? "truncated" : "complete", ""].map(Encode.csv)
        } else {
            cells += ["", "", "", "", "", "", "", Encode.csv(r.error ?? "unknown error")]
        }
        cells.append(r.pathIsUTF8 ? "" : PathText.base64(r.path))
        for value in r.extraFields { cells.append(Encode.csv(value)) }
        return cells.joined(separator: ",")
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
