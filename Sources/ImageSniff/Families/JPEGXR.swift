// JPEG XR (HD Photo): a TIFF-like header whose identifier is 0x01BC, little-endian.

enum JPEGXR: FormatFamily {
    static let rules = [
        Rule("JPEG XR", .firstByte([0x49]), produces: [.jpegXR], check: detect),
    ]

    /// `II BC 01` (or `II BC 00`), then an even offset of the first IFD.
    static func detect(_ input: Input) -> Step {
        let v = input.view
        guard v.equals(0x4949_BC01, length: 4) || v.equals(0x4949_BC00, length: 4) else { return .no }
        guard let ifd = v.u32le(4) else { return .need(8, fallback: nil) }
        return ifd >= 8 && ifd & 1 == 0 ? .hit(Hit(.jpegXR)) : .no
    }
}

// MARK: - Properties

extension JPEGXR {
    static let readers = [PropertyReader([.jpegXR], read: properties)]

    /// The TIFF-like directory (little-endian, 12-byte entries): ImageWidth (0xBC80) and
    /// ImageHeight (0xBC81).
    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let ifd0 = v.u32le(4) else { return .need(8, partial: .unknown) }
        let layout = TIFFLayout(bigEndian: false, bigTIFF: false, base: 0)
        let at = Int(ifd0)
        guard let count = v.u16le(at) else { return .need(at + 2, partial: .unknown) }
        let ifd = IFD(layout: layout, start: at, count: Int(min(count, 256)))
        guard ifd.nextField.lowerBound <= v.count else { return .need(ifd.nextField.lowerBound, partial: .unknown) }
        var p = ImageProperties(frameCount: 1)
        for i in 0..<ifd.count {
            guard let e = ifd.entry(v, i) else { break }
            let value = e.inlineScalar(v, layout)
            if e.tag == 0xBC80 { p.width = value }
            if e.tag == 0xBC81 { p.height = value }
        }
        return .done(p)
    }
}

// MARK: - Whole-file check

extension JPEGXR {
    static let verifiers = [Verifier([.jpegXR]) { input, _, _ in verify(input) }]

    /// Whole: the coded image and its alpha plane end within the data, where the first directory
    /// places them (ImageOffset 0xBCC0 and ImageByteCount 0xBCC1; AlphaOffset 0xBCC2 and
    /// AlphaByteCount 0xBCC3). jxrlib's encoder (JxrEncApp) writes the alpha plane's end where
    /// its byte count belongs: a count that is the file's length is taken as that end (a cut
    /// file is shorter than it). A directory without the image's place is not checked.
    static func verify(_ input: Input) -> VerifyStep {
        let v = input.view
        guard let ifd0 = v.u32le(4) else { return .needRange(0..<8) }  // past the end: truncated
        let layout = TIFFLayout(bigEndian: false, bigTIFF: false, base: 0)
        let ifd: IFD
        switch IFD.read(v, at: Int(ifd0), layout) {
        case .ok(let read): ifd = read
        case .needs(let r): return .needRange(r)
        case .bad: return .unknown
        }
        func place(_ offsetTag: UInt16, _ countTag: UInt16) -> (offset: Int, count: Int)? {
            guard let offset = ifd.entry(v, tag: offsetTag)?.inlineScalar(v, layout),
                  let count = ifd.entry(v, tag: countTag)?.inlineScalar(v, layout) else { return nil }
            return (offset, count)
        }
        guard let image = place(0xBCC0, 0xBCC1) else { return .unknown }
        let length = input.totalLength
        var end = image.offset + image.count
        if let alpha = place(0xBCC2, 0xBCC3) {
            end = max(end, alpha.count == length ? length : alpha.offset + alpha.count)
        }
        return end <= length ? .complete : .truncated
    }
}
