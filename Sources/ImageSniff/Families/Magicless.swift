// Formats without magic: MacPaint, PICT, TGA and WBMP. Only header fields that must be in range,
// sizes that must add up to the file's length, or a trailer (TGA 2.0) can name them; what a
// check cannot be sure of, a hint settles (hint rule 3: `hintPlausibility`).

enum Magicless: FormatFamily {
    static let rules = [
        Rule("MacPaint", .elsewhere, strength: .heuristic, produces: [.macPaint], check: macPaint),
        Rule("PICT", .elsewhere, strength: .heuristic, produces: [.pict],
             hintPlausibility: { view, _ in pictIsPlausible(view) }, check: pict),
        Rule("TGA", .elsewhere, strength: .heuristic, produces: [.tga],
             hintPlausibility: { view, _ in tgaHeaderIsPlausible(view) }, check: tga),
        Rule("WBMP", .elsewhere, strength: .heuristic, produces: [.wbmp],
             hintPlausibility: { view, total in wbmpIsPlausible(view, totalLength: total) }, check: wbmp),
    ]

    /// MacPaint: a MacBinary header whose file type is `PNTG`, or a bare 512-byte header
    /// (version 0, 2 or 3; patterns; 204 zero bytes) followed by PackBits rows of 72 bytes.
    static func macPaint(_ input: Input) -> Step {
        let v = input.view
        if v.count >= 69, v.base[0] == 0, v.matches("PNTG", at: 65), (1...63).contains(v.base[1]) {
            return .hit(Hit(.macPaint))
        }
        guard let version = v.u32be(0), version == 0 || version == 2 || version == 3 else { return .no }
        // 720 PackBits rows (72 bytes each, a little more when an encoder splits a row into many
        // packets) after the header: a larger file is not MacPaint, and a
        // smaller one is judged whole (a few rows that decode say too little).
        guard input.totalLength <= 512 + 720 * 110 else { return .no }
        guard input.isWhole else { return .need(input.totalLength, fallback: nil) }
        guard v.count >= 512 + 72 else { return .no }
        guard v.all(308..<512, equal: 0) else { return .no }
        guard !v.all(512..<(512 + 72), equal: 0) else { return .no }  // PackBits never writes zeros only
        // Decode rows: every row must end exactly on 72 bytes; when the whole file is here, all
        // 720 rows must fit in it.
        var o = 512
        for _ in 0..<720 {
            var produced = 0
            while produced < 72 {
                guard let n = v.u8(o) else { return .no }
                if n < 128 {
                    produced += Int(n) + 1; o += Int(n) + 2
                } else if n > 128 {
                    produced += 257 - Int(n); o += 2
                } else {
                    o += 1
                }
            }
            guard produced == 72 else { return .no }
        }
        return .hit(Hit(.macPaint, .likely))
    }

    /// PICT: after an optional 512-byte header, a picture size and frame, then the version
    /// opcode. Version 2 (`00 11 02 FF`) with a sane frame is taken; version 1 (`11 01`) when its
    /// picture size is the data's and its last byte ends the picture; other starts only with a
    /// hint.
    static func pict(_ input: Input) -> Step {
        let v = input.view
        for base in [0, 512] {
            guard v.has(base + 10, 6) else {
                if base == 0 { return input.hasMore ? .need(528, fallback: nil) : .no }
                break
            }
            if v.equals(0x0011_02FF_0C00, length: 6, at: base + 10), pictFrameIsSane(v, base) {
                return .hit(Hit(.pict, .likely))
            }
            // Version 1: the version opcode `11 01` (one-byte opcodes follow), and two bytes are
            // little evidence: picSize must also be the picture's length (the data's, or one
            // less for a pad byte) and its last byte EndOfPicture (`FF`).
            if v.equals(0x1101, length: 2, at: base + 10), pictFrameIsSane(v, base), let size = v.u16be(base), size >= 14 {
                let end = base + Int(size), length = input.totalLength
                guard end == length || end + 1 == length else { continue }
                guard let last = v.u8(end - 1) else { return .needRange((end - 1)..<end, fallback: nil) }
                if last == 0xFF { return .hit(Hit(.pict, .likely)) }
            }
        }
        return .no
    }

    static func pictFrameIsSane(_ v: ByteView, _ base: Int) -> Bool {
        guard let top = v.u16be(base + 2), let left = v.u16be(base + 4),
              let bottom = v.u16be(base + 6), let right = v.u16be(base + 8) else { return false }
        let t = Int16(bitPattern: top), l = Int16(bitPattern: left)
        let b = Int16(bitPattern: bottom), r = Int16(bitPattern: right)
        return t < b && l < r
    }

    /// PICT version 1 or 2 with a sane frame: enough for a hint to name it (rule 3).
    static func pictIsPlausible(_ v: ByteView) -> Bool {
        for base in [0, 512] where v.has(base + 10, 2) {
            if (v.matches("\u{11}\u{01}", at: base + 10) || v.matches("\0\u{11}", at: base + 10)), pictFrameIsSane(v, base) {
                return true
            }
        }
        return false
    }

    /// TGA: the TGA 2.0 footer in the last 18 bytes decides (without its final NUL, as some
    /// exporters write it, it makes a likely TGA); otherwise an uncompressed image
    /// whose size matches the file to the byte, or a run-length encoded one whose packets decode
    /// to exactly its pixels at the end of the file, is likely. A header that is strongly valid
    /// (see `tgaHeaderIsStrong`) is also likely over pixels followed by a few bytes of trailer
    /// (`tgaTrailer`), and over run-length packets whose last one runs past the image (readers
    /// clip it; gdk-pixbuf's reference images have both); over data that ends before its pixels
    /// do, it is a cut TGA: likely, and truncated.
    static func tga(_ input: Input) -> Step {
        let v = input.view
        guard tgaHeaderIsPlausible(v) else { return .no }
        let tail = input.tail ?? (input.isWhole ? v : nil)
        guard let tail else { return .needTail(fallback: sizeMatches(input) ? Hit(.tga, .likely) : nil) }
        if tail.count >= 18, tail.matches("TRUEVISION-XFILE.\0", at: tail.count - 18) { return .hit(Hit(.tga)) }
        // The footer without its final NUL (some exporters drop it): likely.
        if tail.count >= 17, tail.matches("TRUEVISION-XFILE.", at: tail.count - 17) { return .hit(Hit(.tga, .likely)) }
        if sizeMatches(input) { return .hit(Hit(.tga, .likely)) }
        let strong = tgaHeaderIsStrong(v)
        if !rleImageType(v) {
            guard strong, let expected = uncompressedLength(v) else { return .no }
            // Its pixels and a few bytes of trailer.
            if input.totalLength > expected && input.totalLength - expected <= tgaTrailer { return .hit(Hit(.tga, .likely)) }
            // Shorter than its pixels: cut short.
            guard expected > input.totalLength else { return .no }
            return .need(expected, fallback: Hit(.tga, .likely))
        }
        // Run-length encoded: the packets must decode to exactly width × height pixels and end
        // where the file does. The first bytes as far as they grow (the whole file when it fits
        // them), then the rest where it lies, within the read budget (a file larger than the
        // first bytes and the far windows together is not decided: a 512 x 512 RLE texture of
        // 530 KB is).
        if input.hasMore { return .need(input.totalLength, fallback: nil) }
        switch rleStream(v, length: input.totalLength, clipping: strong) {
        case .endsAtEndOfFile: return .hit(Hit(.tga, .likely))
        case .cut where strong: return .need(input.totalLength + 1, fallback: Hit(.tga, .likely))
        case .needs(let o):
            let room = input.reach.windowBytesLeft
            guard room > 0 else { return .no }
            return .needRange(o..<min(input.totalLength, o + room), fallback: nil)
        default: return .no
        }
    }

    private static func rleImageType(_ v: ByteView) -> Bool {
        let t = v.base[2]
        return t == 9 || t == 10 || t == 11
    }

    /// Bytes of the colour map (stored even when the image type does not use it).
    private static func colourMapBytes(_ v: ByteView) -> Int {
        v.base[1] == 1 ? Int(v.u16le(5) ?? 0) * ((Int(v.base[7]) + 7) / 8) : 0
    }

    enum RunLengthStream {
        case endsAtEndOfFile, cut, bad
        /// The packets go on at this offset, which is not held (but lies before the data's end).
        case needs(Int)
    }

    /// Bytes after a TGA's pixels, without a footer, that a strongly valid header may have (the
    /// gtk-logo-16bpp reference images of gdk-pixbuf carry 16).
    static let tgaTrailer = 64

    /// Decodes TGA run-length packets from after the header, ID and colour map, over the data's
    /// `length` bytes (the first bytes and the far windows held). `clipping`: the last packet may
    /// run past the image's pixels (readers clip it).
    private static func rleStream(_ v: ByteView, length: Int, clipping: Bool = false) -> RunLengthStream {
        let width = Int(v.u16le(12) ?? 0), height = Int(v.u16le(14) ?? 0)
        let pixelBytes = (Int(v.base[16]) + 7) / 8
        var o = 18 + Int(v.base[0]) + colourMapBytes(v)
        var pixels = 0
        let wanted = width * height
        while pixels < wanted {
            guard let packet = v.u8(o) else { return o < length ? .needs(o) : .cut }
            let n = Int(packet & 0x7F) + 1
            o += 1 + (packet & 0x80 != 0 ? pixelBytes : n * pixelBytes)
            pixels += n
        }
        guard pixels == wanted || clipping else { return .bad }
        if o > length { return .cut }
        // The image data ends the file, or a TGA 2.0 extension area / developer area follows
        // (then a footer would have been found); allow a few bytes of padding.
        return length - o <= 8 ? .endsAtEndOfFile : .bad
    }

    /// Header fields in range. A colour map may come with a true-colour or grey image that does
    /// not use it (legal, and written by some tools); a colour-mapped image needs one.
    static func tgaHeaderIsPlausible(_ v: ByteView) -> Bool {
        guard v.count >= 18 else { return false }
        let mapType = v.base[1], imageType = v.base[2]
        guard mapType <= 1 else { return false }
        switch imageType {
        case 1, 2, 3, 9, 10, 11, 32, 33: break
        default: return false
        }
        let mapped = imageType == 1 || imageType == 9 || imageType == 32 || imageType == 33
        if mapped && mapType != 1 { return false }
        // The colour map specification (field 4). Without a map the spec says it "should be set to
        // zero", and readers skip it: first entry and length must be zero (a map of no entries),
        // but the entry size may still hold one of its values (writers leave it set: libmagic,
        // ImageMagick and Pillow all take such a file).
        let mapEntrySize = v.base[7]
        guard mapEntrySize == 0 || [15, 16, 24, 32].contains(mapEntrySize) else { return false }
        if mapType == 1 {
            guard mapEntrySize != 0, let length = v.u16le(5), length > 0 else { return false }
        } else {
            guard v.u16le(3) == 0, v.u16le(5) == 0 else { return false }
        }
        guard let width = v.u16le(12), let height = v.u16le(14), width > 0, height > 0 else { return false }
        let depth = v.base[16], descriptor = v.base[17]
        guard [1, 8, 15, 16, 24, 32].contains(depth) else { return false }
        guard descriptor & 0xC0 == 0 else { return false }  // interleaving bits: never used
        let alphaBits = descriptor & 0x0F
        return alphaBits <= 8
    }

    /// Beyond plausible: the pixel depth is one the image type uses, the alpha bits fit the
    /// depth, the size and origin are sane. Enough to name a TGA whose data is cut short.
    static func tgaHeaderIsStrong(_ v: ByteView) -> Bool {
        guard tgaHeaderIsPlausible(v) else { return false }
        let imageType = v.base[2], depth = v.base[16], alpha = v.base[17] & 0x0F
        switch imageType {
        case 1, 9: guard depth == 8 || depth == 16 else { return false }
        case 2, 10: guard [15, 16, 24, 32].contains(depth) else { return false }
        case 3, 11: guard depth == 8 || depth == 16 else { return false }
        default: return false
        }
        let grey = imageType == 3 || imageType == 11
        let alphaFits: Bool
        switch depth {
        case 32: alphaFits = alpha == 0 || alpha == 8
        case 15, 16: alphaFits = alpha <= 1 || (grey && alpha == 8)  // grey 16 bits: 8 of them alpha
        default: alphaFits = alpha == 0
        }
        guard alphaFits else { return false }
        guard let width = v.u16le(12), let height = v.u16le(14), width <= 16384, height <= 16384,
              let x = v.u16le(8), let y = v.u16le(10), x <= 16384, y <= 16384 else { return false }
        return true
    }

    /// Header, ID, colour map and pixels of an uncompressed TGA.
    private static func uncompressedLength(_ v: ByteView) -> Int? {
        guard let width = v.u16le(12), let height = v.u16le(14) else { return nil }
        let pixelBytes = (Int(v.base[16]) + 7) / 8
        return 18 + Int(v.base[0]) + colourMapBytes(v) + Int(width) * Int(height) * pixelBytes
    }

    /// For uncompressed TGA: header + ID + colour map + pixels equals the file length.
    private static func sizeMatches(_ input: Input) -> Bool {
        let imageType = input.view.base[2]
        guard imageType == 1 || imageType == 2 || imageType == 3 else { return false }
        return uncompressedLength(input.view) == input.totalLength
    }

    /// WBMP has no magic: only an exact size match (and a hint) names it.
    static func wbmp(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(0) == 0, v.u8(1) == 0, input.isWhole || v.count >= 16 else { return .no }
        return wbmpIsPlausible(v, totalLength: input.totalLength) ? .hit(Hit(.wbmp, .likely)) : .no
    }

    /// WBMP type 0: `00`, fixed header `00`, then width and height as multi-byte integers, and
    /// exactly one bit per pixel (rows padded to bytes) after them.
    static func wbmpIsPlausible(_ v: ByteView, totalLength: Int) -> Bool {
        guard v.u8(0) == 0, v.u8(1) == 0 else { return false }
        var o = 2
        guard let width = v.base128(at: &o, maxBytes: 4), let height = v.base128(at: &o, maxBytes: 4),
              width > 0, height > 0, width <= 65535, height <= 65535 else { return false }
        return o + (width + 7) / 8 * height == totalLength
    }
}

// MARK: - Properties

extension Magicless {
    static let readers = [
        PropertyReader([.tga], read: { input, _ in
            let v = input.view
            guard let w = v.u16le(12), let h = v.u16le(14), let depth = v.u8(16), let descriptor = v.u8(17), let kind = v.u8(2) else {
                return .need(18, partial: .unknown)
            }
            let model: ImageProperties.ColorModel? = kind & 7 == 1 ? .indexed : kind & 7 == 2 ? .rgb : kind & 7 == 3 ? .gray : nil
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: depth == 15 || depth == 16 ? 5 : 8, colorModel: model,
                                         hasAlpha: descriptor & 0x0F != 0, frameCount: 1))
        }),
        PropertyReader([.wbmp], read: { input, _ in
            let v = input.view
            var o = 2
            guard let w = v.base128(at: &o), let h = v.base128(at: &o) else { return .need(12, partial: .unknown) }
            return .done(ImageProperties(width: w, height: h, bitDepth: 1, colorModel: .gray, hasAlpha: false, frameCount: 1))
        }),
        PropertyReader([.pict], read: { input, _ in
            let v = input.view
            for base in [512, 0] where v.has(base + 10, 6) && pictFrameIsSane(v, base) {
                if base == 512 || v.equals(0x0011_02FF, length: 4, at: 10) || v.equals(0x1101, length: 2, at: 10) {
                    let top = Int(Int16(bitPattern: v.u16be(base + 2)!)), left = Int(Int16(bitPattern: v.u16be(base + 4)!))
                    let bottom = Int(Int16(bitPattern: v.u16be(base + 6)!)), right = Int(Int16(bitPattern: v.u16be(base + 8)!))
                    return .done(ImageProperties(width: right - left, height: bottom - top, frameCount: 1))
                }
            }
            return v.count < 528 ? .need(528, partial: .unknown) : .done(.unknown)
        }),
        PropertyReader([.macPaint], read: { _, _ in
            .done(ImageProperties(width: 576, height: 720, bitDepth: 1, colorModel: .gray, hasAlpha: false, frameCount: 1))
        }),
    ]
}
