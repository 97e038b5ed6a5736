// JSON without Foundation: writing (escaping straight into bytes) and reading (a small strict
// parser, for the rename journal). One escaper serves every output of the command.

/// A parsed JSON value. Numbers keep their text so that 64-bit integers (inode numbers) survive.
package enum JSONValue: Sendable, Equatable {
    case object([(String, JSONValue)])
    case array([JSONValue])
    case string(String)
    case number(String)
    case bool(Bool)
    case null

    package static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.object(let x), .object(let y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        case (.array(let x), .array(let y)): return x == y
        case (.string(let x), .string(let y)): return x == y
        case (.number(let x), .number(let y)): return x == y
        case (.bool(let x), .bool(let y)): return x == y
        case (.null, .null): return true
        default: return false
        }
    }

    /// The member `key` of an object.
    package subscript(key: String) -> JSONValue? {
        guard case .object(let members) = self else { return nil }
        return members.first { $0.0 == key }?.1
    }

    package var string: String? { if case .string(let s) = self { return s } else { return nil } }
    package var int64: Int64? { if case .number(let n) = self { return Int64(n) } else { return nil } }
    package var uint64: UInt64? { if case .number(let n) = self { return UInt64(n) } else { return nil } }
    package var bool: Bool? { if case .bool(let b) = self { return b } else { return nil } }
    package var array: [JSONValue]? { if case .array(let a) = self { return a } else { return nil } }
}

/// Reads one JSON value from UTF-8 bytes (the whole input: trailing non-space is an error).
package struct JSONParser {
    package struct Failure: Error, Sendable { package let offset: Int }

    private let bytes: [UInt8]
    private var i = 0
    private var depth = 0

    package static func parse<C: Collection>(_ input: C) throws(Failure) -> JSONValue where C.Element == UInt8 {
        var parser = JSONParser(bytes: Array(input))
        let value = try parser.value()
        parser.skipSpace()
        guard parser.i == parser.bytes.count else { throw Failure(offset: parser.i) }
        return value
    }

    private init(bytes: [UInt8]) { self.bytes = bytes }

    private mutating func skipSpace() {
        while i < bytes.count, bytes[i] == 0x20 || bytes[i] == 0x09 || bytes[i] == 0x0A || bytes[i] == 0x0D { i += 1 }
    }

    private func fail() -> Failure { Failure(offset: i) }

    private mutating func value() throws(Failure) -> JSONValue {
        skipSpace()
        guard i < bytes.count else { throw fail() }
        switch bytes[i] {
        case UInt8(ascii: "{"): return try object()
        case UInt8(ascii: "["): return try array()
        case UInt8(ascii: "\""): return .string(try string())
        case UInt8(ascii: "t"): try literal("true"); return .bool(true)
        case UInt8(ascii: "f"): try literal("false"); return .bool(false)
        case UInt8(ascii: "n"): try literal("null"); return .null
        default: return try number()
        }
    }

    private mutating func literal(_ word: StaticString) throws(Failure) {
        let n = word.utf8CodeUnitCount
        guard i + n <= bytes.count else { throw fail() }
        for k in 0..<n where bytes[i + k] != word.utf8Start[k] { throw fail() }
        i += n
    }

    private mutating func nested<R>(_ body: (inout JSONParser) throws(Failure) -> R) throws(Failure) -> R {
        depth += 1
        guard depth <= 64 else { throw fail() }
        defer { depth -= 1 }
        return try body(&self)
    }

    private mutating func object() throws(Failure) -> JSONValue {
        try nested { (p) throws(Failure) -> JSONValue in
            p.i += 1
            var members: [(String, JSONValue)] = []
            p.skipSpace()
            if p.i < p.bytes.count, p.bytes[p.i] == UInt8(ascii: "}") { p.i += 1; return .object(members) }
            while true {
                p.skipSpace()
                guard p.i < p.bytes.count, p.bytes[p.i] == UInt8(ascii: "\"") else { throw p.fail() }
                let key = try p.string()
                p.skipSpace()
                guard p.i < p.bytes.count, p.bytes[p.i] == UInt8(ascii: ":") else { throw p.fail() }
                p.i += 1
                members.append((key, try p.value()))
                p.skipSpace()
                guard p.i < p.bytes.count else { throw p.fail() }
                if p.bytes[p.i] == UInt8(ascii: ",") { p.i += 1; continue }
                if p.bytes[p.i] == UInt8(ascii: "}") { p.i += 1; return .object(members) }
                throw p.fail()
            }
        }
    }

    private mutating func array() throws(Failure) -> JSONValue {
        try nested { (p) throws(Failure) -> JSONValue in
            p.i += 1
            var items: [JSONValue] = []
            p.skipSpace()
            if p.i < p.bytes.count, p.bytes[p.i] == UInt8(ascii: "]") { p.i += 1; return .array(items) }
            while true {
                items.append(try p.value())
                p.skipSpace()
                guard p.i < p.bytes.count else { throw p.fail() }
                if p.bytes[p.i] == UInt8(ascii: ",") { p.i += 1; continue }
                if p.bytes[p.i] == UInt8(ascii: "]") { p.i += 1; return .array(items) }
                throw p.fail()
            }
        }
    }

    private mutating func hex4() throws(Failure) -> UInt32 {
        guard i + 4 <= bytes.count else { throw fail() }
        var v: UInt32 = 0
        for _ in 0..<4 {
            let c = bytes[i]
            let d: UInt32
            switch c {
            case 0x30...0x39: d = UInt32(c - 0x30)
            case 0x41...0x46: d = UInt32(c - 0x41 + 10)
            case 0x61...0x66: d = UInt32(c - 0x61 + 10)
            default: throw fail()
            }
            v = v << 4 | d
            i += 1
        }
        return v
    }

    private mutating func string() throws(Failure) -> String {
        i += 1
        var out: [UInt8] = []
        while true {
            guard i < bytes.count else { throw fail() }
            let c = bytes[i]
            if c == UInt8(ascii: "\"") { i += 1; break }
            if c < 0x20 { throw fail() }
            if c != UInt8(ascii: "\\") { out.append(c); i += 1; continue }
            i += 1
            guard i < bytes.count else { throw fail() }
            let e = bytes[i]
            i += 1
            switch e {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): out.append(e)
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var code = try hex4()
                if code >= 0xD800 && code < 0xDC00 {
                    // A high surrogate must be followed by a low one.
                    guard i + 2 <= bytes.count, bytes[i] == UInt8(ascii: "\\"), bytes[i + 1] == UInt8(ascii: "u") else { throw fail() }
                    i += 2
                    let low = try hex4()
                    guard low >= 0xDC00 && low < 0xE000 else { throw fail() }
                    code = 0x10000 + ((code - 0xD800) << 10) + (low - 0xDC00)
                }
                guard let scalar = Unicode.Scalar(code) else { throw fail() }
                out.append(contentsOf: Array(String(Character(scalar)).utf8))
            default: throw fail()
            }
        }
        guard let text = String(validating: out, as: UTF8.self) else { throw fail() }
        return text
    }

    private mutating func number() throws(Failure) -> JSONValue {
        let start = i
        if i < bytes.count, bytes[i] == UInt8(ascii: "-") { i += 1 }
        var digits = 0
        while i < bytes.count, (0x30...0x39).contains(bytes[i]) || bytes[i] == UInt8(ascii: ".")
            || bytes[i] == UInt8(ascii: "e") || bytes[i] == UInt8(ascii: "E") || bytes[i] == UInt8(ascii: "+")
            || (bytes[i] == UInt8(ascii: "-") && i > start) {
            i += 1
            digits += 1
        }
        guard digits > 0 else { throw fail() }
        return .number(String(decoding: bytes[start..<i], as: UTF8.self))
    }
}

/// Writing JSON into bytes.
package enum JSON {
    private static let hex: StaticString = "0123456789abcdef"

    /// Appends `s` as a JSON string literal: quotes, backslashes and control characters escaped,
    /// everything else (UTF-8 included) as it is.
    package static func appendString(_ s: String, to out: inout [UInt8]) {
        var s = s
        s.withUTF8 { appendString(utf8: $0, to: &out) }
    }

    /// The same for bytes that are valid UTF-8.
    package static func appendString(utf8 p: UnsafeBufferPointer<UInt8>, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for b in p {
            switch b {
            case 0x22: out.append(0x5C); out.append(0x22)
            case 0x5C: out.append(0x5C); out.append(0x5C)
            case 0x0A: out.append(0x5C); out.append(UInt8(ascii: "n"))
            case 0x0D: out.append(0x5C); out.append(UInt8(ascii: "r"))
            case 0x09: out.append(0x5C); out.append(UInt8(ascii: "t"))
            case 0..<0x20, 0x7F:
                out.append(contentsOf: [0x5C, UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"),
                                        hex.utf8Start[Int(b >> 4)], hex.utf8Start[Int(b & 15)]])
            default: out.append(b)
            }
        }
        out.append(UInt8(ascii: "\""))
    }

    /// `s` as a JSON string literal.
    package static func string(_ s: String) -> String {
        var out: [UInt8] = []
        appendString(s, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A path as JSON: its lossless text form (`Path.display`), and, when the bytes are not valid
    /// UTF-8, a second member `<key>Bytes` with the exact bytes in base64. Appends
    /// `"key":"…"` (and `,"keyBytes":"…"`).
    package static func appendPath(_ key: StaticString, _ path: [UInt8], to out: inout [UInt8]) {
        out.append(static: "\"")
        out.append(static: key)
        out.append(static: "\":")
        if Path.isValidUTF8(path) {
            path.withUnsafeBufferPointer { appendString(utf8: $0, to: &out) }
        } else {
            appendString(Path.display(path), to: &out)
            out.append(static: ",\"")
            out.append(static: key)
            out.append(static: "Bytes\":\"")
            out.append(contentsOf: Base64.encode(path))
            out.append(UInt8(ascii: "\""))
        }
    }

    /// The exact bytes of a path member written by `appendPath`: `<key>Bytes` when present,
    /// else the string's UTF-8.
    package static func path(_ object: JSONValue, _ key: String) -> [UInt8]? {
        if let encoded = object[key + "Bytes"]?.string { return Base64.decode(encoded) }
        return object[key]?.string.map { Array($0.utf8) }
    }
}

extension Array where Element == UInt8 {
    /// Appends the UTF-8 of a string literal (no String made).
    @inline(__always)
    package mutating func append(static s: StaticString) {
        append(contentsOf: UnsafeBufferPointer(start: s.utf8Start, count: s.utf8CodeUnitCount))
    }

    /// Appends a decimal integer.
    package mutating func append<I: BinaryInteger>(decimal n: I) {
        append(contentsOf: String(n).utf8)
    }
}

/// A JSON object written member by member, for the records and lines off the scan's hot path
/// (rename and undo records, journal lines, summaries, the type listing). Members come out in the
/// order they are added; strings are escaped by `JSON.appendString`, paths by `JSON.appendPath`.
package struct JSONObjectWriter {
    package private(set) var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var empty = true

    package init() {}

    private mutating func key(_ k: StaticString) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        bytes.append(UInt8(ascii: "\""))
        bytes.append(static: k)
        bytes.append(static: "\":")
    }

    /// A member named at run time (a type's identifier in a table of counts) with an integer.
    package mutating func integer<I: BinaryInteger>(named k: String, _ value: I) {
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        JSON.appendString(k, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        bytes.append(decimal: value)
    }

    /// A string member, or null.
    package mutating func string(_ k: StaticString, _ value: String?) {
        key(k)
        if let value { JSON.appendString(value, to: &bytes) } else { bytes.append(static: "null") }
    }

    /// An integer member, or null.
    package mutating func integer<I: BinaryInteger>(_ k: StaticString, _ value: I?) {
        key(k)
        if let value { bytes.append(decimal: value) } else { bytes.append(static: "null") }
    }

    /// A Boolean member, or null.
    package mutating func bool(_ k: StaticString, _ value: Bool?) {
        key(k)
        switch value {
        case true?: bytes.append(static: "true")
        case false?: bytes.append(static: "false")
        case nil: bytes.append(static: "null")
        }
    }

    /// A path member (and `…Bytes` in base64 when it is not UTF-8), or null.
    package mutating func path(_ k: StaticString, _ value: [UInt8]?) {
        guard let value else { key(k); bytes.append(static: "null"); return }
        if !empty { bytes.append(UInt8(ascii: ",")) }
        empty = false
        JSON.appendPath(k, value, to: &bytes)
    }

    /// An array of strings.
    package mutating func strings(_ k: StaticString, _ values: [String]) {
        key(k)
        bytes.append(UInt8(ascii: "["))
        for (i, v) in values.enumerated() {
            if i > 0 { bytes.append(UInt8(ascii: ",")) }
            JSON.appendString(v, to: &bytes)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// A member whose value is JSON already written (a nested object, an array, a literal).
    package mutating func raw(_ k: StaticString, _ json: [UInt8]) {
        key(k)
        bytes.append(contentsOf: json)
    }

    /// A nested object, or null.
    package mutating func object(_ k: StaticString, _ build: ((inout JSONObjectWriter) -> Void)?) {
        key(k)
        guard let build else { bytes.append(static: "null"); return }
        var inner = JSONObjectWriter()
        build(&inner)
        bytes.append(contentsOf: inner.finished())
    }

    /// The object's text (with its closing brace).
    package func finished() -> [UInt8] { bytes + [UInt8(ascii: "}")] }

    /// The object's text and a newline: one NDJSON line.
    package func line() -> [UInt8] { bytes + [UInt8(ascii: "}"), 0x0A] }
}
