/// Standard base64 (RFC 4648, with padding): the raw bytes of paths that are not UTF-8.
package enum Base64 {
    private static let alphabet: StaticString = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"

    package static func encode(_ bytes: [UInt8]) -> [UInt8] {
        let table = alphabet.utf8Start
        var out: [UInt8] = []
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var i = 0
        while i < bytes.count {
            let rest = bytes.count - i
            let v = UInt32(bytes[i]) << 16 | (rest > 1 ? UInt32(bytes[i + 1]) << 8 : 0) | (rest > 2 ? UInt32(bytes[i + 2]) : 0)
            out.append(table[Int(v >> 18)])
            out.append(table[Int(v >> 12 & 63)])
            out.append(rest > 1 ? table[Int(v >> 6 & 63)] : UInt8(ascii: "="))
            out.append(rest > 2 ? table[Int(v & 63)] : UInt8(ascii: "="))
            i += 3
        }
        return out
    }

    package static func encodeToString(_ bytes: [UInt8]) -> String { String(decoding: encode(bytes), as: UTF8.self) }

    /// The bytes, or nil when the text is not base64.
    package static func decode(_ text: String) -> [UInt8]? {
        var out: [UInt8] = []
        var accumulator: UInt32 = 0
        var bits = 0
        var padding = 0
        for c in text.utf8 {
            let v: UInt32
            switch c {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"): v = UInt32(c - UInt8(ascii: "A"))
            case UInt8(ascii: "a")...UInt8(ascii: "z"): v = UInt32(c - UInt8(ascii: "a")) + 26
            case UInt8(ascii: "0")...UInt8(ascii: "9"): v = UInt32(c - UInt8(ascii: "0")) + 52
            case UInt8(ascii: "+"): v = 62
            case UInt8(ascii: "/"): v = 63
            case UInt8(ascii: "="): padding += 1; continue
            default: return nil
            }
            if padding > 0 { return nil }
            accumulator = accumulator << 6 | v
            bits += 6
            if bits >= 8 {
                bits -= 8
                out.append(UInt8(truncatingIfNeeded: accumulator >> UInt32(bits)))
            }
        }
        return padding <= 2 ? out : nil
    }
}
