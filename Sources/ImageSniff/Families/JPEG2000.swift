// JPEG 2000: the JP2 signature box (JP2, JPX, JPM; Motion JPEG 2000 is a movie) and raw
// codestreams (J2K, J2C, HTJ2K).

enum JPEG2000 {
    static let rules = [
        Rule("JPEG 2000 signature box", .firstByte([0x00]), produces: [.jpeg2000, .mj2], check: box),
        Rule("JPEG 2000 codestream", .firstByte([0xFF]), produces: [.jpeg2000], check: codestream),
    ]

    /// The JP2 signature box, then `ftyp` with the brand deciding JP2/JPX/JPM vs Motion JPEG 2000.
    /// (The JPEG XL container has the same layout with its own signature: JPEGXL.swift.)
    static func box(_ input: Input) -> Step {
        let v = input.view
        guard v.u32be(0) == 12 || v.count < 4 else { return .no }
        if v.count < 12 {
            let maybe = v.prefixMatches(0x0000_000C, length: 4) && v.prefixMatches(0x6A50_2020_0D0A_870A, length: 8, at: 4)
            return maybe ? .need(12, fallback: nil) : .no
        }
        guard v.equals(0x6A50_2020_0D0A_870A, length: 8, at: 4) || v.equals(0x6A50_1A1A_0D0A_870A, length: 8, at: 4) else { return .no }
        guard let type = v.u32be(16), let brand = v.u32be(20) else { return .need(24, fallback: nil) }  // could be Motion JPEG 2000, a movie
        guard type == fourCC("ftyp") else { return .hit(Hit(.jpeg2000)) }
        if brand == fourCC("mjp2") || brand == fourCC("mj2s") { return .hit(Hit(.mj2)) }
        return .hit(Hit(.jpeg2000))
    }

    /// A raw codestream: SOC (`FF 4F`) followed by SIZ (`FF 51`) and its plausible length.
    static func codestream(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(1) == 0x4F else { return .no }
        guard let siz = v.u16be(2), let length = v.u16be(4) else { return .need(6, fallback: nil) }
        guard siz == 0xFF51, length >= 41 else { return .no }
        return .hit(Hit(.jpeg2000))
    }
}
