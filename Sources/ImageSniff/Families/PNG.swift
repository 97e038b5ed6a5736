// PNG (APNG when `acTL` comes before the first `IDAT`), and MNG and JNG, which share PNG's chunk
// layout with their own signatures.

enum PNG: FormatFamily {
    static let rules = [
        Rule("PNG, MNG, JNG", .firstByte([0x89, 0x8A, 0x8B]), produces: [.png, .mng, .jng], check: detect),
    ]

    static func detect(_ input: Input) -> Step {
        let v = input.view
        let type: ImageType
        let firstChunk: UInt32
        if v.prefixMatches(0x8950_4E47_0D0A_1A0A, length: 8) {
            type = .png; firstChunk = fourCC("IHDR")
        } else if v.prefixMatches(0x8A4D_4E47_0D0A_1A0A, length: 8) {
            type = .mng; firstChunk = fourCC("MHDR")
        } else if v.prefixMatches(0x8B4A_4E47_0D0A_1A0A, length: 8) {
            type = .jng; firstChunk = fourCC("JHDR")
        } else {
            return .no
        }
        guard v.count >= 16 else { return .need(16, fallback: v.count >= 8 ? Hit(type) : nil) }
        // Apple's CgBI chunk may precede IHDR.
        var offset = 8
        if type == .png, v.u32be(12) == fourCC("CgBI") { offset = 8 + 12 + 4 }
        guard let chunk = v.u32be(offset + 4) else { return .need(offset + 8, fallback: Hit(type)) }
        guard chunk == firstChunk else { return .no }
        if type == .mng {
            // MHDR: width, height, ticks per second, layer count, then the nominal frame count
            // (0 = unspecified); otherwise count the embedded images.
            guard let frames = v.u32be(offset + 8 + 16) else { return .need(offset + 8 + 20, fallback: Hit(.mng)) }
            if frames > 1 { return .hit(Hit(.mng, animated: true)) }
            if frames == 1 { return .hit(Hit(.mng)) }
            return mngImageCount(v, from: offset)
        }
        guard type == .png else { return .hit(Hit(type)) }

        // Walk chunks to the first IDAT looking for acTL.
        var chunks = Chunks(v, .png, from: offset)
        while let chunk = chunks.next() {
            if chunk.name == fourCC("acTL") { return .hit(Hit(.png, animated: true)) }
            if chunk.name == fourCC("IDAT") || chunk.name == fourCC("IEND") || chunk.isOversized { return .hit(Hit(.png)) }
        }
        if let wanted = chunks.needs { return .need(wanted.upperBound, fallback: Hit(.png)) }
        return .hit(Hit(.png))
    }
}

extension PNG {
    /// More than one embedded PNG or JNG (or a FRAM chunk) makes an MNG an animation. The
    /// walk is worth `Budget.frameWalk`.
    static func mngImageCount(_ v: ByteView, from start: Int) -> Step {
        var images = 0
        var chunks = Chunks(v, .png, from: start)
        while let chunk = chunks.next() {
            if chunk.name == fourCC("IHDR") || chunk.name == fourCC("JHDR") { images += 1 }
            if images > 1 || chunk.name == fourCC("FRAM") { return .hit(Hit(.mng, animated: true)) }
            if chunk.name == fourCC("MEND") || chunk.isOversized { return .hit(Hit(.mng)) }
        }
        if let wanted = chunks.needs {
            return wanted.lowerBound < Budget.frameWalk ? .need(wanted.upperBound, fallback: Hit(.mng)) : .hit(Hit(.mng))
        }
        return .hit(Hit(.mng))
    }
}

// MARK: - Properties

extension PNG {
    static let readers = [
        PropertyReader([.png, .mng, .jng], read: properties),
    ]

    static let verifiers = [
        Verifier([.png, .jng], walk: { _ in FrameWalk(.pngChunks(end: fourCC("IEND")), at: 8) }, check: verify),
        Verifier([.mng], walk: { _ in FrameWalk(.pngChunks(end: fourCC("MEND")), at: 8) }, check: verify),
    ]

    /// Whole: the data ends with its last chunk (IEND; an MNG's MEND), or else a walk over the
    /// chunks reaches it within the data (what follows it is a trailer).
    static func verify(_ input: Input, _ type: ImageType, _ walked: FrameWalk.Progress?) -> VerifyStep {
        let v = input.view, length = input.totalLength
        guard length >= 12 else { return .truncated }
        let tail = (length - 12)..<length
        guard v.has(tail) else { return .needRange(tail) }
        // The last chunk is empty; its CRC covers its name alone.
        let (name, crc): (UInt32, UInt32) = type == .mng ? (fourCC("MEND"), 0x2120_F7D5) : (fourCC("IEND"), 0xAE42_6082)
        if v.u32be(tail.lowerBound) == 0, v.u32be(tail.lowerBound + 4) == name, v.u32be(tail.lowerBound + 8) == crc {
            return .complete
        }
        guard let walked else { return .needWalk }
        return Verifier.step(for: walked)
    }

    /// A PNG four-byte unsigned integer: PNG (3rd edition, 7.1), MNG and JNG limit them to
    /// 0...2^31-1, so a larger value is not stated (a hostile header's 2^31+1 frames or pixels).
    static func pngInteger(_ value: UInt32?) -> Int? {
        guard let value, value <= UInt32(Int32.max) else { return nil }
        return Int(value)
    }

    /// IHDR's colour type: grey (0, 4 with alpha), RGB (2, 6 with alpha) or a palette (3).
    /// Without alpha in the type, a tRNS chunk before the image data gives it.
    static func colour(_ type: UInt8) -> (model: ImageProperties.ColorModel?, hasAlpha: Bool) {
        switch type {
        case 0, 4: return (.gray, type == 4)
        case 2, 6: return (.rgb, type == 6)
        case 3: return (.indexed, false)
        default: return (nil, false)
        }
    }

    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var offset = 8
        if type == .png, v.u32be(12) == fourCC("CgBI") { offset = 8 + 12 + 4 }
        var p = ImageProperties()
        guard v.has(offset, 8 + 13) else { return .need(offset + 8 + 13, partial: p) }
        let header = offset + 8
        p.width = pngInteger(v.u32be(header))
        p.height = pngInteger(v.u32be(header + 4))
        switch type {
        case .mng:
            // MHDR: frame width and height, ticks, layers, then the nominal frame count.
            if let frames = pngInteger(v.u32be(header + 16)), frames > 0 { p.frameCount = frames }
            return .done(p)
        case .jng:
            // JHDR: width, height, colour type (8 gray, 10 colour, 12 gray-alpha, 14 colour-alpha),
            // image sample depth.
            let colour = v.base[header + 8]
            p.colorModel = colour == 8 || colour == 12 ? .gray : .rgb
            p.hasAlpha = colour == 12 || colour == 14
            p.bitDepth = Int(v.base[header + 9])
            p.frameCount = 1
            return .done(p)
        default:
            return image(v, ihdr: offset)
        }
    }

    /// A PNG image's properties from its IHDR chunk at `ihdr` (after the signature, or CgBI) and
    /// the chunks before its image data: a PNG file's, and an icon's PNG entry's.
    static func image(_ v: ByteView, ihdr: Int) -> PropertyStep {
        var p = ImageProperties()
        guard v.has(ihdr, 8 + 13) else { return .need(ihdr + 8 + 13, partial: p) }
        let header = ihdr + 8
        p.width = pngInteger(v.u32be(header))
        p.height = pngInteger(v.u32be(header + 4))
        // IHDR: bit depth, colour type (0 gray, 2 RGB, 3 palette, 4 gray-alpha, 6 RGBA).
        let depth = v.base[header + 8], colour = v.base[header + 9]
        p.bitDepth = Int(depth)
        (p.colorModel, p.hasAlpha) = PNG.colour(colour)
        p.frameCount = 1
        p.hasICCProfile = false
        // The chunks before the image data.
        var chunks = Chunks(v, .png, from: header + 13 + 4)
        while let chunk = chunks.next() {
            if chunk.name == fourCC("IDAT") || chunk.name == fourCC("IEND") || chunk.isOversized { return .done(p) }
            switch chunk.name {
            case fourCC("tRNS"): p.hasAlpha = true
            case fourCC("iCCP"):
                // A profile name, NUL, method 0, then a zlib stream: its two-byte header must be
                // one (deflate, a window of at most 32 KiB, a check that divides by 31), or the
                // profile is not usable (Pillow's icc_profile_none.png).
                guard let name = v.find("\0", in: chunk.data..<min(chunk.dataEnd, chunk.data + 80)) else { break }
                if let cmf = v.u8(name + 2), let flg = v.u8(name + 3) {
                    p.hasICCProfile = cmf & 0x0F == 8 && cmf >> 4 <= 7 && (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0
                } else {
                    p.hasICCProfile = true  // its header out of view: as it says
                }
            case fourCC("acTL"):
                // num_frames: 0 is not a valid value (APNG 1.0, acTL).
                guard let frames = v.u32be(chunk.data) else { return .need(chunk.data + 4, partial: p) }
                p.frameCount = pngInteger(frames).flatMap { $0 > 0 ? $0 : nil }
            case fourCC("eXIf"):
                guard chunk.dataEnd <= v.count else { return .need(chunk.dataEnd, partial: p) }
                p.orientation = Exif.orientation(v, tiff: chunk.data, end: chunk.dataEnd)
            default: break
            }
        }
        if let wanted = chunks.needs { return .need(wanted.upperBound, partial: p) }
        return .done(p)
    }
}
