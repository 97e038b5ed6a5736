// Bitmaps of handheld devices: Nokia phones (OTA bitmaps, operator logos, group graphics), Palm
// OS (bitmaps and ImageViewer databases) and Garmin GPS units.

enum Devices: FormatFamily {
    static let rules = [
        Rule("Nokia operator logo, group graphic", .firstByte([0x4E]), produces: [.nokiaNOL, .nokiaNGG], check: nokiaLogo),
        Rule("Garmin vehicle bitmap", .firstByte([0x47]), produces: [.garminSRF], check: garmin),
        Rule("Sixel (DCS ... q)", .firstByte([0x1B, 0x90]), produces: [.sixel], check: sixel),
        Rule("Palm ImageViewer (vIMGView at 60)", .elsewhere, produces: [.palmPDB], check: palmPDB),
        Rule("Nokia OTA bitmap", .elsewhere, strength: .heuristic, produces: [.otb],
             hintPlausibility: { view, _ in otbHeader(view) != nil }, check: otb),
        Rule("Palm OS bitmap", .elsewhere, strength: .heuristic, produces: [.palmBitmap],
             hintPlausibility: { view, total in palmBitmapIsPlausible(view, totalLength: total) }, check: palmBitmap),
    ]

    /// `NOL\0` (width and height LE at 10 and 12) or `NGG\0` (at 6 and 8), pixels as ASCII 0 and 1.
    static func nokiaLogo(_ input: Input) -> Step {
        let v = input.view
        let isNOL = v.matchesAvailablePrefix("NOL\0"), isNGG = v.matchesAvailablePrefix("NGG\0")
        guard isNOL || isNGG else { return .no }
        let at = isNOL ? 10 : 6
        guard let width = v.u16le(at), let height = v.u16le(at + 2) else { return .need(at + 4, fallback: nil) }
        guard v.matches(isNOL ? "NOL\0" : "NGG\0"), width > 0, height > 0, width <= 255, height <= 255 else { return .no }
        return .hit(Hit(isNOL ? .nokiaNOL : .nokiaNGG))
    }

    static func garmin(_ input: Input) -> Step {
        input.view.signature("GARMIN BITMAP") ?? .hit(Hit(.garminSRF))
    }

    /// A Palm database whose type and creator are `vIMG` and `View`.
    static func palmPDB(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 68 else { return input.hasMore ? .need(78, fallback: nil) : .no }
        return v.matches("vIMGView", at: 60) ? .hit(Hit(.palmPDB)) : .no
    }

    /// OTA bitmap: an info byte (0, or 0x10 when 16-bit sizes follow), width, height, depth 1.
    static func otbHeader(_ v: ByteView) -> (width: Int, height: Int, header: Int)? {
        guard let info = v.u8(0) else { return nil }
        if info == 0x00, let w = v.u8(1), let h = v.u8(2), v.u8(3) == 1, w > 0, h > 0 {
            return (Int(w), Int(h), 4)
        }
        if info == 0x10, let w = v.u16be(1), let h = v.u16be(3), v.u8(5) == 1, w > 0, h > 0 {
            return (Int(w), Int(h), 6)
        }
        return nil
    }

    /// An OTA bitmap is named only when its bits fill the file exactly.
    static func otb(_ input: Input) -> Step {
        guard let (w, h, header) = otbHeader(input.view) else { return .no }
        return input.totalLength == header + (w * h + 7) / 8 ? .hit(Hit(.otb, .likely)) : .no
    }

    /// Palm bitmap, version 0-3: width, height, bytes a row (even, enough for the width), flags
    /// with their low byte clear, a pixel size of 0 (= 1), 1, 2, 4, 8 or 16.
    static func palmBitmapIsPlausible(_ v: ByteView, totalLength: Int) -> Bool {
        guard let width = v.u16be(0), let height = v.u16be(2), let rowBytes = v.u16be(4), let flags = v.u16be(6),
              let pixelSize = v.u8(8), let version = v.u8(9) else { return false }
        guard width > 0, height > 0, version <= 3, flags & 0x00FF == 0, rowBytes & 1 == 0 else { return false }
        guard [0, 1, 2, 4, 8, 16].contains(pixelSize) else { return false }
        let bits = Int(max(pixelSize, 1))
        guard Int(rowBytes) >= (Int(width) * bits + 7) / 8, Int(rowBytes) <= (Int(width) * bits + 7) / 8 + 16 else { return false }
        // Not compressed: the rows must fit in the file.
        if flags & 0x8000 == 0 && 16 + Int(rowBytes) * Int(height) > totalLength { return false }
        if version >= 1, v.u16be(14) != 0 { return false }  // reserved
        return true
    }

    static func palmBitmap(_ input: Input) -> Step {
        guard input.view.count >= 16 else { return .no }
        return palmBitmapIsPlausible(input.view, totalLength: input.totalLength) ? .hit(Hit(.palmBitmap, .likely)) : .no
    }

    /// Sixel graphics, as a terminal receives them: the DCS introducer (`ESC P` or the 8-bit
    /// `90`), up to three numeric parameters separated by `;`, the final `q`, then sixel data
    /// (raster attributes `"`, a colour `#`, a repeat `!`, or a sixel character).
    static func sixel(_ input: Input) -> Step {
        let v = input.view
        var o: Int
        if v.base[0] == 0x90 {
            o = 1
        } else {
            guard let p = v.u8(1) else { return .need(2, fallback: nil) }
            guard p == UInt8(ascii: "P") else { return .no }
            o = 2
        }
        let start = o
        while let b = v.u8(o), ByteView.isDigit(b) || b == UInt8(ascii: ";"), o - start < 16 { o += 1 }
        guard let final = v.u8(o) else { return input.hasMore ? .need(o + 2, fallback: nil) : .no }
        guard final == UInt8(ascii: "q") else { return .no }
        guard let data = v.u8(o + 1) else { return .need(o + 2, fallback: nil) }
        let sixelData = data == UInt8(ascii: "\"") || data == UInt8(ascii: "#") || data == UInt8(ascii: "!") || (0x3F...0x7E).contains(data)
        return sixelData ? .hit(Hit(.sixel)) : .no
    }
}

// MARK: - Properties

extension Devices {
    static let readers = [
        PropertyReader([.palmBitmap], read: { input, _ in
            // Width, height, row bytes, flags (big-endian), then the pixel size in bits.
            let v = input.view
            guard let w = v.u16be(0), let h = v.u16be(2), let bits = v.u8(8) else { return .need(10, partial: .unknown) }
            let depth = bits == 0 ? 1 : Int(bits)
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: depth >= 16 ? nil : depth,
                                         colorModel: depth >= 16 ? .rgb : depth == 8 ? .indexed : .gray, frameCount: 1))
        }),
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
            while numbers.count < 4, let n = v.decimal(at: &o, lead: .spacesAndZeros) {
                numbers.append(n)
                guard v.u8(o) == UInt8(ascii: ";") else { break }
                o += 1
            }
            guard numbers.count == 4 else { return v.count < 64 && input.hasMore ? .need(64, partial: .unknown) : .done(.unknown) }
            return .done(ImageProperties(width: numbers[2], height: numbers[3], colorModel: .indexed, frameCount: 1))
        }),
    ]
}
