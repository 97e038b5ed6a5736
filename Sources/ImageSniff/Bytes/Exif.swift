// The EXIF orientation, wherever a TIFF-structured EXIF block sits (JPEG's APP1, PNG's eXIf, WebP's
// EXIF chunk, a HEIF Exif item).

enum Exif {
    /// The Orientation tag (0x0112) of IFD0 of the TIFF structure at `tiff`, within `end`: 1-8,
    /// or nil when absent, out of range or out of reach.
    static func orientation(_ v: ByteView, tiff: Int, end: Int) -> Int? {
        guard let (layout, ifd0) = TIFFLayout.header(v, at: tiff), !layout.bigTIFF, ifd0 + 2 <= end,
              let count = v.u16(ifd0, bigEndian: layout.bigEndian) else { return nil }
        let ifd = IFD(layout: layout, start: ifd0, count: min(Int(count), 256))
        for i in 0..<ifd.count {
            guard ifd0 + 2 + 12 * i + 12 <= end, let e = ifd.entry(v, i) else { return nil }
            if e.tag == 0x0112 {
                guard let value = v.u16(e.field, bigEndian: layout.bigEndian), (1...8).contains(value) else { return nil }
                return Int(value)
            }
        }
        return nil
    }
}
