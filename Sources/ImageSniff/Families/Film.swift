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
        Verifier([.dpx]) { input, _, _ in dpxStep(input) },
        Verifier([.openEXR]) { input, _, _ in exrStep(input) },
        // Radiance: the scan lines the resolution string sizes decode from the data after it
        // (a walk over the whole file). A header or resolution string that the data ends
        // within is cut; one past the first bytes is not checked.
        Verifier([.radianceHDR], walk: radianceWalk) { input, _, walked in
            guard let walked else {
                if radianceWalk(input.view) != nil { return .needWalk }
                return input.view.count >= input.totalLength ? .truncated : .unknown
            }
            return Verifier.step(for: walked)
        },
    ]

    /// DPX: the first image element's lines, from its data offset, within the data: samples of
    /// 8, 16, 32 or 64 bits, 1, 10 or 12 bits packed, or 10 bits filled three to a 32-bit word
    /// (12 bits, one to 16); rows unpadded, plus the end-of-line padding the element states.
    /// Writers differ on padding rows to 32 bits: ImageMagick, GraphicsMagick and ffmpeg 9 pad
    /// 8-bit rows, ffmpeg 16-bit ones too, ImageMagick's 12- and 16-bit rows and oiiotool's are
    /// not padded. A length that passes the unpadded rows and falls short of the padded ones is
    /// cut, unless the header's file size says it is the file's (a writer that does not pad may
    /// round the file up, as the DVS SDK does to 4 KiB). The header's file size is not trusted
    /// otherwise: ImageMagick 6 writes an RGB image's size for a grey one, and an 8-bit
    /// image's for a deeper one or its padded rows. Elements of other descriptors (colour
    /// difference, user-defined) or run-length encoded are not checked.
    static func dpxStep(_ input: Input) -> VerifyStep {
        let v = input.view
        guard v.has(0, 820) else { return .needRange(0..<820) }  // the first element's fields: past the end, truncated
        let big = v.matches("SDPX")
        let width = Int(v.u32(772, bigEndian: big)!), height = Int(v.u32(776, bigEndian: big)!)
        let descriptor = v.u8(800)!, bits = Int(v.u8(803)!), packing = v.u16(804, bigEndian: big)!, encoding = v.u16(806, bigEndian: big)!
        let offset = Int(v.u32(808, bigEndian: big)!), padding = v.u32(812, bigEndian: big)!
        let components: Int
        switch descriptor {
        case 1, 2, 3, 4, 6, 8: components = 1  // red, green, blue, alpha, luma, depth
        case 50: components = 3  // RGB
        case 51, 52: components = 4  // RGBA, ABGR
        default: return .unknown
        }
        guard encoding == 0, offset >= 768, width > 0, height > 0 else { return .unknown }
        let samples = width * components
        var row: Int
        switch (bits, packing) {
        case (8, _), (16, _), (32, _), (64, _): row = samples * bits / 8
        case (10, 1), (10, 2): row = (samples + 2) / 3 * 4
        case (12, 1), (12, 2): row = samples * 2
        case (1, 0), (10, 0), (12, 0): row = (samples * bits + 7) / 8  // packed; a writer may pad rows to 32 bits
        default: return .unknown
        }
        if padding != 0 && padding != .max {
            row += Int(padding)
            return Verifier.fits(offset, row, height, in: input.totalLength)
        }
        // Rows padded to 32 bits, or not (a 317-pixel 8-bit RGB row takes 952 bytes, or 951). A
        // length between the two ends is a padded image cut short, unless the header says the
        // file is that long.
        let unpadded = Verifier.fits(offset, row, height, in: input.totalLength)
        let padded = (row + 3) / 4 * 4
        guard case .complete = unpadded, padded > row, case .truncated = Verifier.fits(offset, padded, height, in: input.totalLength),
              input.totalLength > offset + row * height,
              Int(v.u32(16, bigEndian: big)!) != input.totalLength else { return unpadded }
        return .truncated
    }

    /// What an OpenEXR part's header says of its chunks.
    struct EXRPart {
        var tiled = false, deep = false
        var compression: UInt8?, chunkCount: Int?
        var window: (width: Int, height: Int)?
        /// Tile width and height, level mode (one level, mipmap, ripmap) and rounding mode.
        var tiles: (x: Int, y: Int, mode: UInt8, roundsUp: Bool)?

        /// The chunks of the part: stated, or counted from the data window (scan lines: blocks of
        /// as many lines as the compression packs; tiles: every level's grid). Nil: not known.
        var chunks: Int? {
            if let chunkCount { return chunkCount }
            guard !deep, let window, window.width > 0, window.height > 0 else { return nil }
            guard tiled else { return Film.exrLinesPerChunk(compression ?? 0xFF).map { (window.height + $0 - 1) / $0 } }
            guard let tiles, tiles.x > 0, tiles.y > 0, tiles.mode <= 2 else { return nil }
            // Levels of a side: 1 + log2 of it, rounded down or up; a level's side halves, rounded alike.
            func levels(_ side: Int) -> Int {
                let floor = Int.bitWidth - 1 - side.leadingZeroBitCount
                return 1 + (tiles.roundsUp && side > 1 << floor ? floor + 1 : floor)
            }
            func side(_ size: Int, _ level: Int) -> Int { max(tiles.roundsUp ? (size + (1 << level) - 1) >> level : size >> level, 1) }
            // Tiles of a level (nil past the budget: no more is read).
            func grid(_ width: Int, _ height: Int) -> Int? {
                let (n, overflow) = ((width + tiles.x - 1) / tiles.x).multipliedReportingOverflow(by: (height + tiles.y - 1) / tiles.y)
                return overflow || n > Budget.exrChunks ? nil : n
            }
            var count = 0
            var sizes: [(Int, Int)] = []
            switch tiles.mode {
            case 0: sizes = [(window.width, window.height)]
            case 1: sizes = (0..<levels(max(window.width, window.height))).map { (side(window.width, $0), side(window.height, $0)) }
            default:
                for lx in 0..<levels(window.width) {
                    for ly in 0..<levels(window.height) { sizes.append((side(window.width, lx), side(window.height, ly))) }
                }
            }
            for (w, h) in sizes {
                guard let n = grid(w, h) else { return nil }
                count += n
                if count > Budget.exrChunks { return nil }
            }
            return count
        }
    }

    /// OpenEXR: every part's header (a multi-part file's end with an empty one), then the chunk
    /// offset tables, within the data; the chunk the greatest offset places ends within the data (its header gives its size: a deep chunk's
    /// is its packed offset table and sample data). The length is looked at only once every
    /// range is held: a stream asks for a range only while its answer does not wait for the end.
    static func exrStep(_ input: Input) -> VerifyStep {
        let v = input.view
        let known = input.knownLength ?? .max
        guard v.has(0, 8) else { return .needRange(0..<8) }  // past the end: truncated
        guard let flags = v.u32le(4) else { return .unknown }
        let multipart = flags & 0x1000 != 0
        var parts: [EXRPart] = []
        var part = EXRPart(tiled: flags & 0x200 != 0, deep: flags & 0x800 != 0)
        var o = 8, attributes = 0
        while true {
            // Name and type (each NUL-terminated, 255 bytes at most), size, value.
            guard o < known else { return .truncated }
            let head = o..<min(o + 2 * 256 + 4, known)
            guard v.has(head) else { return .needRange(head) }
            if v.u8(o) == 0 {
                // The end of a header: of the only one, or of a part's (an empty header, a
                // second NUL, ends a multi-part file's).
                o += 1
                parts.append(part)
                part = EXRPart()
                guard multipart else { break }
                guard parts.count <= Budget.exrAttributes else { return .unknown }
                guard o < known else { return .truncated }
                guard v.has(o, 1) else { return .needRange(o..<min(o + 2 * 256 + 4, known)) }
                if v.u8(o) == 0 { o += 1; break }
                continue
            }
            attributes += 1
            guard attributes <= Budget.exrAttributes else { return .unknown }
            guard case .attribute(let value) = exrAttribute(v, at: o, before: head.upperBound) else {
                return head.upperBound == known ? .truncated : .unknown
            }
            let name = o, size = value.count
            o = value.upperBound
            let isCompression = v.matches("compression\0", at: name), isWindow = v.matches("dataWindow\0", at: name),
                isTiles = v.matches("tiles\0", at: name), isCount = v.matches("chunkCount\0", at: name),
                isType = v.matches("type\0", at: name)
            guard isCompression || isWindow || isTiles || isCount || isType else { continue }
            guard v.has(value) else { return .needRange(value) }
            let at = value.lowerBound
            if isCompression { part.compression = v.u8(at) }
            if isCount { part.chunkCount = v.u32le(at).map { Int(Int32(bitPattern: $0)) } }
            if isWindow, size == 16 {
                let box = (0..<4).map { Int(Int32(bitPattern: v.u32le(at + 4 * $0)!)) }
                part.window = (box[2] - box[0] + 1, box[3] - box[1] + 1)
            }
            if isTiles, size == 9 {
                let mode = v.u8(at + 8)!
                part.tiles = (Int(v.u32le(at)!), Int(v.u32le(at + 4)!), mode & 0x0F, mode >> 4 == 1)
            }
            if isType {  // a string of `size` bytes, without a NUL
                if size == 10, v.matches("tiledimage", at: at) { (part.tiled, part.deep) = (true, false) }
                if size == 13, v.matches("scanlineimage", at: at) { (part.tiled, part.deep) = (false, false) }
                if size == 12, v.matches("deepscanline", at: at) { (part.tiled, part.deep) = (false, true) }
                if size == 8, v.matches("deeptile", at: at) { (part.tiled, part.deep) = (true, true) }
            }
        }
        var total = 0
        for p in parts {
            guard let chunks = p.chunks, chunks > 0, chunks <= Budget.exrChunks else { return .unknown }
            total += chunks
        }
        guard total <= Budget.exrChunks else { return .unknown }
        let table = o..<(o + 8 * total)
        guard v.has(table) else { return .needRange(table) }  // past the end: truncated
        var last = 0
        for i in 0..<total {
            guard let offset = v.u64(table.lowerBound + 8 * i, bigEndian: false) else { return .unknown }
            // 0: a chunk the writer did not write (OpenEXR's Python binding writes a mipmapped
            // file's first level only); another offset before the chunks is damage.
            if offset == 0 { continue }
            guard offset >= UInt64(table.upperBound) else { return .unknown }
            guard offset < UInt64(Int.max / 2) else { return .truncated }
            last = max(last, Int(offset))
        }
        guard last > 0 else { return .unknown }
        // The last chunk's header: a multi-part file's part number, the chunk's coordinates (a
        // line; a tile's four), then its size, or a deep chunk's three 8-byte sizes (the packed
        // offset table's and sample data's come first).
        var header = last
        var owner = parts[0]
        if multipart {
            guard v.has(last, 4) else { return .needRange(last..<(last + 4)) }  // past the end: truncated
            let index = Int(v.u32le(last)!)
            guard index < parts.count else { return .unknown }
            owner = parts[index]
            header += 4
        }
        header += owner.tiled ? 16 : 4
        let sizes = header..<(header + (owner.deep ? 24 : 4))
        guard v.has(sizes) else { return .needRange(sizes) }  // past the end: truncated
        let end: Int
        if owner.deep {
            guard let table = v.u64(header, bigEndian: false), let samples = v.u64(header + 8, bigEndian: false),
                  table < 1 << 48, samples < 1 << 48 else { return .truncated }
            end = sizes.upperBound + Int(table) + Int(samples)
        } else {
            end = sizes.upperBound + Int(v.u32le(header)!)
        }
        return end <= input.totalLength ? .complete : .truncated
    }

    /// An OpenEXR header attribute that starts at `o` (not at the header's closing NUL).
    enum EXRAttribute {
        /// Where its value lies (its name starts at `o`; the value may reach past `limit`).
        case attribute(value: Range<Int>)
        /// Its name, type or size is not held before `limit`: the bytes up to `needed` are wanted.
        case cut(needed: Int)
    }

    /// The attribute at `o`: a name and a type, each ending with a NUL within 256 bytes, a 32-bit
    /// little-endian size, then the value. Shared by the whole-file check and the properties.
    static func exrAttribute(_ v: ByteView, at o: Int, before limit: Int) -> EXRAttribute {
        guard let nameEnd = v.find("\0", in: o..<min(limit, o + 256)) else { return .cut(needed: o + 256) }
        guard let typeEnd = v.find("\0", in: (nameEnd + 1)..<min(limit, nameEnd + 257)) else { return .cut(needed: nameEnd + 257) }
        guard let size = v.u32le(typeEnd + 1) else { return .cut(needed: typeEnd + 5) }
        return .attribute(value: (typeEnd + 5)..<(typeEnd + 5 + Int(size)))
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
            let value: Int, end: Int
            switch exrAttribute(v, at: o, before: v.count) {
            case .cut(let needed): return .need(needed, partial: sized())
            case .attribute(let range): (value, end) = (range.lowerBound, range.upperBound)
            }
            guard end <= v.count else { return .need(end, partial: sized()) }
            // box2i windows: the data window (the pixels stored) and the display window (what
            // viewers and `identify` show). The size reported is the display window's.
            let isData = v.matches("dataWindow\0", at: o)
            if end - value == 16, isData || v.matches("displayWindow\0", at: o) {
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
        guard v.has(blank + 2, 8) else { return .need(blank + 34, partial: p) }
        guard let (axes, _) = radianceResolution(v, at: blank + 2) else { return .done(p) }
        var result = p
        for (axis, n) in axes {
            if axis == UInt8(ascii: "X") { result.width = n } else if axis == UInt8(ascii: "Y") { result.height = n }
        }
        return .done(result)
    }

    /// The resolution string at `o` (after the header's empty line): its two axes, the first
    /// the one scan lines follow (`-Y N +X M`: N scan lines of M pixels), and where the pixels
    /// begin (after its line end, when in view).
    static func radianceResolution(_ v: ByteView, at start: Int) -> (axes: [(axis: UInt8, n: Int)], pixels: Int?)? {
        var o = start
        var axes: [(axis: UInt8, n: Int)] = []
        for _ in 0..<2 {
            while let b = v.u8(o), b == 0x20 { o += 1 }
            guard let sign = v.u8(o), sign == UInt8(ascii: "-") || sign == UInt8(ascii: "+"), let axis = v.u8(o + 1) else { return nil }
            o += 2
            guard let n = v.decimal(at: &o) else { return nil }
            axes.append((axis, n))
        }
        return (axes, v.find("\n", in: o..<min(v.count, o + 64)).map { $0 + 1 })
    }

    /// The walk that decodes a Radiance picture's scan lines (`FrameWalk.RunLengthCode.radiance`),
    /// from its first bytes; nil when its header or resolution string is not in view.
    static func radianceWalk(_ v: ByteView) -> FrameWalk? {
        guard let blank = v.find("\n\n", in: 0..<min(v.count, 8192)),
              let (axes, pixels) = radianceResolution(v, at: blank + 2), let pixels else { return nil }
        let lines = axes[0].n, width = axes[1].n
        guard (1...(1 << 24)).contains(width), (0...(1 << 24)).contains(lines) else { return nil }
        return FrameWalk(.runLength(.radiance(width: width), remaining: lines * (4 * width + 1)), at: pixels)
    }
}
