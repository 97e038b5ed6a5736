// ISO base media files: the HEIF family (by major *and* compatible brands, then the primary
// item's coding when the brands only say "HEIF"), CR3 vs Canon CRM, and the video and audio
// neighbours (MP4, M4A, QuickTime, 3GPP, Motion JPEG 2000).

enum ISOBMFF: FormatFamily {
    static let rules = [
        Rule("ISO BMFF", .firstByte([0x00]),
             produces: [.heic, .heics, .heif, .heifs, .avif, .avis, .avci, .avcs, .cr3, .crm, .mpeg4, .mpeg4Audio,
                        .quickTime, .threeGPP, .mj2],
             check: detect),
        Rule("QuickTime without ftyp", .firstByte([0x00]), strength: .heuristic, produces: [.quickTime],
             check: quickTimeWithoutFtyp),
    ]

    static func detect(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 12 else {
            if v.count >= 8, v.u32be(4) == fourCC("ftyp") { return .need(12, fallback: nil) }
            return v.count < 8 && v.count >= 1 && v.base[0] == 0 ? .need(12, fallback: nil) : .no
        }
        guard v.u32be(4) == fourCC("ftyp"), let size32 = v.u32be(0) else { return .no }
        // The ftyp box: at least major + minor, a whole number of brands, and not absurdly long.
        let size = Int(size32)
        guard size >= 16, size <= Budget.ftypBox, (size - 16) % 4 == 0 else { return .no }
        guard let major = v.u32be(8) else { return .no }
        guard isBrand(major) else { return .no }
        guard v.has(0, size) else { return .need(size, fallback: nil) }

        var brands = Brands()
        brands.insert(major)
        var o = 16
        while o + 4 <= size {
            if let b = v.u32be(o), b != 0 { brands.insert(b) }
            o += 4
        }
        let step = classify(major: major, brands: brands, input: input, afterFtyp: size)
        // An ftyp box alone is no file of any of these types: a box follows it (an image's
        // `meta`, a movie's `moov`), after any padding (`free`, `skip`, `wide`: ffmpeg writes an
        // 8-byte `free` after ftyp). Data that ends with them is cut short (a stranger's 32
        // bytes of an AVIF were "complete", and renamed). Padding is passed over where it ends
        // within the bytes in view.
        if case .hit(let hit) = step {
            var next = size
            while let length = v.u32be(next), length >= 8, next + Int(length) <= v.count, let type = v.u32be(next + 4),
                  type == fourCC("free") || type == fourCC("skip") || type == fourCC("wide") {
                next += Int(length)
            }
            if !v.has(next, 8) { return .need(next + 8, fallback: hit) }
        }
        return step
    }

    /// A brand is four printable ASCII characters.
    private static func isBrand(_ b: UInt32) -> Bool {
        for shift in stride(from: 24, through: 0, by: -8) {
            let c = UInt8(truncatingIfNeeded: b >> UInt32(shift))
            guard c >= 0x20 && c < 0x7F else { return false }
        }
        return true
    }

    /// The brands of one ftyp box, as a small inline list (no allocation for common files).
    struct Brands {
        private var list: (UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32,
                           UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32, UInt32)
            = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
        private var count = 0
        private var overflow: [UInt32] = []

        mutating func insert(_ b: UInt32) {
            if contains(b) { return }
            if count < 16 {
                withUnsafeMutableBytes(of: &list) { $0.storeBytes(of: b, toByteOffset: count * 4, as: UInt32.self) }
                count += 1
            } else if overflow.count < Budget.extraBrands {
                overflow.append(b)
            }
        }

        func contains(_ b: UInt32) -> Bool {
            withUnsafeBytes(of: list) { raw in
                for i in 0..<count where raw.load(fromByteOffset: i * 4, as: UInt32.self) == b { return true }
                return false
            } || overflow.contains(b)
        }

        func contains(_ s: StaticString) -> Bool { contains(fourCC(s)) }
    }

    private static func classify(major: UInt32, brands: Brands, input: Input, afterFtyp: Int) -> Step {
        // Canon: CR3 stills and CRM movies share the `crx ` brand; the CNCV box tells them apart.
        if major == fourCC("crx ") || brands.contains("crx ") { return canon(input) }

        // The major brand decides when it names a HEIF-family or a media brand.
        switch major {
        case fourCC("avis"): return .hit(Hit(.avis, animated: true))
        case fourCC("avif"):
            return .hit(brands.contains("avis") ? Hit(.avis, animated: true) : Hit(.avif))
        case fourCC("heic"), fourCC("heix"), fourCC("heim"), fourCC("heis"):
            return .hit(Hit(.heic))
        case fourCC("hevc"), fourCC("hevx"), fourCC("hevm"), fourCC("hevs"):
            return .hit(Hit(.heics, animated: true))
        case fourCC("avci"): return .hit(Hit(.avci))
        case fourCC("avcs"): return .hit(Hit(.avcs, animated: true))
        case fourCC("msf1"):
            if brands.contains("avis") { return .hit(Hit(.avis, animated: true)) }
            if brands.contains("hevc") || brands.contains("hevx") { return .hit(Hit(.heics, animated: true)) }
            if brands.contains("avcs") { return .hit(Hit(.avcs, animated: true)) }
            return .hit(Hit(.heifs, animated: true))
        case fourCC("mif3"):
            // Low-overhead HEIF (ISO/IEC 23008-12, `mini` box): the minor version field holds the
            // brand that names the coding.
            guard let minor = input.view.u32be(12) else { return .need(16, fallback: nil) }
            var coding = brands
            coding.insert(minor)
            return heifStill(brands: coding, input: input, afterFtyp: afterFtyp)
        case fourCC("mif1"), fourCC("mif2"), fourCC("miaf"):
            return heifStill(brands: brands, input: input, afterFtyp: afterFtyp)
        case fourCC("qt  "): return .hit(Hit(.quickTime))
        case fourCC("M4A "), fourCC("M4B "), fourCC("M4P "), fourCC("F4A "), fourCC("F4B "):
            return .hit(Hit(.mpeg4Audio))
        case fourCC("mjp2"), fourCC("mj2s"): return .hit(Hit(.mj2))
        default: break
        }
        if isThreeGPP(major) { return .hit(Hit(.threeGPP)) }
        if isMP4(major) {
            // An MP4 major brand wins over image brands in the compatible list: a movie is a movie.
            return .hit(Hit(.mpeg4))
        }
        // Unknown major brand: look at the compatible brands.
        if brands.contains("avis") { return .hit(Hit(.avis, animated: true)) }
        if brands.contains("msf1") { return .hit(Hit(.heifs, animated: true)) }
        if brands.contains("mif1") || brands.contains("miaf") {
            return heifStill(brands: brands, input: input, afterFtyp: afterFtyp)
        }
        if brands.contains("qt  ") { return .hit(Hit(.quickTime)) }
        if brands.contains("isom") || brands.contains("iso2") || brands.contains("mp41") || brands.contains("mp42") {
            return .hit(Hit(.mpeg4, .likely))
        }
        return .no
    }

    private static func isThreeGPP(_ b: UInt32) -> Bool {
        let top = b >> 8
        return top == fourCC("3gp\0") >> 8 || top == fourCC("3g2\0") >> 8
            || top == fourCC("3ge\0") >> 8 || top == fourCC("3gg\0") >> 8 || top == fourCC("3gs\0") >> 8
    }

    private static func isMP4(_ b: UInt32) -> Bool {
        switch b {
        case fourCC("isom"), fourCC("iso2"), fourCC("iso3"), fourCC("iso4"), fourCC("iso5"), fourCC("iso6"),
             fourCC("iso8"), fourCC("iso9"),
             fourCC("mp41"), fourCC("mp42"), fourCC("mp71"), fourCC("avc1"), fourCC("dash"), fourCC("M4V "),
             fourCC("M4VH"), fourCC("M4VP"), fourCC("f4v "), fourCC("MSNV"), fourCC("NDAS"), fourCC("mmp4"),
             fourCC("XAVC"), fourCC("cmfc"), fourCC("cmfs"), fourCC("av01"), fourCC("dby1"):
            return true
        default:
            return false
        }
    }

    /// A HEIF still whose brands list no codec-specific brand: the brands, then the primary item.
    private static func heifStill(brands: Brands, input: Input, afterFtyp: Int) -> Step {
        if brands.contains("avis") { return .hit(Hit(.avis, animated: true)) }
        if brands.contains("avif") { return .hit(Hit(.avif)) }
        if brands.contains("heic") || brands.contains("heix") || brands.contains("heim") || brands.contains("heis") {
            return .hit(Hit(.heic))
        }
        if brands.contains("avci") { return .hit(Hit(.avci)) }
        if brands.contains("msf1") {
            if brands.contains("hevc") { return .hit(Hit(.heics, animated: true)) }
            return .hit(Hit(.heifs, animated: true))
        }
        // The brands say only "HEIF": the primary item's type in the meta box decides the codec.
        switch primaryItemType(input.view, from: afterFtyp, dataEnd: input.knownLength, reach: input.reach) {
        case .found(let itemType):
            switch itemType {
            case fourCC("hvc1"), fourCC("hev1"): return .hit(Hit(.heic))
            case fourCC("av01"): return .hit(Hit(.avif))
            case fourCC("avc1"): return .hit(Hit(.avci))
            default: return .hit(Hit(.heif))
            }
        case .needs(let r): return .needRange(r, fallback: Hit(.heif, .family))
        case .absent: return .hit(Hit(.heif, .family))
        }
    }

    enum Lookup { case found(UInt32), needs(Range<Int>), absent }

    /// The item type of the primary item (`pitm`), from `meta` → `iinf` → `infe` (version 2 or 3).
    static func primaryItemType(_ v: ByteView, from start: Int, dataEnd: Int?, reach: Reach? = nil) -> Lookup {
        // Find the meta box among the top-level boxes.
        let metaStart: Int, metaEnd: Int
        // An image file has one: one that ends without it is cut short (the box wanted past the end).
        switch findBox(v, fourCC("meta"), in: start, dataEnd: dataEnd, required: true, reach: reach) {
        case .found(let s, let e): (metaStart, metaEnd) = (s, e)
        case .needs(let r): return .needs(r)
        case .absent: return .absent
        }
        let childrenStart = metaStart + 12  // full box: version and flags
        var primary: UInt32?
        if case .found(let p, _) = findBox(v, fourCC("pitm"), in: childrenStart, end: metaEnd) {
            let version = v.u8(p + 8) ?? 0
            primary = version == 0 ? v.u16be(p + 12).map(UInt32.init) : v.u32be(p + 12)
        }
        switch findBox(v, fourCC("iinf"), in: childrenStart, end: metaEnd) {
        case .found(let iinf, let iinfEnd):
            let version = v.u8(iinf + 8) ?? 0
            var o = iinf + 12 + (version == 0 ? 2 : 4)
            var firstCoded: UInt32?
            var primaryType: UInt32?
            for _ in 0..<Limits.maxWalkSteps {
                guard o + 8 <= iinfEnd, let size = v.u32be(o), let type = v.u32be(o + 4) else { break }
                guard size >= 8 else { break }
                if type == fourCC("infe"), let infeVersion = v.u8(o + 8), infeVersion >= 2 {
                    let idSize = infeVersion == 2 ? 2 : 4
                    let id = idSize == 2 ? v.u16be(o + 12).map(UInt32.init) : v.u32be(o + 12)
                    if let itemType = v.u32be(o + 12 + idSize + 2) {
                        if firstCoded == nil && isCodedItem(itemType) { firstCoded = itemType }
                        if let primary, id == primary { primaryType = itemType }
                    }
                }
                o += Int(size)
            }
            if !v.has(iinf, iinfEnd - iinf) { return .needs(iinf..<iinfEnd) }
            // A derived primary item (a grid of tiles, an overlay, an identity transform) is
            // coded the way its tiles are: take the first coded item.
            if let primaryType, isCodedItem(primaryType) { return .found(primaryType) }
            return (firstCoded ?? primaryType).map { .found($0) } ?? .absent
        case .needs(let n): return .needs(n)
        case .absent: return .absent
        }
    }

    /// Item types that hold coded image data (as opposed to derived items, metadata, thumbnails' links).
    private static func isCodedItem(_ type: UInt32) -> Bool {
        switch type {
        case fourCC("hvc1"), fourCC("hev1"), fourCC("av01"), fourCC("avc1"), fourCC("jpeg"), fourCC("j2k1"),
             fourCC("unci"), fourCC("vvc1"):
            return true
        default:
            return false
        }
    }

    enum BoxLookup { case found(Int, Int), needs(Range<Int>), absent }

    /// Finds a top-level box of `type` from `start` to the end of the data (`dataEnd`: its length,
    /// nil while a stream's end is not known); it must be whole in hand. When a box header, or the
    /// box, lies past the bytes held, the bytes wanted (wherever they are: a `meta` after a large
    /// `mdat`). A walk that ends at the end of the data has found no such box; a box that runs
    /// past it is wanted whole (truncation). A `required` box is wanted past the end instead.
    static func findBox(_ v: ByteView, _ type: UInt32, in start: Int, dataEnd: Int?, required: Bool = false,
                        reach: Reach? = nil) -> BoxLookup {
        var boxes = Boxes(v, from: start, to: Int.max, dataEnd: dataEnd ?? v.count, openEnded: dataEnd == nil)
        var found = find(type, &boxes, v)
        if !required, case .needs(let wanted) = found, let dataEnd, wanted.lowerBound == dataEnd { return .absent }
        // A box header in a far window (past the first bytes' cap: a `meta` after a large
        // `mdat`): ask for as much as such a box usually holds along with it, within what the
        // read plan has left, so that the box comes whole in the one window (a window cannot be
        // extended backwards once read: a stream has passed it).
        if let reach, case .needs(let wanted) = found, wanted.count <= 16, wanted.lowerBound >= reach.prefixCap,
           !v.has(wanted.lowerBound, 1) {
            let along = min(Budget.topLevelBoxWindow, reach.windowBytesLeft)
            let upper = min(wanted.lowerBound + along, dataEnd ?? Int.max)
            if upper > wanted.upperBound { found = .needs(wanted.lowerBound..<upper) }
        }
        return found
    }

    /// Finds a box of `type` among a box's children, from `start` to the parent's `end`.
    static func findBox(_ v: ByteView, _ type: UInt32, in start: Int, end: Int) -> BoxLookup {
        var boxes = Boxes(v, from: start, to: end)
        return find(type, &boxes, v)
    }

    private static func find(_ type: UInt32, _ boxes: inout Boxes, _ v: ByteView) -> BoxLookup {
        while let box = boxes.next() {
            guard box.type == type else { continue }
            if !v.has(box.start, box.end - box.start) { return .needs(box.start..<box.end) }
            return .found(box.start, box.end)
        }
        if let wanted = boxes.needs { return .needs(wanted) }
        return .absent
    }

    /// CR3 or CRM: the Canon `CNCV` compressor-version string, in the uuid box inside moov.
    private static func canon(_ input: Input) -> Step {
        let v = input.view
        let window = min(v.count, Budget.canonCompressorWindow)
        if let at = v.find("CNCV", in: 0..<window) {
            if v.has(at + 4, 8) {
                if v.matches("CanonCRM", at: at + 4) { return .hit(Hit(.crm)) }
                if v.matches("CanonCR3", at: at + 4) { return .hit(Hit(.cr3)) }
                return .hit(Hit(.cr3, .likely))
            }
            return .need(at + 12, fallback: nil)
        }
        if v.count < Budget.canonCompressorWindow && input.hasMore { return .need(Budget.canonCompressorWindow, fallback: nil) }
        // No CNCV box in reach (a file cut short, or written without it): a crx file, CR3 or CRM.
        // The answer is the family node, so a hint (a `.cr3` or `.crm` name) settles it (rule 2).
        return .hit(Hit(.cr3, .family))
    }

    /// QuickTime files written before `ftyp` existed start with `moov`, `mdat`, `wide`, `free` or `skip`.
    static func quickTimeWithoutFtyp(_ input: Input) -> Step {
        let v = input.view
        guard let size = v.u32be(0), let type = v.u32be(4) else { return .no }
        switch type {
        case fourCC("moov"), fourCC("mdat"), fourCC("wide"), fourCC("free"), fourCC("skip"), fourCC("pnot"):
            guard size >= 8 || size == 1 || size == 0 else { return .no }
            if type == fourCC("moov") || type == fourCC("pnot") { return .hit(Hit(.quickTime, .likely)) }
            // The next box must also be a QuickTime atom to be sure.
            let next = Int(size)
            guard size >= 8, let nextType = v.u32be(next + 4) else {
                return size >= 8 ? .need(next + 8, fallback: nil) : .no
            }
            switch nextType {
            case fourCC("moov"), fourCC("mdat"), fourCC("wide"), fourCC("free"), fourCC("skip"):
                return .hit(Hit(.quickTime, .likely))
            default: return .no
            }
        default:
            return .no
        }
    }
}
