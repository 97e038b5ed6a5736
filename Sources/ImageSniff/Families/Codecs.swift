// Single-purpose image codecs with a signature of their own: QOI, farbfeld, BPG, FLIF, PGF, and
// wuffs' naive formats NIE (a still image) and NIA (an animation of NIE frames).

enum Codecs: FormatFamily {
    static let rules = [
        Rule("QOI", .firstByte([0x71]), produces: [.qoi], check: qoi),
        Rule("farbfeld", .firstByte([0x66]), produces: [.farbfeld], check: farbfeld),
        Rule("BPG", .firstByte([0x42]), produces: [.bpg], check: bpg),
        Rule("FLIF", .firstByte([0x46]), produces: [.flif], check: flif),
        Rule("PGF", .firstByte([0x50]), produces: [.pgf], check: pgf),
        Rule("NIE, NIA (wuffs)", .firstByte([0x6E]), produces: [.nie, .nia], check: naive),
    ]

    /// wuffs' naive image formats (the NIE/NII/NIA specification, version 1): the magic `nïE`
    /// (6E C3 AF 45) or `nïA` (41), the version-and-configuration bytes FF, `b` or `r` (BGRA or
    /// RGBA; the latest draft keeps `b`), `n` or `p` (premultiplied alpha or not), `4` or `8`
    /// (bytes per pixel), then width and height. A NIA's header is 24 bytes: after them a byte 0
    /// or 1 (no frames) and seven zero bytes; a first frame is a whole NIE with the same 12 bytes
    /// of configuration and size. (NII, `nïI`, only times frames held elsewhere: no image.)
    static func naive(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 8 else {
            return v.prefixMatches(0x6EC3_AF45, length: 4) || v.prefixMatches(0x6EC3_AF41, length: 4) ? .need(24, fallback: nil) : .no
        }
        let still = v.equals(0x6EC3_AF45, length: 4)
        guard still || v.equals(0x6EC3_AF41, length: 4), naiveConfiguration(v, at: 4) else { return .no }
        if still { return .hit(Hit(.nie)) }
        guard v.count >= 24 else { return .need(24, fallback: nil) }
        guard let empty = v.u8(16), empty <= 1, v.all(17..<24, equal: 0) else { return .no }
        if empty == 0 {
            guard v.count >= 40 else { return input.isWhole ? .no : .need(40, fallback: nil) }
            guard v.equals(0x6EC3_AF45, length: 4, at: 24) else { return .no }
            for i in 0..<12 where v.base[4 + i] != v.base[28 + i] { return .no }
        }
        return .hit(Hit(.nia, animated: true))
    }

    /// FF, then `b` or `r`, `n` or `p`, `4` or `8`.
    static func naiveConfiguration(_ v: ByteView, at o: Int) -> Bool {
        guard v.has(o, 4) else { return false }
        let order = v.base[o + 1], alpha = v.base[o + 2], size = v.base[o + 3]
        return v.base[o] == 0xFF && (order == 0x62 || order == 0x72) && (alpha == 0x6E || alpha == 0x70) && (size == 0x34 || size == 0x38)
    }

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

    /// libpgf's Progressive Graphics File: `PGF`, a version byte whose flags libpgf sets (Version2
    /// always, never the top bit or bit 0), the header size, then width and height above zero,
    /// at most 30 levels, a known bit depth, 1 to 8 channels and an image mode up to 20.
    static func pgf(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("PGF") { return early }
        guard v.count >= 21 else { return .need(21, fallback: nil) }
        let version = v.base[3]
        guard version & 0x02 != 0, version & 0x81 == 0 else { return .no }
        guard let width = v.u32le(8), let height = v.u32le(12), width > 0, height > 0 else { return .no }
        let levels = v.base[16], bits = v.base[18], channels = v.base[19], mode = v.base[20]
        guard levels <= 30, [1, 8, 12, 16, 24, 32, 48, 64].contains(bits), (1...8).contains(channels), mode <= 20 else { return .no }
        return .hit(Hit(.pgf))
    }
}

// MARK: - Properties

extension Codecs {
    /// Whole: a QOI stream ends with its end marker (seven 0x00 bytes and a 0x01); a farbfeld's
    /// pixels (8 bytes each) fit in the data.
    static let verifiers = [
        Verifier([.qoi]) { input, _, _ in
            let length = input.totalLength
            guard length >= 14 + 8 else { return .truncated }
            let end = (length - 8)..<length
            guard input.view.has(end) else { return .needRange(end) }
            return input.view.equals(0x0000_0000_0000_0001, length: 8, at: end.lowerBound) ? .complete : .truncated
        },
        Verifier([.farbfeld]) { input, _, _ in
            guard let w = input.view.u32be(8), let h = input.view.u32be(12) else { return .unknown }
            return Verifier.fits(16, Int(w), Int(h), 8, in: input.totalLength)
        },
    ]

    static let readers = [
        PropertyReader([.qoi], read: { input, _ in
            let v = input.view
            guard let w = v.u32be(4), let h = v.u32be(8), let channels = v.u8(12) else { return .need(14, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: 8, colorModel: .rgb, hasAlpha: channels == 4, frameCount: 1))
        }),
        PropertyReader([.farbfeld], read: { input, _ in
            let v = input.view
            guard let w = v.u32be(8), let h = v.u32be(12) else { return .need(16, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: 16, colorModel: .rgb, hasAlpha: true, frameCount: 1))
        }),
        PropertyReader([.nie, .nia], read: { input, type in
            // Width and height; 4 bytes per pixel are 8 bits per channel, 8 are 16. A NIA's header
            // does not count its frames (they would be counted from the file's length: frames
            // of fixed size, then an 8-byte footer), so its frame count is not stated.
            let v = input.view
            guard let w = v.u32le(8), let h = v.u32le(12), let size = v.u8(7) else { return .need(16, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: size == 0x38 ? 16 : 8, colorModel: .rgb,
                                         hasAlpha: true, frameCount: type == .nie ? 1 : nil))
        }),
        PropertyReader([.bpg], read: bpg),
        PropertyReader([.flif], read: flif),
        PropertyReader([.pgf], read: { input, _ in
            let v = input.view
            guard let w = v.u32le(8), let h = v.u32le(12), let bpp = v.u8(18), let channels = v.u8(19) else { return .need(21, partial: .unknown) }
            let perChannel = channels > 0 ? Int(bpp) / Int(channels) : nil
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: perChannel, colorModel: channels >= 3 ? .rgb : .gray,
                                         hasAlpha: channels == 4, frameCount: 1))
        }),
    ]

    /// BPG: a byte of pixel format, alpha and depth, a byte of colour space and flags, then the
    /// width and height as ue7 numbers (7 bits a byte, high bit: more).
    static func bpg(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let format = v.u8(4) else { return .need(16, partial: .unknown) }
        var o = 6
        guard let w = v.base128(at: &o), let h = v.base128(at: &o) else { return .need(16, partial: .unknown) }
        return .done(ImageProperties(width: w, height: h, bitDepth: Int(format & 0x0F) + 8, colorModel: format >> 5 == 0 ? .gray : .rgb,
                                     hasAlpha: format & 0x10 != 0))
    }

    /// FLIF: `FLIF`, a byte of interlacing/animation and channels, a byte of depth, then width - 1,
    /// height - 1 (and frames - 2 when animated) as varints.
    static func flif(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        // Three varints of at most 5 bytes each follow the 6-byte start.
        guard let kind = v.u8(4), let depth = v.u8(5) else { return .need(21, partial: .unknown) }
        var o = 6
        guard let w = v.base128(at: &o), let h = v.base128(at: &o) else {
            return v.has(6, 10) ? .done(.unknown) : .need(21, partial: .unknown)
        }
        let animated = kind >> 4 == 5 || kind >> 4 == 6
        let channels = Int(kind & 0x0F)
        var p = ImageProperties(width: w + 1, height: h + 1, bitDepth: depth == UInt8(ascii: "2") ? 16 : 8,
                                colorModel: channels >= 3 ? .rgb : .gray, hasAlpha: channels == 4 || channels == 2)
        if animated {
            let at = o
            guard let frames = v.base128(at: &o) else { return v.has(at, 5) ? .done(p) : .need(at + 5, partial: p) }
            p.frameCount = frames + 2
        } else {
            p.frameCount = 1
        }
        return .done(p)
    }
}
