// Film and high-dynamic-range formats: DPX, Cineon, OpenEXR, Radiance RGBE, Kodak Photo CD, and
// Wavefront's RLA (rendered frames, no magic).

enum Film: FormatFamily {
    static let rules = [
        Rule("DPX", .firstByte([0x53, 0x58]), produces: [.dpx], check: dpx),
        Rule("Cineon", .firstByte([0x80, 0xD7]), produces: [.cineon], check: cineon),
        Rule("OpenEXR", .firstByte([0x76]), produces: [.openEXR], check: exr),
        Rule("Radiance HDR", .firstByte([0x23]), oneByteDecides: true, produces: [.radianceHDR], check: radiance),
        Rule("Photo CD overview pack", .firstByte([0x50]), produces: [.photoCD], check: photoCDOverview),
        Rule("Photo CD image pack (PCD_IPI at 2048)", .elsewhere, produces: [.photoCD], check: photoCD),
        Rule("Wavefront RLA (revision FFFE at 26)", .elsewhere, strength: .heuristic, produces: [.rla], check: rla),
    ]

    /// Wavefront RLA: a 740-byte big-endian header with no magic. The revision at 26 is FFFE
    /// (the format's current revision, which OpenImageIO and 3ds Max write); the window and the
    /// active window (left, right, bottom, top) are not empty; the colour, matte and auxiliary
    /// channel counts (20, 22, 24) are at most 64 and not all zero; the bits per colour channel
    /// (658) are 1 to 32, per matte and auxiliary channel (662, 666) at most 32; the gamma text
    /// (28) and channel names (580) are text. The table of scanline offsets follows the header
    /// (740), one 32-bit offset per row of the active window, each past the table.
    static func rla(_ input: Input) -> Step {
        let v = input.view
        guard let revision = v.u16be(26) else { return input.hasMore ? .need(740, fallback: nil) : .no }
        guard revision == 0xFFFE else { return .no }
        guard v.count >= 740 else { return input.hasMore ? .need(740, fallback: nil) : .no }
        func i16(_ o: Int) -> Int { Int(Int16(bitPattern: v.u16be(o) ?? 0)) }
        for w in [0, 8] where i16(w + 2) < i16(w) || i16(w + 6) < i16(w + 4) { return .no }
        let channels = [i16(20), i16(22), i16(24)]
        guard channels.allSatisfy({ (0...64).contains($0) }), channels.reduce(0, +) >= 1,
              (1...32).contains(i16(658)), (0...32).contains(i16(662)), (0...32).contains(i16(666)) else { return .no }
        for (start, count) in [(28, 16), (580, 32)] {
            guard let end = v.find("\0", in: start..<(start + count)) ?? Optional(start + count),
                  (start..<end).allSatisfy({ (0x20...0x7E).contains(v.base[$0]) }) else { return .no }
        }
        let rows = i16(14) - i16(12) + 1
        let table = 740 + 4 * rows
        let checked = min(rows, 16_384)
        guard v.count >= 740 + 4 * checked else { return input.hasMore ? .need(740 + 4 * checked, fallback: nil) : .no }
        for row in 0..<checked where Int(v.u32be(740 + 4 * row) ?? 0) < table { return .no }
        return .hit(Hit(.rla, .likely))
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

    /// Cineon: `80 2A 5F D7` big-endian, or the little-endian reverse.
    static func cineon(_ input: Input) -> Step {
        let v = input.view
        return v.u32be(0) == 0x802A_5FD7 || v.u32le(0) == 0x802A_5FD7 ? .hit(Hit(.cineon)) : .no
    }

    static func exr(_ input: Input) -> Step {
        input.view.signature("\u{76}\u{2F}\u{31}\u{01}") ?? .hit(Hit(.openEXR))
    }

    static func radiance(_ input: Input) -> Step {
        let v = input.view
        if v.matches("#?RADIANCE") || v.matches("#?RGBE") { return .hit(Hit(.radianceHDR)) }
        let partial = (v.matchesAvailablePrefix("#?RADIANCE") && v.count < 10) || (v.matchesAvailablePrefix("#?RGBE") && v.count < 6)
        return partial ? .need(10, fallback: nil) : .no
    }

    /// An overview pack: `PCD_OPA` at 0.
    static func photoCDOverview(_ input: Input) -> Step {
        input.view.signature("PCD_OPA") ?? .hit(Hit(.photoCD))
    }

    /// An image pack: sector 0 is fill, `PCD_IPI` opens sector 1 (byte 2048).
    static func photoCD(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 2055 else { return input.hasMore && input.totalLength >= 2055 ? .need(2056, fallback: nil) : .no }
        return v.matches("PCD_IPI", at: 2048) ? .hit(Hit(.photoCD)) : .no
    }
}

// MARK: - Whole-file check

extension Film {
    static let verifiers = [
        Verifier([.dpx]) { input, _, _ in
            // The file's total size, a field of the header's own byte order (SMPTE 268M);
            // 0 and all ones are "not given".
            guard input.view.has(0, 20) else { return .needRange(0..<20) }  // past the end: truncated
            guard let size = input.view.u32(16, bigEndian: input.view.matches("SDPX")), size != 0, size != .max else { return .unknown }
            return Int(size) <= input.totalLength ? .complete : .truncated
        },
        Verifier([.openEXR]) { input, _, _ in exrStep(input) },
    ]

    /// OpenEXR, one part of scan lines or of one level of tiles: the chunk offset table after the
    /// header, then the chunk the greatest offset places (its header gives its size) ends within
    /// the data. Multi-part, deep, and mipmapped or ripmapped tiled files are not checked. (The
    /// length is looked at only once every range is held: a stream asks for a range only while
    /// its answer does not wait for the end.)
    static func exrStep(_ input: Input) -> VerifyStep {
        let v = input.view
        let known = input.knownLength ?? .max
        guard v.has(0, 8) else { return .needRange(0..<8) }  // past the end: truncated
        guard let flags = v.u32le(4), flags & 0x1400 == 0 else { return .unknown }  // multi-part or deep
        let tiled = flags & 0x200 != 0
        var compression: UInt8?, window: (width: Int, height: Int)?, tiles: (x: Int, y: Int, mode: UInt8)?, chunkCount: Int?
        var o = 8
        for _ in 0..<Budget.exrAttributes {
            // Name and type (each NUL-terminated, 255 bytes at most), size, value.
            guard o < known else { return .truncated }
            let head = o..<min(o + 2 * 256 + 4, known)
            guard v.has(head) else { return .needRange(head) }
            if v.u8(o) == 0 { break }  // the end of the header
            guard let nameEnd = v.find("\0", in: o..<min(head.upperBound, o + 256)),
                  let typeEnd = v.find("\0", in: (nameEnd + 1)..<min(head.upperBound, nameEnd + 257)),
                  let size = v.u32le(typeEnd + 1) else { return head.upperBound == known ? .truncated : .unknown }
            let value = (typeEnd + 5)..<(typeEnd + 5 + Int(size))
            if v.matches("compression\0", at: o) || v.matches("dataWindow\0", at: o) || v.matches("tiles\0", at: o)
                || v.matches("chunkCount\0", at: o) {
                guard v.has(value) else { return .needRange(value) }
                if v.matches("compression\0", at: o) { compression = v.u8(value.lowerBound) }
                if v.matches("chunkCount\0", at: o) { chunkCount = v.u32le(value.lowerBound).map { Int(Int32(bitPattern: $0)) } }
                if v.matches("dataWindow\0", at: o), size == 16 {
                    let box = (0..<4).map { Int(Int32(bitPattern: v.u32le(value.lowerBound + 4 * $0)!)) }
                    window = (box[2] - box[0] + 1, box[3] - box[1] + 1)
                }
                if v.matches("tiles\0", at: o), size == 9 {
                    tiles = (Int(v.u32le(value.lowerBound)!), Int(v.u32le(value.lowerBound + 4)!), v.u8(value.lowerBound + 8)! & 0x0F)
                }
            }
            o = value.upperBound
        }
        guard v.u8(o) == 0, let window, window.width > 0, window.height > 0 else { return .unknown }
        // Chunks: stated, or counted from the data window (scan lines: blocks of as many lines as
        // the compression packs; tiles: one level's grid).
        var chunks: Int
        if let chunkCount {
            chunks = chunkCount
        } else if tiled {
            guard let tiles, tiles.mode == 0, tiles.x > 0, tiles.y > 0 else { return .unknown }
            let grid = ((window.width + tiles.x - 1) / tiles.x).multipliedReportingOverflow(by: (window.height + tiles.y - 1) / tiles.y)
            guard !grid.overflow else { return .unknown }
            chunks = grid.partialValue
        } else {
            guard let lines = compression.flatMap(exrLinesPerChunk) else { return .unknown }
            chunks = (window.height + lines - 1) / lines
        }
        guard chunks > 0, chunks <= Budget.exrChunks else { return .unknown }
        let table = (o + 1)..<(o + 1 + 8 * chunks)
        guard v.has(table) else { return .needRange(table) }  // past the end: truncated
        var last = 0
        for i in 0..<chunks {
            guard let offset = v.u64(table.lowerBound + 8 * i, bigEndian: false) else { return .unknown }
            // An offset the writer never filled in (0), or past the end: the data was cut.
            guard offset >= UInt64(table.upperBound), offset < UInt64(Int.max / 2) else { return .truncated }
            last = max(last, Int(offset))
        }
        // The last chunk's header: its coordinates (a line; a tile's four), then its size.
        let sizeField = last + (tiled ? 16 : 4)
        guard v.has(sizeField, 4) else { return .needRange(sizeField..<(sizeField + 4)) }  // past the end: truncated
        return sizeField + 4 + Int(v.u32le(sizeField)!) <= input.totalLength ? .complete : .truncated
    }

    /// Scan lines a chunk holds, by compression: none, RLE and ZIPS 1; ZIP and PXR24 16; PIZ,
    /// B44, B44A, DWAA and HTJ2K32 32; DWAB and HTJ2K256 256 (as OpenEXR 3.5 writes them; nil:
    /// a compression not known here).
    static func exrLinesPerChunk(_ compression: UInt8) -> Int? {
        switch compression {
        case 0, 1, 2: return 1
        case 3, 5: return 16
        case 4, 6, 7, 8, 11: return 32
        case 9, 10: return 256
        default: return nil
        }
    }
}

// MARK: - Properties

extension Film {
    static let readers = [
        PropertyReader([.openEXR], read: exr),
        PropertyReader([.radianceHDR], read: radianceProperties),
        PropertyReader([.dpx], read: { input, _ in
            let v = input.view
            let big = v.matches("SDPX")
            guard let w = v.u32(772, bigEndian: big), let h = v.u32(776, bigEndian: big), let descriptor = v.u8(800),
                  let depth = v.u8(803) else { return .need(804, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: Int(depth),
                                         colorModel: descriptor == 6 ? .gray : .rgb, hasAlpha: descriptor == 51 || descriptor == 52, frameCount: 1))
        }),
        PropertyReader([.rla], read: { input, _ in
            // The active window's size; bits per colour channel; colour channels (3: RGB) and
            // matte channels (alpha).
            let v = input.view
            guard v.has(0, 668) else { return .need(668, partial: .unknown) }
            func i16(_ o: Int) -> Int { Int(Int16(bitPattern: v.u16be(o) ?? 0)) }
            return .done(ImageProperties(width: i16(10) - i16(8) + 1, height: i16(14) - i16(12) + 1, bitDepth: i16(658),
                                         colorModel: i16(20) >= 3 ? .rgb : .gray, hasAlpha: i16(22) > 0, frameCount: 1))
        }),
        PropertyReader([.cineon], read: { input, _ in
            let v = input.view
            let big = v.u32be(0) == 0x802A_5FD7
            guard let w = v.u32(200, bigEndian: big), let h = v.u32(204, bigEndian: big), let channels = v.u8(193) else {
                return .need(208, partial: .unknown)
            }
            return .done(ImageProperties(width: Int(w), height: Int(h), colorModel: channels >= 3 ? .rgb : .gray, frameCount: 1))
        }),
    ]

    /// OpenEXR's header attributes: `dataWindow` (box2i) and `channels` (an `A` channel is alpha;
    /// the first channel's pixel type gives the depth).
    static func exr(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var p = ImageProperties(frameCount: 1)
        var dataWindow: (Int, Int)?, displayWindow: (Int, Int)?
        func sized() -> ImageProperties {
            var q = p
            if let (w, h) = displayWindow ?? dataWindow { q.width = w; q.height = h }
            if let (w, h) = dataWindow, displayWindow != nil { q.codedWidth = w; q.codedHeight = h }
            return q
        }
        var o = 8
        for _ in 0..<256 {
            guard let first = v.u8(o) else { return .need(o + 64, partial: sized()) }
            if first == 0 { return .done(sized()) }  // the end of the header
            guard let nameEnd = v.find("\0", in: o..<min(v.count, o + 256)) else { return .need(o + 256, partial: sized()) }
            guard let typeEnd = v.find("\0", in: (nameEnd + 1)..<min(v.count, nameEnd + 257)) else { return .need(nameEnd + 257, partial: sized()) }
            guard let size = v.u32le(typeEnd + 1) else { return .need(typeEnd + 5, partial: sized()) }
            let value = typeEnd + 5, end = value + Int(size)
            guard end <= v.count else { return .need(end, partial: sized()) }
            // box2i windows: the data window (the pixels stored) and the display window (what
            // viewers and `identify` show). The size reported is the display window's.
            let isData = v.matches("dataWindow\0", at: o)
            if size == 16, isData || v.matches("displayWindow\0", at: o) {
                if let x0 = v.u32le(value), let y0 = v.u32le(value + 4), let x1 = v.u32le(value + 8), let y1 = v.u32le(value + 12) {
                    let width = Int(Int32(bitPattern: x1)) - Int(Int32(bitPattern: x0)) + 1
                    let height = Int(Int32(bitPattern: y1)) - Int(Int32(bitPattern: y0)) + 1
                    if width > 0 && height > 0 {
                        if isData { dataWindow = (width, height) } else { displayWindow = (width, height) }
                    }
                }
            }
            if v.matches("channels\0", at: o) {
                var c = value
                var names = 0
                p.hasAlpha = false
                while c < end, let b = v.u8(c), b != 0, names < 64 {
                    guard let n = v.find("\0", in: c..<end) else { break }
                    if n == c + 1 && b == UInt8(ascii: "A") { p.hasAlpha = true }
                    if names == 0, let pixelType = v.u32le(n + 1) { p.bitDepth = pixelType == 1 ? 16 : 32 }
                    names += 1
                    c = n + 1 + 16
                }
                p.colorModel = names >= 3 ? .rgb : .gray
            }
            o = end
        }
        return .done(sized())
    }

    /// Radiance: header lines up to an empty line, then the resolution string (`-Y N +X M`).
    static func radianceProperties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        let p = ImageProperties(bitDepth: 32, colorModel: .rgb, hasAlpha: false, frameCount: 1)
        guard let blank = v.find("\n\n", in: 0..<min(v.count, 8192)) else { return .need(min(8192, v.count * 2 + 512), partial: p) }
        var o = blank + 2
        guard v.has(o, 8) else { return .need(o + 32, partial: p) }
        var sizes: [(axis: UInt8, n: Int)] = []
        for _ in 0..<2 {
            while let b = v.u8(o), b == 0x20 { o += 1 }
            guard let sign = v.u8(o), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+"), let axis = v.u8(o + 1) else { return .done(p) }
            o += 2
            guard let n = v.decimal(at: &o) else { return .done(p) }
            sizes.append((axis, n))
        }
        var result = p
        for (axis, n) in sizes {
            if axis == UInt8(ascii: "X") { result.width = n } else if axis == UInt8(ascii: "Y") { result.height = n }
        }
        return .done(result)
    }
}
