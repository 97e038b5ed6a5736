// OLE2 compound files (Microsoft's Compound File Binary): an image only when the root storage's
// class is FlashPix's; Office documents and the rest share the container and are not images.

enum Compound: FormatFamily {
    static let rules = [
        Rule("FlashPix (OLE2)", .firstByte([0xD0]), produces: [.flashPix], check: flashPix),
    ]

    /// The root directory entry's CLSID, 56616700-C154-11CE-8553-00AA00A1F95B, as stored.
    private static let flashPixClass: (UInt64, UInt64) = (0x0067_6156_54C1_CE11, 0x8553_00AA_00A1_F95B)

    static func flashPix(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature(0xD0CF_11E0_A1B1_1AE1, length: 8) { return early }
        guard let shift = v.u16le(30), let firstDirectory = v.u32le(48) else { return .need(52, fallback: nil) }
        guard shift == 9 || shift == 12, firstDirectory < 0xFFFF_FFFA else { return .no }
        let sector = 1 << Int(shift)
        let root = (Int(firstDirectory) + 1) * sector
        let clsid = root + 80
        guard root <= Limits.maxPrefix - 128 else { return .no }
        guard v.has(clsid, 16) else { return .need(clsid + 16, fallback: nil) }
        let isFlashPix = v.equals(flashPixClass.0, length: 8, at: clsid) && v.equals(flashPixClass.1, length: 8, at: clsid + 8)
        return isFlashPix ? .hit(Hit(.flashPix)) : .no
    }
}
