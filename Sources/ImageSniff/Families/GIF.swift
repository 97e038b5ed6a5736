// GIF: animated when it holds a looping application extension or more than one image.

enum GIF: FormatFamily {
    static let rules = [
        Rule("GIF", .firstByte([0x47]), produces: [.gif], check: detect),
    ]

    static func detect(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("GIF87a") || v.matchesAvailablePrefix("GIF89a") else { return .no }
        guard v.count >= 13 else { return .need(13, fallback: v.count >= 6 ? Hit(.gif) : nil) }
        // The logical screen descriptor: a background index and aspect ratio byte follow the
        // packed fields; text that starts "GIF89a" is caught by the block walk below failing at
        // once, so the first block after the screen descriptor (and colour table) must be valid.
        let packed = v.base[10]
        var offset = 13
        if packed & 0x80 != 0 { offset += 3 << (Int(packed & 7) + 1) }
        var images = 0
        for _ in 0..<Limits.maxWalkSteps {
            guard let block = v.u8(offset) else {
                return walkBudgetLeft(offset) ? .need(offset + 1, fallback: Hit(.gif)) : .hit(Hit(.gif))
            }
            switch block {
            case 0x21:  // extension: label, then sub-blocks
                guard let label = v.u8(offset + 1), let size = v.u8(offset + 2) else {
                    return .need(offset + 3, fallback: Hit(.gif))
                }
                if label == 0xFF, size == 11,
                   v.matches("NETSCAPE2.0", at: offset + 3) || v.matches("ANIMEXTS1.0", at: offset + 3) {
                    return .hit(Hit(.gif, animated: true))
                }
                guard let next = skipSubBlocks(v, from: offset + 2) else {
                    return walkBudgetLeft(offset) ? .need(nextNeed(v, offset + 2), fallback: Hit(.gif)) : .hit(Hit(.gif))
                }
                offset = next
            case 0x2C:  // image descriptor, optional local colour table, LZW size, sub-blocks
                images += 1
                if images > 1 { return .hit(Hit(.gif, animated: true)) }
                guard let local = v.u8(offset + 9) else { return .need(offset + 10, fallback: Hit(.gif)) }
                var next = offset + 10
                if local & 0x80 != 0 { next += 3 << (Int(local & 7) + 1) }
                guard let end = skipSubBlocks(v, from: next + 1) else {
                    return walkBudgetLeft(offset) ? .need(nextNeed(v, next + 1), fallback: Hit(.gif)) : .hit(Hit(.gif))
                }
                offset = end
            case 0x3B:  // trailer
                return .hit(Hit(.gif))
            default:
                // Not a GIF block: damaged data, or text that begins with "GIF89a".
                return images > 0 || offset > 13 ? .hit(Hit(.gif)) : (looksLikeText(v) ? .no : .hit(Hit(.gif)))
            }
        }
        return .hit(Hit(.gif))
    }

    /// Following GIF image data to find a second frame is worth `Budget.frameWalk`, not the whole file.
    private static func walkBudgetLeft(_ offset: Int) -> Bool { offset < Budget.frameWalk }

    /// The offset after a chain of sub-blocks starting at `offset`, or nil if it runs past the bytes.
    static func skipSubBlocks(_ v: ByteView, from offset: Int) -> Int? {
        var o = offset
        while let size = v.u8(o) {
            if size == 0 { return o + 1 }
            o += 1 + Int(size)
        }
        return nil
    }

    static func nextNeed(_ v: ByteView, _ offset: Int) -> Int {
        var o = offset
        while let size = v.u8(o), size != 0 { o += 1 + Int(size) }
        return max(o + 256, v.count + 4096)
    }

    private static func looksLikeText(_ v: ByteView) -> Bool {
        for i in 6..<min(v.count, 13) where v.base[i] < 0x20 && !ByteView.isSpace(v.base[i]) { return false }
        return true
    }
}

// MARK: - Properties

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
