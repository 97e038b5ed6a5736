// JPEG and the formats that share its marker segments: MPO (an APP2 "MPF\0" segment whose entries
// include multi-frame images), JPEG-LS (SOF55 before the scan) and lossless JPEG (SOF3 and friends,
// plain `public.jpeg`).

enum JPEG: FormatFamily {
    static let rules = [
        Rule("JPEG", .firstByte([0xFF]), produces: [.jpeg, .mpo, .jpegLS], check: detect),
    ]

    /// `FF D8 FF`, then a walk of the marker segments up to the start of scan.
    static func detect(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(1) == 0xD8 else { return .no }
        guard let third = v.u8(2) else { return .need(3, fallback: nil) }
        guard third == 0xFF else { return .no }
        guard let fourth = v.u8(3) else { return .need(4, fallback: nil) }
        // The first marker must be a real one (fill bytes may precede it; not a restart or SOI).
        guard fourth >= 0xC0, fourth != 0xD8, !(0xD0...0xD7).contains(fourth) else { return .no }

        var sawJPEGLS = false
        var multiFrame = false
        var frame: (width: Int, height: Int)?
        var secondImage: Int?
        var answer: Hit { Hit(sawJPEGLS ? .jpegLS : multiFrame ? .mpo : .jpeg) }
        var undecided: Hit { sawJPEGLS ? Hit(.jpegLS) : Hit(.jpeg, .family) }
        var segments = JPEGSegments(v)
        walk: while let next = segments.next() {
            switch next {
            case .scan, .damaged:
                // Start of scan (or end of image): every header segment has been seen. A damaged
                // stream: JPEG is all we can say.
                break walk
            case .segment(let marker, let payload):
                if marker == 0xF7 { sawJPEGLS = true }
                // A frame header states precision, height, width and the component count (6
                // bytes at least): one shorter states nothing (its fields are not read past it).
                if JPEGSegments.isFrameHeader(marker), payload.count >= 6, let h = v.u16be(payload.lowerBound + 1), let w = v.u16be(payload.lowerBound + 3) {
                    frame = (Int(w), Int(h))
                }
                guard marker == 0xE2 else { continue }
                guard v.has(payload.lowerBound, 8) else { return .needRange(payload.lowerBound..<(payload.lowerBound + 8), fallback: undecided) }
                if v.matches("MPF\0", at: payload.lowerBound) {
                    guard v.has(payload) else { return .needRange(payload, fallback: undecided) }
                    let index = MultiPicture(v, tiff: payload.lowerBound + 4, end: payload.upperBound)
                    if index.hasMultiFrameImage { multiFrame = true }
                    secondImage = index.undecidedSecondImage
                }
            }
        }
        if let wanted = segments.needs { return .needRange(wanted, fallback: undecided) }
        // A second image whose MP type does not say what it is: a gain map keeps the file a JPEG;
        // a full image beside the primary makes an MPO (CIPA DC-007's "undefined" type, which
        // Pillow writes for its MPO frames); a smaller one is a thumbnail.
        if let second = secondImage, !multiFrame, !sawJPEGLS, let frame {
            switch describeSecondImage(v, at: second) {
            case .gainMap, .other: break
            case .frame(let w, let h):
                if w * 2 > frame.width && h * 2 > frame.height { multiFrame = true }
            case .needs(let r): return .needRange(r, fallback: answer)
            }
        }
        return .hit(answer)
    }

    /// What a secondary image of an MPF file is, from its header segments.
    enum SecondImage: Equatable {
        /// A gain map (its XMP declares one, or ISO 21496-1's APP2).
        case gainMap
        /// An image of this size.
        case frame(width: Int, height: Int)
        /// Not a JPEG there, or no frame header before its scan.
        case other
        case needs(Range<Int>)
    }

    /// Walks the header segments of the JPEG at `start` (an MPF secondary image): a gain map's
    /// metadata, or its frame header. At most 64 segments.
    static func describeSecondImage(_ v: ByteView, at start: Int) -> SecondImage {
        guard v.has(start, 4) else { return .needs(start..<(start + 4)) }
        guard v.u8(start) == 0xFF, v.u8(start + 1) == 0xD8 else { return .other }
        var segments = JPEGSegments(v, from: start + 2)
        var count = 0
        while count < 64, let next = segments.next() {
            count += 1
            guard case .segment(let marker, let payload) = next else { return .other }
            let body = payload.lowerBound
            if marker == 0xE1 || marker == 0xE2 {
                guard v.has(payload) else { return .needs(payload) }
                if marker == 0xE1, v.matches("http://ns.adobe.com/xap/1.0/\0", at: body), mentionsGainMap(v, from: body, to: payload.upperBound) {
                    return .gainMap
                }
                if marker == 0xE2, v.matches("urn:iso:std:iso:ts:21496:-1", at: body) { return .gainMap }
            }
            if JPEGSegments.isFrameHeader(marker), payload.count >= 6 {
                guard let h = v.u16be(body + 1), let w = v.u16be(body + 3) else { return .needs(payload) }
                return .frame(width: Int(w), height: Int(h))
            }
        }
        if let wanted = segments.needs { return .needs(wanted) }
        return .other
    }
}

/// The MP Index IFD of a Multi-Picture Format segment (CIPA DC-007): what its MP entries say the
/// images are. A stereo pair, a panorama or a multi-angle set (type codes 0x02xxxx) makes an MPO;
/// a primary image with large thumbnails (0x01xxxx) is a JPEG with extra images; an image of
/// "undefined" type (0x000000, what gain maps and Pillow's MPO frames use) or a second "baseline
/// primary" (0x030000) is decided by what it is.
struct MultiPicture {
    private(set) var entryCount = 0
    private(set) var hasMultiFrameImage = false
    /// Entries of type 0 (undefined): what gain maps use.
    private(set) var undefinedImages = 0
    /// Where the second image starts (absolute) when its type decides nothing.
    private(set) var undecidedSecondImage: Int?

    /// Reads the MP entries of the MPF data whose TIFF header starts at `tiff`, within `end`.
    init(_ v: ByteView, tiff: Int, end: Int) {
        for (index, entry) in MultiPicture.entries(v, tiff: tiff, end: end).enumerated() {
            entryCount += 1
            let type = entry.attribute & 0x00FF_FFFF
            if type & 0xFF_0000 == 0x02_0000 { hasMultiFrameImage = true }
            if type == 0 { undefinedImages += 1 }
            if index == 1, type == 0 || type == 0x03_0000, entry.offset > 0 { undecidedSecondImage = tiff + entry.offset }
        }
    }
}

// MARK: - Properties

extension JPEG {
    static let readers = [
        PropertyReader([.jpeg, .mpo, .jpegLS], read: properties),
    ]

    static let verifiers = [
        Verifier([.jpeg, .mpo], walk: { v in FrameWalk(.jpeg(inScan: false), at: lastListedImage(v) ?? 2) },
                 earlyWalk: { v in v.u8(0) == 0xFF && v.u8(1) == 0xD8 && v.u8(2) == 0xFF ? FrameWalk(.jpeg(inScan: false), at: 2) : nil },
                 check: verify),
    ]

    /// Where the last image the MPF index lists starts (its SOI), when the index is held and lists
    /// one after the primary: the completeness walk starts there. From the first image, a walk
    /// ends at the first EOI not followed at once by SOI: padding between the images (Fujifilm's,
    /// a byte in Pillow's sugarshack.mpo) made a file cut inside its second image "complete".
    static func lastListedImage(_ v: ByteView) -> Int? {
        var segments = JPEGSegments(v)
        while let next = segments.next() {
            guard case .segment(let marker, let payload) = next else { return nil }
            guard marker == 0xE2, v.has(payload), v.matches("MPF\0", at: payload.lowerBound) else { continue }
            let tiff = payload.lowerBound + 4
            let offsets = MultiPicture.entries(v, tiff: tiff, end: payload.upperBound).dropFirst().map(\.offset)
            return offsets.filter { $0 > 0 }.max().map { tiff + $0 }
        }
        return nil
    }

    /// Whole: the images the MPF index lists start within the data (their sizes are not trusted:
    /// Pillow writes a wrong one), and the last image ends with EOI: the data's last two bytes, or
    /// else where a walk over the scans of the images one after the other finds it (what follows
    /// is a trailer: Samsung's, an appended thumbnail, padding).
    static func verify(_ input: Input, _ type: ImageType, _ walked: FrameWalk.Progress?) -> VerifyStep {
        let v = input.view, length = input.totalLength
        var segments = JPEGSegments(v)
        while let next = segments.next() {
            guard case .segment(let marker, let payload) = next else { break }
            guard marker == 0xE2 else { continue }
            let head = payload.lowerBound..<min(payload.upperBound, payload.lowerBound + 4)
            if !v.has(head) { return .needRange(head) }
            guard v.matches("MPF\0", at: payload.lowerBound) else { continue }
            if !v.has(payload) { return .needRange(payload) }
            let tiff = payload.lowerBound + 4
            for entry in MultiPicture.entries(v, tiff: tiff, end: payload.upperBound).dropFirst() where entry.offset > 0 {
                if tiff + entry.offset >= length { return .truncated }
            }
            break
        }
        if let wanted = segments.needs { return .needRange(wanted) }
        guard length >= 4 else { return .truncated }
        let tail = (length - 2)..<length
        guard v.has(tail) else { return .needRange(tail) }
        if v.u8(tail.lowerBound) == 0xFF && v.u8(tail.lowerBound + 1) == 0xD9 { return .complete }
        guard let walked else { return .needWalk }
        return Verifier.step(for: walked)
    }

    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var p = ImageProperties(frameCount: 1, hasGainMap: false, hasICCProfile: false)
        var multiPicture: (tiff: Int, end: Int)?
        var segments = JPEGSegments(v)
        walk: while let next = segments.next() {
            guard case .segment(let marker, let payload) = next else { break walk }
            let body = payload.lowerBound, end = payload.upperBound
            // What a segment is, from its first bytes; its whole content only where it counts
            // (EXIF, XMP, MPF, the frame header), not a 64 KiB slice of an ICC profile.
            let head = body..<min(end, body + 32)
            if (0xE0...0xEF).contains(marker) || JPEGSegments.isFrameHeader(marker), !v.has(head) { return .needRange(head, partial: p) }
            let whole = marker == 0xE1 && (v.matches("Exif\0\0", at: body) || v.matches("http://ns.adobe.com/xap/1.0/\0", at: body))
                || marker == 0xE2 && v.matches("MPF\0", at: body) || JPEGSegments.isFrameHeader(marker)
            if whole && !v.has(payload) { return .needRange(payload, partial: p) }
            switch marker {
            case 0xE1:
                if v.matches("Exif\0\0", at: body), let o = Exif.orientation(v, tiff: body + 6, end: end) { p.orientation = o }
                if v.matches("http://ns.adobe.com/xap/1.0/\0", at: body), mentionsGainMap(v, from: body, to: end) { p.hasGainMap = true }
            case 0xE2:
                // The first chunk's profile header says `acsp` at 36 (ICC.1, 7.2.9), or the profile
                // is not usable (Pillow's icc-after-SOF.jpg: exiftool says "bad length"). Out of
                // view, it is taken as it says.
                if v.matches("ICC_PROFILE\0", at: body), v.u8(body + 12) == 1 {
                    let header = body + 14
                    p.hasICCProfile = header + 40 > end ? false : !v.has(header, 40) || v.matches("acsp", at: header + 36)
                }
                if v.matches("MPF\0", at: body) { multiPicture = (body + 4, end) }
                if v.matches("urn:iso:std:iso:ts:21496:-1", at: body) { p.hasGainMap = true }
            default:
                if JPEGSegments.isFrameHeader(marker), payload.count >= 6, let precision = v.u8(body), let height = v.u16be(body + 1),
                   let width = v.u16be(body + 3), let components = v.u8(body + 5) {
                    p.bitDepth = Int(precision)
                    p.height = Int(height)  // 0: defined by the DNL segment after the first scan
                    p.width = Int(width)
                    p.hasAlpha = false
                    switch components {
                    case 1: p.colorModel = .gray
                    case 3: p.colorModel = .rgb
                    case 4: p.colorModel = .cmyk  // Adobe's transform 2 (YCCK) decodes to CMYK too
                    default: p.colorModel = nil
                    }
                    if height == 0 { p.height = nil }
                }
            }
        }
        if let wanted = segments.needs { return .needRange(wanted, partial: p) }
        // The MPF index: the image count, and a gain map among the secondary images.
        if let (tiff, end) = multiPicture {
            let entries = MultiPicture.entries(v, tiff: tiff, end: end)
            if type == .mpo { p.frameCount = max(1, entries.count) }
            for entry in entries.dropFirst() where entry.offset > 0 {
                switch describeSecondImage(v, at: tiff + entry.offset) {
                case .gainMap: p.hasGainMap = true
                case .frame, .other: break
                case .needs(let r): return .needRange(r, partial: p)
                }
            }
        }
        return .done(p)
    }

    /// An XMP packet that declares a gain map: Adobe's and Google's `hdrgm:` namespace, or
    /// Apple's `HDRGainMap`.
    private static func mentionsGainMap(_ v: ByteView, from start: Int, to end: Int) -> Bool {
        v.find("hdrgm:Version", in: start..<end) != nil || v.find("HDRGainMap", in: start..<end) != nil
            || v.find("GainMap\"", in: start..<end) != nil
    }

}

extension MultiPicture {
    /// The MP entries (attribute, size and offset) of the MPF data at `tiff`, in order; the first
    /// is the primary image. Offsets are relative to `tiff` (0 for the primary).
    static func entries(_ v: ByteView, tiff: Int, end: Int) -> [(attribute: UInt32, size: Int, offset: Int)] {
        guard let (layout, ifdAt) = TIFFLayout.header(v, at: tiff), !layout.bigTIFF, ifdAt < end,
              let count = v.u16(ifdAt, bigEndian: layout.bigEndian), count <= 64 else { return [] }
        let ifd = IFD(layout: layout, start: ifdAt, count: Int(count))
        let big = layout.bigEndian
        var result: [(UInt32, Int, Int)] = []
        for i in 0..<ifd.count {
            guard ifdAt + 2 + 12 * i + 12 <= end, let e = ifd.entry(v, i) else { break }
            // MP Entry: 16 bytes an image (attribute, size, offset, two dependent-image entries).
            guard e.tag == 0xB002, let bytes = v.u32(e.field - 4, bigEndian: big), let at = v.u32(e.field, bigEndian: big) else { continue }
            for k in 0..<min(Int(bytes) / 16, 64) {
                let entry = tiff + Int(at) + 16 * k
                guard entry + 16 <= end, let attribute = v.u32(entry, bigEndian: big), let size = v.u32(entry + 4, bigEndian: big),
                      let offset = v.u32(entry + 8, bigEndian: big) else { break }
                result.append((attribute, Int(size), Int(offset)))
            }
        }
        return result
    }
}
