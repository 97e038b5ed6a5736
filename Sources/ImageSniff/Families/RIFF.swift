// RIFF: WebP (lossy, lossless, extended; animated by the VP8X flag), Windows animated cursors
// (ACON), and WAVE and AVI as neighbours.

enum RIFF: FormatFamily {
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
            // The first chunk's header fields hold the image's size: lossy, the frame tag, start
            // code and size (10 bytes); lossless, the signature byte and size (5); extended, the
            // flags and canvas size (10). Data that ends before them is cut short.
            switch chunk {
            case fourCC("VP8 "):
                guard v.has(20, 10) else { return .need(30, fallback: Hit(.webP)) }
                return .hit(Hit(.webP))
            case fourCC("VP8L"):
                guard v.has(20, 5) else { return .need(25, fallback: Hit(.webP)) }
                return .hit(Hit(.webP))
            case fourCC("VP8X"):
                guard let flags = v.u8(20) else { return .need(30, fallback: Hit(.webP)) }
                guard v.has(20, 10) else { return .need(30, fallback: Hit(.webP, animated: flags & 0x02 != 0)) }
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
        var chunks = Chunks(v, .riff, from: 12)
        var steps = 0
        while steps < 8, let chunk = chunks.next() {
            steps += 1
            if chunk.name == fourCC("anih") {
                guard chunk.length >= 36 else { break }
                guard let frames = v.u32le(chunk.data + 4) else { return .need(chunk.data + 8, fallback: Hit(.ani, animated: true)) }
                return .hit(Hit(.ani, animated: frames > 1))
            }
            guard ByteView.isFourCCByte(UInt8(chunk.name >> 24)) else { return .no }
        }
        if steps < 8, let wanted = chunks.needs {
            // The next chunk header is not in view: read on (an answer never depends on where
            // the view ends); at the end of the data, the chunks so far are all there is.
            return more ? .need(wanted.upperBound, fallback: Hit(.ani, animated: true)) : .hit(Hit(.ani, animated: true))
        }
        // An animated cursor cycles through its frames: animated unless its header says one.
        return .hit(Hit(.ani, animated: true))
    }
}

// MARK: - Properties

extension RIFF {
    static let readers = [
        PropertyReader([.webP], read: webP),
        PropertyReader([.ani], read: animatedCursor),
    ]

    /// Whole: the RIFF container's size lies within the data.
    static let verifiers = [
        Verifier([.webP, .ani]) { input, _, _ in
            guard let size = input.view.u32le(4) else { return .unknown }
            return 8 + Int(size) <= input.totalLength ? .complete : .truncated
        },
    ]

    static func webP(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var p = ImageProperties(bitDepth: 8, colorModel: .rgb, frameCount: 1, hasICCProfile: false)
        guard v.count >= 30 else { return .need(30, partial: p) }
        switch v.u32be(12) {
        case fourCC("VP8 "):
            // Frame tag (3 bytes), start code 9D 01 2A, then 14-bit width and height.
            guard v.equals(0x9D01_2A, length: 3, at: 23), let w = v.u16le(26), let h = v.u16le(28) else { return .done(p) }
            p.width = Int(w & 0x3FFF)
            p.height = Int(h & 0x3FFF)
            p.hasAlpha = false
            return .done(p)
        case fourCC("VP8L"):
            // Signature 2F, then 14 bits width - 1, 14 bits height - 1, 1 bit alpha, 3 bits version.
            guard v.u8(20) == 0x2F, let bits = v.u32le(21) else { return .done(p) }
            p.width = Int(bits & 0x3FFF) + 1
            p.height = Int((bits >> 14) & 0x3FFF) + 1
            p.hasAlpha = (bits >> 28) & 1 != 0
            return .done(p)
        case fourCC("VP8X"):
            // Flags (ICC 0x20, alpha 0x10, EXIF 0x08, animation 0x02), then 24-bit canvas
            // width - 1 and height - 1.
            let flags = v.base[20]
            guard let w = v.u32le(24), let h = v.u32le(26) else { return .done(p) }
            p.width = Int(w & 0xFF_FFFF) + 1
            p.height = Int(h >> 8 & 0xFF_FFFF) + 1
            p.hasICCProfile = flags & 0x20 != 0
            p.hasAlpha = flags & 0x10 != 0
            let animated = flags & 0x02 != 0
            let exif = flags & 0x08 != 0
            guard animated || exif else { return .done(p) }
            // Count the frames and find the EXIF chunk: a walk over the chunks.
            var frames = 0
            // The chunks end where the RIFF size says.
            let riffEnd = 8 + Int(v.u32le(4) ?? 0)
            var chunks = Chunks(v, .riff, from: 30, to: riffEnd)
            while let chunk = chunks.next() {
                if chunk.name == fourCC("ANMF") { frames += 1 }
                if chunk.name == fourCC("EXIF") {
                    guard chunk.dataEnd <= v.count else { return .need(chunk.dataEnd, partial: p) }
                    p.orientation = Exif.orientation(v, tiff: chunk.data, end: chunk.dataEnd)
                }
            }
            if let wanted = chunks.needs, wanted.upperBound <= riffEnd {
                if animated {
                    // The frames are counted by a walk over the chunks (the EXIF chunk, usually
                    // after them, is not looked for: no orientation).
                    p.frameCount = nil
                    return .walk(FrameWalk(.riffChunks(name: fourCC("ANMF"), end: riffEnd), at: wanted.lowerBound, frames: frames), partial: p)
                }
                return .needRange(wanted, partial: p)
            }
            if animated { p.frameCount = frames }
            return .done(p)
        default:
            return .done(.unknown)
        }
    }

    /// The `anih` header: frame count, and the size when stated (0 means: each frame's own).
    static func animatedCursor(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var chunks = Chunks(v, .riff, from: 12)
        var steps = 0
        while steps < 16, let chunk = chunks.next() {
            steps += 1
            guard chunk.name == fourCC("anih") else { continue }
            let o = chunk.start
            guard let frames = v.u32le(o + 12), let width = v.u32le(o + 20), let height = v.u32le(o + 24) else {
                return .need(o + 44, partial: .unknown)
            }
            var p = ImageProperties(frameCount: Int(frames))
            if width > 0 && height > 0 { p.width = Int(width); p.height = Int(height) }
            return .done(p)
        }
        if steps < 16, let wanted = chunks.needs { return .need(wanted.upperBound, partial: .unknown) }
        return .done(.unknown)
    }
}
