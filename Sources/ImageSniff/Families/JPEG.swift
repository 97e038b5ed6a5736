// JPEG and the formats that share its marker segments: MPO (an APP2 "MPF\0" segment whose entries
// include multi-frame images), JPEG-LS (SOF55 before the scan) and lossless JPEG (SOF3 and friends,
// plain `public.jpeg`).

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
        var multiFrame = false
        var answer: Hit { Hit(sawJPEGLS ? .jpegLS : multiFrame ? .mpo : .jpeg) }
        var undecided: Hit { sawJPEGLS ? Hit(.jpegLS) : Hit(.jpeg, .family) }
        for _ in 0..<Limits.maxWalkSteps {
            guard let marker = v.u8(offset + 1), v.u8(offset) != nil else { return .need(offset + 4, fallback: undecided) }
            // Not a marker where one must be: a damaged stream. JPEG is all we can say.
            guard v.base[offset] == 0xFF else { return .hit(answer) }
            if marker == 0xFF { offset += 1; continue }  // fill byte
            if marker == 0xD8 || marker == 0x01 || (0xD0...0xD7).contains(marker) { offset += 2; continue }
            // Start of scan (or end of image): every header segment has been seen.
            if marker == 0xDA || marker == 0xD9 { return .hit(answer) }
            guard let length = v.u16be(offset + 2) else { return .need(offset + 4, fallback: undecided) }
            guard length >= 2 else { return .hit(answer) }
            if marker == 0xF7 { sawJPEGLS = true }
            if marker == 0xE2 {
                guard v.has(offset + 4, 8) else { return .need(offset + 12, fallback: undecided) }
                if v.matches("MPF\0", at: offset + 4) {
                    let end = offset + 2 + Int(length)
                    guard end <= v.count else { return .need(end, fallback: undecided) }
                    let entries = MultiPicture(v, tiff: offset + 8, end: end)
                    if entries.hasMultiFrameImage { multiFrame = true }
                }
            }
            offset += 2 + Int(length)
        }
        return .hit(answer)
    }
}

/// The MP Index IFD of a Multi-Picture Format segment (CIPA DC-007): what its MP entries say the
/// images are. A stereo pair, a panorama or a multi-angle set (type codes 0x02xxxx) makes an MPO;
/// a primary image with large thumbnails (0x01xxxx) or a gain map (0x000000, "undefined") is a
/// JPEG with extra images.
struct MultiPicture {
    private(set) var entryCount = 0
    private(set) var hasMultiFrameImage = false
    /// Entries of type 0 (undefined): what gain maps use.
    private(set) var undefinedImages = 0

    /// Reads the MP entries of the MPF data whose TIFF header starts at `tiff`, within `end`.
    init(_ v: ByteView, tiff: Int, end: Int) {
        for entry in MultiPicture.entries(v, tiff: tiff, end: end) {
            entryCount += 1
            let type = entry.attribute & 0x00FF_FFFF
            if type & 0xFF_0000 == 0x02_0000 { hasMultiFrameImage = true }
            if type == 0 { undefinedImages += 1 }
        }
    }
}
