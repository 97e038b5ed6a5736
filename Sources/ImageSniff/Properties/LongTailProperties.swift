// The long tail's headers: IFF ILBM/PBM (BMHD), PlayStation TIM, DjVu (INFO), PGX, MTV, Utah RLE,
// VIFF, Sixel, Palm image viewer, VICAR, CALS.

/// A decimal number at `o` (after spaces), for the text headers below.
private func decimalNumber(_ v: ByteView, _ o: inout Int) -> Int? {
    while let b = v.u8(o), b == 0x20 || b == 0x30 && v.u8(o + 1).map(ByteView.isDigit) == true { o += 1 }
    var value = 0, digits = 0
    while let b = v.u8(o), ByteView.isDigit(b), digits < 10 { value = value * 10 + Int(b - 0x30); o += 1; digits += 1 }
    return digits > 0 ? value : nil
}

extension Retro {
    static let readers = [
        PropertyReader([.ilbm, .iffPBM, .iffANIM], read: { input, type in
            // The bitmap header: width, height, x, y, planes, masking.
            let v = input.view
            let start = type == .iffANIM ? 12 + 12 : 12  // ANIM: the first frame's FORM ILBM
            guard v.matches("BMHD", at: start) else { return v.count < start + 8 ? .need(start + 28, partial: .unknown) : .done(.unknown) }
            guard let w = v.u16be(start + 8), let h = v.u16be(start + 10), let planes = v.u8(start + 16), let masking = v.u8(start + 17) else {
                return .need(start + 28, partial: .unknown)
            }
            return .done(ImageProperties(width: Int(w), height: Int(h), colorModel: planes == 24 || planes == 32 ? .rgb : .indexed,
                                         hasAlpha: masking == 1 || planes == 32, frameCount: type == .iffANIM ? nil : 1))
        }),
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
}

extension Documents {
    static let readers = [
        PropertyReader([.djvu], read: { input, _ in
            // The first INFO chunk (a single page's, or the first page of a bundled document).
            let v = input.view
            guard let at = v.find("INFO", in: 12..<min(v.count, 4096)) else {
                return v.count < 4096 && input.hasMore ? .need(4096, partial: .unknown) : .done(.unknown)
            }
            guard let w = v.u16be(at + 8), let h = v.u16be(at + 10) else { return .need(at + 12, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h)))
        }),
    ]
}

extension GraphicsSoftware {
    static let readers = [
        PropertyReader([.pgx], read: { input, _ in
            // `PG ML + 8 W H`: byte order, sign, depth, width, height.
            let v = input.view
            guard let line = v.find("\n", in: 0..<min(v.count, 256)) else { return .need(256, partial: .unknown) }
            var o = 6  // after "PG ML " or "PG LM "
            while let b = v.u8(o), b == 0x20 { o += 1 }
            if let b = v.u8(o), b == UInt8(ascii: "+") || b == UInt8(ascii: "-") { o += 1 }
            guard o < line, let depth = decimalNumber(v, &o), let w = decimalNumber(v, &o), let h = decimalNumber(v, &o) else { return .done(.unknown) }
            return .done(ImageProperties(width: w, height: h, bitDepth: depth, colorModel: .gray, hasAlpha: false, frameCount: 1))
        }),
        PropertyReader([.mtv], read: { input, _ in
            // `W H` and a newline, then W x H RGB triplets; images of one size may follow.
            let v = input.view
            var o = 0
            guard let w = decimalNumber(v, &o), let h = decimalNumber(v, &o), w > 0, h > 0, w < 1_000_000, h < 1_000_000 else { return .done(.unknown) }
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

extension Scientific {
    /// VICAR: the label's `NS=` (samples: width) and `NL=` (lines: height).
    static func vicarProperties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        let range = 0..<min(v.count, 2048)
        guard var ns = v.find(" NS=", in: range), var nl = v.find(" NL=", in: range) else {
            return v.count < 2048 && input.hasMore ? .need(2048, partial: .unknown) : .done(.unknown)
        }
        ns += 4; nl += 4
        return .done(ImageProperties(width: decimalNumber(v, &ns), height: decimalNumber(v, &nl), frameCount: 1))
    }
}

extension Bilevel {
    static let readers = [
        PropertyReader([.cals], read: { input, _ in
            // The `rpelcnt:` record: pixels per line, lines.
            let v = input.view
            let range = 0..<min(v.count, 2048)
            guard var o = v.find("rpelcnt:", in: range) else {
                return v.count < 2048 && input.hasMore ? .need(2048, partial: .unknown) : .done(.unknown)
            }
            o += 8
            guard let w = decimalNumber(v, &o), v.u8(o) == UInt8(ascii: ",") else { return .done(.unknown) }
            o += 1
            return .done(ImageProperties(width: w, height: decimalNumber(v, &o), bitDepth: 1, colorModel: .gray, hasAlpha: false, frameCount: 1))
        }),
    ]
}

extension Devices {
    static let readers = [
        PropertyReader([.palmPDB], read: { input, _ in
            // The database's first record (its offset in the record list at 78) is the image
            // record: a 32-byte name, version, type, then at 54 and 56 the width and height.
            let v = input.view
            guard let first = v.u32be(78) else { return .need(82, partial: .unknown) }
            let at = Int(first)
            guard let w = v.u16be(at + 54), let h = v.u16be(at + 56) else { return .need(at + 58, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), colorModel: .gray, hasAlpha: false, frameCount: 1))
        }),
        PropertyReader([.sixel], read: { input, _ in
            // The raster attributes after the introducer's final `q`: `"Pan;Pad;Ph;Pv` (aspect
            // ratio, then the width and height in pixels). Optional: without them, no size.
            let v = input.view
            var o = v.u8(0) == 0x90 ? 1 : 2
            while let b = v.u8(o), b != UInt8(ascii: "q"), o < 24 { o += 1 }
            guard v.u8(o) == UInt8(ascii: "q") else { return .need(32, partial: .unknown) }
            guard let quote = v.u8(o + 1) else { return .need(o + 2, partial: .unknown) }
            guard quote == UInt8(ascii: "\"") else { return .done(ImageProperties(colorModel: .indexed, frameCount: 1)) }
            o += 2
            var numbers: [Int] = []
            while numbers.count < 4, let n = decimalNumber(v, &o) {
                numbers.append(n)
                guard v.u8(o) == UInt8(ascii: ";") else { break }
                o += 1
            }
            guard numbers.count == 4 else { return v.count < 64 && input.hasMore ? .need(64, partial: .unknown) : .done(.unknown) }
            return .done(ImageProperties(width: numbers[2], height: numbers[3], colorModel: .indexed, frameCount: 1))
        }),
    ]
}
