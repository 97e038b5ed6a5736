// Bitmaps with fixed headers: BMP (and headerless DIB), ICO and CUR (the first entry), PCX, DCX,
// Sun raster, SGI, XWD, X cursors.

extension Bitmaps {
    static let readers = [
        PropertyReader([.bmp], read: bmp),
        PropertyReader([.ico, .cur], read: icon),
        PropertyReader([.pcx], read: { input, _ in pcx(input.view, at: 0) }),
        PropertyReader([.dcx], read: dcx),
        PropertyReader([.sunRaster], read: sun),
        PropertyReader([.sgi], read: sgi),
        PropertyReader([.xwd], read: xwd),
        PropertyReader([.xcursor], read: xcursor),
    ]

    /// BITMAPINFOHEADER (or OS/2's BITMAPCOREHEADER) at 14, or at 0 without the file header.
    static func bmp(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        let info = v.u8(0) == UInt8(ascii: "B") && v.u8(1) == UInt8(ascii: "M") ? 14 : 0
        guard let size = v.u32le(info), v.has(info, min(Int(size), 56)) || v.count >= info + 40 else { return .need(info + 56, partial: .unknown) }
        var p = ImageProperties(frameCount: 1)
        let bits: UInt16
        if size == 12 {
            guard let w = v.u16le(info + 4), let h = v.u16le(info + 6), let b = v.u16le(info + 10) else { return .need(info + 12, partial: p) }
            p.width = Int(w); p.height = Int(h); bits = b
        } else {
            guard let w = v.u32le(info + 4), let h = v.u32le(info + 8), let b = v.u16le(info + 14),
                  let compression = v.u32le(info + 16) else { return .need(info + 40, partial: p) }
            // A negative height is a top-down bitmap; a width at or below zero is nonsense.
            let width = Int(Int32(bitPattern: w))
            p.width = width > 0 ? width : nil
            p.height = Int(Int32(bitPattern: h).magnitude)
            bits = b
            // An alpha mask (V4 and V5 headers, or BI_ALPHABITFIELDS) that is not zero.
            if size >= 56 || compression == 6, let mask = v.u32le(info + 52) { p.hasAlpha = mask != 0 && bits == 32 || (mask != 0 && bits == 16) }
            if size >= 108, let cs = v.u32le(info + 56) { p.hasICCProfile = cs == 0x4D42_4544 || cs == 0x4C49_4E4B }  // "MBED", "LINK"
        }
        p.bitDepth = bits <= 8 ? 8 : bits == 16 ? 5 : 8
        p.colorModel = bits <= 8 ? .indexed : .rgb
        if p.hasAlpha == nil { p.hasAlpha = false }
        return .done(p)
    }

    /// The first directory entry: its size (0 means 256), or the PNG it holds.
    static func icon(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let count = v.u16le(4), let offset = v.u32le(18) else { return .need(22, partial: .unknown) }
        var p = ImageProperties(frameCount: Int(count))
        let w = v.base[6], h = v.base[7]
        p.width = w == 0 ? 256 : Int(w)
        p.height = h == 0 ? 256 : Int(h)
        let at = Int(offset)
        guard v.has(at, 24) else { return .need(at + 24, partial: p) }
        if v.equals(0x8950_4E47_0D0A_1A0A, length: 8, at: at) {
            p.width = v.u32be(at + 16).map(Int.init)
            p.height = v.u32be(at + 20).map(Int.init)
            p.hasAlpha = true
            p.colorModel = .rgb
        } else if let bits = v.u16le(at + 14) {
            p.bitDepth = 8
            p.colorModel = bits <= 8 ? .indexed : .rgb
            p.hasAlpha = true  // the AND mask
        }
        return .done(p)
    }

    /// PCX: the window (xmin, ymin, xmax, ymax), bits per pixel and planes.
    static func pcx(_ v: ByteView, at o: Int) -> PropertyStep {
        guard v.has(o, 70), let xmin = v.u16le(o + 4), let ymin = v.u16le(o + 6), let xmax = v.u16le(o + 8),
              let ymax = v.u16le(o + 10), xmax >= xmin, ymax >= ymin else { return v.has(o, 70) ? .done(.unknown) : .need(o + 70, partial: .unknown) }
        let bits = Int(v.base[o + 3]), planes = Int(v.base[o + 65])
        var p = ImageProperties(width: Int(xmax - xmin) + 1, height: Int(ymax - ymin) + 1, bitDepth: bits == 1 && planes == 1 ? 1 : 8,
                                hasAlpha: planes == 4, frameCount: 1)
        p.colorModel = planes >= 3 ? .rgb : bits == 1 ? .gray : .indexed
        return .done(p)
    }

    /// DCX: up to 1023 page offsets, then the first page's PCX header.
    static func dcx(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var pages = 0
        var o = 4
        while pages < 1023, let offset = v.u32le(o), offset != 0 { pages += 1; o += 4 }
        guard let first = v.u32le(4), first > 0 else { return .done(.unknown) }
        switch pcx(v, at: Int(first)) {
        case .done(var p): p.frameCount = pages; return .done(p)
        case .need(let n, _): return .need(n, partial: ImageProperties(frameCount: pages))
        }
    }

    /// Sun raster: width, height, depth (big-endian) after the magic.
    static func sun(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let w = v.u32be(4), let h = v.u32be(8), let depth = v.u32be(12) else { return .need(16, partial: .unknown) }
        return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: depth == 1 ? 1 : 8,
                                     colorModel: depth <= 8 ? (depth == 1 ? .gray : .indexed) : .rgb, hasAlpha: depth == 32, frameCount: 1))
    }

    /// SGI: bytes per channel, dimension, x and y size, channels.
    static func sgi(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let bpc = v.u8(3), let w = v.u16be(6), let h = v.u16be(8), let z = v.u16be(10) else { return .need(12, partial: .unknown) }
        let channels = max(Int(z), 1)
        return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: Int(bpc) * 8,
                                     colorModel: channels >= 3 ? .rgb : .gray, hasAlpha: channels == 2 || channels == 4, frameCount: 1))
    }

    /// XWD (version 7): pixmap depth, width and height in the big-endian header.
    static func xwd(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let depth = v.u32be(12), let w = v.u32be(16), let h = v.u32be(20), let visual = v.u32be(44) else { return .need(48, partial: .unknown) }
        var p = ImageProperties(width: Int(w), height: Int(h), bitDepth: depth == 1 ? 1 : 8, frameCount: 1)
        // Visual classes 0 and 1 are gray; 2 and 3 use a colormap; 4 and 5 are direct colour.
        p.colorModel = visual <= 1 ? .gray : visual <= 3 ? .indexed : .rgb
        return .done(p)
    }

    /// X cursor: the table of contents; the first image chunk's width and height.
    static func xcursor(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let header = v.u32le(4), let count = v.u32le(12) else { return .need(16, partial: .unknown) }
        var images = 0
        var first: Int?
        for i in 0..<min(Int(count), 1024) {
            let e = Int(header) + 12 * i
            guard let type = v.u32le(e), let position = v.u32le(e + 8) else { return .need(e + 12, partial: .unknown) }
            if type == 0xFFFD_0002 { images += 1; if first == nil { first = Int(position) } }
        }
        var p = ImageProperties(bitDepth: 8, colorModel: .rgb, hasAlpha: true, frameCount: images)
        guard let first else { return .done(p) }
        guard let w = v.u32le(first + 16), let h = v.u32le(first + 20) else { return .need(first + 24, partial: p) }
        p.width = Int(w); p.height = Int(h)
        return .done(p)
    }
}

extension Editors {
    static let readers = [
        PropertyReader([.psd, .psb], read: psd),
        PropertyReader([.xcf], read: xcf),
        PropertyReader([.miff], read: miffProperties),
    ]

    /// PSD and PSB: channels, height, width, depth and colour mode in the 26-byte header.
    static func psd(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let channels = v.u16be(12), let h = v.u32be(14), let w = v.u32be(18), let depth = v.u16be(22),
              let mode = v.u16be(24) else { return .need(26, partial: .unknown) }
        var p = ImageProperties(width: Int(w), height: Int(h), bitDepth: Int(depth), frameCount: 1)
        let base: Int
        switch mode {
        case 0, 1, 8: p.colorModel = .gray; base = 1
        case 2: p.colorModel = .indexed; base = 1
        case 3: p.colorModel = .rgb; base = 3
        case 4: p.colorModel = .cmyk; base = 4
        case 9: p.colorModel = .lab; base = 3
        default: base = Int(channels)
        }
        p.hasAlpha = Int(channels) > base
        return .done(p)
    }

    /// XCF: `gimp xcf vNNN\0`, then width, height and base type (0 RGB, 1 gray, 2 indexed).
    static func xcf(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let w = v.u32be(14), let h = v.u32be(18), let base = v.u32be(22) else { return .need(26, partial: .unknown) }
        let model: ImageProperties.ColorModel? = base == 0 ? .rgb : base == 1 ? .gray : base == 2 ? .indexed : nil
        return .done(ImageProperties(width: Int(w), height: Int(h), colorModel: model, frameCount: 1))
    }
}
