// The properties of the TIFF family's formats (the rules are in TIFF.swift).

extension TIFF {
    static let readers = [
        PropertyReader(tiffTypes, read: properties),
    ]

    /// The types read as TIFF.
    static let tiffTypes: [ImageType] = [.tiff] + CameraRaw.tiffBased + [.canonTIFRaw, .sonyAXR, .leicaRaw, .orf, .rw2, .rwl, .panasonicRaw]

    static let verifiers = [
        Verifier(tiffTypes, walk: { chain($0, anyIdentifier: true) }, earlyWalk: { chain($0, anyIdentifier: false) }, check: verify),
    ]

    /// The completeness check's walk along the chain from IFD0 (`FrameWalk.tiffChain`), from the
    /// header alone. Also the early walk (a TIFF or BigTIFF identifier only), for a file whose
    /// IFD0 lies past the first bytes (ImageMagick and libtiff write a page's pixels before its
    /// directory): a stream starts it before they pass. It goes forward only: a chain that goes
    /// back ends it, unknown, whatever the first bytes held.
    static func chain(_ v: ByteView, anyIdentifier: Bool) -> FrameWalk? {
        TIFFLayout.header(v, at: 0, anyIdentifier: anyIdentifier).map { FrameWalk.tiffChain($0.0, ifd0: $0.1) }
    }

    /// Whole: every IFD lies within the data, and so do its values and the image data it points
    /// to: strips or tiles (offsets and byte counts), or a JPEG (`JPEGInterchangeFormat` and its
    /// length). The IFDs are the chain (the pages) and the SubIFDs each IFD lists, nested: a DNG, a
    /// NEF or an ARW keeps its raw image in a SubIFD behind a small thumbnail in IFD0, and a
    /// pyramid TIFF its lower resolutions. The EXIF and GPS IFDs are read for their values (a
    /// camera's maker note), and passed over when they do not read as IFDs (an unknown field
    /// type; for one cut short, tags out of order: Pillow copies a stale EXIF offset that points
    /// into the pixels).
    /// Only the chain's IFDs are followed to their next IFD: cameras leave garbage in the next
    /// offset of EXIF, GPS and SubIFDs (exiftool ignores it too). An IFD that points to no
    /// image data is passed over; unknown when none does, or a table is larger than 1 MiB, or
    /// there are more than `Budget.verifiedIFDs` IFDs. The IFDs are read lowest offset first, and
    /// their tables before the data's length is looked at, so that a stream asks for them as they
    /// come rather than at its end (when they have passed).
    /// When the directories need more reads than the budget allows (a file of hundreds of pages,
    /// each directory a read of its own), the chain alone is walked to its end (`chain`, reading
    /// as it goes and holding nothing; at most `FrameWalk.maxPages` directories): a directory past
    /// the end of the data is a cut, and so are values, a single strip or tile, or a thumbnail
    /// that a directory's entries place past it; the strip and tile tables of the directories
    /// past the budget are not read.
    static func verify(_ input: Input, _ type: ImageType, _ walked: FrameWalk.Progress?) -> VerifyStep {
        let v = input.view
        // Any identifier: an ORF's or an RW2's IFDs are a TIFF's.
        guard let (layout, ifd0) = TIFFLayout.header(v, at: 0, anyIdentifier: true) else { return .unknown }
        var end = 0  // the end of the last byte the IFDs point to
        // What is known once the IFDs can be followed no further: cut if they point past the end.
        func stop(_ otherwise: VerifyStep) -> VerifyStep { end > input.totalLength ? .truncated : otherwise }
        // Bytes wanted further: unless what was read already points past a known end.
        func need(_ r: Range<Int>) -> VerifyStep {
            if let known = input.knownLength, end > known { return .truncated }
            if !input.canFetch(r) && !input.isPastEnd(r) {
                guard let walked else { return .needWalk }
                guard case .counted(let placed) = walked else { return Verifier.step(for: walked) }
                return max(end, placed) > input.totalLength ? .truncated : .complete
            }
            return .needRange(r)
        }
        var seen: Set<Int> = []
        // The IFDs still to read, each once: of the chain (the pages), SubIFDs, or metadata only
        // (EXIF, GPS); an offset named twice is read as the first of these it is.
        enum Kind: Int { case chain, sub, metadata }
        var pending: [Int: Kind] = [ifd0: .chain]
        func wait(_ at: Int, _ kind: Kind) {
            guard at != 0, !seen.contains(at) else { return }  // a loop: what it covers is checked
            if let known = pending[at], known.rawValue <= kind.rawValue { return }
            pending[at] = kind
        }
        var locatesData = false  // whether an IFD said where image data lie
        while let at = pending.keys.min() {
            let kind = pending.removeValue(forKey: at)!
            seen.insert(at)
            // A bound on the work: directories read, and offsets waiting (each looked at for the
            // lowest).
            guard seen.count <= Budget.verifiedIFDs, pending.count <= Budget.verifiedIFDs else { return stop(.unknown) }
            let ifd: IFD
            switch IFD.read(v, at: at, layout) {
            case .ok(let read): ifd = read
            case .needs(let r):
                // An EXIF or GPS directory that runs past the end: cut short if what there is of
                // it reads as a directory; otherwise a stale offset into other bytes.
                if kind == .metadata, let known = input.knownLength, r.upperBound > known {
                    let held = at..<max(at, known)
                    guard v.has(held) else { return .needRange(held) }
                    let whole = (known - at - layout.countSize) / layout.entrySize
                    guard whole > 0 else { return .truncated }
                    if readsAsIFD(IFD(layout: layout, start: at, count: whole), v, sorted: true) { return .truncated }
                    continue
                }
                return need(r)
            case .bad:
                if kind == .metadata { continue }
                return stop(.unknown)
            }
            if kind == .metadata && !readsAsIFD(ifd, v, sorted: false) { continue }
            var offsets: IFDEntry?, counts: IFDEntry?, jpeg: IFDEntry?, jpegLength: IFDEntry?, subIFDs: IFDEntry?
            for i in 0..<ifd.count {
                guard let e = ifd.entry(v, i) else { return stop(.unknown) }
                switch e.tag {
                case 34665, 34853:
                    if let o = e.integer(v, layout), o != 0 { wait(o + layout.base, .metadata) }
                case 273, 324: offsets = e
                case 279, 325: counts = e
                case 513: jpeg = e
                case 514: jpegLength = e
                case 330: subIFDs = e
                default: break
                }
            }
            for e in [offsets, counts, subIFDs].compactMap({ $0 }) where !e.inline && !v.has(e.valueRange) {
                return e.byteCount <= 1 << 20 ? need(e.valueRange) : stop(.unknown)
            }
            if let offsets, let counts {
                guard offsets.count == counts.count, offsets.count > 0,
                      offsets.integer(v, layout, at: offsets.count - 1) != nil, counts.integer(v, layout, at: counts.count - 1) != nil else { return stop(.unknown) }
                locatesData = true
            } else if let jpeg, let jpegLength, jpeg.integer(v, layout) != nil, let c = jpegLength.integer(v, layout), c > 0 {
                locatesData = true
            }
            end = max(end, placedEnd(ifd, v))
            if let subIFDs {
                for k in 0..<min(subIFDs.count, Budget.verifiedIFDs) {
                    if let o = subIFDs.integer(v, layout, at: k), o != 0 { wait(o + layout.base, .sub) }
                }
            }
            guard kind == .chain else { continue }
            guard v.has(ifd.nextField) else { return need(ifd.nextField) }
            if let following = ifd.next(v) { wait(following, .chain) }
        }
        return stop(locatesData ? .complete : .unknown)
    }

    /// Whether a directory's entries read as one: every field type known, and when `sorted`, the
    /// tags in ascending order (as TIFF requires, and some cameras' EXIF directories do not).
    /// Bytes that are not a directory rarely pass: a part of one (cut short) must pass both.
    private static func readsAsIFD(_ ifd: IFD, _ v: ByteView, sorted: Bool) -> Bool {
        var previous = -1
        for i in 0..<ifd.count {
            guard let e = ifd.entry(v, i), IFDEntry.size(ofType: e.type) > 0, !sorted || Int(e.tag) > previous else { return false }
            previous = Int(e.tag)
        }
        return true
    }

    /// One IFD's entries, as far as properties need them.
    struct Directory {
        var width: Int?, height: Int?, bitsPerSample: Int?, samples: Int?, photometric: Int?
        var extraSamples: Int?, orientation: Int?, hasICC = false, newSubfileType = 0
        var subIFDs: [Int] = []
        /// A Panasonic RW2's IFD0: the sensor's top, left, bottom and right borders (tags 4-7),
        /// which bound the image (its IFD0 has no ImageWidth).
        var top: Int?, left: Int?, bottom: Int?, right: Int?
        /// Where the EXIF directory is (tag 34665).
        var exif: Int?
        var next = 0
    }

    enum Read { case ok(Directory), needs(Range<Int>), bad }

    /// Reads the IFD at `at` of data `length` bytes long: `.needs` when the IFD, or a value it
    /// points to within the data, lies past the bytes in view.
    static func directory(_ v: ByteView, at: Int, _ l: TIFFLayout, length: Int) -> Read {
        let ifd: IFD
        switch IFD.read(v, at: at, l) {
        case .ok(let read): ifd = read
        case .needs(let range): return .needs(range.lowerBound..<(range.upperBound == at + l.countSize ? range.upperBound : range.upperBound + l.offsetSize))
        case .bad: return .bad
        }
        guard v.has(ifd.nextField.lowerBound, l.offsetSize) else { return .needs(at..<ifd.nextField.upperBound) }
        var d = Directory()
        var wanted: Range<Int>?
        for i in 0..<ifd.count {
            guard let e = ifd.entry(v, i) else { return .bad }
            // The first value of a SHORT, LONG or LONG8 entry (inline or at its offset).
            func first() -> Int? {
                let size = IFDEntry.size(ofType: e.type)
                guard [3, 4, 13, 16, 18].contains(e.type) else { return nil }
                // A value out of view but within the data: read on before answering.
                if !e.inline, !v.has(e.valueAt, size), e.valueAt <= length - size, wanted.map({ e.valueAt < $0.lowerBound }) ?? true {
                    wanted = e.valueAt..<(e.valueAt + size)
                }
                guard let value = e.integer(v, l) else { return nil }
                return (e.type == 16 || e.type == 18) && value > Int(Int32.max) ? nil : value
            }
            // A tag given twice (the spec allows once): the first entry that holds a value
            // counts, as libtiff takes it ("duplicate field ignored"). A damaged second width of
            // an unknown type took the first one's place, and the width was lost.
            func keepFirst(_ field: inout Int?) { if field == nil { field = first() } }
            switch e.tag {
            case 254: d.newSubfileType = first() ?? 0
            case 256: keepFirst(&d.width)
            case 257: keepFirst(&d.height)
            case 258: keepFirst(&d.bitsPerSample)
            case 262: keepFirst(&d.photometric)
            case 274: keepFirst(&d.orientation)
            case 277: keepFirst(&d.samples)
            case 338: keepFirst(&d.extraSamples)
            case 34675: d.hasICC = true
            case 34665: keepFirst(&d.exif)
            case 4: d.top = first()
            case 5: d.left = first()
            case 6: d.bottom = first()
            case 7: d.right = first()
            case 330:
                // SubIFDs: one offset inline, or several at an offset (read if in view).
                if e.count == 1 {
                    if let o = first() { d.subIFDs.append(o) }
                } else if e.count > 1 {
                    for k in 0..<min(e.count, 8) {
                        if let o = l.bigTIFF ? l.offset(v, e.valueAt + 8 * k) : v.u32(e.valueAt + 4 * k, bigEndian: l.bigEndian).map(Int.init) {
                            d.subIFDs.append(o)
                        }
                    }
                }
            default: break
            }
        }
        d.next = ifd.next(v) ?? 0
        if let wanted { return .needs(wanted) }
        return .ok(d)
    }

    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard v.count >= 16 else { return .need(16, partial: .unknown) }
        guard let (layout, ifd0) = TIFFLayout.header(v, at: 0, anyIdentifier: true) else { return .done(.unknown) }
        let first: Directory
        switch directory(v, at: ifd0, layout, length: input.totalLength) {
        case .ok(let d): first = d
        case .needs(let r): return .needRange(r, partial: .unknown)
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
                case .needs(let r): return .needRange(r, partial: p)
                case .bad: continue
                }
            }
            // Panasonic's IFD0 bounds the image by the sensor's borders (no ImageWidth). IFDs
            // that state only images one pixel wide or high are placeholders (a Phase One IIQ's
            // 1 x 1: its size is in its own directory, not read): no size rather than a wrong one.
            var canon: (width: Int, height: Int)?
            if type == .cr2, let exif = first.exif {
                switch canonSensorArea(v, exif: exif, layout) {
                case .found(let w, let h): canon = (w, h)
                case .needs(let r): return .needRange(r, partial: p)
                case .absent: break
                }
            }
            if [.rw2, .rwl, .panasonicRaw].contains(type), let top = first.top, let left = first.left, let bottom = first.bottom,
               let right = first.right, right > left, bottom > top {
                p.width = right - left
                p.height = bottom - top
            } else if let canon {
                // A CR2's IFD0 may be a reduced preview (1536 x 1024 in a 350D's): the image is
                // the sensor area its maker note bounds, as exiftool's ImageSize says.
                p.width = canon.width
                p.height = canon.height
            } else if let largest = candidates.max(by: { pixels($0) < pixels($1) }), let w = largest.width, let h = largest.height, w > 1, h > 1 {
                p.width = w
                p.height = h
            } else {
                p.width = nil
                p.height = nil
            }
            p.bitDepth = nil
            p.colorModel = nil
            p.hasAlpha = nil
            p.frameCount = 1
            return .done(p)
        }
        // Pages: a walk along the IFD chain (`FrameWalk`): its count, or nil when the chain is
        // cut, goes back, or runs past the walk's budget.
        guard first.next != 0 else {
            p.frameCount = 1
            return .done(p)
        }
        return .walk(.tiffPages(layout, ifd0: ifd0, next: first.next, firstBytes: input.reach.prefixCap), partial: p)
    }

    enum AreaRead { case found(Int, Int), needs(Range<Int>), absent }

    /// A Canon CR2's image area, from IFD0's EXIF directory (at `exif`): its MakerNote (37500),
    /// a directory whose SensorInfo (0x00E0, SHORTs) gives the left, top, right and bottom
    /// borders as its words 5 to 8 (inclusive): exiftool's ImageSize. Absent when any step is
    /// missing.
    static func canonSensorArea(_ v: ByteView, exif exifAt: Int, _ l: TIFFLayout) -> AreaRead {
        func directory(_ at: Int) -> (IFD?, Range<Int>?) {
            switch IFD.read(v, at: at, l) {
            case .ok(let d): return (d, nil)
            case .needs(let r): return (nil, r)
            case .bad: return (nil, nil)
            }
        }
        let (exif, needExif) = directory(exifAt)
        if let needExif { return .needs(needExif) }
        guard let exif, let note = exif.entry(v, tag: 37500), !note.inline else { return .absent }
        let (maker, needMaker) = directory(note.valueAt)
        if let needMaker { return .needs(needMaker) }
        guard let maker, let info = maker.entry(v, tag: 0x00E0), info.type == 3, info.count >= 9 else { return .absent }
        guard v.has(info.valueAt, 18) else { return .needs(info.valueAt..<(info.valueAt + 18)) }
        guard let left = info.integer(v, l, at: 5), let top = info.integer(v, l, at: 6),
              let right = info.integer(v, l, at: 7), let bottom = info.integer(v, l, at: 8),
              right > left, bottom > top else { return .absent }
        return .found(right - left + 1, bottom - top + 1)
    }

    /// `dataEnd`: where the values and image data the directory places end, as its entries
    /// alone say (0 when not asked for).
    enum PageRead { case ok(isPage: Bool, next: Int, dataEnd: Int), needs(Range<Int>), bad }

    /// Whether the IFD at `at` is a page (NewSubfileType's bit 0 clear: not a reduced-resolution
    /// image), and the next IFD's offset (0 at the end of the chain); with `dataEnd`, also where
    /// what it places ends as its entries alone say (`placedEnd` without its tables: what else
    /// is in view differs from a file's block to a stream's chunks).
    static func page(_ v: ByteView, at: Int, _ l: TIFFLayout, dataEnd: Bool = false) -> PageRead {
        let ifd: IFD
        switch IFD.read(v, at: at, l) {
        case .ok(let read): ifd = read
        case .needs(let r): return .needs(r)
        case .bad: return .bad
        }
        guard v.has(ifd.nextField) else { return .needs(at..<ifd.nextField.upperBound) }
        var isPage = true
        if let e = ifd.entry(v, tag: 254), let value = e.inlineScalar(v, l) { isPage = value & 1 == 0 }
        return .ok(isPage: isPage, next: ifd.next(v) ?? 0, dataEnd: dataEnd ? placedEnd(ifd, v, tables: false) : 0)
    }

    /// Where the values a directory holds out of line, and the image data its strip or tile
    /// tables (or JPEG thumbnail, when its length is not 0) place, end. With `tables`, from the
    /// tables wherever they lie, as far as `v` shows them (a table out of view is left out);
    /// without, only from a single strip or tile whose offset and count are in the entries.
    static func placedEnd(_ ifd: IFD, _ v: ByteView, tables: Bool = true) -> Int {
        let l = ifd.layout
        var end = 0
        var offsets: IFDEntry?, counts: IFDEntry?, jpeg: IFDEntry?, jpegLength: IFDEntry?
        for i in 0..<ifd.count {
            guard let e = ifd.entry(v, i) else { break }
            if !e.inline { end = max(end, e.valueAt + e.byteCount) }
            switch e.tag {
            case 273, 324: offsets = e
            case 279, 325: counts = e
            case 513: jpeg = e
            case 514: jpegLength = e
            default: break
            }
        }
        if let offsets, let counts, offsets.count == counts.count {
            guard tables || (offsets.inline && counts.inline) else { return end }
            for i in 0..<offsets.count {
                guard let o = offsets.integer(v, l, at: i), let c = counts.integer(v, l, at: i) else { break }
                end = max(end, o + l.base + c)
            }
        } else if let jpeg, let jpegLength, let o = jpeg.integer(v, l), let c = jpegLength.integer(v, l), c > 0 {
            end = max(end, o + l.base + c)
        }
        return end
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
