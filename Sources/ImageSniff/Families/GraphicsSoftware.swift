// The native files of graphics software and research toolkits: the Utah Raster Toolkit's RLE,
// Khoros VIFF, VIPS, JPEG 2000's PGX test images, the MTV ray tracer, Alias/Wavefront PIX,
// Pixar's image computer, PIL's IM, libgd's GD and GD2.

enum GraphicsSoftware: FormatFamily {
    static let rules = [
        Rule("Utah RLE", .firstByte([0x52]), produces: [.utahRLE], check: utahRLE),
        Rule("Khoros VIFF", .firstByte([0xAB]), produces: [.viff], check: viff),
        Rule("VIPS", .firstByte([0x08, 0xB6]), produces: [.vips], check: vips),
        Rule("PGX", .firstByte([0x50]), produces: [.pgx], check: pgx),
        Rule("Pixar", .firstByte([0x80]), produces: [.pixar], check: pixar),
        Rule("PIL IM", .firstByte([0x49]), produces: [.pillowIM], check: pillowIM),
        Rule("GD2", .firstByte([0x67]), produces: [.gd2], check: gd2),
        Rule("GD", .firstByte([0xFF]), strength: .heuristic, produces: [.gd], check: gd),
        Rule("MTV", .elsewhere, strength: .heuristic, produces: [.mtv], check: mtv),
        Rule("Alias PIX", .elsewhere, strength: .heuristic, produces: [.aliasPIX],
             hintPlausibility: { view, _ in aliasHeader(view) != nil }, check: aliasPIX),
    ]

    /// `52 CC`, then position, size, flags, channels and 8 bits a pixel.
    static func utahRLE(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(1) == 0xCC else { return .no }
        guard let width = v.u16le(6), let height = v.u16le(8), let channels = v.u8(11), let bits = v.u8(12) else {
            return .need(13, fallback: nil)
        }
        return width > 0 && height > 0 && channels < 255 && bits == 8 ? .hit(Hit(.utahRLE)) : .no
    }

    /// `AB 01`, release 1, version 3, and the machine's byte order (2 big-endian, 8 little).
    static func viff(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(1) == 0x01 else { return .no }
        guard let release = v.u8(2), let version = v.u8(3), let machine = v.u8(4) else { return .need(5, fallback: nil) }
        return release == 1 && version == 3 && (machine == 2 || machine == 8) ? .hit(Hit(.viff)) : .no
    }

    /// `08 F2 A6 B6` (big-endian) or `B6 A6 F2 08` (little-endian), then width, height, bands and
    /// a band format of at most 9, in that byte order.
    static func vips(_ input: Input) -> Step {
        let v = input.view
        let big: Bool
        if v.prefixMatches(0x08F2_A6B6, length: 4) { big = true } else if v.prefixMatches(0xB6A6_F208, length: 4) { big = false } else { return .no }
        guard let width = v.u32(4, bigEndian: big), let height = v.u32(8, bigEndian: big), let bands = v.u32(12, bigEndian: big),
              let format = v.u32(20, bigEndian: big) else { return .need(24, fallback: nil) }
        return width > 0 && height > 0 && bands > 0 && format <= 9 ? .hit(Hit(.vips)) : .no
    }

    /// `PG ML ` or `PG LM ` (byte order), an optional sign, then depth, width and height.
    static func pgx(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("PG ML ") || v.matchesAvailablePrefix("PG LM ") else { return .no }
        // The header is read as far as it goes: a bytes-in-view minimum would cut off a whole
        // small file (`PG ML + 8 1 1` and one sample are 15 bytes), and each number and the line's
        // end ask for more themselves when the view ends first.
        var o = 6
        if let sign = v.u8(o), sign == UInt8(ascii: "+") || sign == UInt8(ascii: "-") { o += 1 }
        var numbers = 0
        while numbers < 3 {
            while let b = v.u8(o), b == 0x20 { o += 1 }
            var digits = 0
            while let b = v.u8(o), ByteView.isDigit(b), digits < 10 { o += 1; digits += 1 }
            guard digits > 0 else { return v.count <= o ? .need(o + 16, fallback: nil) : .no }
            numbers += 1
        }
        guard let end = v.u8(o) else { return .need(o + 1, fallback: nil) }
        return end == 0x0A || end == 0x0D ? .hit(Hit(.pgx)) : .no
    }

    static func pixar(_ input: Input) -> Step {
        input.view.signature(0x80E8_0000, length: 4) ?? .hit(Hit(.pixar))
    }

    /// PIL's IM: an ASCII header of `key: value` lines starting with `Image type:`, ended by a
    /// 0x1A byte before 1 KiB (text never has one).
    static func pillowIM(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("Image type: ") { return early }
        let end = min(v.count, 1024)
        if v.find("\u{1A}", in: 12..<end) != nil { return .hit(Hit(.pillowIM)) }
        return v.count < 1024 && input.hasMore ? .need(1024, fallback: nil) : .no
    }

    /// PIL's IM header lines (before the 0x1A that ends them, within 1 KiB): `Image size (x*y):
    /// W*H`, `Image type:` (`RGB`, `RGBA`, `RGBX`, `CMYK`, `Greyscale` and `LA` (grey and
    /// alpha), these two with `Lut:` a palette, as Pillow writes P and PA; `YCC`: YCbCr, decoded
    /// to RGB; `0 1`: bilevel; `L 16`, `L 16B`, `L 16L`: 16-bit grey; `L 32S`, `L 32F`: 32-bit
    /// grey) and `File size (no of images):` (frames).
    static func pillowIMProperties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let end = v.find("\u{1A}", in: 0..<min(v.count, 1024)) else {
            return v.count < 1024 && input.hasMore ? .need(1024, partial: .unknown) : .done(.unknown)
        }
        var p = ImageProperties()
        var o = 0
        while o < end {
            let lineEnd = v.find("\n", in: o..<end) ?? end
            if v.matches("Image size (x*y):", at: o) {
                var at = o + 17
                if let w = v.decimal(at: &at, lead: .whitespace), v.u8(at) == UInt8(ascii: "*") {
                    at += 1
                    if let h = v.decimal(at: &at, lead: .none) { (p.width, p.height) = (w, h) }
                }
            } else if v.matches("File size (no of images):", at: o) {
                var at = o + 25
                p.frameCount = v.decimal(at: &at, lead: .whitespace)
            } else if v.matches("Image type: ", at: o) {
                let t = o + 12
                if v.matches("RGBA ", at: t) { (p.colorModel, p.bitDepth, p.hasAlpha) = (.rgb, 8, true) }
                else if v.matches("RGB", at: t) { (p.colorModel, p.bitDepth, p.hasAlpha) = (.rgb, 8, false) }
                else if v.matches("CMYK ", at: t) { (p.colorModel, p.bitDepth, p.hasAlpha) = (.cmyk, 8, false) }
                else if v.matches("Greyscale ", at: t) { (p.colorModel, p.bitDepth, p.hasAlpha) = (.gray, 8, false) }
                else if v.matches("0 1 ", at: t) { (p.colorModel, p.bitDepth, p.hasAlpha) = (.gray, 1, false) }
                else if v.matches("L 32", at: t) { (p.colorModel, p.bitDepth, p.hasAlpha) = (.gray, 32, false) }
                else if v.matches("L 16", at: t) { (p.colorModel, p.bitDepth, p.hasAlpha) = (.gray, 16, false) }
                else if v.matches("LA ", at: t) { (p.colorModel, p.bitDepth, p.hasAlpha) = (.gray, 8, true) }
                else if v.matches("YCC ", at: t) { (p.colorModel, p.bitDepth, p.hasAlpha) = (.rgb, 8, false) }
            } else if v.matches("Lut:", at: o), p.colorModel == .gray {
                p.colorModel = .indexed
            }
            o = lineEnd + 1
        }
        return .done(p)
    }

    /// `gd2\0`, version 1 or 2, width, height, chunk size and a format of 1-4.
    static func gd2(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("gd2\0") { return early }
        guard let version = v.u16be(4), let width = v.u16be(6), let height = v.u16be(8), let chunk = v.u16be(10),
              let format = v.u16be(12) else { return .need(14, fallback: nil) }
        return (version == 1 || version == 2) && width > 0 && height > 0 && chunk > 0 && (1...4).contains(format)
            ? .hit(Hit(.gd2)) : .no
    }

    /// GD: `FF FF` (palette) or `FF FE` (true colour, which is also UTF-16's byte-order mark),
    /// width and height; named only when the pixels fill the file exactly.
    static func gd(_ input: Input) -> Step {
        let v = input.view
        guard let second = v.u8(1), second == 0xFF || second == 0xFE else { return .no }
        guard let width = v.u16be(2), let height = v.u16be(4), let trueColor = v.u8(6), width > 0, height > 0 else { return .no }
        let pixels = Int(width) * Int(height)
        let expected = second == 0xFE ? 11 + 4 * pixels : 13 + 256 * 4 + pixels
        guard trueColor == (second == 0xFE ? 1 : 0), input.totalLength == expected else { return .no }
        return .hit(Hit(.gd, .likely))
    }

    /// MTV: an ASCII line "WIDTH HEIGHT" and then exactly WIDTH x HEIGHT RGB triples (or several
    /// such images one after the other).
    static func mtv(_ input: Input) -> Step {
        let v = input.view
        var o = 0
        var size = (0, 0)
        for index in 0..<2 {
            var value = 0, digits = 0
            while let b = v.u8(o), ByteView.isDigit(b), digits < 6 { value = value * 10 + Int(b - 0x30); o += 1; digits += 1 }
            guard digits > 0, value > 0, let separator = v.u8(o), separator == (index == 0 ? 0x20 : 0x0A) else { return .no }
            o += 1
            if index == 0 { size.0 = value } else { size.1 = value }
        }
        // One image, or several of this size one after the other: the second's header line must
        // then be the first's (read when it is not in view).
        let image = o + size.0 * size.1 * 3
        guard input.totalLength >= image, input.totalLength % image == 0 else { return .no }
        if input.totalLength > image {
            guard v.has(image, o) else { return .need(image + o, fallback: nil) }
            if (0..<o).contains(where: { v.u8($0) != v.u8(image + $0) }) { return .no }
        }
        return .hit(Hit(.mtv, .likely))
    }

    /// Alias PIX: width, height, two offsets and 8 or 24 bits a pixel, big-endian.
    static func aliasHeader(_ v: ByteView) -> (width: Int, height: Int, bytes: Int)? {
        guard let width = v.u16be(0), let height = v.u16be(2), let bits = v.u16be(8) else { return nil }
        guard width > 0, height > 0, width <= 32767, height <= 32767, bits == 8 || bits == 24 else { return nil }
        guard let x = v.u16be(4), let y = v.u16be(6), x <= 32767, y <= 32767 else { return nil }
        return (Int(width), Int(height), bits == 24 ? 3 : 1)
    }

    /// Alias PIX has no magic: its run-length packets must cover the first rows exactly (a count
    /// of 1-255, then one pixel, never across the end of a row).
    static func aliasPIX(_ input: Input) -> Step {
        let v = input.view
        guard let (width, height, bytes) = aliasHeader(v) else { return .no }
        guard input.totalLength >= 10 + height * (1 + bytes) else { return .no }
        var o = 10
        let rows = min(height, 8)
        for _ in 0..<rows {
            var covered = 0
            while covered < width {
                guard let count = v.u8(o) else { return input.hasMore ? .need(o + Limits.initialRead, fallback: nil) : .no }
                guard count > 0 else { return .no }
                covered += Int(count)
                o += 1 + bytes
            }
            guard covered == width else { return .no }
        }
        return .hit(Hit(.aliasPIX, .likely))
    }
}

// MARK: - Properties

extension GraphicsSoftware {
    static let readers = [
        PropertyReader([.gd], read: { input, _ in
            // The signature (FFFE true colour, FFFF palette), then width and height (big-endian).
            let v = input.view
            guard let signature = v.u16be(0), let w = v.u16be(2), let h = v.u16be(4) else { return .need(6, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: 8,
                                         colorModel: signature == 0xFFFE ? .rgb : .indexed, frameCount: 1))
        }),
        PropertyReader([.gd2], read: { input, _ in
            // `gd2\0`, the version, then width and height (big-endian).
            let v = input.view
            guard let w = v.u16be(6), let h = v.u16be(8) else { return .need(10, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: 8, frameCount: 1))
        }),
        PropertyReader([.vips], read: { input, _ in
            // The magic in the file's byte order, then width, height and bands (32-bit).
            let v = input.view
            let big = v.u8(0) == 0x08
            guard let w = v.u32(4, bigEndian: big), let h = v.u32(8, bigEndian: big), let bands = v.u32(12, bigEndian: big) else {
                return .need(16, partial: .unknown)
            }
            return .done(ImageProperties(width: Int(w), height: Int(h), colorModel: bands >= 3 ? .rgb : .gray,
                                         hasAlpha: bands == 2 || bands == 4, frameCount: 1))
        }),
        PropertyReader([.pgx], read: { input, _ in
            // `PG ML + 8 W H`: byte order, sign, depth, width, height.
            let v = input.view
            guard let line = v.find("\n", in: 0..<min(v.count, 256)) else { return .need(256, partial: .unknown) }
            var o = 6  // after "PG ML " or "PG LM "
            while let b = v.u8(o), b == 0x20 { o += 1 }
            if let b = v.u8(o), b == UInt8(ascii: "+") || b == UInt8(ascii: "-") { o += 1 }
            guard o < line, let depth = v.decimal(at: &o, lead: .spacesAndZeros), let w = v.decimal(at: &o, lead: .spacesAndZeros), let h = v.decimal(at: &o, lead: .spacesAndZeros) else { return .done(.unknown) }
            return .done(ImageProperties(width: w, height: h, bitDepth: depth, colorModel: .gray, hasAlpha: false, frameCount: 1))
        }),
        PropertyReader([.mtv], read: { input, _ in
            // `W H` and a newline, then W x H RGB triplets; images of one size may follow.
            let v = input.view
            var o = 0
            guard let w = v.decimal(at: &o, lead: .spacesAndZeros), let h = v.decimal(at: &o, lead: .spacesAndZeros), w > 0, h > 0, w < 1_000_000, h < 1_000_000 else { return .done(.unknown) }
            let image = o + 1 + w * h * 3
            let total = input.totalLength
            let frames = total < Input.unknownLength && total % image == 0 ? total / image : nil
            return .done(ImageProperties(width: w, height: h, bitDepth: 8, colorModel: .rgb, hasAlpha: false, frameCount: frames))
        }),
        PropertyReader([.utahRLE], read: { input, _ in
            // Little-endian: xpos, ypos, xlen, ylen, flags, ncolors.
            let v = input.view
            guard let w = v.u16le(6), let h = v.u16le(8), let colours = v.u8(11) else { return .need(12, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), colorModel: colours >= 3 ? .rgb : .gray, frameCount: 1))
        }),
        PropertyReader([.pillowIM], read: pillowIMProperties),
        PropertyReader([.viff], read: { input, _ in
            // After the 520-byte preamble: row size (width) and column size (height), in the byte
            // order the machine-dependency byte says (2: big-endian).
            let v = input.view
            guard let dep = v.u8(4), let w = v.u32(520, bigEndian: dep == 2), let h = v.u32(524, bigEndian: dep == 2) else {
                return .need(528, partial: .unknown)
            }
            return .done(ImageProperties(width: Int(w), height: Int(h), frameCount: 1))
        }),
    ]
}
