// JPEG XL: the ISO BMFF-style container (`JXL ` signature box) and the naked codestream (`FF 0A`).

enum JPEGXL {
    static let rules = [
        Rule("JPEG XL container", .firstByte([0x00]), produces: [.jpegXL], check: container),
        Rule("JPEG XL codestream", .firstByte([0xFF]), produces: [.jpegXL], check: codestream),
    ]

    /// `00 00 00 0C "JXL " 0D 0A 87 0A`: the signature box.
    static func container(_ input: Input) -> Step {
        let v = input.view
        if v.count < 12 {
            let maybe = v.prefixMatches(0x0000_000C, length: 4) && v.prefixMatches(0x4A58_4C20_0D0A_870A, length: 8, at: 4)
            return maybe ? .need(12, fallback: nil) : .no
        }
        return v.u32be(0) == 12 && v.equals(0x4A58_4C20_0D0A_870A, length: 8, at: 4) ? .hit(Hit(.jpegXL)) : .no
    }

    /// A naked codestream: `FF 0A` and a size header whose first byte is not zero.
    static func codestream(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(1) == 0x0A else { return .no }
        guard let b = v.u8(2) else { return .need(3, fallback: nil) }
        return b != 0 ? .hit(Hit(.jpegXL)) : .no
    }
}
