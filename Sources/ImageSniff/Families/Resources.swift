// Resources that sit beside images and are not images: ICC colour profiles and fonts (TrueType,
// OpenType, WOFF, WOFF2), recognised so that they are never called images.

enum Resources {
    static let rules = [
        Rule("TrueType font", .firstByte([0x00, 0x74]), produces: [.trueTypeFont], check: trueType),
        Rule("OpenType font", .firstByte([0x4F]), produces: [.openTypeFont], check: openType),
        Rule("WOFF, WOFF2", .firstByte([0x77]), produces: [.woff, .woff2], check: woff),
        Rule("ICC profile (acsp at 36)", .elsewhere, produces: [.colorSyncProfile], check: iccProfile),
    ]

    /// `00 01 00 00` (or `true`), then a table count and the binary-search fields derived from it.
    static func trueType(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("\0\u{01}\0\0") || v.matchesAvailablePrefix("true") else { return .no }
        guard let tables = v.u16be(4), let searchRange = v.u16be(6) else { return .need(12, fallback: nil) }
        guard tables >= 1, tables <= 256 else { return .no }
        var power = 1
        while power * 2 <= Int(tables) { power *= 2 }
        return Int(searchRange) == power * 16 ? .hit(Hit(.trueTypeFont)) : .no
    }

    static func openType(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("OTTO") { return early }
        guard let tables = v.u16be(4) else { return .need(6, fallback: nil) }
        return tables >= 1 && tables <= 256 ? .hit(Hit(.openTypeFont)) : .no
    }

    static func woff(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("wOFF") || v.matchesAvailablePrefix("wOF2") else { return .no }
        guard let flavor = v.u32be(4) else { return .need(8, fallback: nil) }
        guard flavor == 0x0001_0000 || flavor == fourCC("OTTO") || flavor == fourCC("true") else { return .no }
        return .hit(Hit(v.base[3] == UInt8(ascii: "2") ? .woff2 : .woff))
    }

    /// An ICC profile: its size first, `acsp` at 36, a version whose major byte is 2-5.
    static func iccProfile(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 40 else { return input.hasMore ? .need(128, fallback: nil) : .no }
        guard v.matches("acsp", at: 36), let size = v.u32be(0), size >= 128, let major = v.u8(8), (2...5).contains(major) else { return .no }
        return .hit(Hit(.colorSyncProfile))
    }
}
