// PNG (IHDR, then the chunks before IDAT: tRNS, iCCP, acTL, eXIf), MNG (MHDR) and JNG (JHDR).

extension PNG {
    static let readers = [
        PropertyReader([.png, .mng, .jng], read: properties),
    ]

    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var offset = 8
        if type == .png, v.u32be(12) == fourCC("CgBI") { offset = 8 + 12 + 4 }
        var p = ImageProperties()
        guard v.has(offset, 8 + 13) else { return .need(offset + 8 + 13, partial: p) }
        let header = offset + 8
        p.width = v.u32be(header).map(Int.init)
        p.height = v.u32be(header + 4).map(Int.init)
        switch type {
        case .mng:
            // MHDR: frame width and height, ticks, layers, then the nominal frame count.
            if let frames = v.u32be(header + 16), frames > 0 { p.frameCount = Int(frames) }
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
            break
        }
        // IHDR: bit depth, colour type (0 gray, 2 RGB, 3 palette, 4 gray-alpha, 6 RGBA).
        let depth = v.base[header + 8], colour = v.base[header + 9]
        p.bitDepth = Int(depth)
        switch colour {
        case 0, 4: p.colorModel = .gray
        case 2, 6: p.colorModel = .rgb
        case 3: p.colorModel = .indexed
        default: break
        }
        p.hasAlpha = colour == 4 || colour == 6
        p.frameCount = 1
        p.hasICCProfile = false
        // The chunks before the image data.
        offset = header + 13 + 4
        for _ in 0..<Limits.maxWalkSteps {
            guard let length = v.u32be(offset), let name = v.u32be(offset + 4) else { return .need(offset + 8, partial: p) }
            if name == fourCC("IDAT") || name == fourCC("IEND") || length > 0x7FFF_FFFF { break }
            let data = offset + 8, end = data + Int(length)
            switch name {
            case fourCC("tRNS"): p.hasAlpha = true
            case fourCC("iCCP"): p.hasICCProfile = true
            case fourCC("acTL"):
                guard let frames = v.u32be(data) else { return .need(data + 4, partial: p) }
                p.frameCount = Int(frames)
            case fourCC("eXIf"):
                guard end <= v.count else { return .need(end, partial: p) }
                p.orientation = Exif.orientation(v, tiff: data, end: end)
            default: break
            }
            offset = end + 4
        }
        return .done(p)
    }
}

extension GIF {
    static let readers = [
        PropertyReader([.gif], read: properties),
    ]

    /// The logical screen (ImageIO reports its size), 8-bit indexed colour, transparency from the
    /// first graphic control extension, and the number of images, counted to the trailer within
    /// the read cap (nil when the walk would pass it).
    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var p = ImageProperties(bitDepth: 8, colorModel: .indexed, hasAlpha: false)
        guard v.count >= 13 else { return .need(13, partial: p) }
        p.width = v.u16le(6).map(Int.init)
        p.height = v.u16le(8).map(Int.init)
        let packed = v.base[10]
        var offset = 13
        if packed & 0x80 != 0 { offset += 3 << (Int(packed & 7) + 1) }
        var images = 0
        var sawControl = false
        for _ in 0..<(1 << 20) {
            guard let block = v.u8(offset) else { return .need(nextNeed(v, offset), partial: p) }
            switch block {
            case 0x21:
                guard let label = v.u8(offset + 1) else { return .need(offset + 3, partial: p) }
                if label == 0xF9, !sawControl {
                    guard let flags = v.u8(offset + 3) else { return .need(offset + 4, partial: p) }
                    p.hasAlpha = flags & 1 != 0
                    sawControl = true
                }
                guard let next = skipSubBlocks(v, from: offset + 2) else { return .need(nextNeed(v, offset + 2), partial: p) }
                offset = next
            case 0x2C:
                if images == 0 { sawControl = true }  // only the first image's extension counts
                guard let local = v.u8(offset + 9) else { return .need(offset + 10, partial: p) }
                var next = offset + 10
                if local & 0x80 != 0 { next += 3 << (Int(local & 7) + 1) }
                guard let end = skipSubBlocks(v, from: next + 1) else { return .need(nextNeed(v, next + 1), partial: p) }
                images += 1
                offset = end
            case 0x3B:
                p.frameCount = images
                return .done(p)
            default:
                // Damaged: the images counted so far are all there is to say.
                p.frameCount = images > 0 ? images : nil
                return .done(p)
            }
        }
        return .done(p)
    }
}
