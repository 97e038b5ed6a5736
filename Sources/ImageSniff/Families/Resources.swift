// Resources that sit beside images and are not images: ICC colour profiles and fonts (TrueType,
// OpenType, WOFF, WOFF2), recognised so that they are never called images.

enum Resources: FormatFamily {
    static let rules = [
        Rule("TrueType font", .firstByte([0x00, 0x74]), produces: [.trueTypeFont], check: trueType),
        Rule("TrueType collection", .firstByte([0x74]), produces: [.trueTypeCollection], check: trueTypeCollection),
        Rule("OpenType font", .firstByte([0x4F]), produces: [.openTypeFont], check: openType),
        Rule("WOFF, WOFF2", .firstByte([0x77]), produces: [.woff, .woff2], check: woff),
        Rule("ICC profile (acsp at 36)", .elsewhere, produces: [.colorSyncProfile], check: iccProfile),
    ]

    /// `00 01 00 00` (or `true`), a table count, and the first table record's tag: four
    /// letters, digits, spaces or `/` (`OS/2`, `cmap`, `glyf`). The binary-search fields after the
    /// count are not checked: font tools write them wrong often enough.
    static func trueType(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("\0\u{01}\0\0") || v.matchesAvailablePrefix("true") else { return .no }
        guard v.count >= 16, let tables = v.u16be(4) else { return .need(16, fallback: nil) }
        guard tables >= 1, tables <= 256 else { return .no }
        return isTableTag(v, at: 12) ? .hit(Hit(.trueTypeFont)) : .no
    }

    /// `ttcf`, version 1.0 or 2.0, a font count, and the first font's offset past the header.
    static func trueTypeCollection(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("ttcf") { return early }
        guard let version = v.u32be(4), let fonts = v.u32be(8), let first = v.u32be(12) else { return .need(16, fallback: nil) }
        guard version == 0x0001_0000 || version == 0x0002_0000, fonts >= 1, fonts <= 4096, first >= 12 + 4 * fonts else { return .no }
        return .hit(Hit(.trueTypeCollection))
    }

    private static func isTableTag(_ v: ByteView, at o: Int) -> Bool {
        for i in 0..<4 {
            guard let b = v.u8(o + i) else { return false }
            let ok = (0x30...0x39).contains(b) || (0x41...0x5A).contains(b) || (0x61...0x7A).contains(b) || b == 0x20 || b == 0x2F
            if !ok { return false }
        }
        return true
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
