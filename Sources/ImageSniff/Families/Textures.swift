// Textures: DDS, KTX and KTX2, ASTC, PKM (ETC1/ETC2), PowerVR (version 3, and the legacy version 2 whose tag sits at
// offset 44), Apple's ATX container, and game textures (Blizzard BLP, Quake II WAL).

enum Textures: FormatFamily {
    static let rules = [
        Rule("DDS", .firstByte([0x44]), produces: [.dds], check: dds),
        Rule("KTX, KTX2", .firstByte([0xAB]), produces: [.ktx, .ktx2], check: ktx),
        Rule("ASTC", .firstByte([0x13]), produces: [.astc], check: astc),
        Rule("PVR v3", .firstByte([0x03, 0x50]), produces: [.pvr], check: pvr),
        Rule("PKM", .firstByte([0x50]), produces: [.pkm], check: pkm),
        Rule("Basis Universal", .firstByte([0x73]), produces: [.basis], check: basis),
        Rule("Blizzard BLP", .firstByte([0x42]), produces: [.blp], check: blp),
        Rule("Apple ATX", .firstByte([0x41]), produces: [.appleATX], check: atx),
        Rule("PVR v2 (PVR! at 44)", .elsewhere, produces: [.pvr], check: pvrLegacy),
        Rule("Quake II WAL", .elsewhere, strength: .heuristic, produces: [.wal],
             hintPlausibility: { view, _ in walMipOffsetsAreExact(view) }, check: wal),
    ]

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

    /// PKM, Ericsson's ETC texture file (etcpack, Android's etc1tool): `PKM `, the version `10` or
    /// `20`, then big-endian 16-bit fields: the data type (ETC1 is 0; version 2 adds the ETC2
    /// and sRGB formats up to 11), the size padded to whole 4x4 blocks, and the image's size. The padded
    /// size is the image's rounded up to a multiple of 4.
    static func pkm(_ input: Input) -> Step {
        let v = input.view
        guard v.matches("PKM ") else { return v.count < 4 && v.matchesAvailablePrefix("PKM ") ? .need(16, fallback: nil) : .no }
        guard v.count >= 16 else { return .need(16, fallback: nil) }
        let version2 = v.matches("20", at: 4)
        guard version2 || v.matches("10", at: 4), let type = v.u16be(6), type <= (version2 ? 11 : 0),
              let paddedW = v.u16be(8).map(Int.init), let paddedH = v.u16be(10).map(Int.init),
              let w = v.u16be(12).map(Int.init), let h = v.u16be(14).map(Int.init),
              w > 0, h > 0, paddedW == (w + 3) & ~3, paddedH == (h + 3) & ~3 else { return .no }
        return .hit(Hit(.pkm))
    }

    /// Basis Universal (basisu's `.basis` file): a 77-byte little-endian header, its signature
    /// `sB`, version 0x13 (the one basisu writes), the header's size 77, then the data's size and
    /// CRCs, the slice and image counts (24 bits: at least one image, no more images than slices),
    /// the texture format and flags, the texture type (2D, 2D array, cube map array, video
    /// frames, volume: 0-4) and, at 65, the offset of the slice descriptions, which follow the
    /// header within the data.
    static func basis(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("sB") { return early }
        guard v.count >= 77 else { return .need(77, fallback: nil) }
        guard v.u16le(2) == 0x13, v.u16le(4) == 77, let dataSize = v.u32le(8), let slicesAt = v.u32le(65), let texType = v.u8(23) else { return .no }
        let slices = Int(v.u32le(14) ?? 0) & 0xFF_FFFF, images = Int(v.u32le(17) ?? 0) & 0xFF_FFFF
        guard slices >= 1, (1...slices).contains(images), texType <= 4, slicesAt >= 77,
              Int(slicesAt) + 23 * slices <= 77 + Int(dataSize) else { return .no }
        return .hit(Hit(.basis))
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

    /// `BLP1` or `BLP2` (`BLP0` for Warcraft III's beta), then fields in range: BLP1's
    /// compression (0 JPEG, 1 palette) and alpha bits; BLP2's type, encoding and alpha depth.
    static func blp(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("BLP") else { return .no }
        guard let version = v.u8(3), let width = v.u32le(12), let height = v.u32le(16) else { return .need(20, fallback: nil) }
        guard width > 0, height > 0, width <= 65536, height <= 65536 else { return .no }
        switch version {
        case UInt8(ascii: "0"), UInt8(ascii: "1"):
            guard let compression = v.u32le(4), let alpha = v.u32le(8) else { return .no }
            return compression <= 1 && [0, 1, 4, 8].contains(alpha) ? .hit(Hit(.blp)) : .no
        case UInt8(ascii: "2"):
            guard let type = v.u32le(4), let encoding = v.u8(8), let alpha = v.u8(9) else { return .no }
            return type <= 1 && (1...3).contains(encoding) && [0, 1, 4, 8].contains(alpha) ? .hit(Hit(.blp)) : .no
        default:
            return .no
        }
    }

    /// `AAPL` and the PNG-style `0D 0A 1A 0A`, then the `HEAD` chunk.
    static func atx(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature(0x4141_504C_0D0A_1A0A, length: 8) { return early }
        guard v.has(12, 4) else { return .need(16, fallback: nil) }
        return v.matches("HEAD", at: 12) ? .hit(Hit(.appleATX)) : .no
    }

    /// Quake II WAL: a 32-byte name, width and height (multiples of 8), and four mipmap offsets
    /// that follow from them exactly (100, then each level a quarter of the one before).
    static func walMipOffsetsAreExact(_ v: ByteView) -> Bool {
        guard let width = v.u32le(32), let height = v.u32le(36), width > 0, height > 0,
              width % 8 == 0, height % 8 == 0, width <= 4096, height <= 4096 else { return false }
        let area = Int(width) * Int(height)
        let expected = [100, 100 + area, 100 + area + area / 4, 100 + area + area / 4 + area / 16]
        for (i, offset) in expected.enumerated() where v.u32le(40 + 4 * i).map(Int.init) != offset { return false }
        // The name is printable ASCII, padded with zeros.
        for i in 0..<32 {
            let b = v.base[i]
            if b == 0 { break }
            if b < 0x20 || b > 0x7E { return false }
        }
        return true
    }

    static func wal(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 100, walMipOffsetsAreExact(v) else { return .no }
        return .hit(Hit(.wal, .likely))
    }
}

// MARK: - Whole-file check

extension Textures {
    /// Whole: a DDS's levels (`ddsStep`), a KTX's (`ktxStep`, `ktx2Step`); an ASTC file's
    /// blocks (16 bytes each, the image's size over the block's on each axis, rounded up);
    /// every mipmap a BLP1 or BLP2 header places (16 offsets, then 16 sizes) ends within the
    /// data, only the first when the header says it has no mipmaps. (A BLP0 keeps its mipmaps in
    /// other files.)
    static let verifiers = [
        Verifier([.dds]) { input, _, _ in ddsStep(input) },
        Verifier([.ktx]) { input, _, _ in ktxStep(input) },
        Verifier([.ktx2]) { input, _, _ in ktx2Step(input) },
        Verifier([.astc]) { input, _, _ in
            let v = input.view
            guard v.has(0, 16) else { return .needRange(0..<16) }  // past the end: truncated
            // Blocks of 16 bytes along each axis: the size in 24 bits over the block's side.
            let blocks = (0..<3).map { axis -> Int in
                let side = max(1, Int(v.u8(4 + axis)!)), at = 7 + 3 * axis  // 3-12 (detection checks), never 0
                // A size of 0 (invalid: astcenc writes 1 for a 2D image's depth) is taken as 1.
                let size = max(1, Int(v.u8(at)!) | Int(v.u8(at + 1)!) << 8 | Int(v.u8(at + 2)!) << 16)
                return (size + side - 1) / side
            }
            return Verifier.fits(16, blocks[0], blocks[1], blocks[2], 16, in: input.totalLength)
        },
        Verifier([.blp]) { input, _, _ in
            let v = input.view
            let table: Int, mipmapped: Bool
            switch v.u8(3) {
            case UInt8(ascii: "1"): table = 28; mipmapped = v.u32le(24).map { $0 != 0 } ?? false
            case UInt8(ascii: "2"): table = 20; mipmapped = v.u8(11).map { $0 != 0 } ?? false
            default: return .unknown
            }
            guard v.has(table, 128) else { return .needRange(table..<(table + 128)) }  // past the end: truncated
            var end = 0
            for level in 0..<(mipmapped ? 16 : 1) {
                let offset = Int(v.u32le(table + 4 * level)!), size = Int(v.u32le(table + 64 + 4 * level)!)
                if offset > 0 && size > 0 { end = max(end, offset + size) }
            }
            guard end > 0 else { return .unknown }
            return end <= input.totalLength ? .complete : .truncated
        },
    ]

    /// KTX 1: after the 64-byte header and its key/value data, each mipmap level: its size (4
    /// bytes, in the header's byte order), then its data: that size padded to 4 bytes, or six
    /// faces of it for a cube map that is not an array (whose size is one face's). The last
    /// level's padding may be left out.
    static func ktxStep(_ input: Input) -> VerifyStep {
        let v = input.view, length = input.totalLength
        guard v.has(0, 64) else { return .needRange(0..<64) }  // past the end: truncated
        let bigEndian: Bool
        switch v.u32le(12)! {
        case 0x0403_0201: bigEndian = false
        case 0x0102_0304: bigEndian = true
        default: return .unknown
        }
        func field(_ at: Int) -> Int { Int(v.u32(at, bigEndian: bigEndian)!) }
        let levels = max(1, field(56))
        guard levels <= 32 else { return .unknown }  // 2^32 pixels a side have 33 levels at most
        let cube = field(52) == 6 && field(48) == 0
        var at = 64 + field(60)
        for level in 1...levels {
            guard at + 4 <= length else { return .truncated }
            guard v.has(at, 4) else { return .needRange(at..<(at + 4)) }
            let size = field(at), padded = (size + 3) & ~3
            let end = at + 4 + (cube ? 5 * padded + size : size)
            if level == levels { return end <= length ? .complete : .truncated }
            at += 4 + (cube ? 6 : 1) * padded
        }
        return .unknown
    }

    /// KTX 2: the data its index places ends within the file: each level's (byte offset and
    /// length, 8 bytes each, in the level index at 80: one level when the count is 0), the
    /// data format descriptor's, the key/value data's and the supercompression data's.
    static func ktx2Step(_ input: Input) -> VerifyStep {
        let v = input.view
        guard v.has(0, 80) else { return .needRange(0..<80) }  // past the end: truncated
        let levels = max(1, Int(v.u32le(40)!))
        guard levels <= 32 else { return .unknown }
        let index = 80..<(80 + 24 * levels)
        guard v.has(index) else { return .needRange(index) }
        func u64(_ at: Int) -> UInt64 { v.u64(at, bigEndian: false)! }
        var parts = [(u64(64), u64(72)), (UInt64(v.u32le(48)!), UInt64(v.u32le(52)!)), (UInt64(v.u32le(56)!), UInt64(v.u32le(60)!))]
        for at in stride(from: index.lowerBound, to: index.upperBound, by: 24) { parts.append((u64(at), u64(at + 8))) }
        let length = UInt64(input.totalLength)
        for (offset, size) in parts where size > 0 {
            guard offset <= length, size <= length - offset else { return .truncated }
        }
        return .complete
    }

    /// DDS: after the 128-byte header (148 with a DX10 header), each face or array element's
    /// mipmap levels (each level half the one before, a volume's depth too): 4 x 4 blocks of 8 or
    /// 16 bytes for block-compressed formats (DXT1-5, BC1-7, ATI1/2), rows of the stated bits a
    /// pixel otherwise (a palette image: 1,024 bytes of palette first). Whole when the data holds
    /// every level, or, for one face, ends exactly where the first level does (writers state more
    /// levels than they write: Pillow's palette.dds holds the first of 8; a file that ends where
    /// a later level does has lost the rest). Formats not sized here, or a header whose pitch
    /// contradicts its bits a pixel, are not checked.
    static func ddsStep(_ input: Input) -> VerifyStep {
        let v = input.view
        guard v.has(0, 128) else { return .needRange(0..<128) }  // the header: past the end, truncated
        let flags = v.u32le(8)!, height = Int(v.u32le(12)!), width = Int(v.u32le(16)!), pitch = Int(v.u32le(20)!)
        let depth = Int(v.u32le(24)!), mipmaps = Int(v.u32le(28)!), formatFlags = v.u32le(80)!, code = v.u32be(84)!
        let bits = Int(v.u32le(88)!), caps2 = v.u32le(112)!
        guard width > 0, height > 0, width <= 1 << 16, height <= 1 << 16, depth <= 1 << 16 else { return .unknown }
        var start = 128, faces = 1
        // Bytes of a 4 x 4 block, or bits of a pixel.
        var block: Int?, pixelBits: Int?
        if formatFlags & 0x4 != 0 {  // a FourCC
            switch code {
            case fourCC("DXT1"), fourCC("ATI1"), fourCC("BC4U"), fourCC("BC4S"): block = 8
            case fourCC("DXT2"), fourCC("DXT3"), fourCC("DXT4"), fourCC("DXT5"), fourCC("ATI2"), fourCC("BC5U"), fourCC("BC5S"): block = 16
            case fourCC("DX10"):
                guard v.has(128, 20) else { return .needRange(128..<148) }  // past the end: truncated
                let format = v.u32le(128)!, misc = v.u32le(136)!, array = Int(v.u32le(140)!)
                guard array <= 1 << 12 else { return .unknown }
                start = 148
                faces = max(array, 1) * (misc & 0x4 != 0 ? 6 : 1)
                switch format {
                case 70...72, 79...81: block = 8  // BC1, BC4
                case 73...78, 82...84, 94...99: block = 16  // BC2, BC3, BC5, BC6H, BC7
                case 1...4: pixelBits = 128  // R32G32B32A32
                case 9...14, 15...18: pixelBits = 64  // R16G16B16A16, R32G32
                case 23...47, 87, 88, 90, 91: pixelBits = 32  // R10G10B10A2 ... R8G8B8A8, B8G8R8A8/X8
                case 48...59: pixelBits = 16  // R8G8, R16
                case 60...65: pixelBits = 8  // R8, A8
                default: return .unknown
                }
            default: return .unknown
            }
        } else if formatFlags & 0x20 != 0 {  // palette-indexed: a palette of 256 colours, then bytes
            start += 1024
            pixelBits = 8
        } else if formatFlags & (0x40 | 0x2 | 0x20000 | 0x200) != 0, [8, 16, 24, 32, 64].contains(bits) {  // RGB, alpha, luminance, YUV
            pixelBits = bits
            if flags & 0x8 != 0, pitch > 0, pitch != (width * bits + 7) / 8 { return .unknown }  // a pitch that says otherwise
        } else {
            return .unknown
        }
        if caps2 & 0x200 != 0, start == 128 {  // a cube map: the faces its flags name (all six when none; a DX10 header counts them)
            let named = (caps2 & 0xFC00).nonzeroBitCount
            faces *= named == 0 ? 6 : named
        }
        let volume = caps2 & 0x200000 != 0 ? max(depth, 1) : 1
        // A face's levels, and its first level alone (relative to the data's start).
        var size = 0, firstLevel = 0
        for level in 0..<min(max(mipmaps, 1), 32) {
            let w = max(width >> level, 1), h = max(height >> level, 1), d = max(volume >> level, 1)
            if let block {
                size += (w + 3) / 4 * ((h + 3) / 4) * block * d
            } else if let pixelBits {
                size += (w * pixelBits + 7) / 8 * h * d
            }
            if level == 0 { firstLevel = size }
        }
        let (all, overflow) = size.multipliedReportingOverflow(by: faces)
        guard !overflow else { return .truncated }
        let length = input.totalLength
        if all <= length - start { return .complete }
        return faces == 1 && firstLevel == length - start ? .complete : .truncated
    }
}

// MARK: - Properties

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
        PropertyReader([.basis], read: { input, _ in
            // The first slice description (23 bytes): image index (24 bits), level, flags, then
            // the original width and height. Images: the header's count; alpha: the header's
            // flag for alpha slices (4).
            let v = input.view
            guard let slicesAt = v.u32le(65), let images = v.u32le(17), let flags = v.u16le(21) else { return .need(77, partial: .unknown) }
            var p = ImageProperties(hasAlpha: flags & 4 != 0, frameCount: Int(images & 0xFF_FFFF))
            let at = Int(slicesAt)
            guard let w = v.u16le(at + 5), let h = v.u16le(at + 7) else { return .need(at + 9, partial: p) }
            p.width = Int(w)
            p.height = Int(h)
            return .done(p)
        }),
        PropertyReader([.pkm], read: { input, _ in
            let v = input.view
            guard let w = v.u16be(12), let h = v.u16be(14) else { return .need(16, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), frameCount: 1))
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
