// Single-purpose image codecs with a signature of their own: QOI, farbfeld, BPG, FLIF.

enum Codecs {
    static let rules = [
        Rule("QOI", .firstByte([0x71]), produces: [.qoi], check: qoi),
        Rule("farbfeld", .firstByte([0x66]), produces: [.farbfeld], check: farbfeld),
        Rule("BPG", .firstByte([0x42]), produces: [.bpg], check: bpg),
        Rule("FLIF", .firstByte([0x46]), produces: [.flif], check: flif),
    ]

    /// `qoif`, width and height, 3 or 4 channels, colour space 0 or 1.
    static func qoi(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("qoif") { return early }
        guard let channels = v.u8(12), let space = v.u8(13) else { return .need(14, fallback: nil) }
        return (channels == 3 || channels == 4) && space <= 1 ? .hit(Hit(.qoi)) : .no
    }

    static func farbfeld(_ input: Input) -> Step {
        input.view.signature("farbfeld") ?? .hit(Hit(.farbfeld))
    }

    static func bpg(_ input: Input) -> Step {
        input.view.signature(0x4250_47FB, length: 4) ?? .hit(Hit(.bpg))
    }

    /// `FLIF`, a format byte (non-interlaced, interlaced or animated, by number of planes), and
    /// bytes per channel `0`–`2`.
    static func flif(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("FLIF") { return early }
        guard let format = v.u8(4), let bpc = v.u8(5) else { return .need(6, fallback: nil) }
        guard bpc >= 0x30 && bpc <= 0x32 else { return .no }
        switch format {
        case UInt8(ascii: "1"), UInt8(ascii: "3"), UInt8(ascii: "4"),
             UInt8(ascii: "A"), UInt8(ascii: "C"), UInt8(ascii: "D"):
            return .hit(Hit(.flif))
        case UInt8(ascii: "Q"), UInt8(ascii: "S"), UInt8(ascii: "T"),
             UInt8(ascii: "a"), UInt8(ascii: "c"), UInt8(ascii: "d"):
            return .hit(Hit(.flif, animated: true))
        default:
            return .no
        }
    }
}
