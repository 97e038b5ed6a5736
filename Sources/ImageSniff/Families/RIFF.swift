// RIFF: WebP (lossy, lossless, extended; animated by the VP8X flag), Windows animated cursors
// (ACON), and WAVE and AVI as neighbours.

enum RIFF {
    static let rules = [
        Rule("RIFF (WebP, ANI, WAVE, AVI)", .firstByte([0x52]), produces: [.webP, .ani, .wave, .avi], check: detect),
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
        if v.matches("ACON", at: 8) { return animatedCursor(v, more: input.hasMore) }
        if v.matches("WAVE", at: 8) { return .hit(Hit(.wave)) }
        if v.matches("AVI ", at: 8) || v.matches("AVIX", at: 8) { return .hit(Hit(.avi)) }
        return .no
    }

    /// An animated cursor: `ACON`, then chunks. Its `anih` header (36 bytes) gives the frame
    /// count when it is among the first chunks in view.
    private static func animatedCursor(_ v: ByteView, more: Bool) -> Step {
        var o = 12
        for _ in 0..<8 {
            guard let id = v.u32be(o), let size = v.u32le(o + 4) else {
                // The next chunk header is not in view: read on (an answer never depends on where
                // the view ends); at the end of the data, the chunks so far are all there is.
                return more ? .need(o + 8, fallback: Hit(.ani, animated: true)) : .hit(Hit(.ani, animated: true))
            }
            if id == fourCC("anih") {
                guard size >= 36 else { break }
                guard let frames = v.u32le(o + 12) else { return .need(o + 16, fallback: Hit(.ani, animated: true)) }
                return .hit(Hit(.ani, animated: frames > 1))
            }
            guard ByteView.isFourCCByte(UInt8(id >> 24)) else { return .no }
            o += 8 + Int(size) + Int(size & 1)
        }
        // An animated cursor cycles through its frames: animated unless its header says one.
        return .hit(Hit(.ani, animated: true))
    }
}
