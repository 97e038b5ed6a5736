// JPEG XR (HD Photo): a TIFF-like header whose identifier is 0x01BC, little-endian.

enum JPEGXR {
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
