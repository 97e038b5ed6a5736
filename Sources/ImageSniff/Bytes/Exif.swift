// The EXIF orientation, wherever a TIFF-structured EXIF block sits (JPEG's APP1, PNG's eXIf, WebP's
// EXIF chunk, a HEIF Exif item).

enum Exif {
    /// The Orientation tag (0x0112) of IFD0 of the TIFF structure at `tiff`, within `end`: 1-8,
    /// or nil when absent, out of range or out of reach.
    static func orientation(_ v: ByteView, tiff: Int, end: Int) -> Int? {
        let big: Bool
        if v.matches("MM\0*", at: tiff) { big = true } else if v.matches("II*\0", at: tiff) { big = false } else { return nil }
        guard let offset = v.u32(tiff + 4, bigEndian: big) else { return nil }
        let ifd = tiff + Int(offset)
        guard ifd + 2 <= end, let count = v.u16(ifd, bigEndian: big) else { return nil }
        for i in 0..<min(Int(count), 256) {
            let e = ifd + 2 + 12 * i
            guard e + 12 <= end, let tag = v.u16(e, bigEndian: big) else { return nil }
            if tag == 0x0112 {
                guard let value = v.u16(e + 8, bigEndian: big), (1...8).contains(value) else { return nil }
                return Int(value)
            }
        }
        return nil
    }
}
