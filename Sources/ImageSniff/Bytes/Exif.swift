// The EXIF orientation, wherever a TIFF-structured EXIF block sits (JPEG's APP1, PNG's eXIf, WebP's
// EXIF chunk, a HEIF Exif item).

enum Exif {
    /// The Orientation tag (0x0112) of IFD0 of the TIFF structure at `tiff`, within `end`: 1-8,
    /// or nil when absent, out of range or out of reach. The TIFF structure may follow JPEG's
    /// `Exif\0\0` there: writers put it in WebP's EXIF chunk and PNG's eXIf too (Pillow's
    /// hopper_orientation_*.webp, which exiftool and ImageIO read).
    static func orientation(_ v: ByteView, tiff start: Int, end: Int) -> Int? {
        let tiff = v.matches("Exif\0\0", at: start) ? start + 6 : start
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
