// GPU textures: DDS, KTX and KTX2, ASTC, PowerVR (version 3, and the legacy version 2 whose tag
// sits at offset 44).

enum Textures {
    static let rules = [
        Rule("DDS", .firstByte([0x44]), produces: [.dds], check: dds),
        Rule("KTX, KTX2", .firstByte([0xAB]), produces: [.ktx, .ktx2], check: ktx),
        Rule("ASTC", .firstByte([0x13]), produces: [.astc], check: astc),
        Rule("PVR v3", .firstByte([0x03, 0x50]), produces: [.pvr], check: pvr),
        Rule("PVR v2 (PVR! at 44)", .elsewhere, produces: [.pvr], check: pvrLegacy),
    ]

    static func dds(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("DDS ") { return early }
        guard let size = v.u32le(4) else { return .need(8, fallback: nil) }
        return size == 124 ? .hit(Hit(.dds)) : .no
    }

    static func ktx(_ input: Input) -> Step {
        let v = input.view
        let tail = v.equals(0x0D0A_1A0A, length: 4, at: 8)
        if v.equals(0xAB4B_5458_2031_31BB, length: 8), tail { return .hit(Hit(.ktx)) }
        if v.equals(0xAB4B_5458_2032_30BB, length: 8), tail { return .hit(Hit(.ktx2)) }
        return v.count < 12 && v.prefixMatches(0xAB4B_5458_20, length: 5) ? .need(12, fallback: nil) : .no
    }

    /// ASTC: magic, then block dimensions (2D 4–12, 3D 3–6).
    static func astc(_ input: Input) -> Step {
        let v = input.view
        guard v.u32le(0) == 0x5CA1_AB13 else { return .no }
        guard let x = v.u8(4), let y = v.u8(5), let z = v.u8(6) else { return .need(16, fallback: nil) }
        return (3...12).contains(x) && (3...12).contains(y) && (1...6).contains(z) ? .hit(Hit(.astc)) : .no
    }

    /// PVR version 3 (`PVR\x03`, or the byte-swapped `\x03RVP`).
    static func pvr(_ input: Input) -> Step {
        let v = input.view
        if v.matches("PVR\u{03}") || v.matches("\u{03}RVP") { return .hit(Hit(.pvr)) }
        let partial = v.count < 4 && (v.matchesAvailablePrefix("PVR\u{03}") || v.matchesAvailablePrefix("\u{03}RVP"))
        return partial ? .need(4, fallback: nil) : .no
    }

    /// Legacy PVR version 2: header size 52 at 0 and `PVR!` at 44.
    static func pvrLegacy(_ input: Input) -> Step {
        let v = input.view
        guard v.u32le(0) == 52 else { return .no }
        guard v.has(44, 4) else { return input.hasMore ? .need(52, fallback: nil) : .no }
        return v.matches("PVR!", at: 44) ? .hit(Hit(.pvr)) : .no
    }
}
