// Scientific and medical images: FITS, DICOM (whose marker sits after a 128-byte preamble).

enum Scientific {
    static let rules = [
        Rule("FITS", .firstByte([0x53]), produces: [.fits], check: fits),
        Rule("DICOM (DICM at 128)", .elsewhere, produces: [.dicom], check: dicom),
    ]

    /// FITS: the first 80-character card is `SIMPLE  =` with the logical value `T` in column 30.
    static func fits(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("SIMPLE  =") { return early }
        guard let value = v.u8(29) else { return .need(80, fallback: nil) }
        return value == UInt8(ascii: "T") ? .hit(Hit(.fits)) : .no
    }

    /// DICOM: a 128-byte preamble, then `DICM`.
    static func dicom(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 132 else { return input.hasMore ? .need(132, fallback: nil) : .no }
        return v.matches("DICM", at: 128) ? .hit(Hit(.dicom)) : .no
    }
}
