// JPEG and the formats that share its marker segments: MPO (APP2 "MPF\0"), JPEG-LS (SOF55 before
// the scan) and lossless JPEG (SOF3 and friends, plain `public.jpeg`).

enum JPEG {
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

        var offset = 2
        var sawJPEGLS = false
        for _ in 0..<Limits.maxWalkSteps {
            guard let marker = v.u8(offset + 1), v.u8(offset) != nil else {
                return .need(offset + 4, fallback: sawJPEGLS ? Hit(.jpegLS) : Hit(.jpeg, .family))
            }
            guard v.base[offset] == 0xFF else {
                // Not a marker where one must be: a damaged stream. JPEG is all we can say.
                return .hit(Hit(sawJPEGLS ? .jpegLS : .jpeg))
            }
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            if marker == 0xDA || marker == 0xD9 {
                // Start of scan (or end of image): every header segment has been seen.
                return .hit(Hit(sawJPEGLS ? .jpegLS : .jpeg))
            }
            guard let length = v.u16be(offset + 2) else {
                return .need(offset + 4, fallback: sawJPEGLS ? Hit(.jpegLS) : Hit(.jpeg, .family))
            }
            guard length >= 2 else { return .hit(Hit(sawJPEGLS ? .jpegLS : .jpeg)) }
            if marker == 0xF7 { sawJPEGLS = true }
            if marker == 0xE2 {
                guard v.has(offset + 4, 8) else {
                    return .need(offset + 12, fallback: sawJPEGLS ? Hit(.jpegLS) : Hit(.jpeg, .family))
                }
                if v.matches("MPF\0", at: offset + 4) && isTIFFHeader(v, at: offset + 8) {
                    return .hit(Hit(.mpo))
                }
            }
            offset += 2 + Int(length)
        }
        return .hit(Hit(sawJPEGLS ? .jpegLS : .jpeg))
    }

    private static func isTIFFHeader(_ v: ByteView, at offset: Int) -> Bool {
        v.matches("II*\0", at: offset) || v.matches("MM\0*", at: offset)
    }
}
