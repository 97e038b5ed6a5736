// The properties of the ISOBMFF family's formats (the rules are in ISOBMFF.swift).

extension ISOBMFF {
    static let readers = [
        PropertyReader([.heic, .heics, .heif, .heifs, .avif, .avis, .avci, .avcs], read: properties),
    ]

    /// Whole: the top-level boxes end where the data does, and the items' data lies within it
    /// (their `iloc` extents: a file cut where its `mdat` would begin has whole boxes).
    static let verifiers = [
        Verifier([.heic, .heics, .heif, .heifs, .avif, .avis, .avci, .avcs], walk: { _ in FrameWalk(.boxes, at: 0) }) { input, type, walked in
            guard let walked else { return .needWalk }
            let step = Verifier.step(for: walked)
            guard step == .complete else { return step }
            guard input.knownLength != nil else { return .unknown }  // a stream whose end has not come
            // A sequence's samples are placed by its `moov`: without one (a download cut where
            // ffmpeg puts it, after the `mdat`), the file is cut short.
            if sequences.contains(type) {
                switch topLevelBox("moov", input) {
                case .needs(let r): return .needRange(r)
                case .absent: return .truncated
                case .found: break
                }
            }
            return itemDataStep(input, needsItems: !sequences.contains(type))
        },
        // A movie or audio file, and Canon's CR3 raw and CRM movie (a `moov` whose tracks place
        // the raw image, its previews and metadata in the `mdat`): the top-level boxes end where
        // the data does (an `mdat` cut short runs past it; a `moof` last has lost its `mdat`),
        // its samples are placed by a `moov` (a fragmented file's too, an empty one before its
        // `moof` boxes): a file without one was cut before it; and its chunks start within the
        // data (a file cut where the `mdat` after a `moov` begins has whole boxes). After damage
        // past the last box (bytes that cannot be a box), the `moov` and its chunks are checked
        // still.
        Verifier([.mpeg4, .mpeg4Audio, .quickTime, .threeGPP, .cr3, .crm], walk: { _ in FrameWalk(.boxes, at: 0) }) { input, _, walked in
            guard let walked else { return .needWalk }
            let step = Verifier.step(for: walked)
            if step == .truncated { return .truncated }
            guard let length = input.knownLength else { return .unknown }  // a stream whose end has not come
            switch topLevelBox("moov", input) {
            case .needs(let r): return .needRange(r)
            case .absent: return .truncated
            case .found(let start, let end):
                if let furthest = furthestChunk(input.view, moov: start, end: end), furthest >= length { return .truncated }
                return step
            }
        },
    ]

    /// Where the last chunk of samples of any track starts (`stco` or `co64` in each track's
    /// sample table, ISO/IEC 14496-12 8.7.5), or nil when no track states one.
    static func furthestChunk(_ v: ByteView, moov: Int, end: Int) -> Int? {
        var furthest: Int?
        for trak in children(v, from: moov + 8, to: end) where trak.type == fourCC("trak") {
            guard let table = sampleTable(v, trak: trak.start, end: trak.end) else { continue }
            for box in children(v, from: table.start, to: table.end) where box.type == fourCC("stco") || box.type == fourCC("co64") {
                let wide = box.type == fourCC("co64")
                guard let count = v.u32be(box.start + 12) else { continue }
                let size = wide ? 8 : 4
                // Entries past the box (a damaged count) are not read.
                let entries = min(Int(count), max(0, (box.end - box.start - 16) / size))
                for i in 0..<entries {
                    let at = box.start + 16 + i * size
                    guard let offset = wide ? v.u64(at, bigEndian: true).flatMap({ $0 > UInt64(Int.max / 4) ? nil : Int($0) }) : v.u32be(at).map(Int.init) else { break }
                    furthest = max(furthest ?? 0, offset)
                }
            }
        }
        return furthest
    }

    /// The image sequences: their samples are placed by a `moov`, not by a `meta`'s items.
    static let sequences: Set<ImageType> = [.heics, .heifs, .avis, .avcs]

    /// Whether the data stored in the file for the items (`iloc`, construction method 0: file
    /// offsets) ends within it; no `iloc`: complete, as the box walk found.
    ///
    /// `needsItems`: an image (not a sequence), whose items a `meta` box describes (or the
    /// compact `mini` box of brand mif3): without either, it was cut before them (a file whose
    /// `mdat` comes first, cut where its `meta` would begin). A sequence needs no `meta`: its
    /// samples are placed by its `moov`.
    static func itemDataStep(_ input: Input, needsItems: Bool) -> VerifyStep {
        let v = input.view
        guard let length = input.knownLength else { return .unknown }
        switch topLevelBox("meta", input) {
        case .needs(let r): return .needRange(r)
        case .absent:
            guard needsItems else { return .complete }
            // No `meta`: whole only with a `mini` box (mif3).
            switch topLevelBox("mini", input) {
            case .needs(let r): return .needRange(r)
            case .absent: return .truncated
            case .found: return .complete
            }
        case .found(let start, let end):
            for box in children(v, from: start + 12, to: end) where box.type == fourCC("iloc") {
                guard let dataEnd = itemDataEnd(v, box.start, box.end) else { return .unknown }
                return dataEnd > length ? .truncated : .complete
            }
            return .complete
        }
    }

    /// `findBox` among the top-level boxes after ftyp (from the first box when there is no ftyp:
    /// an older QuickTime movie), for a verifier (the box walk has found they end where the data
    /// does; its length is known). A box header is asked for with room for a 64-bit size: at a
    /// last box of 8 to 15 bytes (a `free` box) that runs past the end, so only the bytes to the
    /// end are asked for; fewer than 8 left: no such box.
    private static func topLevelBox(_ type: StaticString, _ input: Input) -> BoxLookup {
        guard let length = input.knownLength, let firstSize = input.view.u32be(0) else { return .absent }
        let start = input.view.matches("ftyp", at: 4) ? Int(firstSize) : 0
        switch findBox(input.view, fourCC(type), in: start, dataEnd: length, reach: input.reach) {
        case .needs(let r) where r.upperBound > length: return r.lowerBound + 8 <= length ? .needs(r.lowerBound..<length) : .absent
        case let lookup: return lookup
        }
    }

    /// The end of the furthest extent an `iloc` box places in the file (ISO/IEC 14496-12,
    /// 8.11.3), or nil when the box does not parse.
    static func itemDataEnd(_ v: ByteView, _ start: Int, _ end: Int) -> Int? {
        guard let version = v.u8(start + 8), version <= 2, let sizes = v.u16be(start + 12) else { return nil }
        let offsetSize = Int(sizes >> 12), lengthSize = Int(sizes >> 8 & 0xF)
        let baseOffsetSize = Int(sizes >> 4 & 0xF), indexSize = version >= 1 ? Int(sizes & 0xF) : 0
        for size in [offsetSize, lengthSize, baseOffsetSize, indexSize] where size != 0 && size != 4 && size != 8 { return nil }
        var o = start + 14
        /// A field of `size` bytes (0, 2, 4 or 8), big-endian; nil past the box.
        func read(_ size: Int) -> Int? {
            defer { o += size }
            guard o + size <= end else { return nil }
            switch size {
            case 0: return 0
            case 2: return v.u16be(o).map(Int.init)
            case 4: return v.u32be(o).map(Int.init)
            default: return v.u64(o, bigEndian: true).flatMap { $0 > UInt64(Int.max / 4) ? nil : Int($0) }
            }
        }
        guard let itemCount = read(version < 2 ? 2 : 4) else { return nil }
        var furthest = 0
        for _ in 0..<itemCount {
            guard read(version < 2 ? 2 : 4) != nil else { return nil }  // item_ID
            var method = 0
            if version >= 1 {
                guard let field = read(2) else { return nil }
                method = field & 0xF
            }
            guard let reference = read(2), let base = read(baseOffsetSize), let extents = read(2) else { return nil }
            // Extents without a length place nothing (and, with no other fields, take no bytes:
            // 65,535 of them for each of 65,535 items would be counted one by one).
            if lengthSize == 0 {
                o += extents * (indexSize + offsetSize)
                continue
            }
            for _ in 0..<extents {
                if indexSize > 0 { guard read(indexSize) != nil else { return nil } }
                guard let offset = read(offsetSize), let length = read(lengthSize) else { return nil }
                // In this file (data reference 0), at file offsets (method 0); a length of 0
                // means "to the end".
                if method == 0 && reference == 0 && length > 0 { furthest = max(furthest, base + offset + length) }
            }
        }
        return furthest
    }

    /// The children of a box's payload from `start` to `end`, by type: `(type, start, end)`.
    static func children(_ v: ByteView, from start: Int, to end: Int) -> [(type: UInt32, start: Int, end: Int)] {
        Array(Boxes(v, from: start, to: end).map { ($0.type, $0.start, $0.end) })
    }

    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var p = ImageProperties()
        guard let ftypSize = v.u32be(0) else { return .need(8, partial: p) }
        let start = Int(ftypSize)
        // A sequence: the sample count of its first track (its `meta`, if any, describes the
        // still images beside it).
        let isSequence = sequences.contains(type)
        if isSequence {
            switch findBox(v, fourCC("moov"), in: start, dataEnd: input.knownLength) {
            case .found(let moov, let end):
                p.frameCount = sampleCount(v, moov: moov, end: end)
                p.hasGainMap = false
                p.hasICCProfile = false
            case .needs(let r): return .needRange(r, partial: p)
            case .absent: break  // cut before it: nothing stated
            }
        }
        let meta: (Int, Int)
        switch findBox(v, fourCC("meta"), in: start, dataEnd: input.knownLength, reach: input.reach) {
        case .found(let s, let e): meta = (s, e)
        case .needs(let r): return .needRange(r, partial: p)
        case .absent:
            // A compact `mini` box (brand mif3) in its place: one image, whose fields are not
            // read. No `meta` (an image cut before it, or where it runs past the end): nothing
            // is stated.
            guard !isSequence else { return .done(p) }
            switch findBox(v, fourCC("mini"), in: start, dataEnd: input.knownLength, reach: input.reach) {
            case .found: p.frameCount = 1
            case .needs(let r): return .needRange(r, partial: p)
            case .absent: break
            }
            return .done(p)
        }
        // What the whole `meta` does not state, the image does not hold.
        if !isSequence { p.frameCount = 1 }
        p.hasGainMap = false
        p.hasICCProfile = false
        let boxes = children(v, from: meta.0 + 12, to: meta.1)
        var primary: UInt32?
        var itemTypes: [UInt32: UInt32] = [:]
        var properties: [(type: UInt32, start: Int, end: Int)] = []
        var associations: [UInt32: [Int]] = [:]
        var firstTile: [UInt32: UInt32] = [:]  // a derived image's first input (`dimg`)
        // What makes an image item no image of its own (as libheif counts its top-level
        // images): hidden (a grid's tiles are), or a thumbnail or an auxiliary image (the
        // source of a `thmb` or `auxl` reference: an alpha plane, a depth map, Apple's gain map).
        var hidden: Set<UInt32> = [], notOwn: Set<UInt32> = []
        for box in boxes {
            switch box.type {
            case fourCC("iref"):
                // Item references (HEIF 6.4.3 in ISO/IEC 14496-12 8.11.12): 16-bit ids in version 0.
                let wide = v.u8(box.start + 8) != 0
                func id(at o: Int) -> UInt32? { wide ? v.u32be(o) : v.u16be(o).map(UInt32.init) }
                for reference in children(v, from: box.start + 12, to: box.end).prefix(Limits.maxWalkSteps) {
                    let kind = reference.type
                    guard kind == fourCC("dimg") || kind == fourCC("thmb") || kind == fourCC("auxl"),
                          let from = id(at: reference.start + 8), let count = v.u16be(reference.start + 8 + (wide ? 4 : 2)) else { continue }
                    if kind != fourCC("dimg") { notOwn.insert(from); continue }
                    // A derived image's first input: a grid's first tile gives its coding.
                    let targets = reference.start + 8 + (wide ? 4 : 2) + 2
                    if count > 0, targets + (wide ? 4 : 2) <= reference.end, let tile = id(at: targets) { firstTile[from] = tile }
                }
            case fourCC("pitm"):
                primary = v.u8(box.start + 8) == 0 ? v.u16be(box.start + 12).map(UInt32.init) : v.u32be(box.start + 12)
            case fourCC("iinf"):
                let version = v.u8(box.start + 8) ?? 0
                for infe in children(v, from: box.start + 12 + (version == 0 ? 2 : 4), to: box.end) where infe.type == fourCC("infe") {
                    guard let infeVersion = v.u8(infe.start + 8), infeVersion >= 2 else { continue }
                    let idSize = infeVersion == 2 ? 2 : 4
                    if let id = idSize == 2 ? v.u16be(infe.start + 12).map(UInt32.init) : v.u32be(infe.start + 12),
                       let itemType = v.u32be(infe.start + 12 + idSize + 2) {
                        itemTypes[id] = itemType
                        if let flags = v.u8(infe.start + 11), flags & 1 != 0 { hidden.insert(id) }  // (in)visible
                    }
                }
            case fourCC("iprp"):
                for child in children(v, from: box.start + 8, to: box.end) {
                    if child.type == fourCC("ipco") { properties = children(v, from: child.start + 8, to: child.end) }
                    // Several ipma boxes may share the items out (one per version and flags:
                    // libavif writes the image's and its alpha plane's apart).
                    if child.type == fourCC("ipma") {
                        associations.merge(itemAssociations(v, child.start, child.end)) { $0 + $1 }
                    }
                }
            default: break
            }
        }
        if itemTypes.values.contains(fourCC("tmap")) { p.hasGainMap = true }
        // A collection of images (`heif-enc a.png b.png`, a burst of stills, a stereo pair):
        // each counts, as libheif's top-level images do (pillow_heif's and heif-info's count).
        if !isSequence {
            p.frameCount = max(1, itemTypes.count { Self.imageItemTypes.contains($0.value) && !hidden.contains($0.key) && !notOwn.contains($0.key) })
        }
        // Auxiliary images anywhere in the file: alpha planes and gain maps.
        for (item, indices) in associations {
            for index in indices where index >= 1 && index <= properties.count {
                let property = properties[index - 1]
                guard property.type == fourCC("auxC"), item != primary else { continue }
                let urn = property.start + 12
                if v.matches("urn:mpeg:hevc:2015:auxid:1", at: urn) || v.matches("urn:mpeg:mpegB:cicp:systems:auxiliary:alpha", at: urn) {
                    p.hasAlpha = true
                }
                if v.matches("urn:com:apple:photo:2020:aux:hdrgainmap", at: urn) { p.hasGainMap = true }
            }
        }
        if p.hasAlpha == nil && !associations.isEmpty { p.hasAlpha = false }
        guard let primary, let indices = associations[primary] else { return .done(p) }
        // The transformative properties, in the order the item lists them (HEIF 6.5.1: each
        // applies to the output of the one before): a clean aperture's size, or a rotation's
        // quarter turns.
        var transforms: [(clap: (Int, Int)?, turns: Int)] = []
        var display = PlaneTransform()
        /// What a coded image's properties say of its coding: its profile, depth and colours.
        func coding(_ property: (type: UInt32, start: Int, end: Int)) {
            let body = property.start + 8
            switch property.type {
            case fourCC("pixi"):
                if let channels = v.u8(body + 4), channels >= 1, let bits = v.u8(body + 5) {
                    p.bitDepth = Int(bits)
                    p.colorModel = channels >= 3 ? .rgb : .gray
                }
            case fourCC("colr"):
                if v.matches("prof", at: body) || v.matches("rICC", at: body) { p.hasICCProfile = true }
            case fourCC("av1C"):
                if p.bitDepth == nil, let b = v.u8(body + 2) {
                    // high_bitdepth and twelve_bit flags.
                    p.bitDepth = b & 0x40 == 0 ? 8 : (b & 0x20 != 0 ? 12 : 10)
                    p.colorModel = b & 0x10 != 0 ? .gray : .rgb  // mono_chrome
                }
            case fourCC("hvcC"):
                // chroma_format_idc (0: monochrome) and bitDepthLumaMinus8 (ISO/IEC 14496-15 8.3.3.1).
                if p.bitDepth == nil, body + 18 <= property.end, let chroma = v.u8(body + 16), let luma = v.u8(body + 17) {
                    p.bitDepth = Int(luma & 7) + 8
                    p.colorModel = chroma & 3 == 0 ? .gray : .rgb
                }
            default: break
            }
        }
        for index in indices where index >= 1 && index <= properties.count {
            let property = properties[index - 1]
            let body = property.start + 8
            switch property.type {
            case fourCC("ispe"):
                if let w = v.u32be(body + 4), let h = v.u32be(body + 8) { p.width = Int(w); p.height = Int(h) }
            case fourCC("clap"):
                // The clean aperture (ISO/IEC 14496-12 12.1.4): what a decoder crops to. Its width
                // and height are fractions, rounded to the nearest pixel (halves up) as libheif
                // rounds them.
                if let wn = v.u32be(body), let wd = v.u32be(body + 4), let hn = v.u32be(body + 8), let hd = v.u32be(body + 12),
                   wd > 0, hd > 0 {
                    let w = (UInt64(wn) + UInt64(wd / 2)) / UInt64(wd), h = (UInt64(hn) + UInt64(hd / 2)) / UInt64(hd)
                    transforms.append((clap: (Int(w), Int(h)), turns: 0))
                }
            case fourCC("irot"):
                // Anticlockwise quarter turns (already applied to the width and height reported).
                if let turns = v.u8(body) {
                    display.turn(anticlockwise: Int(turns & 3))
                    transforms.append((clap: nil, turns: Int(turns & 3)))
                }
            case fourCC("imir"):
                // A mirror (HEIF 6.5.12, as ISO/IEC 23008-12:2022 words it): axis 0 exchanges top
                // and bottom, 1 left and right.
                if let axis = v.u8(body) { display.mirror(topToBottom: axis & 1 == 0) }
            default: coding(property)
            }
        }
        // A grid or overlay codes nothing itself: a phone may give its profile to the tiles
        // alone (an iPhone 8 Plus's and a Galaxy S24 Ultra's grids), which share one coding.
        if let tile = firstTile[primary], let tileIndices = associations[tile], p.hasICCProfile != true || p.bitDepth == nil {
            let stated = p  // the grid's own depth and colours come first (a profile is only added)
            for index in tileIndices where index >= 1 && index <= properties.count { coding(properties[index - 1]) }
            if stated.bitDepth != nil { (p.bitDepth, p.colorModel) = (stated.bitDepth, stated.colorModel) }
        }
        // Rotations and mirrors, composed in their order, as the EXIF orientation that does the same.
        if display.isSet { p.orientation = display.exifOrientation }
        // As displayed: the clean aperture, then the rotation (HEIF's transforms are mandatory).
        // The coded size stays available.
        let coded = (p.width, p.height)
        if var w = p.width, var h = p.height {
            for transform in transforms {
                if let (cw, ch) = transform.clap {
                    // A crop to nothing, or past the image, is not one a reader applies.
                    if cw > 0, ch > 0, cw <= w, ch <= h { (w, h) = (cw, ch) }
                } else if transform.turns & 1 == 1 {
                    (w, h) = (h, w)
                }
            }
            (p.width, p.height) = (w, h)
        }
        if p.width != coded.0 || p.height != coded.1 { (p.codedWidth, p.codedHeight) = coded }
        if p.colorModel == nil && p.width != nil { p.colorModel = .rgb }
        return .done(p)
    }

    /// The item types that are images of their own: coded (HEVC, AV1, AVC, VVC, JPEG, JPEG 2000,
    /// uncompressed) or derived (grid, overlay, identity). Not a tone map (`tmap`): the primary
    /// image rendered with its gain map.
    static let imageItemTypes: Set<UInt32> = Set(["hvc1", "av01", "avc1", "vvc1", "jpeg", "j2k1", "unci", "grid", "iovl", "iden"].map(fourCC))

    /// `ipma`: for each item, the 1-based indices of its properties in `ipco`.
    private static func itemAssociations(_ v: ByteView, _ start: Int, _ end: Int) -> [UInt32: [Int]] {
        guard let version = v.u8(start + 8), let flags = v.u8(start + 11), let count = v.u32be(start + 12) else { return [:] }
        var result: [UInt32: [Int]] = [:]
        var o = start + 16
        for _ in 0..<min(Int(count), Limits.maxWalkSteps) {
            let id: UInt32?
            if version < 1 { id = v.u16be(o).map(UInt32.init); o += 2 } else { id = v.u32be(o); o += 4 }
            guard let id, let n = v.u8(o), o < end else { break }
            o += 1
            var indices: [Int] = []
            for _ in 0..<Int(n) {
                if flags & 1 != 0 {
                    guard let a = v.u16be(o) else { break }
                    indices.append(Int(a & 0x7FFF)); o += 2
                } else {
                    guard let a = v.u8(o) else { break }
                    indices.append(Int(a & 0x7F)); o += 1
                }
            }
            result[id] = indices
        }
        return result
    }

    /// The sample count of the first track's `stsz` (or `stz2`): moov → trak → mdia → minf → stbl.
    private static func sampleCount(_ v: ByteView, moov: Int, end: Int) -> Int? {
        guard let trak = children(v, from: moov + 8, to: end).first(where: { $0.type == fourCC("trak") }),
              let table = sampleTable(v, trak: trak.start, end: trak.end) else { return nil }
        for box in children(v, from: table.start, to: table.end) where box.type == fourCC("stsz") || box.type == fourCC("stz2") {
            return v.u32be(box.start + 16).map(Int.init)
        }
        return nil
    }

    /// The payload of a track's sample table (`trak` > `mdia` > `minf` > `stbl`), or nil when
    /// a box on the way is missing.
    private static func sampleTable(_ v: ByteView, trak: Int, end: Int) -> (start: Int, end: Int)? {
        var range = (start: trak + 8, end: end)
        for container in ["mdia", "minf", "stbl"] as [StaticString] {
            guard let box = children(v, from: range.start, to: range.end).first(where: { $0.type == fourCC(container) }) else { return nil }
            range = (box.start + 8, box.end)
        }
        return range
    }
}

/// Rotations by quarter turns and mirrors of an image, composed: a 2 x 2 matrix over the pixel
/// grid (x to the right, y down) taking the stored image to the displayed one.
struct PlaneTransform: Equatable {
    private var a = 1, b = 0, c = 0, d = 1
    /// Whether any rotation or mirror was applied (even one that undoes another).
    private(set) var isSet = false

    /// Quarter turns anticlockwise, after what is there: each takes (x, y) to (y, -x). Set also
    /// with none (a rotation of 0 is orientation 1).
    mutating func turn(anticlockwise quarters: Int) {
        for _ in 0..<(quarters & 3) { (a, b, c, d) = (c, d, -a, -b) }
        isSet = true
    }

    /// A mirror after what is there: top and bottom exchanged (y to -y), or left and right.
    mutating func mirror(topToBottom: Bool) {
        if topToBottom { (c, d) = (-c, -d) } else { (a, b) = (-a, -b) }
        isSet = true
    }

    /// The EXIF orientation (1-8) that turns the stored image into the displayed one.
    var exifOrientation: Int {
        switch (a, b, c, d) {
        case (1, 0, 0, 1): return 1
        case (-1, 0, 0, 1): return 2     // mirrored left to right
        case (-1, 0, 0, -1): return 3    // half a turn
        case (1, 0, 0, -1): return 4     // mirrored top to bottom
        case (0, 1, 1, 0): return 5      // transposed
        case (0, -1, 1, 0): return 6     // a quarter turn clockwise
        case (0, -1, -1, 0): return 7    // transversed
        default: return 8                // (0, 1, -1, 0): a quarter turn anticlockwise
        }
    }
}
