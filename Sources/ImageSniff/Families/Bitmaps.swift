// Plain raster bitmaps with a signature and a few header fields worth checking: BMP, ICO and
// CUR, ICNS, PCX and DCX, Sun raster, SGI, X Window Dump, X cursors.

enum Bitmaps: FormatFamily {
    static let rules = [
        Rule("BMP", .firstByte([0x42]), produces: [.bmp], check: bmp),
        Rule("ICO, CUR", .firstByte([0x00]), produces: [.ico, .cur], check: icoCur),
        Rule("ICNS", .firstByte([0x69]), produces: [.icns], check: icns),
        Rule("PCX", .firstByte([0x0A]), oneByteDecides: true, produces: [.pcx], check: pcx),
        Rule("DCX", .firstByte([0xB1]), produces: [.dcx], check: dcx),
        Rule("Sun raster", .firstByte([0x59]), produces: [.sunRaster], check: sun),
        Rule("SGI", .firstByte([0x01]), produces: [.sgi], check: sgi),
        Rule("X Window Dump", .firstByte([0x00]), produces: [.xwd], check: xwd),
        Rule("X cursor", .firstByte([0x58]), produces: [.xcursor], check: xcursor),
        Rule("OS/2 bitmap array", .firstByte([0x42]), produces: [.os2BitmapArray], check: os2BitmapArray),
        Rule("OS/2 icon, pointer", .firstByte([0x49, 0x43, 0x50]), produces: [.os2Icon, .os2Pointer], check: os2IconPointer),
        Rule("Headerless DIB", .elsewhere, strength: .heuristic, produces: [.bmp], check: headerlessDIB),
    ]

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
        guard let planes = v.u16le(planesAt), let bits = v.u16le(planesAt + 2) else { return .need(planesAt + 4, fallback: nil) }
        guard planes <= 1, pixels >= 14 + dib || pixels == 0 else { return .no }
        if planes == 1 { return .hit(Hit(.bmp)) }
        // Planes 0 (some test generators write it; readers ignore the field): a BMP still when
        // the bit count is real and the file size field is the data's length, or the pixels
        // follow the headers and the stated size is within the data.
        guard let fileSize = v.u32le(2), [1, 4, 8, 16, 24, 32].contains(bits) else { return .no }
        let total = input.totalLength
        guard Int(fileSize) == total || (pixels == 14 + dib && fileSize >= 14 + dib && Int(fileSize) <= total) else { return .no }
        return .hit(Hit(.bmp, .likely))
    }

    /// The header after an OS/2 BITMAPFILEHEADER (`usType`, cbSize, hot spot, offBits: 14 bytes)
    /// at `o`: a BITMAPINFOHEADER of OS/2 1.x (12 bytes: 16-bit width and height) or 2.x (16 to
    /// 64 bytes, a multiple of 4: 32-bit sizes), one plane, 1, 4, 8 or 24 bits a pixel, and
    /// offBits past the headers. `.hit` carries nothing: the caller names the type.
    static func os2Bitmap(_ v: ByteView, at o: Int) -> Step {
        guard let offBits = v.u32le(o + 10), let fix = v.u32le(o + 14) else { return .need(o + 18, fallback: nil) }
        guard fix == 12 || (16...64).contains(fix) && fix % 4 == 0, offBits >= UInt32(o + 14) + fix else { return .no }
        let planesAt = o + 14 + (fix == 12 ? 8 : 12)
        guard let planes = v.u16le(planesAt), let bits = v.u16le(planesAt + 2) else { return .need(planesAt + 4, fallback: nil) }
        return planes == 1 && [1, 4, 8, 24].contains(bits) ? .hit(Hit(.data)) : .no
    }

    /// OS/2 bitmap array (`BA`, OS/2 Presentation Manager's BITMAPARRAYFILEHEADER): cbSize, the
    /// offset of the next array element (0 for the last), the device's size, then the first
    /// element: a bitmap (`BM`), icon (`IC`, `CI`) or pointer (`PT`, `CP`) with its own file and
    /// info headers. cbSize is the element's headers: 14 + 14 + the info header's size (which
    /// keeps Emacs's "BABYL OPTIONS:" out).
    static func os2BitmapArray(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("BA") { return early }
        guard let size = v.u32le(2), let next = v.u32le(6), let kind = v.u16be(14), let fix = v.u32le(28) else { return .need(32, fallback: nil) }
        guard [0x424D, 0x4943, 0x4349, 0x5054, 0x4350].contains(kind), UInt64(size) == 28 + UInt64(fix), next == 0 || next >= size else { return .no }
        if case .hit = os2Bitmap(v, at: 14) { return .hit(Hit(.os2BitmapArray)) }
        if case .need(let n, _) = os2Bitmap(v, at: 14) { return .need(n, fallback: nil) }
        return .no
    }

    /// OS/2 icons (`IC` monochrome, `CI` colour) and pointers (`PT`, `CP`): a BITMAPFILEHEADER
    /// with a hot spot inside 256 x 256, the AND/XOR mask bitmap's info header (its height is
    /// twice the image's), and offBits past the headers (OS/2 Presentation Manager's bitmap file
    /// formats; libmagic names them, ImageMagick's BMP coder reads the colour ones).
    static func os2IconPointer(_ input: Input) -> Step {
        let v = input.view
        guard let second = v.u8(1) else { return .need(2, fallback: nil) }
        let type: ImageType
        switch (v.base[0], second) {
        case (0x49, 0x43), (0x43, 0x49): type = .os2Icon        // IC, CI
        case (0x50, 0x54), (0x43, 0x50): type = .os2Pointer     // PT, CP
        default: return .no
        }
        guard let hotX = v.u16le(6), let hotY = v.u16le(8) else { return .need(10, fallback: nil) }
        guard hotX < 256, hotY < 256 else { return .no }
        switch os2Bitmap(v, at: 0) {
        case .hit: return .hit(Hit(type))
        case .need(let n, _): return .need(n, fallback: nil)
        default: return .no
        }
    }

    /// A device-independent bitmap without BMP's file header (`.dib`, the clipboard's format):
    /// a BITMAPINFOHEADER (40, 108 or 124 bytes) whose fields are in range and whose header,
    /// masks, palette and pixels add up to the length of the data exactly. There is no magic:
    /// likely at most.
    static func headerlessDIB(_ input: Input) -> Step {
        let v = input.view
        guard let size = v.u32le(0), size == 40 || size == 108 || size == 124 else { return .no }
        guard v.count >= 40 else { return .need(40, fallback: nil) }
        guard let w = v.u32le(4), let h = v.u32le(8), let planes = v.u16le(12), let bits = v.u16le(14),
              let compression = v.u32le(16), let imageSize = v.u32le(20), let used = v.u32le(32) else { return .no }
        let width = Int(Int32(bitPattern: w)), height = Int(Int32(bitPattern: h))
        guard width > 0, width <= 1 << 16, height != 0, abs(height) <= 1 << 16, planes == 1,
              [1, 4, 8, 16, 24, 32].contains(bits), [0, 1, 2, 3, 6].contains(compression), used <= 256 else { return .no }
        let masks = size == 40 && compression == 3 ? 12 : size == 40 && compression == 6 ? 16 : 0
        let colours = used > 0 ? Int(used) : bits <= 8 ? 1 << Int(bits) : 0
        let stride = (width * Int(bits) + 31) / 32 * 4
        let pixels = imageSize > 0 && compression != 0 ? Int(imageSize) : stride * abs(height)
        return Int(size) + masks + 4 * colours + pixels == input.totalLength ? .hit(Hit(.bmp, .likely)) : .no
    }

    /// ICO and CUR: reserved 0, type 1 (icon) or 2 (cursor), a count, then a 16-byte entry per
    /// image. Every entry in view must make sense (a size, data after the directory; for icons,
    /// planes 0 or 1 and a real bit count: a cursor keeps its hotspot there), and the first
    /// image's data, when in view, starts with a bitmap header or a PNG signature. An entry whose
    /// data starts past the end makes a cut file: the icon, truncated (a partial download of a
    /// favicon with five sizes was data). A little-endian array of small numbers (a mesh's
    /// indices: 0, 1, 2...) passes the first six bytes, not the rest.
    static func icoCur(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(1) == 0, let type = v.u16le(2), type == 1 || type == 2 else { return .no }
        // The image count first: an icon directory of none is not one (a 1 x 1 true-colour TGA
        // begins 00 00 02 00 00 00, and is shorter than a directory entry).
        guard let count = v.u16le(4) else { return .need(6, fallback: nil) }
        guard count >= 1, count <= 512 else { return .no }
        guard v.has(6, 16) else { return .need(22, fallback: nil) }
        let directoryEnd = 6 + 16 * Int(count)
        let total = input.totalLength
        var pastEnd = 0  // the furthest image start past the end of the data, plus one
        for i in 0..<Int(count) {
            let e = 6 + 16 * i
            guard let reserved = v.u8(e + 3), let planes = v.u16le(e + 4), let bits = v.u16le(e + 6),
                  let size = v.u32le(e + 8), let offset = v.u32le(e + 12) else { break }
            guard size > 0, reserved == 0 || reserved == 255, Int(offset) >= directoryEnd else { return .no }
            if Int(offset) >= total { pastEnd = max(pastEnd, Int(offset) + 1) }
            if type == 1 { guard planes <= 1, [0, 1, 4, 8, 16, 24, 32].contains(bits) else { return .no } }
        }
        let hit = Hit(type == 1 ? .ico : .cur)
        let first = Int(v.u32le(18)!)
        guard v.has(first, 8) else { return first + 8 <= total ? .need(first + 8, fallback: hit) : .no }
        let header = v.u32le(first)!
        let png = v.equals(0x8950_4E47, length: 4, at: first)
        guard png || [12, 40, 52, 56, 108, 124].contains(header) else { return .no }
        // Bytes past the end are wanted: the fallback, truncated.
        return pastEnd > 0 ? .need(pastEnd, fallback: hit) : .hit(hit)
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

    /// PCX: `0A`, version, encoding, bits per pixel, a window that makes sense, planes. The
    /// reserved byte at 64 "should be zero" (ZSoft's technical reference); readers do not check
    /// it, so a non-zero one is still a PCX, with a byte less of evidence: likely.
    static func pcx(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 66 else { return input.hasMore ? .need(128, fallback: nil) : .no }
        let version = v.base[1], encoding = v.base[2], bpp = v.base[3]
        guard [0, 2, 3, 4, 5].contains(version), encoding <= 1, [1, 2, 4, 8].contains(bpp) else { return .no }
        guard let xmin = v.u16le(4), let ymin = v.u16le(6), let xmax = v.u16le(8), let ymax = v.u16le(10) else { return .no }
        guard xmin <= xmax, ymin <= ymax, (1...4).contains(v.base[65]) else { return .no }
        return .hit(Hit(.pcx, v.base[64] == 0 ? .conclusive : .likely))
    }

    /// DCX: magic 987654321 (LE), then a table of page offsets.
    static func dcx(_ input: Input) -> Step {
        let v = input.view
        guard v.u32le(0) == 987_654_321 else { return .no }
        guard let first = v.u32le(4) else { return .need(8, fallback: nil) }
        return first >= 8 ? .hit(Hit(.dcx)) : .no
    }

    static func sun(_ input: Input) -> Step {
        input.view.signature(0x59A6_6A95, length: 4) ?? .hit(Hit(.sunRaster))
    }

    /// SGI: magic 474, storage 0/1, bytes per channel 1/2, dimension 1–3.
    static func sgi(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(1) == 0xDA else { return .no }
        guard let storage = v.u8(2), let bpc = v.u8(3), let dim = v.u16be(4) else { return .need(6, fallback: nil) }
        return storage <= 1 && (bpc == 1 || bpc == 2) && dim >= 1 && dim <= 3 ? .hit(Hit(.sgi)) : .no
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

    /// `Xcur`, a header of 16 bytes, version 1.0 and a table of contents of at least one entry.
    static func xcursor(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("Xcur") { return early }
        guard let header = v.u32le(4), let version = v.u32le(8), let entries = v.u32le(12) else { return .need(16, fallback: nil) }
        return header == 16 && version >> 16 == 1 && entries >= 1 && entries < 0x10000 ? .hit(Hit(.xcursor)) : .no
    }
}

// MARK: - Properties

extension Bitmaps {
    /// Whole: a BMP's pixels end within the data (where its file header says they start: rows
    /// padded to 4 bytes, but for the last; compressed, the image size its header states).
    static let verifiers = [
        Verifier([.bmp]) { input, _, _ in bmpStep(input) },
        Verifier([.ico, .cur]) { input, _, _ in iconStep(input) },
        Verifier([.icns]) { input, _, _ in
            // The length of the whole file, header included, is the header's second field.
            guard input.view.has(0, 8) else { return .needRange(0..<8) }  // past the end: truncated
            guard let length = input.view.u32be(4), length >= 8 else { return .unknown }
            return Int(length) <= input.totalLength ? .complete : .truncated
        },
        Verifier([.sgi]) { input, _, _ in sgiStep(input) },
        Verifier([.pcx], walk: pcxWalk) { input, _, walked in pcxStep(input, walked) },
        Verifier([.sunRaster], walk: sunWalk) { input, _, walked in sunStep(input, walked) },
        Verifier([.xwd]) { input, _, _ in xwdStep(input) },
    ]

    /// SGI: after the 512-byte header, verbatim channels (columns x rows x channels x bytes a
    /// channel; a 1-dimensional image is one row, a 2-dimensional one channel), or run-length
    /// rows that the offset and length tables place (every row ends within the data). An image
    /// that only carries a colour map (colormap field not 0) is not checked.
    static func sgiStep(_ input: Input) -> VerifyStep {
        let v = input.view
        guard v.has(0, 512) else { return .needRange(0..<512) }  // the header: past the end, truncated
        guard let storage = v.u8(2), let bpc = v.u8(3), let dimension = v.u16be(4), let x = v.u16be(6),
              var y = v.u16be(8), var z = v.u16be(10), v.u32be(104) == 0 else { return .unknown }
        if dimension == 1 { y = 1 }
        if dimension <= 2 { z = 1 }
        guard storage == 1 else { return Verifier.fits(512, Int(x), Int(y), Int(z), Int(bpc), in: input.totalLength) }
        let rows = Int(y) * Int(z)
        guard rows <= Budget.sgiRows else { return .unknown }
        let tables = 512..<(512 + 8 * rows)
        guard v.has(tables) else { return .needRange(tables) }  // past the end: truncated
        var end = tables.upperBound
        for row in 0..<rows {
            end = max(end, Int(v.u32be(512 + 4 * row)!) + Int(v.u32be(512 + 4 * (rows + row))!))
        }
        return end <= input.totalLength ? .complete : .truncated
    }

    /// PCX: after the 128-byte header, the planes' lines (bytes per line x planes x height),
    /// raw or run-length encoded (a byte of 0xC0 or more repeats the next byte its low 6 bits
    /// times: a walk decodes them, over the whole file). An 8-bit image's 256-colour palette
    /// (0x0C, then 768 bytes) after the pixels must be whole when it begins; without one
    /// (writers of grey images leave it out) the pixels are all.
    static func pcxStep(_ input: Input, _ walked: FrameWalk.Progress?) -> VerifyStep {
        let v = input.view
        guard v.has(0, 128) else { return .needRange(0..<128) }  // the header: past the end, truncated
        guard let (encoding, wanted) = pcxPixels(v) else { return .unknown }
        let eightBit = v.u8(3) == 8 && v.u8(65) == 1
        // After the pixels: the palette cut short, or whole, or none.
        func palette(_ end: Int) -> VerifyStep {
            let length = input.totalLength
            guard eightBit, end < length, length - end < 769 else { return end <= length ? .complete : .truncated }
            guard v.has(end, 1) else { return .needRange(end..<(end + 1)) }
            return v.u8(end) == 0x0C ? .truncated : .complete
        }
        guard encoding == 1 else {
            guard case .complete = Verifier.fits(128, wanted, in: input.totalLength) else { return .truncated }
            return palette(128 + wanted)
        }
        guard let walked else { return .needWalk }
        guard case .counted(let end) = walked else { return Verifier.step(for: walked) }
        return palette(end)
    }

    /// A PCX's encoding and the bytes of its pixels (bytes per line x planes x rows).
    static func pcxPixels(_ v: ByteView) -> (encoding: UInt8, bytes: Int)? {
        guard v.has(0, 128) else { return nil }
        let ymin = Int(v.u16le(6)!), ymax = Int(v.u16le(10)!), planes = Int(v.u8(65)!), lineBytes = Int(v.u16le(66)!)
        guard ymax >= ymin, planes >= 1, lineBytes >= 1 else { return nil }
        return (v.u8(2)!, lineBytes * planes * (ymax - ymin + 1))
    }

    /// The walk that decodes a run-length PCX's pixels.
    static func pcxWalk(_ v: ByteView) -> FrameWalk? {
        guard let (encoding, bytes) = pcxPixels(v), encoding == 1 else { return nil }
        return FrameWalk(.runLength(.pcx, remaining: bytes), at: 128)
    }

    /// Sun raster: after the 32-byte header and the colour map, rows padded to 16 bits (types 0,
    /// 1 and 3), or run-length bytes (type 2: `80 00` is one 0x80, `80 n b` is n + 1 bytes b)
    /// that must decode to as many (a walk decodes them, over the whole file). Its length field
    /// is not trusted: writers give the encoded or the decoded size.
    static func sunStep(_ input: Input, _ walked: FrameWalk.Progress?) -> VerifyStep {
        let v = input.view
        guard v.has(0, 32) else { return .needRange(0..<32) }  // the header: past the end, truncated
        guard let width = v.u32be(4), let height = v.u32be(8), let depth = v.u32be(12), depth <= 32,
              let type = v.u32be(20), let mapLength = v.u32be(28) else { return .unknown }
        let start = 32 + Int(mapLength)
        let rowBytes = (Int(width) * Int(depth) + 15) / 16 * 2
        switch type {
        case 0, 1, 3:
            return Verifier.fits(start, rowBytes, Int(height), in: input.totalLength)
        case 2:
            guard let walked else { return sunWalk(v) == nil ? .truncated : .needWalk }  // no walk: more pixels than any data holds
            return Verifier.step(for: walked)
        default:
            return .unknown  // TIFF, IFF or experimental data: not sized here
        }
    }

    /// The walk that decodes a run-length Sun raster's pixels.
    static func sunWalk(_ v: ByteView) -> FrameWalk? {
        guard let width = v.u32be(4), let height = v.u32be(8), let depth = v.u32be(12), depth <= 32,
              v.u32be(20) == 2, let mapLength = v.u32be(28) else { return nil }
        let rows = ((Int(width) * Int(depth) + 15) / 16 * 2).multipliedReportingOverflow(by: Int(height))
        return rows.overflow ? nil : FrameWalk(.runLength(.sun, remaining: rows.partialValue), at: 32 + Int(mapLength))
    }

    /// XWD: the header (its own size), the colour entries (12 bytes each), then the image:
    /// bytes per line x height, for each plane of an XY pixmap. Fields in the writer's byte
    /// order (the version, 7, tells which).
    static func xwdStep(_ input: Input) -> VerifyStep {
        let v = input.view
        guard v.has(0, 100) else { return .needRange(0..<100) }  // the header: past the end, truncated
        guard let big = xwdIsBigEndian(v), let size = v.u32(0, bigEndian: big), let format = v.u32(8, bigEndian: big),
              let depth = v.u32(12, bigEndian: big), let height = v.u32(20, bigEndian: big),
              let lineBytes = v.u32(48, bigEndian: big), let colours = v.u32(76, bigEndian: big) else { return .unknown }
        return Verifier.fits(Int(size) + 12 * Int(colours), Int(lineBytes), Int(height), format == 1 ? Int(depth) : 1,
                             in: input.totalLength)
    }

    /// The byte order of an XWD header: big-endian when its version (7) reads so.
    static func xwdIsBigEndian(_ v: ByteView) -> Bool? {
        if v.u32be(4) == 7 { return true }
        return v.u32le(4) == 7 ? false : nil
    }

    /// ICO and CUR: every image the directory lists (its offset and size) ends within the data.
    static func iconStep(_ input: Input) -> VerifyStep {
        let v = input.view
        guard let count = v.u16le(4), count >= 1, count <= Budget.iconEntries else { return .unknown }
        let directory = 6..<(6 + 16 * Int(count))
        guard v.has(directory) else { return .needRange(directory) }
        var end = 0
        for i in 0..<Int(count) {
            guard let size = v.u32le(6 + 16 * i + 8), let offset = v.u32le(6 + 16 * i + 12) else { return .unknown }
            end = max(end, Int(offset) + Int(size))
        }
        return end <= input.totalLength ? .complete : .truncated
    }

    static func bmpStep(_ input: Input) -> VerifyStep {
        let v = input.view
        guard v.u8(0) == UInt8(ascii: "B"), v.u8(1) == UInt8(ascii: "M"), let offset = v.u32le(10),
              let size = v.u32le(14), size >= 12, Int(offset) >= 14 + Int(size) else { return .unknown }
        let width: Int, height: Int, bits: Int, compression: UInt32
        if size == 12 {
            guard let w = v.u16le(18), let h = v.u16le(20), let b = v.u16le(24) else { return .unknown }
            (width, height, bits, compression) = (Int(w), Int(h), Int(b), 0)
        } else {
            guard size >= 20, let w = v.u32le(18), let h = v.u32le(22), let b = v.u16le(28),
                  let c = v.u32le(30) else { return .unknown }
            (width, height, bits, compression) = (Int(Int32(bitPattern: w)), Int(Int32(bitPattern: h).magnitude), Int(b), c)
        }
        guard width > 0, height > 0, [1, 2, 4, 8, 16, 24, 32, 64].contains(bits) else { return .unknown }
        let windowsHeader = isWindowsHeader(size)
        let bitfields = compression == 3 && windowsHeader || compression == 6
        guard compression == 0 || bitfields else {
            // Run-length or embedded JPEG/PNG data: as long as the header says, when it says.
            guard size >= 40, let imageSize = v.u32le(34), imageSize > 0 else { return .unknown }
            return Int(offset) + Int(imageSize) <= input.totalLength ? .complete : .truncated
        }
        let rowBits = width.multipliedReportingOverflow(by: bits)
        guard !rowBits.overflow else { return .truncated }
        let padded = (rowBits.partialValue + 31) / 32 * 4, last = (rowBits.partialValue + 7) / 8
        guard case .complete = Verifier.fits(Int(offset), padded, height - 1, in: input.totalLength - last) else { return .truncated }
        return .complete
    }

    /// A Windows info header (40, 52, 56, 108 or 124 bytes), whose compression codes 3 to 6 are
    /// BI_BITFIELDS, BI_JPEG, BI_PNG and BI_ALPHABITFIELDS; an OS/2 2.x header's 3 and 4 are
    /// Huffman 1D and RLE24.
    static func isWindowsHeader(_ size: UInt32) -> Bool { size == 40 || size == 52 || size == 56 || size >= 108 }

    static let readers = [
        PropertyReader([.bmp], read: bmp),
        PropertyReader([.ico, .cur], read: icon),
        PropertyReader([.pcx], read: { input, _ in pcx(input.view, at: 0) }),
        PropertyReader([.dcx], read: dcx),
        PropertyReader([.sunRaster], read: sun),
        PropertyReader([.sgi], read: sgi),
        PropertyReader([.xwd], read: xwd),
        PropertyReader([.xcursor], read: xcursor),
        PropertyReader([.os2BitmapArray, .os2Icon, .os2Pointer], read: os2),
    ]

    /// OS/2 bitmaps: the first image's info header (after the array header for `BA`): width,
    /// height (an icon's or pointer's mask bitmap is twice as high as the image), bits.
    static func os2(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        let o = type == .os2BitmapArray ? 14 : 0
        guard let kind = v.u16be(o), let fix = v.u32le(o + 14) else { return .need(o + 18, partial: .unknown) }
        let small = fix == 12
        let at = o + 18
        guard let w = small ? v.u16le(at).map(UInt32.init) : v.u32le(at), let h = small ? v.u16le(at + 2).map(UInt32.init) : v.u32le(at + 4),
              let bits = v.u16le(at + (small ? 6 : 10)) else { return .need(at + 12, partial: .unknown) }
        let masked = kind != 0x424D  // IC, CI, PT, CP: AND and XOR masks one above the other
        // A colour icon or pointer holds the mask bitmap first (1 bit); the colour bitmap's bits
        // follow in a second header, not read here.
        return .done(ImageProperties(width: Int(w), height: Int(masked ? h / 2 : h), bitDepth: kind == 0x4943 || kind == 0x5054 || !masked ? Int(bits) : nil,
                                     colorModel: bits == 1 && (kind == 0x4943 || kind == 0x5054) ? .gray : nil, frameCount: type == .os2BitmapArray ? nil : 1))
    }

    /// BITMAPINFOHEADER (or OS/2's BITMAPCOREHEADER) at 14, or at 0 without the file header.
    static func bmp(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        let info = v.u8(0) == UInt8(ascii: "B") && v.u8(1) == UInt8(ascii: "M") ? 14 : 0
        // The fields read: up to the alpha mask (56 bytes), and the colour space type of a V4 or
        // V5 header (at 56): all of them in hand before any is read, as the data allows.
        guard let size = v.u32le(info) else { return .need(info + 4, partial: .unknown) }
        let wanted = size >= 108 ? 60 : min(Int(size), 56)
        guard v.has(info, wanted) || info + wanted > input.totalLength && v.count >= info + 40 else {
            return .need(info + wanted, partial: .unknown)
        }
        var p = ImageProperties(frameCount: 1)
        let bits: UInt16
        var compression: UInt32 = 0
        if size == 12 {
            guard let w = v.u16le(info + 4), let h = v.u16le(info + 6), let b = v.u16le(info + 10) else { return .need(info + 12, partial: p) }
            p.width = Int(w); p.height = Int(h); bits = b
        } else {
            guard let w = v.u32le(info + 4), let h = v.u32le(info + 8), let b = v.u16le(info + 14),
                  let c = v.u32le(info + 16) else { return .need(info + 40, partial: p) }
            compression = c
            // A negative height is a top-down bitmap; a width at or below zero is nonsense.
            let width = Int(Int32(bitPattern: w))
            p.width = width > 0 ? width : nil
            p.height = Int(Int32(bitPattern: h).magnitude)
            bits = b
            // An alpha mask (V4 and V5 headers, or BI_ALPHABITFIELDS) that is not zero.
            if size >= 56 || compression == 6, let mask = v.u32le(info + 52) { p.hasAlpha = mask != 0 && bits == 32 || (mask != 0 && bits == 16) }
            // The colour space: "MBED" embeds a profile; "LINK" names a profile file (the BMP
            // suite's rgb24lprof.bmp: C:\temp\test?.icc), which holds none.
            if size >= 108, let cs = v.u32le(info + 56) { p.hasICCProfile = cs == 0x4D42_4544 }
        }
        p.bitDepth = bits <= 8 ? 8 : bits == 16 ? 5 : 8
        p.colorModel = bits <= 8 ? .indexed : .rgb
        // BI_BITFIELDS, BI_ALPHABITFIELDS: the colour masks (after a 40-byte header, inside a
        // longer one) say the bits of each component; the depth is the widest (4 for 4-4-4-4,
        // 6 for 5-6-5, 11 for 11-11-10). A stranger's BMPs were all 5 at 16 bits, 8 at 32.
        let windowsHeader = isWindowsHeader(size)
        if windowsHeader && (compression == 3 || compression == 6) && bits > 8 {
            if let r = v.u32le(info + 40), let g = v.u32le(info + 44), let b = v.u32le(info + 48) {
                let widest = max(r.nonzeroBitCount, g.nonzeroBitCount, b.nonzeroBitCount)
                if widest > 0 { p.bitDepth = widest }
            } else if info + 52 <= input.totalLength {
                return .need(info + 52, partial: p)
            }
        }
        // BI_JPEG, BI_PNG: a JPEG or PNG inside (bits per pixel 0); what its header says is not
        // read here: not stated, rather than a palette of 8 bits.
        if windowsHeader && (compression == 4 || compression == 5) {
            p.bitDepth = nil
            p.colorModel = nil
        }
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
            // A PNG: its size, depth, colour type and alpha (in the type, or a tRNS chunk before
            // the image data) as the PNG reader reads them, as its decoder does (Pillow's icons
            // of RGB PNGs said they had alpha).
            func entry(_ png: ImageProperties, whole: Bool) -> ImageProperties {
                var q = p
                (q.width, q.height, q.bitDepth) = (png.width, png.height, png.bitDepth)
                q.colorModel = png.colorModel ?? .rgb
                // Without alpha in the type, not known until a tRNS chunk or the image data.
                q.hasAlpha = whole || png.hasAlpha == true ? png.hasAlpha : nil
                return q
            }
            switch PNG.image(v, ihdr: at + 8) {
            case .done(let png): return .done(entry(png, whole: true))
            case .need(let n, let png): return .need(n, partial: entry(png, whole: false))
            case .needRange(let r, let png): return .needRange(r, partial: entry(png, whole: false))
            case .walk(let w, let png): return .walk(w, partial: entry(png, whole: false))
            }
        } else if let bits = v.u16le(at + 14) {
            p.bitDepth = 8
            p.colorModel = bits <= 8 ? .indexed : .rgb
            p.hasAlpha = true  // the AND mask
            // The bitmap's own header is what readers decode (its height counts the colour bitmap
            // and the AND mask: twice the image's); a directory entry may say otherwise (Pillow's
            // hopper_unexpected.ico gives the doubled height there).
            if let header = v.u32le(at), header >= 40, let w = v.u32le(at + 4), let h = v.u32le(at + 8) {
                let width = Int(Int32(bitPattern: w)), height = Int(Int32(bitPattern: h))
                if width > 0, height > 1, height % 2 == 0 {
                    p.width = width
                    p.height = height / 2
                }
            }
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
        while pages < 1023 {
            // The table runs past the bytes held: the rest of it is wanted (a cut file counts the
            // pages before the cut).
            guard let offset = v.u32le(o) else { return .need(o + 4, partial: ImageProperties(frameCount: pages)) }
            if offset == 0 { break }
            pages += 1
            o += 4
        }
        guard let first = v.u32le(4), first > 0 else { return .done(.unknown) }
        switch pcx(v, at: Int(first)) {
        case .done(var p): p.frameCount = pages; return .done(p)
        case .need(let n, _): return .need(n, partial: ImageProperties(frameCount: pages))
        case .needRange(let r, _): return .needRange(r, partial: ImageProperties(frameCount: pages))
        case .walk: return .done(ImageProperties(frameCount: pages))  // a PCX page has no frames to walk
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

    /// XWD (version 7): pixmap depth, width, height and visual class, in the writer's byte order.
    static func xwd(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard v.has(0, 56) else { return .need(56, partial: .unknown) }
        guard let big = xwdIsBigEndian(v), let depth = v.u32(12, bigEndian: big), let w = v.u32(16, bigEndian: big),
              let h = v.u32(20, bigEndian: big), let visual = v.u32(52, bigEndian: big) else { return .done(.unknown) }
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
