// Windows metafiles: WMF (placeable, with Aldus's header and its checksum, or plain) and EMF.

enum Metafiles {
    static let rules = [
        Rule("Placeable WMF", .firstByte([0xD7]), produces: [.wmf], check: placeableWMF),
        Rule("WMF, EMF", .firstByte([0x01, 0x02]), produces: [.wmf, .emf], check: plain),
    ]

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
