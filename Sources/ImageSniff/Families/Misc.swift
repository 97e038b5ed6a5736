// Formats with a fixed signature and a few header fields worth checking, and the magic-less
// formats (TGA, PICT, MacPaint, WBMP) that only plausibility checks (and a hint) can name.

enum Misc {
    // MARK: Fixed signatures with header checks

    static func bmp(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(1) == UInt8(ascii: "M") else { return .no }
        // Cut short: a BMP header has zero bytes early on; two letters and then prose is text.
        if v.count < 18 {
            let reservedInUse = v.count >= 8 && (v.base[6] != 0 || v.base[7] != 0)
            return reservedInUse && Text.isText(v, upTo: v.count, dataEndsAtView: false) ? .no : .need(18, fallback: nil)
        }
        guard let dib = v.u32le(14), let pixels = v.u32le(10) else { return .need(18, fallback: nil) }
        switch dib {
        case 12, 16, 24, 40, 48, 52, 56, 64, 108, 124: break
        default: return .no
        }
        let planesAt = dib == 12 ? 22 : 26
        guard let planes = v.u16le(planesAt) else { return .need(planesAt + 2, fallback: nil) }
        guard planes == 1, pixels >= 14 + dib || pixels == 0 else { return .no }
        return .hit(Hit(.bmp))
    }

    static func bpg(_ input: Input) -> Step {
        input.view.signature(0x4250_47FB, length: 4) ?? .hit(Hit(.bpg))
    }

    /// ICO (type 1) and CUR (type 2): a count, then 16-byte entries pointing past the directory.
    static func icoCur(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(1) == 0, let type = v.u16le(2), type == 1 || type == 2 else { return .no }
        guard let count = v.u16le(4), let size = v.u32le(14), let offset = v.u32le(18), let reserved = v.u8(9) else {
            return .need(22, fallback: nil)
        }
        guard count >= 1, count <= 512, size > 0, offset >= 6 + 16 * UInt32(count), reserved == 0 || reserved == 255 else { return .no }
        if type == 1 {
            // Icons: planes 0 or 1, bit count 0, 1, 4, 8, 16, 24 or 32.
            let planes = v.u16le(10) ?? 0, bits = v.u16le(12) ?? 0
            guard planes <= 1, [0, 1, 4, 8, 16, 24, 32].contains(bits) else { return .no }
            return .hit(Hit(.ico))
        }
        return .hit(Hit(.cur))
    }

    static func icns(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("icns") { return early }
        guard let length = v.u32be(4) else { return .need(8, fallback: nil) }
        guard length >= 8 else { return .no }
        // The first element's type must be a four-character code.
        guard v.count >= 12 else { return .need(12, fallback: nil) }
        for i in 8..<12 where !ByteView.isFourCCByte(v.base[i]) && v.base[i] != UInt8(ascii: "#") { return .no }
        return .hit(Hit(.icns))
    }

    static func mrw(_ input: Input) -> Step {
        input.view.signature("\0MRM") ?? .hit(Hit(.mrw))
    }

    /// X Window Dump: header size, then file version 7, in either byte order.
    static func xwd(_ input: Input) -> Step {
        let v = input.view
        guard let sizeBE = v.u32be(0), let versionBE = v.u32be(4) else { return .no }
        for big in [true, false] {
            let size = big ? sizeBE : (v.u32le(0) ?? 0)
            let version = big ? versionBE : (v.u32le(4) ?? 0)
            if version == 7, size >= 100, size < 4096,
               let format = v.u32(8, bigEndian: big), format <= 2,
               let depth = v.u32(12, bigEndian: big), depth >= 1, depth <= 32 {
                return .hit(Hit(.xwd))
            }
        }
        return .no
    }

    /// SGI: magic 474, storage 0/1, bytes per channel 1/2, dimension 1–3.
    static func sgi(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(1) == 0xDA else { return .no }
        guard let storage = v.u8(2), let bpc = v.u8(3), let dim = v.u16be(4) else { return .need(6, fallback: nil) }
        return storage <= 1 && (bpc == 1 || bpc == 2) && dim >= 1 && dim <= 3 ? .hit(Hit(.sgi)) : .no
    }

    /// PCX: `0A`, version, encoding, bits per pixel, a window that makes sense, reserved zero.
    static func pcx(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 66 else { return input.hasMore ? .need(128, fallback: nil) : .no }
        let version = v.base[1], encoding = v.base[2], bpp = v.base[3]
        guard [0, 2, 3, 4, 5].contains(version), encoding <= 1, [1, 2, 4, 8].contains(bpp) else { return .no }
        guard let xmin = v.u16le(4), let ymin = v.u16le(6), let xmax = v.u16le(8), let ymax = v.u16le(10) else { return .no }
        guard xmin <= xmax, ymin <= ymax, v.base[64] == 0, (1...4).contains(v.base[65]) else { return .no }
        return .hit(Hit(.pcx))
    }

    /// DCX: magic 987654321 (LE), then a table of page offsets.
    static func dcx(_ input: Input) -> Step {
        let v = input.view
        guard v.u32le(0) == 987_654_321 else { return v.count < 4 ? .no : .no }
        guard let first = v.u32le(4) else { return .need(8, fallback: nil) }
        return first >= 8 ? .hit(Hit(.dcx)) : .no
    }

    static func radiance(_ input: Input) -> Step {
        let v = input.view
        if v.matches("#?RADIANCE") || v.matches("#?RGBE") { return .hit(Hit(.radianceHDR)) }
        let partial = (v.matchesAvailablePrefix("#?RADIANCE") && v.count < 10) || (v.matchesAvailablePrefix("#?RGBE") && v.count < 6)
        return partial ? .need(10, fallback: nil) : .no
    }

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

    static func djvu(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("AT&TFORM") { return early }
        guard v.has(12, 4) else { return .need(16, fallback: nil) }
        return v.matches("DJVU", at: 12) || v.matches("DJVM", at: 12) || v.matches("DJVI", at: 12) || v.matches("THUM", at: 12)
            ? .hit(Hit(.djvu)) : .no
    }

    /// `FLIF`, a format byte (non-interlaced, interlaced or animated, by number of planes), and
    /// bytes per channel `0`–`2`.
    static func flif(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("FLIF") { return early }
        guard let format = v.u8(4), let bpc = v.u8(5) else { return .need(6, fallback: nil) }
        guard bpc >= 0x30 && bpc <= 0x32 else { return .no }
        switch format {
        case UInt8(ascii: "1"), UInt8(ascii: "3"), UInt8(ascii: "4"),
             UInt8(ascii: "A"), UInt8(ascii: "C"), UInt8(ascii: "D"):
            return .hit(Hit(.flif))
        case UInt8(ascii: "Q"), UInt8(ascii: "S"), UInt8(ascii: "T"),
             UInt8(ascii: "a"), UInt8(ascii: "c"), UInt8(ascii: "d"):
            return .hit(Hit(.flif, animated: true))
        default:
            return .no
        }
    }

    /// FITS: the first 80-character card is `SIMPLE  =` with the logical value `T` in column 30.
    static func fits(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("SIMPLE  =") { return early }
        guard let value = v.u8(29) else { return .need(80, fallback: nil) }
        return value == UInt8(ascii: "T") ? .hit(Hit(.fits)) : .no
    }

    /// DPX: `SDPX` (big-endian) or `XPDS` (little-endian), version `V1.0`/`V2.0` at 8.
    static func dpx(_ input: Input) -> Step {
        let v = input.view
        guard v.matches("SDPX") || v.matches("XPDS") else {
            return v.count < 4 && (v.matchesAvailablePrefix("SDPX") || v.matchesAvailablePrefix("XPDS")) ? .need(4, fallback: nil) : .no
        }
        guard v.has(8, 2) else { return .need(12, fallback: nil) }
        let vee = v.base[8]
        return (vee == UInt8(ascii: "V") || vee == UInt8(ascii: "v")) && ByteView.isDigit(v.base[9]) ? .hit(Hit(.dpx)) : .no
    }

    static func sun(_ input: Input) -> Step {
        input.view.signature(0x59A6_6A95, length: 4) ?? .hit(Hit(.sunRaster))
    }

    static func farbfeld(_ input: Input) -> Step {
        input.view.signature("farbfeld") ?? .hit(Hit(.farbfeld))
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

    /// `qoif`, width and height, 3 or 4 channels, colour space 0 or 1.
    static func qoi(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("qoif") { return early }
        guard let channels = v.u8(12), let space = v.u8(13) else { return .need(14, fallback: nil) }
        return (channels == 3 || channels == 4) && space <= 1 ? .hit(Hit(.qoi)) : .no
    }

    static func exr(_ input: Input) -> Step {
        input.view.signature("\u{76}\u{2F}\u{31}\u{01}") ?? .hit(Hit(.openEXR))
    }

    /// Cineon: `80 2A 5F D7` big-endian, or the little-endian reverse.
    static func cineon(_ input: Input) -> Step {
        let v = input.view
        return v.u32be(0) == 0x802A_5FD7 || v.u32le(0) == 0x802A_5FD7 ? .hit(Hit(.cineon)) : .no
    }

    /// A naked JPEG XL codestream: `FF 0A` and a size header whose first byte is not zero.
    static func jxlCodestream(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(1) == 0x0A else { return .no }
        guard let b = v.u8(2) else { return .need(3, fallback: nil) }
        return b != 0 ? .hit(Hit(.jpegXL)) : .no
    }

    // MARK: Evidence away from offset 0

    /// DICOM: a 128-byte preamble, then `DICM`.
    static func dicom(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 132 else { return input.hasMore ? .need(132, fallback: nil) : .no }
        return v.matches("DICM", at: 128) ? .hit(Hit(.dicom)) : .no
    }

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
    /// opcode. Version 2 (`00 11 02 FF`) with a sane frame is taken; version 1 only with a hint.
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

    /// TGA: the TGA 2.0 footer in the last 18 bytes decides; otherwise an uncompressed image
    /// whose header fields are valid and whose size matches the file to the byte is likely.
    static func tga(_ input: Input) -> Step {
        let v = input.view
        guard tgaHeaderIsPlausible(v) else { return .no }
        let tail = input.tail ?? (input.isWhole ? v : nil)
        guard let tail else { return .needTail(fallback: sizeMatches(input) ? Hit(.tga, .likely) : nil) }
        if tail.count >= 18, tail.matches("TRUEVISION-XFILE.\0", at: tail.count - 18) { return .hit(Hit(.tga)) }
        if sizeMatches(input) { return .hit(Hit(.tga, .likely)) }
        // Run-length encoded: the packets must decode to exactly width × height pixels and end
        // where the file does. Only worth it (and only possible) when the file fits the read cap.
        guard rleImageType(v) else { return .no }
        guard input.totalLength <= Limits.maxPrefix else { return .no }
        guard input.isWhole else { return .need(input.totalLength, fallback: nil) }
        return rleStreamEndsAtEndOfFile(v) ? .hit(Hit(.tga, .likely)) : .no
    }

    private static func rleImageType(_ v: ByteView) -> Bool {
        let t = v.base[2]
        return t == 9 || t == 10 || t == 11
    }

    /// Decodes TGA run-length packets from after the header, ID and colour map.
    private static func rleStreamEndsAtEndOfFile(_ v: ByteView) -> Bool {
        let mapBytes = v.base[1] == 1 ? Int(v.u16le(5) ?? 0) * ((Int(v.base[7]) + 7) / 8) : 0
        let width = Int(v.u16le(12) ?? 0), height = Int(v.u16le(14) ?? 0)
        let pixelBytes = (Int(v.base[16]) + 7) / 8
        var o = 18 + Int(v.base[0]) + mapBytes
        var pixels = 0
        let wanted = width * height
        while pixels < wanted {
            guard let packet = v.u8(o) else { return false }
            let n = Int(packet & 0x7F) + 1
            o += 1 + (packet & 0x80 != 0 ? pixelBytes : n * pixelBytes)
            pixels += n
        }
        guard pixels == wanted, o <= v.count else { return false }
        // The image data ends the file, or a TGA 2.0 extension area / developer area follows
        // (then a footer would have been found); allow a few bytes of padding.
        return v.count - o <= 8
    }

    static func tgaHeaderIsPlausible(_ v: ByteView) -> Bool {
        guard v.count >= 18 else { return false }
        let idLength = v.base[0], mapType = v.base[1], imageType = v.base[2]
        _ = idLength
        guard mapType <= 1 else { return false }
        switch imageType {
        case 1, 2, 3, 9, 10, 11, 32, 33: break
        default: return false
        }
        let mapped = imageType == 1 || imageType == 9 || imageType == 32 || imageType == 33
        if mapped != (mapType == 1) { return false }
        let mapEntrySize = v.base[7]
        if mapType == 1 {
            guard [15, 16, 24, 32].contains(mapEntrySize), let length = v.u16le(5), length > 0 else { return false }
        } else {
            guard v.u16le(3) == 0, v.u16le(5) == 0, mapEntrySize == 0 else { return false }
        }
        guard let width = v.u16le(12), let height = v.u16le(14), width > 0, height > 0 else { return false }
        let depth = v.base[16], descriptor = v.base[17]
        guard [1, 8, 15, 16, 24, 32].contains(depth) else { return false }
        guard descriptor & 0xC0 == 0 else { return false }  // interleaving bits: never used
        let alphaBits = descriptor & 0x0F
        return alphaBits <= 8
    }

    /// For uncompressed TGA: header + ID + colour map + pixels equals the file length (or that
    /// plus a TGA 2.0 extension area and footer).
    private static func sizeMatches(_ input: Input) -> Bool {
        let v = input.view
        let imageType = v.base[2]
        guard imageType == 1 || imageType == 2 || imageType == 3 else { return false }
        let mapBytes = v.base[1] == 1 ? Int(v.u16le(5) ?? 0) * ((Int(v.base[7]) + 7) / 8) : 0
        let width = Int(v.u16le(12) ?? 0), height = Int(v.u16le(14) ?? 0)
        let pixelBytes = (Int(v.base[16]) + 7) / 8
        let expected = 18 + Int(v.base[0]) + mapBytes + width * height * pixelBytes
        return input.totalLength == expected
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
        func multiByte() -> Int? {
            var value = 0
            for _ in 0..<4 {
                guard let b = v.u8(o) else { return nil }
                o += 1
                value = value << 7 | Int(b & 0x7F)
                if b & 0x80 == 0 { return value }
            }
            return nil
        }
        guard let width = multiByte(), let height = multiByte(), width > 0, height > 0, width <= 65535, height <= 65535 else { return false }
        return o + (width + 7) / 8 * height == totalLength
    }
}

enum Textures {
    static func dds(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("DDS ") { return early }
        guard let size = v.u32le(4) else { return .need(8, fallback: nil) }
        return size == 124 ? .hit(Hit(.dds)) : .no
    }

    static func ktx(_ input: Input) -> Step {
        let v = input.view
        let tail = v.equals(0x0D0A_1A0A, length: 4, at: 8)
        if v.equals(0xAB4B_5458_2031_31BB, length: 8), tail { return .hit(Hit(.ktx)) }
        if v.equals(0xAB4B_5458_2032_30BB, length: 8), tail { return .hit(Hit(.ktx2)) }
        return v.count < 12 && v.prefixMatches(0xAB4B_5458_20, length: 5) ? .need(12, fallback: nil) : .no
    }

    /// ASTC: magic, then block dimensions (2D 4–12, 3D 3–6).
    static func astc(_ input: Input) -> Step {
        let v = input.view
        guard v.u32le(0) == 0x5CA1_AB13 else { return .no }
        guard let x = v.u8(4), let y = v.u8(5), let z = v.u8(6) else { return .need(16, fallback: nil) }
        return (3...12).contains(x) && (3...12).contains(y) && (1...6).contains(z) ? .hit(Hit(.astc)) : .no
    }

    /// PVR version 3 (`PVR\x03`, or the byte-swapped `\x03RVP`).
    static func pvr(_ input: Input) -> Step {
        let v = input.view
        if v.matches("PVR\u{03}") || v.matches("\u{03}RVP") { return .hit(Hit(.pvr)) }
        let partial = v.count < 4 && (v.matchesAvailablePrefix("PVR\u{03}") || v.matchesAvailablePrefix("\u{03}RVP"))
        return partial ? .need(4, fallback: nil) : .no
    }

    /// Legacy PVR version 2: header size 52 at 0 and `PVR!` at 44.
    static func pvrLegacy(_ input: Input) -> Step {
        let v = input.view
        guard v.u32le(0) == 52 else { return .no }
        guard v.has(44, 4) else { return input.hasMore ? .need(52, fallback: nil) : .no }
        return v.matches("PVR!", at: 44) ? .hit(Hit(.pvr)) : .no
    }
}
