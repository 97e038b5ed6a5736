// RIFF: WebP (lossy, lossless, extended; animated by the VP8X flag), and WAVE and AVI as neighbours.

enum RIFF {
    static let rules = [
        Rule("RIFF (WebP, WAVE, AVI)", .firstByte([0x52]), produces: [.webP, .wave, .avi], check: detect),
    ]

    static func detect(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("RIFF") else { return .no }
        guard v.count >= 16 else { return .need(16, fallback: nil) }
        if let early = v.signature("RIFF") { return early }
        if v.matches("WEBP", at: 8) {
            guard let chunk = v.u32be(12) else { return .need(16, fallback: nil) }
            switch chunk {
            case fourCC("VP8 "), fourCC("VP8L"):
                return .hit(Hit(.webP))
            case fourCC("VP8X"):
                guard let flags = v.u8(20) else { return .need(21, fallback: Hit(.webP)) }
                return .hit(Hit(.webP, animated: flags & 0x02 != 0))
            default:
                return ByteView.isFourCCByte(UInt8(chunk >> 24)) ? .hit(Hit(.webP, .likely)) : .no
            }
        }
        if v.matches("WAVE", at: 8) { return .hit(Hit(.wave)) }
        if v.matches("AVI ", at: 8) || v.matches("AVIX", at: 8) { return .hit(Hit(.avi)) }
        return .no
    }
}
