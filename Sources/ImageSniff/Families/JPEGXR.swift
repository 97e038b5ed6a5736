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

    /// The TIFF-like directory: ImageWidth (0xBC80) and ImageHeight (0xBC81).
    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        guard let ifd = v.u32le(4) else { return .need(8, partial: .unknown) }
        let at = Int(ifd)
        guard let count = v.u16le(at) else { return .need(at + 2, partial: .unknown) }
        let end = at + 2 + 12 * Int(min(count, 256))
        guard end <= v.count else { return .need(end, partial: .unknown) }
        var p = ImageProperties(frameCount: 1)
        for i in 0..<Int(min(count, 256)) {
            let e = at + 2 + 12 * i
            guard let tag = v.u16le(e), let type = v.u16le(e + 2) else { break }
            let value = type == 3 ? v.u16le(e + 8).map(Int.init) : v.u32le(e + 8).map(Int.init)
            if tag == 0xBC80 { p.width = value }
            if tag == 0xBC81 { p.height = value }
        }
        return .done(p)
    }
}
