// JPEG (and MPO, JPEG-LS): the frame header (SOFn) after the APP segments, EXIF orientation,
// the ICC profile, and a gain map (Ultra HDR / ISO 21496-1, Apple's) in the MPF secondary images.

extension JPEG {
    static let readers = [
        PropertyReader([.jpeg, .mpo, .jpegLS], read: properties),
    ]

    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var p = ImageProperties(frameCount: 1, hasGainMap: false, hasICCProfile: false)
        var offset = 2
        var multiPicture: (tiff: Int, end: Int)?
        for _ in 0..<Limits.maxWalkSteps {
            guard v.u8(offset) == 0xFF, let marker = v.u8(offset + 1) else { return .need(offset + 4, partial: p) }
            if marker == 0xFF { offset += 1; continue }
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            if marker == 0xDA || marker == 0xD9 { break }
            guard let length = v.u16be(offset + 2), length >= 2 else { break }
            let body = offset + 4, end = offset + 2 + Int(length)
            // Segments whose content counts are read whole.
            let wanted = marker == 0xE1 || marker == 0xE2 || isFrameHeader(marker)
            if wanted && end > v.count { return .need(end, partial: p) }
            switch marker {
            case 0xE1:
                if v.matches("Exif\0\0", at: body), let o = Exif.orientation(v, tiff: body + 6, end: end) { p.orientation = o }
                if v.matches("http://ns.adobe.com/xap/1.0/\0", at: body), mentionsGainMap(v, from: body, to: end) { p.hasGainMap = true }
            case 0xE2:
                if v.matches("ICC_PROFILE\0", at: body) { p.hasICCProfile = true }
                if v.matches("MPF\0", at: body) { multiPicture = (body + 4, end) }
                if v.matches("urn:iso:std:iso:ts:21496:-1", at: body) { p.hasGainMap = true }
            default:
                if isFrameHeader(marker), let precision = v.u8(body), let height = v.u16be(body + 1),
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
            offset = end
        }
        // The MPF index: the image count, and a gain map among the secondary images.
        if let (tiff, end) = multiPicture {
            let entries = MultiPicture.entries(v, tiff: tiff, end: end)
            if type == .mpo { p.frameCount = max(1, entries.count) }
            for entry in entries.dropFirst() where entry.offset > 0 {
                let start = tiff + entry.offset
                switch secondaryImageIsGainMap(v, at: start) {
                case .yes: p.hasGainMap = true
                case .no: break
                case .unknown(let n): if n <= input.limit && n > v.count && input.hasMore { return .need(n, partial: p) }
                }
            }
        }
        return .done(p)
    }

    /// SOF0-SOF15 but DHT (C4), JPG (C8) and DAC (CC); SOF55 (F7) of JPEG-LS.
    private static func isFrameHeader(_ marker: UInt8) -> Bool {
        ((0xC0...0xCF).contains(marker) && marker != 0xC4 && marker != 0xC8 && marker != 0xCC) || marker == 0xF7
    }

    /// An XMP packet that declares a gain map: Adobe's and Google's `hdrgm:` namespace, or
    /// Apple's `HDRGainMap`.
    private static func mentionsGainMap(_ v: ByteView, from start: Int, to end: Int) -> Bool {
        v.find("hdrgm:Version", in: start..<end) != nil || v.find("HDRGainMap", in: start..<end) != nil
            || v.find("GainMap\"", in: start..<end) != nil
    }

    enum Verdict { case yes, no, unknown(Int) }

    /// Whether the JPEG at `start` (an MPF secondary image) is a gain map: its APP segments carry
    /// the gain map's XMP (`hdrgm:`, Apple's `HDRGainMap`) or ISO 21496-1's APP2.
    static func secondaryImageIsGainMap(_ v: ByteView, at start: Int) -> Verdict {
        guard v.has(start, 4) else { return .unknown(start + 4) }
        guard v.u8(start) == 0xFF, v.u8(start + 1) == 0xD8 else { return .no }
        var offset = start + 2
        for _ in 0..<64 {
            guard let marker = v.u8(offset + 1), let length = v.u16be(offset + 2) else { return .unknown(offset + 4) }
            guard v.u8(offset) == 0xFF, length >= 2, (0xE0...0xEF).contains(marker) else { return .no }
            let body = offset + 4, end = offset + 2 + Int(length)
            guard end <= v.count else { return .unknown(end) }
            if marker == 0xE1, v.matches("http://ns.adobe.com/xap/1.0/\0", at: body), mentionsGainMap(v, from: body, to: end) { return .yes }
            if marker == 0xE2, v.matches("urn:iso:std:iso:ts:21496:-1", at: body) { return .yes }
            offset = end
        }
        return .no
    }
}

extension MultiPicture {
    /// The MP entries (attribute and offset) of the MPF data at `tiff`, in order; the first is the
    /// primary image. Offsets are relative to `tiff` (0 for the primary).
    static func entries(_ v: ByteView, tiff: Int, end: Int) -> [(attribute: UInt32, offset: Int)] {
        let big: Bool
        if v.matches("MM\0*", at: tiff) { big = true } else if v.matches("II*\0", at: tiff) { big = false } else { return [] }
        guard let ifdOffset = v.u32(tiff + 4, bigEndian: big) else { return [] }
        let ifd = tiff + Int(ifdOffset)
        guard ifd < end, let count = v.u16(ifd, bigEndian: big), count <= 64 else { return [] }
        var result: [(UInt32, Int)] = []
        for i in 0..<Int(count) {
            let e = ifd + 2 + 12 * i
            guard e + 12 <= end, let tag = v.u16(e, bigEndian: big) else { break }
            guard tag == 0xB002, let bytes = v.u32(e + 4, bigEndian: big), let at = v.u32(e + 8, bigEndian: big) else { continue }
            for k in 0..<min(Int(bytes) / 16, 64) {
                let entry = tiff + Int(at) + 16 * k
                guard entry + 16 <= end, let attribute = v.u32(entry, bigEndian: big),
                      let offset = v.u32(entry + 8, bigEndian: big) else { break }
                result.append((attribute, Int(offset)))
            }
        }
        return result
    }
}
