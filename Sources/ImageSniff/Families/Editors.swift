// The native documents of image editors: Photoshop PSD/PSB, GIMP XCF and GIMP's brushes,
// patterns and image hoses, ImageMagick MIFF.
// (OpenRaster is a ZIP archive: Archives.swift.)

enum Editors: FormatFamily {
    static let rules = [
        Rule("Photoshop PSD, PSB", .firstByte([0x38]), produces: [.psd, .psb], check: psd),
        Rule("GIMP XCF", .firstByte([0x67]), produces: [.xcf], check: xcf),
        Rule("ImageMagick MIFF", .firstByte([0x69, 0x49]), produces: [.miff], check: miff),
        Rule("GIMP brush, pattern (GIMP or GPAT at 20)", .elsewhere, produces: [.gimpBrush, .gimpPattern], check: gimpResource),
        Rule("GIMP image hose", .elsewhere, produces: [.gimpHose], check: gimpHose),
        Rule("GIMP brush version 1", .elsewhere, strength: .heuristic, produces: [.gimpBrush], check: gimpBrushVersion1),
    ]

    /// `8BPS`, version 1 (PSD) or 2 (PSB), six reserved zero bytes, 1–56 channels.
    static func psd(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("8BPS") else { return .no }
        guard v.count >= 26 else { return .need(26, fallback: nil) }
        guard v.matches("8BPS"), let version = v.u16be(4), let channels = v.u16be(12),
              let depth = v.u16be(22), let mode = v.u16be(24) else { return .no }
        // The reserved bytes are not checked (readers ignore them, and files with spaces there
        // exist); 57 channels is Photoshop's real limit, one above the specification's.
        guard channels >= 1, channels <= 57, [1, 8, 16, 32].contains(depth), [0, 1, 2, 3, 4, 7, 8, 9].contains(mode) else { return .no }
        switch version {
        case 1: return .hit(Hit(.psd))
        case 2: return .hit(Hit(.psb))
        default: return .no
        }
    }

    /// `gimp xcf ` then `file` or `v` and three digits, then NUL.
    static func xcf(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("gimp xcf ") { return early }
        guard v.has(9, 5) else { return .need(14, fallback: nil) }
        if v.matches("file\0", at: 9) { return .hit(Hit(.xcf)) }
        return v.base[9] == UInt8(ascii: "v") && v.base[13] == 0 ? .hit(Hit(.xcf)) : .no
    }

    /// `id=ImageMagick`, in any case (ImageMagick compares it so; GraphicsMagick writes `Id=`),
    /// then white space.
    static func miff(_ input: Input) -> Step {
        let v = input.view
        guard v.prefixMatchesIgnoringCase("id=ImageMagick") else { return .no }
        guard let next = v.u8(14) else { return .need(15, fallback: nil) }
        return ByteView.isSpace(next) ? .hit(Hit(.miff)) : .no
    }

    /// A GIMP brush (version 2: `GIMP` at 20) or pattern (`GPAT` at 20): a big-endian header
    /// size, version, width, height and bytes a pixel before the tag.
    static func gimpResource(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 24 else { return .no }
        let brush = v.matches("GIMP", at: 20), pattern = v.matches("GPAT", at: 20)
        guard brush || pattern else { return .no }
        guard let header = v.u32be(0), let version = v.u32be(4), let width = v.u32be(8), let height = v.u32be(12),
              let depth = v.u32be(16) else { return .no }
        guard header >= 24, header <= 1024, width > 0, height > 0, (1...4).contains(depth) else { return .no }
        if brush { return version == 2 ? .hit(Hit(.gimpBrush)) : .no }
        return version == 1 ? .hit(Hit(.gimpPattern)) : .no
    }

    /// A GIMP image hose: a name line, then `COUNT ncells:...`, then COUNT brushes. It cycles
    /// through its cells as one paints: an animated brush.
    static func gimpHose(_ input: Input) -> Step {
        let v = input.view
        // The name line and the count line are judged whole, never on a view that cuts them.
        let window = 2 * Budget.headerLine
        if v.count < window && input.hasMore { return .need(window, fallback: nil) }
        return hoseCountLine(v) == nil ? .no : .hit(Hit(.gimpHose, animated: true))
    }

    /// A hose's count line after its name line: the number of cells (up to 6 digits), where the
    /// line goes on (` ncells:` follows the number); nil when the first bytes hold no such line.
    static func hoseCountLine(_ v: ByteView) -> (cells: Int, rest: Int)? {
        guard let newline = v.find("\n", in: 0..<min(v.count, Budget.headerLine)) else { return nil }
        var o = newline + 1, cells = 0, digits = 0
        while let b = v.u8(o), ByteView.isDigit(b), digits < 6 {
            cells = cells * 10 + Int(b - 0x30)
            o += 1
            digits += 1
        }
        guard digits > 0, v.matches(" ncells:", at: o) else { return nil }
        return (cells, o)
    }

    /// A version 1 brush has no tag: header size, version 1, width, height, 1 or 4 bytes a pixel,
    /// and the pixels fill the file exactly after the header.
    static func gimpBrushVersion1(_ input: Input) -> Step {
        let v = input.view
        guard let header = v.u32be(0), let version = v.u32be(4), let width = v.u32be(8), let height = v.u32be(12),
              let depth = v.u32be(16) else { return .no }
        guard version == 1, header >= 20, header <= 1024, width > 0, height > 0, width <= 8192, height <= 8192,
              depth == 1 || depth == 4 else { return .no }
        return Int(header) + Int(width) * Int(height) * Int(depth) == input.totalLength ? .hit(Hit(.gimpBrush, .likely)) : .no
    }
}

// MARK: - Whole-file check

extension Editors {
    static let verifiers = [Verifier([.psd, .psb]) { input, type, _ in psdStep(input, type) }]

    /// PSD and PSB: the colour mode data, image resources and layer sections (each a length, then
    /// its bytes) lie within the data, and so does the merged image after them: raw (channels x
    /// rows x row bytes), or run-length (a byte count for each row of each channel, then the rows:
    /// the counts are read and added up). A deflated image has no stated size: whole once its
    /// compression field is within the data.
    static func psdStep(_ input: Input, _ type: ImageType) -> VerifyStep {
        let v = input.view
        guard let channels = v.u16be(12), let height = v.u32be(14), let width = v.u32be(18),
              let depth = v.u16be(22) else { return .unknown }
        let large = type == .psb  // PSB: the layer section's length and the row counts are twice as wide
        var at = 26
        // The three sections, each after the last.
        for wide in [false, false, large] {
            let field = at..<(at + (wide ? 8 : 4))
            guard v.has(field) else { return .needRange(field) }  // past the end: truncated
            let length = wide ? v.u64(at, bigEndian: true).map(clampOffset) : v.u32be(at).map(Int.init)
            at = field.upperBound + (length ?? 0)
        }
        let rows = Int(channels) * Int(height), rowBytes = (Int(width) * Int(depth) + 7) / 8
        let countSize = large ? 4 : 2
        // The compression field and the run-length table that may follow it, as far as the data
        // goes, asked for from the first byte not held: a read plan fetches forward only, so
        // the table is not asked for again after a window that holds its start. (The bytes may
        // lie in two windows: they are read one by one.)
        let tableBytes = rows * countSize <= 1 << 22 ? rows * countSize : 0
        var wantedEnd = at + 2 + tableBytes
        if let known = input.knownLength, known >= at + 2 { wantedEnd = min(wantedEnd, known) }
        let gap = firstGap(v, from: at, to: wantedEnd)
        guard gap == wantedEnd else { return .needRange(gap..<wantedEnd) }  // the field past the end: truncated
        func number(_ o: Int, _ size: Int) -> Int { (0..<size).reduce(0) { $0 << 8 | Int(v.u8(o + $1)!) } }
        switch number(at, 2) {
        case 0:
            return Verifier.fits(at + 2, rows, rowBytes, in: input.totalLength)
        case 1:
            guard tableBytes > 0 || rows == 0 else { return .unknown }
            let table = (at + 2)..<(at + 2 + tableBytes)
            guard wantedEnd == table.upperBound else { return .truncated }  // the data ends first
            var end = table.upperBound
            for row in 0..<rows { end += number(table.lowerBound + row * countSize, countSize) }
            return end <= input.totalLength ? .complete : .truncated
        case 2, 3:
            return .complete
        default:
            return .unknown  // not a compression Photoshop writes
        }
    }

    /// The first offset in `start..<end` whose byte `v` does not hold (`end` when it holds all).
    private static func firstGap(_ v: ByteView, from start: Int, to end: Int) -> Int {
        var o = start
        while o < end {
            let step = min(4096, end - o)
            if v.has(o, step) { o += step; continue }
            guard v.u8(o) != nil else { return o }
            o += 1
        }
        return end
    }
}

// MARK: - Properties

extension Editors {
    static let readers = [
        PropertyReader([.psd, .psb], read: psd),
        PropertyReader([.xcf], read: xcf),
        PropertyReader([.miff], read: miffProperties),
        PropertyReader([.gimpBrush, .gimpPattern], read: gimpResource),
        PropertyReader([.gimpHose], read: gimpHose),
    ]

    /// A GIMP brush or pattern: width, height and bytes a pixel (`u32be` at 8, 12, 16) in the
    /// header both share. A brush of 1 byte a pixel is a grey mask, of 4 an RGBA pixmap; a
    /// pattern's bytes a pixel are grey, grey and alpha, RGB or RGBA.
    static func gimpResource(_ input: Input, _ type: ImageType) -> PropertyStep {
        gimpResource(input.view, at: 0)
    }

    /// A GIMP image hose: its cells (as frames, from the count line) and the first cell's brush
    /// header (its size and colour: GIMP's hoses give every cell one size, `cellwidth`).
    static func gimpHose(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        // The name line and the count line, whole (as detection judged them).
        let window = min(2 * Budget.headerLine, input.totalLength)
        if v.count < window && input.hasMore { return .need(window, partial: .unknown) }
        guard let (cells, o) = hoseCountLine(v),
              let lineEnd = v.find("\n", in: o..<min(v.count, o + Budget.headerLine)) else { return .done(.unknown) }
        var step = gimpResource(v, at: lineEnd + 1)
        if case .done(var p) = step, p.width != nil {
            p.frameCount = cells
            step = .done(p)
        }
        return step
    }

    /// A GIMP brush or pattern header at `at`: size, then bytes a pixel.
    private static func gimpResource(_ v: ByteView, at: Int) -> PropertyStep {
        guard let w = v.u32be(at + 8), let h = v.u32be(at + 12), let bytes = v.u32be(at + 16) else { return .need(at + 20, partial: .unknown) }
        var p = ImageProperties(width: Int(w), height: Int(h), bitDepth: 8, frameCount: 1)
        switch bytes {
        case 1: p.colorModel = .gray; p.hasAlpha = false
        case 2: p.colorModel = .gray; p.hasAlpha = true
        case 3: p.colorModel = .rgb; p.hasAlpha = false
        case 4: p.colorModel = .rgb; p.hasAlpha = true
        default: p.bitDepth = nil
        }
        return .done(p)
    }

    /// PSD and PSB: channels, height, width, depth and colour mode in the 26-byte header.
    static func psd(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let channels = v.u16be(12), let h = v.u32be(14), let w = v.u32be(18), let depth = v.u16be(22),
              let mode = v.u16be(24) else { return .need(26, partial: .unknown) }
        var p = ImageProperties(width: Int(w), height: Int(h), bitDepth: Int(depth), frameCount: 1)
        let base: Int
        switch mode {
        case 0, 1, 8: p.colorModel = .gray; base = 1
        case 2: p.colorModel = .indexed; base = 1
        case 3: p.colorModel = .rgb; base = 3
        case 4: p.colorModel = .cmyk; base = 4
        case 9: p.colorModel = .lab; base = 3
        default: base = Int(channels)
        }
        p.hasAlpha = Int(channels) > base
        return .done(p)
    }

    /// XCF: `gimp xcf vNNN\0`, then width, height and base type (0 RGB, 1 gray, 2 indexed).
    static func xcf(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let w = v.u32be(14), let h = v.u32be(18), let base = v.u32be(22) else { return .need(26, partial: .unknown) }
        let model: ImageProperties.ColorModel? = base == 0 ? .rgb : base == 1 ? .gray : base == 2 ? .indexed : nil
        return .done(ImageProperties(width: Int(w), height: Int(h), colorModel: model, frameCount: 1))
    }
}

extension Editors {
    /// MIFF: the `columns=` and `rows=` keys of the text header (up to `:` and 0x1A).
    static func miffProperties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let end = v.find("\u{1A}", in: 0..<min(v.count, 8192)) else { return .need(min(8192, v.count * 2 + 1024), partial: .unknown) }
        let range = 0..<end
        var p = ImageProperties(width: v.number(after: "columns=", in: range), height: v.number(after: "rows=", in: range))
        if let depth = v.number(after: "depth=", in: range) { p.bitDepth = depth }
        if v.find("matte=True", in: range) != nil || v.find("alpha-trait=Blend", in: range) != nil { p.hasAlpha = true }
        if v.find("class=PseudoClass", in: range) != nil { p.colorModel = .indexed }
        if v.find("colorspace=CMYK", in: range) != nil { p.colorModel = .cmyk }
        if v.find("colorspace=Gray", in: range) != nil { p.colorModel = .gray }
        if let frames = v.number(after: "scenes=", in: range) { p.frameCount = frames }
        return .done(p)
    }
}
