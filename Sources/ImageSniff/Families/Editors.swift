// The native documents of image editors: Photoshop PSD/PSB, GIMP XCF, ImageMagick MIFF.
// (OpenRaster is a ZIP archive: Archives.swift.)

enum Editors {
    static let rules = [
        Rule("Photoshop PSD, PSB", .firstByte([0x38]), produces: [.psd, .psb], check: psd),
        Rule("GIMP XCF", .firstByte([0x67]), produces: [.xcf], check: xcf),
        Rule("ImageMagick MIFF", .firstByte([0x69]), produces: [.miff], check: miff),
    ]

    /// `8BPS`, version 1 (PSD) or 2 (PSB), six reserved zero bytes, 1–56 channels.
    static func psd(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("8BPS") else { return .no }
        guard v.count >= 14 else { return .need(14, fallback: nil) }
        guard v.matches("8BPS"), let version = v.u16be(4), let channels = v.u16be(12) else { return .no }
        guard v.all(6..<12, equal: 0), channels >= 1, channels <= 56 else { return .no }
        switch version {
        case 1: return .hit(Hit(.psd))
        case 2: return .hit(Hit(.psb))
        default: return .no
        }
    }

    /// `gimp xcf ` then `file` or `v` and three digits, then NUL.
    static func xcf(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("gimp xcf ") { return early }
        guard v.has(9, 5) else { return .need(14, fallback: nil) }
        if v.matches("file\0", at: 9) { return .hit(Hit(.xcf)) }
        return v.base[9] == UInt8(ascii: "v") && v.base[13] == 0 ? .hit(Hit(.xcf)) : .no
    }

    static func miff(_ input: Input) -> Step {
        input.view.signature("id=ImageMagick") ?? .hit(Hit(.miff))
    }
}
