// The properties of the TIFF family's formats (the rules are in TIFF.swift).

extension TIFF {
    static let readers = [
        PropertyReader([.tiff] + CameraRaw.tiffBased + [.canonTIFRaw, .sonyAXR, .dxoRaw, .leicaRaw, .orf, .rw2, .rwl, .panasonicRaw],
                       read: properties),
    ]

    /// One IFD's entries, as far as properties need them.
    struct Directory {
        var width: Int?, height: Int?, bitsPerSample: Int?, samples: Int?, photometric: Int?
        var extraSamples: Int?, orientation: Int?, hasICC = false, newSubfileType = 0
        var subIFDs: [Int] = []
        var next = 0
    }

    enum Read { case ok(Directory), needs(Int), bad }

    struct Layout {
        let big: Bool       // byte order
        let bigTIFF: Bool   // 8-byte offsets

        var entrySize: Int { bigTIFF ? 20 : 12 }
        var countSize: Int { bigTIFF ? 8 : 2 }
        var inlineBytes: Int { bigTIFF ? 8 : 4 }

        func offset(_ v: ByteView, _ o: Int) -> Int? {
            // (Clamped: an offset from the file is never trusted to fit arithmetic.)
            if bigTIFF { return v.u64(o, bigEndian: big).map(clampOffset) }
            return v.u32(o, bigEndian: big).map(Int.init)
        }
    }

    /// Reads the IFD at `at` of data `length` bytes long: `.needs` when the IFD, or a value it
    /// points to within the data, lies past the bytes in view.
    static func directory(_ v: ByteView, at: Int, _ l: Layout, length: Int) -> Read {
        guard at >= 8 else { return .bad }
        let countRaw: Int?
        if l.bigTIFF { countRaw = v.u64(at, bigEndian: l.big).map { $0 > 4096 ? 4097 : Int($0) } } else { countRaw = v.u16(at, bigEndian: l.big).map(Int.init) }
        guard let count = countRaw else { return .needs(at + l.countSize) }
        guard count > 0, count <= Limits.maxWalkSteps else { return .bad }
        let end = at + l.countSize + count * l.entrySize + l.inlineBytes
        guard v.has(at, end - at) else { return .needs(end) }
        var d = Directory()
        var wanted: Int?
        for i in 0..<count {
            let e = at + l.countSize + i * l.entrySize
            guard let tag = v.u16(e, bigEndian: l.big), let type = v.u16(e + 2, bigEndian: l.big) else { return .bad }
            let n = l.bigTIFF ? Int(min(v.u64(e + 4, bigEndian: l.big) ?? 0, 1 << 20)) : Int(v.u32(e + 4, bigEndian: l.big) ?? 0)
            let value = e + (l.bigTIFF ? 12 : 8)
            // The first value of a SHORT, LONG or LONG8 entry (inline or at its offset).
            func first() -> Int? {
                let size = type == 3 ? 2 : type == 16 ? 8 : 4
                var at = value
                if n * size > l.inlineBytes {
                    guard let o = l.offset(v, value) else { return nil }
                    // A value out of view but within the data: read on before answering.
                    if !v.has(o, size) && o <= length - size { wanted = max(wanted ?? 0, o + size) }
                    at = o
                }
                switch type {
                case 3: return v.u16(at, bigEndian: l.big).map(Int.init)
                case 4, 13: return v.u32(at, bigEndian: l.big).map(Int.init)
                case 16, 18: return v.u64(at, bigEndian: l.big).map { $0 > UInt64(Int32.max) ? nil : Int($0) } ?? nil
                default: return nil
                }
            }
            switch tag {
            case 254: d.newSubfileType = first() ?? 0
            case 256: d.width = first()
            case 257: d.height = first()
            case 258: d.bitsPerSample = first()
            case 262: d.photometric = first()
            case 274: d.orientation = first()
            case 277: d.samples = first()
            case 338: d.extraSamples = first()
            case 34675: d.hasICC = true
            case 330:
                // SubIFDs: one offset inline, or several at an offset (read if in view).
                if n == 1 { if let o = first() { d.subIFDs.append(o) } } else if n > 1, let at = l.offset(v, value) {
                    for k in 0..<min(n, 8) {
                        if let o = l.bigTIFF ? l.offset(v, at + 8 * k) : v.u32(at + 4 * k, bigEndian: l.big).map(Int.init) { d.subIFDs.append(o) }
                    }
                }
            default: break
            }
        }
        d.next = l.offset(v, at + l.countSize + count * l.entrySize) ?? 0
        if let wanted { return .needs(wanted) }
        return .ok(d)
    }

    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard v.count >= 16 else { return .need(16, partial: .unknown) }
        let big = v.base[0] == 0x4D
        guard let ident = v.u16(2, bigEndian: big) else { return .done(.unknown) }
        let layout = Layout(big: big, bigTIFF: ident == 43)
        guard let ifd0 = layout.offset(v, layout.bigTIFF ? 8 : 4) else { return .done(.unknown) }
        let first: Directory
        switch directory(v, at: ifd0, layout, length: input.totalLength) {
        case .ok(let d): first = d
        case .needs(let n): return .need(n, partial: .unknown)
        case .bad: return .done(.unknown)
        }
        var p = describe(first)
        if type.conforms(to: .cameraRawImage) || type.belongs(toFamily: .tiff) && type != .tiff {
            // Camera RAW: the largest image among IFD0, the next IFDs and IFD0's SubIFDs.
            var candidates = [first]
            var offsets = first.subIFDs
            var next = first.next
            for _ in 0..<4 where next != 0 { offsets.append(next); if case .ok(let d) = directory(v, at: next, layout, length: input.totalLength) { next = d.next } else { break } }
            for o in offsets.prefix(Budget.tiffIFDs) {
                switch directory(v, at: o, layout, length: input.totalLength) {
                case .ok(let d): candidates.append(d)
                case .needs(let n): return .need(n, partial: p)
                case .bad: continue
                }
            }
            if let largest = candidates.max(by: { pixels($0) < pixels($1) }), pixels(largest) > 0 {
                p.width = largest.width
                p.height = largest.height
            }
            p.bitDepth = nil
            p.colorModel = nil
            p.hasAlpha = nil
            p.frameCount = 1
            return .done(p)
        }
        // Pages: the IFD chain (each IFD read is bounded; a loop or a cut stops the count).
        var pages = 1
        var seen: Set<Int> = [ifd0]
        var next = first.next
        while next != 0 {
            guard seen.insert(next).inserted, pages < 4096 else { break }
            switch directory(v, at: next, layout, length: input.totalLength) {
            case .ok(let d):
                if d.newSubfileType & 1 == 0 { pages += 1 }  // reduced-resolution images are not pages
                next = d.next
            case .needs(let n):
                if n > input.totalLength { next = 0; break }
                p.frameCount = nil
                return .need(n, partial: p)
            case .bad:
                next = 0
            }
        }
        p.frameCount = pages
        return .done(p)
    }

    private static func pixels(_ d: Directory) -> Int {
        guard let w = d.width, let h = d.height, w > 0, h > 0 else { return 0 }
        return w.multipliedReportingOverflow(by: h).overflow ? Int.max : w * h
    }

    /// What one IFD says.
    static func describe(_ d: Directory) -> ImageProperties {
        var p = ImageProperties(width: d.width, height: d.height, bitDepth: d.bitsPerSample, hasICCProfile: d.hasICC)
        let samples = d.samples ?? 1
        switch d.photometric {
        case 0, 1: p.colorModel = .gray
        case 2, 6: p.colorModel = .rgb
        case 3: p.colorModel = .indexed
        case 5: p.colorModel = .cmyk
        case 8, 9, 10: p.colorModel = .lab
        default: break
        }
        if d.photometric != nil {
            let base = p.colorModel == .cmyk ? 4 : p.colorModel == .gray || p.colorModel == .indexed ? 1 : 3
            // ExtraSamples 1 (associated) or 2 (unassociated) is alpha.
            p.hasAlpha = samples > base && (d.extraSamples == 1 || d.extraSamples == 2)
        }
        if let o = d.orientation, (1...8).contains(o) { p.orientation = o }
        return p
    }
}
