// Formats of the personal computers of the 1980s and 1990s: the Amiga's IFF (ILBM and Deluxe
// Paint's PBM images, Impulse's RGB8, TVPaint's DEEP and TVPP, ANIM animations; AIFF audio is its
// neighbour), Autodesk FLIC animations,
// Atari DEGAS, GEM IMG, Microsoft Paint, MGR, the CMU window manager's raster, MicroDesign pages
// and Solitaire image recorder files.

enum Retro: FormatFamily {
    static let rules = [
        Rule("IFF (ILBM, PBM, RGB8, DEEP, TVPP, ANIM; AIFF)", .firstByte([0x46]),
             produces: [.ilbm, .iffPBM, .iffRGB8, .iffDEEP, .tvpaintTVPP, .iffANIM, .aiff], check: iff),
        Rule("Microsoft Paint", .firstByte([0x44, 0x4C]), produces: [.msp], check: msp),
        Rule("MGR bitmap", .firstByte([0x78, 0x79, 0x7A]), produces: [.mgr], check: mgr),
        Rule("CMU window manager raster", .firstByte([0xF1]), produces: [.cmuRaster], check: cmuRaster),
        Rule("MicroDesign", .firstByte([0x2E]), produces: [.microDesign], check: microDesign),
        Rule("Solitaire image recorder", .firstByte([0x4F]), produces: [.solitaireSIR], check: solitaire),
        Rule("PlayStation TIM", .firstByte([0x10]), produces: [.psxTIM], check: psxTIM),
        Rule("FLIC (AF11/AF12 at 4)", .elsewhere, produces: [.flic], check: flic),
        Rule("Atari DEGAS", .elsewhere, strength: .heuristic, produces: [.degas], check: degas),
        Rule("GEM IMG", .elsewhere, strength: .heuristic, produces: [.gemIMG], check: gem),
    ]

    /// `FORM`, the size of the rest, and the form type: ILBM (or ACBM), PBM and Impulse's RGB8
    /// images must have their BMHD header chunk before the BODY (first, or after other property
    /// chunks); DEEP and TVPaint's TVPP pictures their DGBL (8 bytes: the display size,
    /// compression, pixel aspect) before the DBOD; ANIM holds ILBM frames; AIFF and AIFC are audio.
    static func iff(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("FORM") { return early }
        guard let size = v.u32be(4), let form = v.u32be(8) else { return .need(12, fallback: nil) }
        guard size >= 4 else { return .no }
        switch form {
        case fourCC("AIFF"), fourCC("AIFC"):
            return .hit(Hit(.aiff))
        case fourCC("ILBM"), fourCC("ACBM"), fourCC("PBM "), fourCC("RGB8"):
            switch bitmapHeader(v, form: 0) {
            case .found: return .hit(Hit(form == fourCC("PBM ") ? .iffPBM : form == fourCC("RGB8") ? .iffRGB8 : .ilbm))
            case .need(let n): return .need(n, fallback: nil)
            case .absent: return .no
            }
        case fourCC("DEEP"), fourCC("TVPP"):
            switch headerChunk(v, form: 0, name: fourCC("DGBL"), length: 8, body: fourCC("DBOD")) {
            case .found: return .hit(Hit(form == fourCC("DEEP") ? .iffDEEP : .tvpaintTVPP))
            case .need(let n): return .need(n, fallback: nil)
            case .absent: return .no
            }
        case fourCC("ANIM"):
            // The first frame is a FORM ILBM of its own.
            guard let inner = v.u32be(12), let type = v.u32be(20) else { return .need(24, fallback: nil) }
            guard inner == fourCC("FORM"), type == fourCC("ILBM") else { return .no }
            return .hit(Hit(.iffANIM, animated: true))
        default:
            return .no
        }
    }

    enum BitmapHeader { case found(Int), need(Int), absent }

    /// The BMHD chunk of the FORM at `form` (its data's offset): EA IFF 85 lets a FORM's
    /// property chunks (ANNO, CMAP, CAMG, `(c) `...) come in any order before its BODY, so the
    /// chunks are walked, within `Budget.iffProperties` bytes, until BMHD (20 bytes of data) or
    /// BODY. A chunk ID of other than printable ASCII (EA IFF 85: 0x20-0x7E) ends the search.
    static func bitmapHeader(_ v: ByteView, form: Int) -> BitmapHeader {
        headerChunk(v, form: form, name: fourCC("BMHD"), length: 20, body: fourCC("BODY"))
    }

    /// The header chunk `name` of `length` bytes of the FORM at `form`, walked to as
    /// `bitmapHeader` walks to BMHD, before the `body` chunk.
    static func headerChunk(_ v: ByteView, form: Int, name: UInt32, length: Int, body: UInt32) -> BitmapHeader {
        guard let size = v.u32be(form + 4) else { return .need(form + 8) }
        let end = min(form + 8 + Int(size), form + 12 + Budget.iffProperties)
        var chunks = Chunks(v, .iff, from: form + 12, to: end)
        while let chunk = chunks.next() {
            if chunk.name == name { return chunk.length == length ? .found(chunk.data) : .absent }
            if chunk.name == body { return .absent }
            for shift in stride(from: 24, through: 0, by: -8) {
                let b = (chunk.name >> UInt32(shift)) & 0xFF
                guard b >= 0x20, b <= 0x7E else { return .absent }
            }
        }
        if let wanted = chunks.needs { return .need(wanted.upperBound) }
        return .absent
    }

    /// `DanM` (Paint 1.x) or `LinS` (Paint 2.0): a 32-byte header whose thirteen first words XOR
    /// to zero (the checksum word makes them). A Paint 1.x file whose checksum is wrong is still
    /// one, likely, when its length is exactly the header and its uncompressed rows (one bit a
    /// pixel, a row padded to a byte, as Pillow reads it, or to a 16-bit word) and the header's
    /// reserved words are zero (file(1) names it by the magic alone; Pillow's
    /// hopper_bad_checksum.msp).
    static func msp(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("DanM") || v.matchesAvailablePrefix("LinS") else { return .no }
        guard v.has(0, 32) else { return .need(32, fallback: nil) }
        var sum: UInt16 = 0
        for i in 0..<13 { sum ^= v.u16le(2 * i) ?? 0 }
        guard let width = v.u16le(4), let height = v.u16le(6), width > 0, height > 0 else { return .no }
        if sum == 0 { return .hit(Hit(.msp)) }
        let w = Int(width), h = Int(height)
        guard v.matches("DanM", at: 0), v.u16le(26) == 0, v.u16le(28) == 0, v.u16le(30) == 0,
              let length = input.knownLength,
              length == 32 + (w + 7) / 8 * h || length == 32 + (w + 15) / 16 * 2 * h else { return .no }
        return .hit(Hit(.msp, .likely))
    }

    /// MGR: `yz`, `zz`, `xz` or `yx`, then width and height as two 6-bit digits each (plus 0x20),
    /// a depth digit and a pad byte; the bits of the rows follow.
    static func mgr(_ input: Input) -> Step {
        let v = input.view
        guard let second = v.u8(1) else { return .need(2, fallback: nil) }
        let first = v.base[0]
        let pair = (first, second)
        guard pair == (0x79, 0x7A) || pair == (0x7A, 0x7A) || pair == (0x78, 0x7A) || pair == (0x79, 0x78) else { return .no }
        guard v.has(0, 8) else { return .need(8, fallback: nil) }
        func digits(_ at: Int) -> Int? {
            let hi = v.base[at], lo = v.base[at + 1]
            guard (0x20..<0x60).contains(hi), (0x20..<0x60).contains(lo) else { return nil }
            return Int(hi - 0x20) << 6 | Int(lo - 0x20)
        }
        guard let width = digits(2), let height = digits(4), width > 0, height > 0,
              (0x20..<0x60).contains(v.base[6]) else { return .no }
        // Rows padded to 8 bits ("8-bit aligned", yz and xz) or 32 ("yx"), at one bit a pixel.
        let alignment = pair == (0x79, 0x78) ? 32 : 8
        let depth = max(1, Int(v.base[6]) - 0x20)
        let rowBits = (width * depth + alignment - 1) / alignment * alignment
        let expected = 8 + rowBits / 8 * height
        return .hit(Hit(.mgr, input.totalLength >= expected ? .conclusive : .likely))
    }

    /// `F1 00 40 BB` (big-endian; Sun raster is its byte-reversed cousin), width, height, depth.
    static func cmuRaster(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature(0xF100_40BB, length: 4) { return early }
        guard let width = v.u32be(4), let height = v.u32be(8), let depth = v.u16be(12) else { return .need(14, fallback: nil) }
        return width > 0 && height > 0 && depth >= 1 && depth <= 32 ? .hit(Hit(.cmuRaster)) : .no
    }

    /// `.MDA` (MicroDesign 2) or `.MDP` (3), then the program's name.
    static func microDesign(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix(".MDA") || v.matchesAvailablePrefix(".MDP") else { return .no }
        guard v.count >= 4 else { return .need(4, fallback: nil) }
        return .hit(Hit(.microDesign))
    }

    /// `O:` and two zero bytes, then the MGI type (11 or 17, little-endian).
    static func solitaire(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("O:\0\0") { return early }
        guard let type = v.u16le(4) else { return .need(6, fallback: nil) }
        return type == 11 || type == 17 ? .hit(Hit(.solitaireSIR)) : .no
    }

    /// FLIC: the file size, then `AF11` (FLI, 320x200) or `AF12` (FLC) at 4, the frame count, the
    /// size and a depth of 8. More than one frame is an animation.
    static func flic(_ input: Input) -> Step {
        let v = input.view
        guard let magic = v.u16le(4) else { return .no }
        guard magic == 0xAF11 || magic == 0xAF12 else { return .no }
        guard let frames = v.u16le(6), let width = v.u16le(8), let height = v.u16le(10), let depth = v.u16le(12),
              let size = v.u32le(0) else { return input.hasMore ? .need(128, fallback: nil) : .no }
        guard frames >= 1, width > 0, height > 0, depth == 8, size >= 128 else { return .no }
        // Bytes the header keeps reserved.
        guard v.count < 128 || v.all(88..<128, equal: 0) else { return .no }
        return .hit(Hit(.flic, animated: frames > 1))
    }

    /// DEGAS: a resolution word (0, 1, 2), sixteen palette words of 3 or 4 bits a channel, then
    /// 32,000 bytes of screen: the file is 32,034 bytes (32,066 with the animation tail).
    /// DEGAS Elite's compressed files (PC1-PC3) set bit 15 of the resolution word; each scan line's
    /// planes are PackBits-coded (a 40- or 80-byte plane line in 2 bytes at best, 1/128 more at
    /// worst), and 32 bytes of animation data end the file.
    static func degas(_ input: Input) -> Step {
        let total = input.totalLength
        let uncompressed = total == 32_034 || total == 32_066
        let compressedRange = (34 + 800 + 32)...(34 + 32_000 + 32_000 / 128 + 32)
        guard uncompressed || compressedRange.contains(total) else { return .no }
        let v = input.view
        guard v.has(0, 34) else { return input.hasMore ? .need(34, fallback: nil) : .no }
        guard let word = v.u16be(0) else { return .no }
        let compressed = word & 0x8000 != 0
        guard word & 0x7FFF <= 2, compressed || uncompressed else { return .no }
        for i in 0..<16 where (v.u16be(2 + 2 * i) ?? 0xFFFF) & 0xF000 != 0 { return .no }
        if compressed {
            // The runs are judged on the whole file (at most 32,316 bytes): a prefix whose runs
            // hold says nothing of the rest.
            guard v.count >= total else { return .need(total, fallback: nil) }
            if !degasRunsAreWellFormed(v, lineBytes: word & 0x7FFF == 0 ? 40 : 80, total: total) { return .no }
        }
        return .hit(Hit(.degas, .likely))
    }

    /// Whether the PackBits runs of a compressed DEGAS file stay within their plane lines
    /// (`lineBytes` each; a run never spans two) and, when they reach the 32,000 bytes of a
    /// screen, end where the 32-byte animation tail begins.
    private static func degasRunsAreWellFormed(_ v: ByteView, lineBytes: Int, total: Int) -> Bool {
        var o = 34, decoded = 0
        while decoded < 32_000, let control = v.u8(o) {
            let run: Int
            switch control {
            case 0..<128: run = Int(control) + 1; o += 1 + run
            case 128: o += 1; continue  // no operation
            default: run = 257 - Int(control); o += 2
            }
            guard run <= lineBytes - decoded % lineBytes else { return false }
            decoded += run
        }
        return decoded < 32_000 ? o <= total - 32 : o == total - 32
    }

    /// GEM IMG: version 1 or 2, a header of 8 or more words (an XIMG header says `XIMG`),
    /// 1-8, 16 or 24 planes, a pattern length 1-8, pixel sizes and a size that are not zero.
    static func gem(_ input: Input) -> Step {
        let v = input.view
        guard v.has(0, 16) else { return .no }
        guard let version = v.u16be(0), version == 1 || version == 2,
              let headerWords = v.u16be(2), headerWords >= 8, headerWords <= 64,
              let planes = v.u16be(4), (1...8).contains(planes) || planes == 16 || planes == 24,
              let pattern = v.u16be(6), (1...8).contains(pattern),
              let pixelWidth = v.u16be(8), let pixelHeight = v.u16be(10), pixelWidth > 0, pixelHeight > 0,
              let width = v.u16be(12), let height = v.u16be(14), width > 0, height > 0 else { return .no }
        if headerWords > 9 && !v.matches("XIMG", at: 16) { return .no }
        guard v.count > Int(headerWords) * 2 else { return .no }  // scan lines follow the header
        return .hit(Hit(.gemIMG, .likely))
    }

    /// PlayStation TIM: `10 00 00 00`, flags (the pixel mode in bits 0-2, up to 4; bit 3 when a
    /// colour table follows; nothing else), then the colour table block if any and the pixel
    /// block, each a length that agrees with its width and height (12 + 2·w·h bytes), and the
    /// data no shorter than the blocks. Eight bytes of magic are few: likely at most.
    static func psxTIM(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature(0x1000_0000, length: 4) { return early }
        guard let flags = v.u32le(4) else { return .need(8, fallback: nil) }
        let mode = flags & 7
        guard flags & ~0xF == 0, mode <= 4 else { return .no }
        let indexed = mode <= 1
        guard indexed == (flags & 8 != 0) || mode == 4 else { return .no }
        var o = 8
        for _ in 0..<(flags & 8 != 0 ? 2 : 1) {
            guard v.has(o, 12) else { return .need(o + 12, fallback: nil) }
            guard let length = v.u32le(o), let w = v.u16le(o + 8), let h = v.u16le(o + 10), w > 0, h > 0,
                  Int(length) == 12 + 2 * Int(w) * Int(h) else { return .no }
            o += Int(length)
        }
        return o <= input.totalLength ? .hit(Hit(.psxTIM, .likely)) : .no
    }
}

// MARK: - Properties

extension Retro {
    static let readers = [
        PropertyReader([.flic], read: { input, _ in
            // The 128-byte header: size, magic, frames, width, height, depth (all little-endian).
            let v = input.view
            guard let frames = v.u16le(6), let w = v.u16le(8), let h = v.u16le(10), let depth = v.u16le(12) else {
                return .need(14, partial: .unknown)
            }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: depth == 0 ? nil : Int(depth),
                                         colorModel: .indexed, frameCount: frames == 0 ? nil : Int(frames)))
        }),
        PropertyReader([.msp], read: { input, _ in
            // Key words, then width and height (little-endian).
            let v = input.view
            guard let w = v.u16le(4), let h = v.u16le(6) else { return .need(8, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: 1, colorModel: .gray, hasAlpha: false, frameCount: 1))
        }),
        PropertyReader([.degas], read: { input, _ in
            // The resolution word (the high bit: compressed) fixes the size and the bit planes.
            let v = input.view
            guard let resolution = v.u16be(0) else { return .need(2, partial: .unknown) }
            switch resolution & 0x7FFF {
            case 0: return .done(ImageProperties(width: 320, height: 200, bitDepth: 4, colorModel: .indexed, frameCount: 1))
            case 1: return .done(ImageProperties(width: 640, height: 200, bitDepth: 2, colorModel: .indexed, frameCount: 1))
            case 2: return .done(ImageProperties(width: 640, height: 400, bitDepth: 1, colorModel: .indexed, frameCount: 1))
            default: return .done(.unknown)
            }
        }),
        PropertyReader([.gemIMG], read: { input, _ in
            // Version, header length, planes, pattern length, pixel size, then line width and lines.
            let v = input.view
            guard let planes = v.u16be(4), let w = v.u16be(12), let h = v.u16be(14) else { return .need(16, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: planes == 1 ? 1 : nil,
                                         colorModel: planes == 1 ? .gray : nil, frameCount: 1))
        }),
        PropertyReader([.ilbm, .iffPBM, .iffRGB8, .iffANIM], read: { input, type in
            // The bitmap header: width, height, x, y, planes, masking.
            let v = input.view
            let form = type == .iffANIM ? 12 : 0  // ANIM: the first frame's FORM ILBM
            let start: Int
            switch bitmapHeader(v, form: form) {
            case .found(let data): start = data - 8
            case .need(let n): return .need(n, partial: .unknown)
            case .absent: return .done(.unknown)
            }
            guard let w = v.u16be(start + 8), let h = v.u16be(start + 10), let planes = v.u8(start + 16), let masking = v.u8(start + 17) else {
                return .need(start + 28, partial: .unknown)
            }
            // RGB8: 24 planes and a genlock bit (25).
            return .done(ImageProperties(width: Int(w), height: Int(h), colorModel: [24, 25, 32].contains(planes) ? .rgb : .indexed,
                                         hasAlpha: masking == 1 || planes == 32, frameCount: type == .iffANIM ? nil : 1))
        }),
        PropertyReader([.iffDEEP, .tvpaintTVPP], read: deepProperties),
        PropertyReader([.psxTIM], read: { input, _ in
            // The pixel block (after the colour table's block when flag bit 3 is set): its width
            // counts 16-bit units, which hold 4, 2, 1 or 2/3 pixels by the pixel mode.
            let v = input.view
            guard let flags = v.u32le(4) else { return .need(8, partial: .unknown) }
            var o = 8
            if flags & 8 != 0 {
                guard let length = v.u32le(8) else { return .need(12, partial: .unknown) }
                o += Int(length)
            }
            guard let units = v.u16le(o + 8), let h = v.u16le(o + 10) else { return .need(o + 12, partial: .unknown) }
            let w = Int(units)
            switch flags & 7 {
            case 0: return .done(ImageProperties(width: w * 4, height: Int(h), bitDepth: 4, colorModel: .indexed, frameCount: 1))
            case 1: return .done(ImageProperties(width: w * 2, height: Int(h), bitDepth: 8, colorModel: .indexed, frameCount: 1))
            case 2: return .done(ImageProperties(width: w, height: Int(h), bitDepth: 5, colorModel: .rgb, frameCount: 1))
            case 3: return .done(ImageProperties(width: w * 2 / 3, height: Int(h), bitDepth: 8, colorModel: .rgb, hasAlpha: false, frameCount: 1))
            default: return .done(ImageProperties(height: Int(h), frameCount: 1))  // mixed modes: no one width
            }
        }),
    ]

    /// DEEP and TVPP: the chunks before DBOD. DGBL states the display size, DLOC the image's
    /// (when present); DPEL lists the pixel's elements as (type, bit depth) pairs: 1, 2 and 3
    /// are red, green and blue, 4 alpha.
    static func deepProperties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let size = v.u32be(4) else { return .need(12, partial: .unknown) }
        var p = ImageProperties(frameCount: 1)
        var display: (Int, Int)?, located: (Int, Int)?
        let end = min(8 + Int(size), 12 + Budget.iffProperties)
        var chunks = Chunks(v, .iff, from: 12, to: end)
        func sized() -> ImageProperties {
            var q = p
            if let (w, h) = located ?? display { q.width = w; q.height = h }
            return q
        }
        while let chunk = chunks.next(), chunk.name != fourCC("DBOD") {
            switch chunk.name {
            case fourCC("DGBL") where chunk.length == 8:
                if let w = v.u16be(chunk.data), let h = v.u16be(chunk.data + 2) { display = (Int(w), Int(h)) }
            case fourCC("DLOC") where chunk.length == 8:
                if let w = v.u16be(chunk.data), let h = v.u16be(chunk.data + 2) { located = (Int(w), Int(h)) }
            case fourCC("DPEL"):
                guard let n = v.u32be(chunk.data), n >= 1, n <= 16, 4 + 4 * Int(n) == chunk.length else { break }
                var types: Set<UInt16> = [], depths: Set<UInt16> = []
                for i in 0..<Int(n) {
                    if let t = v.u16be(chunk.data + 4 + 4 * i), let d = v.u16be(chunk.data + 6 + 4 * i) { types.insert(t); depths.insert(d) }
                }
                if depths.count == 1 { p.bitDepth = depths.first.map(Int.init) }
                p.colorModel = types.isSuperset(of: [1, 2, 3]) ? .rgb : nil
                p.hasAlpha = types.contains(4)
            default: break
            }
        }
        if let wanted = chunks.needs { return .need(wanted.upperBound, partial: p) }  // a DLOC may follow
        return .done(sized())
    }
}
