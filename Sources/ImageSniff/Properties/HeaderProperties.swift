// Formats whose headers state their size at fixed places or in a few text tokens: JPEG 2000, JPEG XL,
// JPEG XR, the small codecs, GPU textures, film and HDR formats, netpbm, the magic-less formats,
// X11 text bitmaps, and the long tail.

/// Reads a decimal number at `o`, skipping white space first; nil when there is none.
private func decimal(_ v: ByteView, _ o: inout Int) -> Int? {
    while let b = v.u8(o), ByteView.isSpace(b) { o += 1 }
    var value = 0, digits = 0
    while let b = v.u8(o), ByteView.isDigit(b), digits < 10 { value = value * 10 + Int(b - 0x30); o += 1; digits += 1 }
    return digits > 0 ? value : nil
}

/// The number after `key` (e.g. `columns=`) within `range`.
private func number(after key: StaticString, in v: ByteView, _ range: Range<Int>) -> Int? {
    guard var o = v.find(key, in: range) else { return nil }
    o += key.utf8CodeUnitCount
    return decimal(v, &o)
}

private func bits(forMaximum maxval: Int) -> Int {
    var bits = 1
    while bits < 32 && (1 << bits) - 1 < maxval { bits += 1 }
    return bits
}

extension JPEG2000 {
    static let readers = [PropertyReader([.jpeg2000], read: properties)]

    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        if v.equals(0xFF4F_FF51, length: 4) { return codestream(v, at: 0) }
        var p = ImageProperties(frameCount: 1, hasICCProfile: false)
        // The boxes: jp2h holds ihdr (size, components, depth) and colr (colour space or ICC).
        var o = 0
        for _ in 0..<64 {
            guard let size = v.u32be(o), let type = v.u32be(o + 4) else { return .need(o + 8, partial: p) }
            let end = size == 0 ? input.totalLength : o + Int(size)
            if type == fourCC("jp2c") { return p.width == nil ? codestream(v, at: o + 8) : .done(p) }
            if type == fourCC("jp2h") {
                guard end <= v.count else { return .need(end, partial: p) }
                var c = o + 8
                while c + 8 <= end, let s = v.u32be(c), let t = v.u32be(c + 4), s >= 8 {
                    if t == fourCC("ihdr"), let h = v.u32be(c + 8), let w = v.u32be(c + 12), let nc = v.u16be(c + 16), let bpc = v.u8(c + 18) {
                        p.width = Int(w); p.height = Int(h)
                        p.bitDepth = bpc == 255 ? nil : Int(bpc & 0x7F) + 1
                        p.colorModel = nc >= 3 ? .rgb : .gray
                        p.hasAlpha = nc == 2 || nc == 4
                    }
                    if t == fourCC("colr"), let method = v.u8(c + 8) {
                        if method == 2 || method == 3 { p.hasICCProfile = true }
                        if method == 1, let cs = v.u32be(c + 11) {
                            switch cs {
                            case 12: p.colorModel = .cmyk
                            case 14: p.colorModel = .lab
                            case 17: p.colorModel = .gray
                            case 16, 18: p.colorModel = .rgb
                            default: break
                            }
                        }
                    }
                    c += Int(s)
                }
                return .done(p)
            }
            guard size >= 8 || size == 0 else { break }
            if size == 0 { break }
            o = end
        }
        return .done(p)
    }

    /// The codestream's SIZ segment: the image area, components and their depth.
    static func codestream(_ v: ByteView, at o: Int) -> PropertyStep {
        guard v.has(o, 44) else { return .need(o + 44, partial: .unknown) }
        guard v.equals(0xFF4F_FF51, length: 4, at: o), let x = v.u32be(o + 8), let y = v.u32be(o + 12),
              let x0 = v.u32be(o + 16), let y0 = v.u32be(o + 20), let components = v.u16be(o + 40), x > x0, y > y0 else { return .done(.unknown) }
        var p = ImageProperties(width: Int(x - x0), height: Int(y - y0), frameCount: 1)
        if let depth = v.u8(o + 42) { p.bitDepth = Int(depth & 0x7F) + 1 }
        p.colorModel = components >= 3 ? .rgb : .gray
        p.hasAlpha = components == 2 || components == 4
        return .done(p)
    }
}

extension JPEGXL {
    static let readers = [PropertyReader([.jpegXL], read: properties)]

    /// The codestream's size header and image metadata (naked, or in a jxlc or jxlp box).
    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var start = 0
        if !v.equals(0xFF0A, length: 2) {
            var o = 0
            start = -1
            for _ in 0..<64 {
                guard let size = v.u32be(o), let t = v.u32be(o + 4) else { return .need(o + 8, partial: .unknown) }
                if t == fourCC("jxlc") { start = o + 8; break }
                if t == fourCC("jxlp") { start = o + 12; break }
                guard size >= 8 else { break }
                o += Int(size)
            }
            guard start >= 0 else { return .done(.unknown) }
        }
        guard v.has(start, 2), v.equals(0xFF0A, length: 2, at: start) else { return .need(start + 64, partial: .unknown) }
        var reader = BitReader(v, from: start + 2)
        guard let header = CodestreamHeader(&reader) else { return .need(start + 128, partial: .unknown) }
        var p = ImageProperties(width: header.width, height: header.height, bitDepth: header.bitDepth, orientation: header.orientation)
        if !header.animated { p.frameCount = 1 }
        if header.bitDepth == nil && reader.ranOut { return .need(start + 128, partial: p) }
        return .done(p)
    }
}

extension JPEGXR {
    static let readers = [PropertyReader([.jpegXR], read: properties)]

    /// The TIFF-like directory: ImageWidth (0xBC80) and ImageHeight (0xBC81).
    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let ifd = v.u32le(4) else { return .need(8, partial: .unknown) }
        let at = Int(ifd)
        guard let count = v.u16le(at) else { return .need(at + 2, partial: .unknown) }
        let end = at + 2 + 12 * Int(min(count, 256))
        guard end <= v.count else { return .need(end, partial: .unknown) }
        var p = ImageProperties(frameCount: 1)
        for i in 0..<Int(min(count, 256)) {
            let e = at + 2 + 12 * i
            guard let tag = v.u16le(e), let type = v.u16le(e + 2) else { break }
            let value = type == 3 ? v.u16le(e + 8).map(Int.init) : v.u32le(e + 8).map(Int.init)
            if tag == 0xBC80 { p.width = value }
            if tag == 0xBC81 { p.height = value }
        }
        return .done(p)
    }
}

extension Codecs {
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
        guard let kind = v.u8(4), let depth = v.u8(5) else { return .need(16, partial: .unknown) }
        var o = 6
        guard let w = v.base128(at: &o), let h = v.base128(at: &o) else { return .need(16, partial: .unknown) }
        let animated = kind >> 4 == 5 || kind >> 4 == 6
        let channels = Int(kind & 0x0F)
        var p = ImageProperties(width: w + 1, height: h + 1, bitDepth: depth == UInt8(ascii: "2") ? 16 : 8,
                                colorModel: channels >= 3 ? .rgb : .gray, hasAlpha: channels == 4 || channels == 2)
        if animated { p.frameCount = v.base128(at: &o).map { $0 + 2 } } else { p.frameCount = 1 }
        return .done(p)
    }
}

extension Textures {
    static let readers = [
        PropertyReader([.dds], read: { input, _ in
            let v = input.view
            guard let h = v.u32le(12), let w = v.u32le(16), let flags = v.u32le(80) else { return .need(84, partial: .unknown) }
            // DDPF_ALPHAPIXELS says alpha; its absence says nothing (DXT3 and DXT5 carry alpha too).
            return .done(ImageProperties(width: Int(w), height: Int(h), hasAlpha: flags & 0x1 != 0 ? true : nil, frameCount: 1))
        }),
        PropertyReader([.ktx, .ktx2], read: { input, type in
            let v = input.view
            if type == .ktx2 {
                guard let w = v.u32le(20), let h = v.u32le(24) else { return .need(28, partial: .unknown) }
                return .done(ImageProperties(width: Int(w), height: max(Int(h), 1), frameCount: 1))
            }
            guard let endian = v.u32le(12), let w = v.u32(36, bigEndian: endian != 0x0403_0201), let h = v.u32(40, bigEndian: endian != 0x0403_0201) else {
                return .need(44, partial: .unknown)
            }
            return .done(ImageProperties(width: Int(w), height: max(Int(h), 1), frameCount: 1))
        }),
        PropertyReader([.astc], read: { input, _ in
            let v = input.view
            guard v.count >= 16 else { return .need(16, partial: .unknown) }
            let w = Int(v.base[7]) | Int(v.base[8]) << 8 | Int(v.base[9]) << 16
            let h = Int(v.base[10]) | Int(v.base[11]) << 8 | Int(v.base[12]) << 16
            return .done(ImageProperties(width: w, height: h, frameCount: 1))
        }),
        PropertyReader([.pvr], read: { input, _ in
            let v = input.view
            if v.matches("PVR\u{03}") || v.equals(0x0352_5650, length: 4) {
                guard let h = v.u32le(24), let w = v.u32le(28) else { return .need(32, partial: .unknown) }
                return .done(ImageProperties(width: Int(w), height: Int(h), frameCount: 1))
            }
            guard let h = v.u32le(4), let w = v.u32le(8) else { return .need(12, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), frameCount: 1))
        }),
        PropertyReader([.blp], read: { input, _ in
            let v = input.view
            guard let w = v.u32le(12), let h = v.u32le(16) else { return .need(20, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), frameCount: 1))
        }),
        PropertyReader([.wal], read: { input, _ in
            let v = input.view
            guard let w = v.u32le(32), let h = v.u32le(36) else { return .need(40, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: 8, colorModel: .indexed, frameCount: 1))
        }),
    ]
}

extension Film {
    static let readers = [
        PropertyReader([.openEXR], read: exr),
        PropertyReader([.radianceHDR], read: radianceProperties),
        PropertyReader([.dpx], read: { input, _ in
            let v = input.view
            let big = v.matches("SDPX")
            guard let w = v.u32(772, bigEndian: big), let h = v.u32(776, bigEndian: big), let descriptor = v.u8(800),
                  let depth = v.u8(803) else { return .need(804, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: Int(depth),
                                         colorModel: descriptor == 6 ? .gray : .rgb, hasAlpha: descriptor == 51 || descriptor == 52, frameCount: 1))
        }),
        PropertyReader([.cineon], read: { input, _ in
            let v = input.view
            let big = v.u32be(0) == 0x802A_5FD7
            guard let w = v.u32(200, bigEndian: big), let h = v.u32(204, bigEndian: big), let channels = v.u8(193) else {
                return .need(208, partial: .unknown)
            }
            return .done(ImageProperties(width: Int(w), height: Int(h), colorModel: channels >= 3 ? .rgb : .gray, frameCount: 1))
        }),
    ]

    /// OpenEXR's header attributes: `dataWindow` (box2i) and `channels` (an `A` channel is alpha;
    /// the first channel's pixel type gives the depth).
    static func exr(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var p = ImageProperties(frameCount: 1)
        var o = 8
        for _ in 0..<256 {
            guard let first = v.u8(o) else { return .need(o + 64, partial: p) }
            if first == 0 { return .done(p) }  // the end of the header
            guard let nameEnd = v.find("\0", in: o..<min(v.count, o + 256)) else { return .need(o + 256, partial: p) }
            guard let typeEnd = v.find("\0", in: (nameEnd + 1)..<min(v.count, nameEnd + 257)) else { return .need(nameEnd + 257, partial: p) }
            guard let size = v.u32le(typeEnd + 1) else { return .need(typeEnd + 5, partial: p) }
            let value = typeEnd + 5, end = value + Int(size)
            guard end <= v.count else { return .need(end, partial: p) }
            if v.matches("dataWindow\0", at: o), size == 16, let x0 = v.u32le(value), let y0 = v.u32le(value + 4),
               let x1 = v.u32le(value + 8), let y1 = v.u32le(value + 12) {
                let width = Int(Int32(bitPattern: x1)) - Int(Int32(bitPattern: x0)) + 1
                let height = Int(Int32(bitPattern: y1)) - Int(Int32(bitPattern: y0)) + 1
                if width > 0 && height > 0 { p.width = width; p.height = height }
            }
            if v.matches("channels\0", at: o) {
                var c = value
                var names = 0
                p.hasAlpha = false
                while c < end, let b = v.u8(c), b != 0, names < 64 {
                    guard let n = v.find("\0", in: c..<end) else { break }
                    if n == c + 1 && b == UInt8(ascii: "A") { p.hasAlpha = true }
                    if names == 0, let pixelType = v.u32le(n + 1) { p.bitDepth = pixelType == 1 ? 16 : 32 }
                    names += 1
                    c = n + 1 + 16
                }
                p.colorModel = names >= 3 ? .rgb : .gray
            }
            o = end
        }
        return .done(p)
    }

    /// Radiance: header lines up to an empty line, then the resolution string (`-Y N +X M`).
    static func radianceProperties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        let p = ImageProperties(bitDepth: 32, colorModel: .rgb, hasAlpha: false, frameCount: 1)
        guard let blank = v.find("\n\n", in: 0..<min(v.count, 8192)) else { return .need(min(8192, v.count * 2 + 512), partial: p) }
        var o = blank + 2
        guard v.has(o, 8) else { return .need(o + 32, partial: p) }
        var sizes: [(axis: UInt8, n: Int)] = []
        for _ in 0..<2 {
            while let b = v.u8(o), b == 0x20 { o += 1 }
            guard let sign = v.u8(o), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+"), let axis = v.u8(o + 1) else { return .done(p) }
            o += 2
            guard let n = decimal(v, &o) else { return .done(p) }
            sizes.append((axis, n))
        }
        var result = p
        for (axis, n) in sizes {
            if axis == UInt8(ascii: "X") { result.width = n } else if axis == UInt8(ascii: "Y") { result.height = n }
        }
        return .done(result)
    }
}

extension Netpbm {
    static let readers = [PropertyReader([.pbm, .pgm, .ppm, .pam, .pfm, .phm, .xvThumbnail], read: properties)]

    /// The header's numbers (comments skipped): width, height, and maxval or scale; PAM's
    /// keyword lines.
    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        if type == .pam {
            guard let end = v.find("ENDHDR", in: 0..<min(v.count, 4096)) else { return .need(4096, partial: .unknown) }
            let range = 0..<end
            var p = ImageProperties(width: number(after: "WIDTH", in: v, range), height: number(after: "HEIGHT", in: v, range), frameCount: 1)
            let depth = number(after: "DEPTH", in: v, range) ?? 1
            if let maxval = number(after: "MAXVAL", in: v, range) { p.bitDepth = bits(forMaximum: maxval) }
            p.colorModel = depth >= 3 ? .rgb : .gray
            p.hasAlpha = depth == 2 || depth == 4
            return .done(p)
        }
        var o = type == .xvThumbnail ? 7 : 2
        var numbers: [Int] = []
        let wanted = type == .pbm ? 2 : 3
        while numbers.count < wanted {
            // White space and comments, then a number (PFM's scale is a decimal: only its sign counts).
            while let b = v.u8(o) {
                if ByteView.isSpace(b) { o += 1; continue }
                if b == UInt8(ascii: "#") { while let c = v.u8(o), c != 0x0A && c != 0x0D { o += 1 }; continue }
                break
            }
            if (type == .pfm || type == .phm) && numbers.count == 2 { break }
            guard let n = decimal(v, &o) else { return v.u8(o) == nil ? .need(o + 64, partial: .unknown) : .done(.unknown) }
            numbers.append(n)
        }
        guard numbers.count >= 2 else { return .done(.unknown) }
        var p = ImageProperties(width: numbers[0], height: numbers[1], hasAlpha: false, frameCount: 1)
        let kind = v.u8(1) ?? 0
        switch type {
        case .pbm: p.bitDepth = 1; p.colorModel = .gray
        case .pgm: p.colorModel = .gray
        case .ppm: p.colorModel = .rgb
        case .pfm: p.bitDepth = 32; p.colorModel = kind == UInt8(ascii: "F") ? .rgb : .gray
        case .phm: p.bitDepth = 16; p.colorModel = kind == UInt8(ascii: "H") ? .rgb : .gray
        case .xvThumbnail: p.bitDepth = 8; p.colorModel = .rgb
        default: break
        }
        if (type == .pgm || type == .ppm), numbers.count == 3 { p.bitDepth = bits(forMaximum: numbers[2]) }
        return .done(p)
    }
}

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

extension Text {
    static let readers = [
        PropertyReader([.xbm], read: { input, _ in
            let v = input.view
            let range = 0..<min(v.count, 1024)
            let w = number(after: "_width ", in: v, range), h = number(after: "_height ", in: v, range)
            if (w == nil || h == nil) && v.count < 1024 && input.hasMore { return .need(1024, partial: .unknown) }
            return .done(ImageProperties(width: w, height: h, bitDepth: 1, colorModel: .gray, hasAlpha: false, frameCount: 1))
        }),
        PropertyReader([.xpm], read: { input, _ in
            // XPM3: the first string of the array, "W H NCOLORS CPP"; XPM2: the line after the magic.
            let v = input.view
            let range = 0..<min(v.count, 4096)
            var o: Int
            if v.matches("! XPM2") {
                guard let line = v.find("\n", in: range) else { return .need(4096, partial: .unknown) }
                o = line + 1
            } else {
                guard let brace = v.find("{", in: range), let quote = v.find("\"", in: brace..<range.upperBound) else {
                    return v.count < 4096 && input.hasMore ? .need(4096, partial: .unknown) : .done(.unknown)
                }
                o = quote + 1
            }
            guard let w = decimal(v, &o), let h = decimal(v, &o) else { return .done(.unknown) }
            return .done(ImageProperties(width: w, height: h, bitDepth: 8, colorModel: .indexed, frameCount: 1))
        }),
    ]
}

extension Editors {
    /// MIFF: the `columns=` and `rows=` keys of the text header (up to `:` and 0x1A).
    static func miffProperties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let end = v.find("\u{1A}", in: 0..<min(v.count, 8192)) else { return .need(min(8192, v.count * 2 + 1024), partial: .unknown) }
        let range = 0..<end
        var p = ImageProperties(width: number(after: "columns=", in: v, range), height: number(after: "rows=", in: v, range))
        if let depth = number(after: "depth=", in: v, range) { p.bitDepth = depth }
        if v.find("matte=True", in: range) != nil || v.find("alpha-trait=Blend", in: range) != nil { p.hasAlpha = true }
        if v.find("class=PseudoClass", in: range) != nil { p.colorModel = .indexed }
        if v.find("colorspace=CMYK", in: range) != nil { p.colorModel = .cmyk }
        if v.find("colorspace=Gray", in: range) != nil { p.colorModel = .gray }
        if let frames = number(after: "scenes=", in: v, range) { p.frameCount = frames }
        return .done(p)
    }
}

extension Scientific {
    static let readers = [
        PropertyReader([.fits], read: fitsProperties),
        PropertyReader([.dicom], read: dicomProperties),
        PropertyReader([.vicar], read: vicarProperties),
        PropertyReader([.nifti], read: { input, _ in
            let v = input.view
            guard let size = v.u32le(0) else { return .need(4, partial: .unknown) }
            let big = size != 348 && size != 540
            if (big ? v.u32be(0) : size) == 540 {
                guard let w = v.u64(24, bigEndian: big), let h = v.u64(32, bigEndian: big), let bitpix = v.u16(14, bigEndian: big) else {
                    return .need(40, partial: .unknown)
                }
                return .done(ImageProperties(width: Int(min(w, 1 << 31)), height: Int(min(h, 1 << 31)), bitDepth: Int(bitpix)))
            }
            guard let w = v.u16(42, bigEndian: big), let h = v.u16(44, bigEndian: big), let bitpix = v.u16(72, bigEndian: big) else {
                return .need(74, partial: .unknown)
            }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: Int(bitpix)))
        }),
    ]

    /// FITS: NAXIS1 (width), NAXIS2 (height) and BITPIX from the 80-character cards of the first
    /// header (up to END).
    static func fitsProperties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var p = ImageProperties(colorModel: .gray, frameCount: 1)
        var card = 0
        while card < 36 * 8 {
            let o = card * 80
            guard v.has(o, 80) else { return .need(o + 80, partial: p) }
            if v.matches("END     ", at: o) || v.matches("END\u{20}", at: o) && v.all((o + 3)..<(o + 8), equal: 0x20) { break }
            var value = o + 10
            func integer() -> Int? {
                while let b = v.u8(value), b == 0x20 { value += 1 }
                let negative = v.u8(value) == UInt8(ascii: "-")
                if negative { value += 1 }
                return decimal(v, &value).map { negative ? -$0 : $0 }
            }
            if v.matches("BITPIX  =", at: o), let b = integer() { p.bitDepth = abs(b) }
            if v.matches("NAXIS1  =", at: o), let w = integer() { p.width = w }
            if v.matches("NAXIS2  =", at: o), let h = integer() { p.height = h }
            if v.matches("NAXIS3  =", at: o), let c = integer(), c == 3 { p.colorModel = .rgb }
            card += 1
        }
        return .done(p)
    }

    /// DICOM: the data elements after the meta group, explicit or implicit VR little-endian, up to
    /// the image pixel module's Rows (0028,0010), Columns (0028,0011), Bits Allocated
    /// (0028,0100), Photometric Interpretation (0028,0004) and Number of Frames (0028,0008).
    static func dicomProperties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var p = ImageProperties(frameCount: 1)
        var o = 132
        var explicit = true
        var bigEndian = false
        for _ in 0..<4096 {
            guard let group = v.u16(o, bigEndian: bigEndian && o >= 132), let element = v.u16(o + 2, bigEndian: bigEndian) else {
                return .need(o + 8, partial: p)
            }
            if group > 0x0028 { break }
            let isMeta = group == 0x0002
            let useExplicit = isMeta || explicit
            var length: Int
            var value: Int
            if useExplicit {
                guard v.has(o + 4, 2) else { return .need(o + 8, partial: p) }
                // The value representations with a 4-byte length (after 2 reserved bytes).
                let longVRs: [StaticString] = ["OB", "OW", "OF", "SQ", "UT", "UN", "OD", "OL", "OV", "UC", "UR"]
                let long = longVRs.contains { v.matches($0, at: o + 4) }
                if long {
                    guard let l = v.u32(o + 8, bigEndian: bigEndian && !isMeta) else { return .need(o + 12, partial: p) }
                    length = l == 0xFFFF_FFFF ? -1 : Int(l); value = o + 12
                } else {
                    guard let l = v.u16(o + 6, bigEndian: bigEndian && !isMeta) else { return .need(o + 8, partial: p) }
                    length = Int(l); value = o + 8
                }
            } else {
                guard let l = v.u32le(o + 4) else { return .need(o + 8, partial: p) }
                length = l == 0xFFFF_FFFF ? -1 : Int(l); value = o + 8
            }
            guard length >= 0 else { break }  // an undefined length (a sequence) before the pixel module: stop
            let end = value + length
            guard end <= v.count || group != 0x0028 && !isMeta else { return .need(end, partial: p) }
            if isMeta && element == 0x0010, end <= v.count {
                // Transfer Syntax UID: implicit VR little-endian is 1.2.840.10008.1.2 exactly;
                // big-endian explicit is 1.2.840.10008.1.2.2.
                let implicitLE = length >= 17 && v.matches("1.2.840.10008.1.2", at: value) && (length == 17 || v.u8(value + 17) == 0)
                explicit = !implicitLE
                bigEndian = length >= 19 && v.matches("1.2.840.10008.1.2.2", at: value)
            }
            if group == 0x0028 {
                let short = v.u16(value, bigEndian: bigEndian).map(Int.init)
                switch element {
                case 0x0010: p.height = short
                case 0x0011: p.width = short
                case 0x0100: p.bitDepth = short
                case 0x0004:
                    if v.matches("MONOCHROME", at: value) { p.colorModel = .gray }
                    else if v.matches("PALETTE", at: value) { p.colorModel = .indexed }
                    else if v.matches("RGB", at: value) || v.matches("YBR", at: value) { p.colorModel = .rgb }
                    if v.matches("ARGB", at: value) { p.hasAlpha = true }
                case 0x0008:
                    var n = value
                    if let frames = decimal(v, &n) { p.frameCount = frames }
                default: break
                }
            }
            o = end
        }
        return .done(p)
    }
}
