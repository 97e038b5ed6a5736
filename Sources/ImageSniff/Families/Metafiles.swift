// Metafiles and drawings: WMF (placeable, with Aldus's header and its checksum, or plain), EMF,
// WordPerfect graphics, Xfig drawings and binary CGM.

enum Metafiles: FormatFamily {
    static let rules = [
        Rule("Placeable WMF", .firstByte([0xD7]), produces: [.wmf], check: placeableWMF),
        Rule("WMF, EMF", .firstByte([0x01, 0x02]), produces: [.wmf, .emf], check: plain),
        Rule("WordPerfect graphics", .firstByte([0xFF]), produces: [.wordPerfectGraphics], check: wordPerfectGraphics),
        Rule("Xfig", .firstByte([0x23]), produces: [.xfig], check: xfig),
        Rule("CGM (binary)", .firstByte([0x00]), produces: [.cgm], check: cgm),
    ]

    /// Binary CGM (ISO/IEC 8632-3): 16-bit big-endian command headers, the element's class (4
    /// bits), id (7) and parameter length (5; 31 means a long form whose next word holds it,
    /// bit 15 set for a partition, which BEGIN METAFILE does not need). The metafile starts with
    /// BEGIN METAFILE (class 0, id 1) whose one parameter is a string (a length byte, or 255 and
    /// a 16-bit length) filling the parameter list; the list is padded to an even length. The
    /// metafile descriptor follows, and its first element is METAFILE VERSION (class 1, id 1,
    /// two bytes: 1 to 4, ISO/IEC 8632-1 to version 4).
    static func cgm(_ input: Input) -> Step {
        let v = input.view
        guard let head = v.u16be(0) else { return v.count == 1 && v.base[0] == 0 ? .need(2, fallback: nil) : .no }
        guard head & 0xFFE0 == 0x0020 else { return .no }
        var length = Int(head & 0x1F), o = 2
        if length == 31 {
            guard let long = v.u16be(2) else { return .need(4, fallback: nil) }
            guard long & 0x8000 == 0 else { return .no }
            length = Int(long); o = 4
        }
        if length > 0 {
            guard let n = v.u8(o) else { return .need(o + 1, fallback: nil) }
            if n == 255 {
                guard let long = v.u16be(o + 1) else { return .need(o + 3, fallback: nil) }
                guard long & 0x8000 == 0, 3 + Int(long) == length else { return .no }
            } else {
                guard 1 + Int(n) == length else { return .no }
            }
        }
        let next = o + length + length % 2
        guard let version = v.u16be(next), let number = v.u16be(next + 2) else { return .need(next + 4, fallback: nil) }
        return version == 0x1022 && (1...4).contains(number) ? .hit(Hit(.cgm)) : .no
    }

    /// WordPerfect's `FF 57 50 43` header (shared by all its file types), then the data offset,
    /// product 1 (WordPerfect), file type 0x16 (graphics), major version 1 or 2, and no
    /// encryption key.
    static func wordPerfectGraphics(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature(0xFF57_5043, length: 4) { return early }
        guard v.count >= 16 else { return .need(16, fallback: nil) }
        guard let offset = v.u32le(4), offset >= 16, v.base[8] == 1, v.base[9] == 0x16,
              v.base[10] == 1 || v.base[10] == 2, v.u16le(12) == 0 else { return .no }
        return .hit(Hit(.wordPerfectGraphics))
    }

    /// `#FIG `, a version `d.d`, then the end of the line or a space.
    static func xfig(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("#FIG ") { return early }
        guard v.count >= 9 else { return .need(9, fallback: nil) }
        guard ByteView.isDigit(v.base[5]), v.base[6] == UInt8(ascii: "."), ByteView.isDigit(v.base[7]) else { return .no }
        return ByteView.isSpace(v.base[8]) ? .hit(Hit(.xfig)) : .no
    }

    /// `D7 CD C6 9A`, a zero handle, the bounding box, and a checksum: the XOR of the ten words
    /// before it.
    static func placeableWMF(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature(0xD7CD_C69A, length: 4) { return early }
        guard v.has(0, 22) else { return .need(22, fallback: nil) }
        var sum: UInt16 = 0
        for i in 0..<10 { sum ^= v.u16le(2 * i) ?? 0 }
        return sum == v.u16le(20) ? .hit(Hit(.wmf)) : .no
    }

    /// A plain WMF header (type 1 or 2, 9 words, version 0x0100 or 0x0300), or EMF's header record
    /// (type 1, then `" EMF"` at 40).
    static func plain(_ input: Input) -> Step {
        let v = input.view
        guard let b1 = v.u8(1) else { return .need(2, fallback: nil) }
        guard b1 == 0 else { return .no }
        guard v.count >= 6 else { return .need(6, fallback: nil) }
        if let words = v.u16le(2), words == 9, let version = v.u16le(4), version == 0x0300 || version == 0x0100 {
            return .hit(Hit(.wmf))
        }
        guard v.base[0] == 1, v.u16le(2) == 0 else { return .no }
        guard let size = v.u32le(4), let signature = v.u32le(40) else { return .need(44, fallback: nil) }
        return size >= 88 && signature == 0x464D_4520 ? .hit(Hit(.emf)) : .no
    }
}
