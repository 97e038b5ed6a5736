// Film and high-dynamic-range formats: DPX, Cineon, OpenEXR, Radiance RGBE, Kodak Photo CD.

enum Film {
    static let rules = [
        Rule("DPX", .firstByte([0x53, 0x58]), produces: [.dpx], check: dpx),
        Rule("Cineon", .firstByte([0x80, 0xD7]), produces: [.cineon], check: cineon),
        Rule("OpenEXR", .firstByte([0x76]), produces: [.openEXR], check: exr),
        Rule("Radiance HDR", .firstByte([0x23]), oneByteDecides: true, produces: [.radianceHDR], check: radiance),
        Rule("Photo CD overview pack", .firstByte([0x50]), produces: [.photoCD], check: photoCDOverview),
        Rule("Photo CD image pack (PCD_IPI at 2048)", .elsewhere, produces: [.photoCD], check: photoCD),
    ]

    /// DPX: `SDPX` (big-endian) or `XPDS` (little-endian), version `V1.0`/`V2.0` at 8.
    static func dpx(_ input: Input) -> Step {
        let v = input.view
        guard v.matches("SDPX") || v.matches("XPDS") else {
            return v.count < 4 && (v.matchesAvailablePrefix("SDPX") || v.matchesAvailablePrefix("XPDS")) ? .need(4, fallback: nil) : .no
        }
        guard v.has(8, 2) else { return .need(12, fallback: nil) }
        let vee = v.base[8]
        return (vee == UInt8(ascii: "V") || vee == UInt8(ascii: "v")) && ByteView.isDigit(v.base[9]) ? .hit(Hit(.dpx)) : .no
    }

    /// Cineon: `80 2A 5F D7` big-endian, or the little-endian reverse.
    static func cineon(_ input: Input) -> Step {
        let v = input.view
        return v.u32be(0) == 0x802A_5FD7 || v.u32le(0) == 0x802A_5FD7 ? .hit(Hit(.cineon)) : .no
    }

    static func exr(_ input: Input) -> Step {
        input.view.signature("\u{76}\u{2F}\u{31}\u{01}") ?? .hit(Hit(.openEXR))
    }

    static func radiance(_ input: Input) -> Step {
        let v = input.view
        if v.matches("#?RADIANCE") || v.matches("#?RGBE") { return .hit(Hit(.radianceHDR)) }
        let partial = (v.matchesAvailablePrefix("#?RADIANCE") && v.count < 10) || (v.matchesAvailablePrefix("#?RGBE") && v.count < 6)
        return partial ? .need(10, fallback: nil) : .no
    }

    /// An overview pack: `PCD_OPA` at 0.
    static func photoCDOverview(_ input: Input) -> Step {
        input.view.signature("PCD_OPA") ?? .hit(Hit(.photoCD))
    }

    /// An image pack: sector 0 is fill, `PCD_IPI` opens sector 1 (byte 2048).
    static func photoCD(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 2055 else { return input.hasMore && input.totalLength >= 2055 ? .need(2056, fallback: nil) : .no }
        return v.matches("PCD_IPI", at: 2048) ? .hit(Hit(.photoCD)) : .no
    }
}
