// Bi-level (fax and document) images: JBIG (no magic: its header's fields must be in range),
// JBIG2's stand-alone file, and CALS raster (MIL-STD-1840 text records, then CCITT G4 data).

enum Bilevel: FormatFamily {
    static let rules = [
        Rule("JBIG2", .firstByte([0x97]), produces: [.jbig2], check: jbig2),
        Rule("CALS raster", .firstByte([0x73]), produces: [.cals], check: cals),
        Rule("JBIG", .elsewhere, strength: .heuristic, produces: [.jbig],
             hintPlausibility: { view, _ in jbigHeaderIsPlausible(view) }, check: jbig),
    ]

    static func jbig2(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature(0x974A_4232_0D0A_1A0A, length: 8) { return early }
        guard let flags = v.u8(8) else { return .need(9, fallback: nil) }
        return flags & 0xFC == 0 ? .hit(Hit(.jbig2)) : .no
    }

    /// `srcdocid:` on the first 128-byte record, and an `rtype:` record after it.
    static func cals(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("srcdocid:") { return early }
        guard v.count >= 2048 || !input.hasMore else { return .need(2048, fallback: nil) }
        guard v.count > 128 else { return .no }
        return v.find("rtype:", in: 128..<min(v.count, 2048)) != nil ? .hit(Hit(.cals)) : .no
    }

    /// The 20-byte BIH of JBIG (T.82): DL <= D, planes >= 1, a zero byte, width, height and lines
    /// per stripe above zero, MX <= 127, and no reserved bits set.
    static func jbigHeaderIsPlausible(_ v: ByteView) -> Bool {
        guard v.has(0, 20) else { return false }
        let dl = v.base[0], d = v.base[1], planes = v.base[2]
        guard dl <= d, d <= 16, planes >= 1, planes <= 255, v.base[3] == 0 else { return false }
        guard let width = v.u32be(4), let height = v.u32be(8), let stripe = v.u32be(12) else { return false }
        guard width > 0, width < 1 << 24, height > 0, stripe > 0, v.base[16] <= 127 else { return false }
        return v.base[18] & 0xF0 == 0 && v.base[19] & 0x80 == 0
    }

    /// JBIG is named when its header is plausible and its stream holds a marker (`FF 02` ends a
    /// stripe, `FF 03` resets it) within the first kilobytes.
    static func jbig(_ input: Input) -> Step {
        let v = input.view
        guard jbigHeaderIsPlausible(v) else { return .no }
        // The marker is looked for in a fixed window, all of it in view (or all the data).
        let window = 20 + Limits.initialRead
        if v.count < window && input.hasMore { return .need(window, fallback: nil) }
        let end = min(v.count, window)
        var i = 20
        while i + 1 < end {
            if v.base[i] == 0xFF && (v.base[i + 1] == 0x02 || v.base[i + 1] == 0x03) { return .hit(Hit(.jbig, .likely)) }
            i += 1
        }
        return .no
    }
}

// MARK: - Properties

extension Bilevel {
    static let readers = [
        PropertyReader([.jbig], read: { input, _ in
            // The bi-level image header: DL, D, P (bit planes), a reserved byte, then XD and YD
            // (width and height, big-endian).
            let v = input.view
            guard let planes = v.u8(2), let w = v.u32be(4), let h = v.u32be(8) else { return .need(12, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: Int(planes),
                                         colorModel: planes == 1 ? .gray : nil, frameCount: 1))
        }),
        PropertyReader([.cals], read: { input, _ in
            // The `rpelcnt:` record: pixels per line, lines.
            let v = input.view
            let range = 0..<min(v.count, 2048)
            guard var o = v.find("rpelcnt:", in: range) else {
                return v.count < 2048 && input.hasMore ? .need(2048, partial: .unknown) : .done(.unknown)
            }
            o += 8
            guard let w = v.decimal(at: &o, lead: .spacesAndZeros), v.u8(o) == UInt8(ascii: ",") else { return .done(.unknown) }
            o += 1
            return .done(ImageProperties(width: w, height: v.decimal(at: &o, lead: .spacesAndZeros), bitDepth: 1, colorModel: .gray, hasAlpha: false, frameCount: 1))
        }),
    ]
}
