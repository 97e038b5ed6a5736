// Scientific and medical images: FITS, DICOM (whose marker sits after a 128-byte preamble), NASA's
// VICAR, the McIDAS AREA files of weather satellites, SPIDER's electron-microscopy images and the
// MRC/CCP4 maps of cryo-electron microscopy and crystallography.

enum Scientific: FormatFamily {
    static let rules = [
        Rule("FITS", .firstByte([0x53]), produces: [.fits], check: fits),
        Rule("VICAR", .firstByte([0x4C]), produces: [.vicar], check: vicar),
        Rule("McIDAS AREA", .firstByte([0x00]), produces: [.mcidas], check: mcidas),
        Rule("DICOM (DICM at 128)", .elsewhere, produces: [.dicom], check: dicom),
        Rule("NIfTI (header size 348 or 540)", .firstByte([0x5C, 0x1C, 0x00]), produces: [.nifti], check: nifti),
        Rule("Analyze 7.5 (header size 348)", .firstByte([0x5C, 0x00]), produces: [.analyze], check: analyze),
        Rule("SPIDER", .elsewhere, strength: .heuristic, produces: [.spider], check: spider),
        Rule("MRC/CCP4 (MAP at 208)", .elsewhere, produces: [.mrc], check: mrc),
    ]

    /// FITS: fixed 80-character cards, the first `SIMPLE  =` with the logical value in column
    /// 30, the second `BITPIX  =` (a header dumped as lines of text is text). `T` says the file
    /// conforms; `F` (a FITS-like file that does not) is FITS at most likely, and so is a value
    /// written in free format elsewhere on the card.
    static func fits(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("SIMPLE  =") { return early }
        // The value: the logical constant in column 30 (fixed format, which FITS 4.0, 4.2.1,
        // requires of the mandatory keywords), or, as free format (4.2.1: columns 11 to 80) that
        // readers take with a warning, the first byte after the spaces, ended by a space or a
        // comment's `/`: likely.
        let isLogical = { (b: UInt8) in b == UInt8(ascii: "T") || b == UInt8(ascii: "F") }
        guard let column30 = v.u8(29) else { return .need(30, fallback: nil) }
        var o = 29
        if !isLogical(column30) {
            o = 9
            while o < 80, let b = v.u8(o), b == 0x20 { o += 1 }
            guard o < 80 else { return .no }
            guard let value = v.u8(o) else { return .need(o + 1, fallback: nil) }
            guard isLogical(value) else { return .no }
            if o < 79 {
                guard let next = v.u8(o + 1) else { return .need(o + 2, fallback: nil) }
                guard next == 0x20 || next == UInt8(ascii: "/") else { return .no }
            }
        }
        guard v.count >= 89 else { return .need(89, fallback: nil) }
        let fixed = o == 29
        guard v.matches("BITPIX  =", at: 80) else { return .no }
        return .hit(Hit(.fits, v.base[o] == UInt8(ascii: "T") && fixed ? .conclusive : .likely))
    }

    /// NIfTI-1 (`sizeof_hdr` 348 in either byte order, `n+1` or `ni1` at 344) or NIfTI-2 (540,
    /// `n+2` or `ni2` and `\r\n\x1A\n` at 4), with a dimension count of 1 to 7.
    static func nifti(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 4 else { return .need(4, fallback: nil) }
        let size = v.u32le(0) ?? 0
        let bigEndian = size != 348 && size != 540
        switch bigEndian ? v.u32be(0) ?? 0 : size {
        case 540:
            guard v.count >= 24 else { return .need(24, fallback: nil) }
            guard v.matches("n+2\0", at: 4) || v.matches("ni2\0", at: 4), v.equals(0x0D0A_1A0A, length: 4, at: 8) else { return .no }
            let dims = v.u64(16, bigEndian: bigEndian)
            return (1...7).contains(dims ?? 0) ? .hit(Hit(.nifti)) : .no
        case 348:
            guard v.count >= 348 else { return .need(348, fallback: nil) }
            guard v.matches("n+1\0", at: 344) || v.matches("ni1\0", at: 344) else { return .no }
            let dims = bigEndian ? v.u16be(40) : v.u16le(40)
            return (1...7).contains(dims ?? 0) ? .hit(Hit(.nifti)) : .no
        default:
            return .no
        }
    }

    /// Analyze 7.5 (the Mayo Clinic's `dbh.h`, NIfTI-1's ancestor): a header of exactly its
    /// `sizeof_hdr`, 348, in either byte order, without NIfTI-1's magic at 344. Two bytes of
    /// size are little evidence, so the image dimensions must be sane too: `dim[0]` (at 40) of 1
    /// to 7 and each used dimension at least 1, and the data type (70) one of Analyze's with its
    /// bits per pixel (72): binary 1, unsigned char 8, short 16, int and float 32, complex and
    /// double 64, RGB 24. The pixels lie in a separate `.img` file.
    static func analyze(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 4 else { return .need(4, fallback: nil) }
        let big: Bool
        if v.u32le(0) == 348 { big = false } else if v.u32be(0) == 348 { big = true } else { return .no }
        guard v.count >= 348 else { return .need(348, fallback: nil) }
        guard !v.matches("n+1\0", at: 344), !v.matches("ni1\0", at: 344), let rank = v.u16(40, bigEndian: big), (1...7).contains(rank) else { return .no }
        for i in 1...Int(rank) {
            guard let n = v.u16(40 + 2 * i, bigEndian: big), Int16(bitPattern: n) >= 1 else { return .no }
        }
        guard let dataType = v.u16(70, bigEndian: big), let bits = v.u16(72, bigEndian: big),
              Self.analyzeBits[dataType] == bits else { return .no }
        return .hit(Hit(.analyze, .likely))
    }

    /// Analyze 7.5's data types and the bits per pixel each takes.
    static let analyzeBits: [UInt16: UInt16] = [1: 1, 2: 8, 4: 16, 8: 32, 16: 32, 32: 64, 64: 64, 128: 24]

    /// DICOM: a 128-byte preamble, then `DICM`.
    static func dicom(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 132 else { return input.hasMore ? .need(132, fallback: nil) : .no }
        return v.matches("DICM", at: 128) ? .hit(Hit(.dicom)) : .no
    }

    /// MRC/CCP4 maps (MRC2014, the CCP4 map format it extends): `MAP ` at 208 and a machine stamp
    /// at 212 whose first byte says the byte order (`44`: little-endian, `11`: big-endian); in
    /// that order, the column, row and section counts at 0, 4 and 8 above zero, a data mode at 12
    /// that the format defines (0-4, 6, 12, 16, 101), and the axis order at 64, 68 and 72 a
    /// permutation of 1, 2 and 3.
    static func mrc(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 216 else { return input.hasMore ? .need(216, fallback: nil) : .no }
        guard v.matches("MAP ", at: 208), let big = mrcBigEndian(v) else { return .no }
        guard let nx = v.u32(0, bigEndian: big), let ny = v.u32(4, bigEndian: big), let nz = v.u32(8, bigEndian: big),
              let mode = v.u32(12, bigEndian: big), let c = v.u32(64, bigEndian: big), let r = v.u32(68, bigEndian: big),
              let sec = v.u32(72, bigEndian: big) else { return .no }
        guard (1...0x7FFF_FFFF).contains(nx), (1...0x7FFF_FFFF).contains(ny), (1...0x7FFF_FFFF).contains(nz),
              [0, 1, 2, 3, 4, 6, 12, 16, 101].contains(mode), Set([c, r, sec]) == [1, 2, 3] else { return .no }
        return .hit(Hit(.mrc))
    }

    /// The byte order an MRC machine stamp (at 212) names: nil when it names none.
    static func mrcBigEndian(_ v: ByteView) -> Bool? {
        switch v.u8(212) {
        case 0x44: return false
        case 0x11: return true
        default: return nil
        }
    }

    /// `LBLSIZE=` and a number: the ASCII label of a VICAR (or PDS) image.
    static func vicar(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("LBLSIZE=") { return early }
        guard let digit = v.u8(8) else { return .need(9, fallback: nil) }
        return ByteView.isDigit(digit) ? .hit(Hit(.vicar)) : .no
    }

    /// McIDAS AREA: a directory of 64 words, the first zero and the second (the area type) 4, in
    /// either byte order; then lines, elements and bytes per element (1, 2 or 4).
    static func mcidas(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 64 else {
            let start = v.prefixMatches(0x0000_0000_0000_0004, length: 8) || v.prefixMatches(0x0000_0000_0400_0000, length: 8)
            return start && v.count >= 8 ? .need(64, fallback: nil) : .no
        }
        for big in [true, false] {
            guard v.u32(0, bigEndian: big) == 0, v.u32(4, bigEndian: big) == 4,
                  let lines = v.u32(32, bigEndian: big), let elements = v.u32(36, bigEndian: big),
                  let bytes = v.u32(40, bigEndian: big), let bands = v.u32(52, bigEndian: big) else { continue }
            if lines > 0, elements > 0, lines < 1 << 20, elements < 1 << 20, [1, 2, 4].contains(bytes), bands >= 1, bands < 1024 {
                return .hit(Hit(.mcidas))
            }
        }
        return .no
    }

    /// SPIDER: a header of 4-byte floats, big- or little-endian, whose counting words are whole
    /// numbers, whose file type is an image or volume kind, and whose header length is its record
    /// count times its record length.
    static func spider(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 96 else { return .no }
        for big in [true, false] {
            func word(_ n: Int) -> Double? {
                guard let bits = v.u32(4 * (n - 1), bigEndian: big) else { return nil }
                let value = Double(Float(bitPattern: bits))
                return value.isFinite && value == value.rounded() ? value : nil
            }
            guard let slices = word(1), let rows = word(2), let form = word(5), let columns = word(12),
                  let records = word(13), let headerBytes = word(22), let recordLength = word(23) else { continue }
            guard [1, 3, -11, -12, -21, -22].contains(form), slices >= 1, rows >= 1, columns >= 1,
                  rows < 100_000, columns < 100_000, slices < 100_000,
                  headerBytes > 0, headerBytes == records * recordLength else { continue }
            guard Double(input.totalLength) >= headerBytes + columns * rows * slices * 4 else { continue }
            return .hit(Hit(.spider, .likely))
        }
        return .no
    }
}

// MARK: - Whole-file check

extension Scientific {
    static let verifiers = [Verifier([.fits]) { input, _, _ in fitsStep(input) }]

    /// FITS: each header-and-data unit in turn (the primary one, then every extension whose
    /// `XTENSION` card follows the last one's 2,880-byte blocks): its header to END, then the
    /// data its cards size, padded to a whole block, within the data. Bytes after the last unit
    /// that do not begin an extension say nothing. Headers are read
    /// block by block where they lie (the length is looked at only once each is held, so that a
    /// stream asks for them).
    static func fitsStep(_ input: Input) -> VerifyStep {
        let v = input.view
        let known = input.knownLength ?? .max, block = 2880
        var start = 0
        for unit in 0..<Budget.fitsUnits {
            if unit > 0 {
                guard start < known else { return .complete }
                let card = start..<min(start + 80, known)
                guard v.has(card) else { return .needRange(card) }
                // Fewer than 80 bytes that begin as `XTENSION=` does: an extension cut in its
                // first card.
                if card.count < 80 {
                    let word = Array("XTENSION=".utf8)
                    return (0..<min(card.count, word.count)).allSatisfy { v.u8(start + $0) == word[$0] } ? .truncated : .complete
                }
                guard v.matches("XTENSION=", at: start) else { return .complete }
            }
            let header = FITSHeader(v, at: start, blocks: Budget.fitsHeaderBlocks)
            if let missing = header.missing {
                // The block that holds the card not held: past the end, the data was cut.
                guard missing <= known else { return .truncated }
                let from = missing - 80 - (missing - 80 - start) % block
                return .needRange(from..<min(from + block, known))
            }
            guard let end = header.end, let size = header.dataSize else { return .unknown }
            let dataStart = (end + block - 1) / block * block
            // The data padded to whole blocks (astropy warns that a file without all of its
            // padding "may have been truncated").
            start = (dataStart + size + block - 1) / block * block
            guard start <= known else { return .truncated }
        }
        return .unknown
    }
}

// MARK: - Properties

extension Scientific {
    static let readers = [
        PropertyReader([.fits], read: fitsProperties),
        PropertyReader([.dicom], read: dicomProperties),
        PropertyReader([.vicar], read: vicarProperties),
        PropertyReader([.mrc], read: { input, _ in
            // Columns and rows; sections as frames (a stack's images, a volume's slices); the
            // data mode's bits: 8-bit, 16-bit, 32-bit float, complex, 16-bit unsigned, 16-bit
            // float, RGB of three bytes, 4-bit.
            let v = input.view
            guard let big = mrcBigEndian(v), let nx = v.u32(0, bigEndian: big), let ny = v.u32(4, bigEndian: big),
                  let nz = v.u32(8, bigEndian: big), let mode = v.u32(12, bigEndian: big) else { return .need(216, partial: .unknown) }
            let bits: [UInt32: Int] = [0: 8, 1: 16, 2: 32, 3: 16, 4: 32, 6: 16, 12: 16, 16: 8, 101: 4]
            return .done(ImageProperties(width: Int(nx), height: Int(ny), bitDepth: bits[mode],
                                         colorModel: mode == 16 ? .rgb : .gray, hasAlpha: false, frameCount: Int(nz)))
        }),
        PropertyReader([.analyze], read: { input, _ in
            // dim[1] and dim[2]; the data type's bits (RGB: three 8-bit samples).
            let v = input.view
            let big = v.u32le(0) != 348
            guard let w = v.u16(42, bigEndian: big), let h = v.u16(44, bigEndian: big), let dataType = v.u16(70, bigEndian: big) else {
                return .need(74, partial: .unknown)
            }
            let rgb = dataType == 128
            let bits = rgb ? 8 : (dataType == 32 ? nil : Self.analyzeBits[dataType].map(Int.init))
            return .done(ImageProperties(width: Int(Int16(bitPattern: w)), height: Int(Int16(bitPattern: h)), bitDepth: bits,
                                         colorModel: rgb ? .rgb : (dataType == 32 ? nil : .gray)))
        }),
        PropertyReader([.nifti], read: { input, _ in
            let v = input.view
            guard let size = v.u32le(0) else { return .need(4, partial: .unknown) }
            let big = size != 348 && size != 540
            if (big ? v.u32be(0) : size) == 540 {
                guard let w = v.u64(24, bigEndian: big), let h = v.u64(32, bigEndian: big), let bitpix = v.u16(14, bigEndian: big) else {
                    return .need(40, partial: .unknown)
                }
                return .done(ImageProperties(width: Int(min(w, 1 << 31)), height: Int(min(h, 1 << 31)), bitDepth: Int(bitpix)))
            }
            guard let w = v.u16(42, bigEndian: big), let h = v.u16(44, bigEndian: big), let bitpix = v.u16(72, bigEndian: big) else {
                return .need(74, partial: .unknown)
            }
            return .done(ImageProperties(width: Int(w), height: Int(h), bitDepth: Int(bitpix)))
        }),
    ]

    /// FITS: NAXIS1 (width), NAXIS2 (height; 1 for a one-dimensional array, as readers show it)
    /// and BITPIX from the 80-character cards of the primary header (up to END). A primary header
    /// with no data (NAXIS = 0), as most observatories write their files, is followed by the
    /// first extension's header (the next 2,880-byte block; empty IMAGE extensions passed over):
    /// an IMAGE extension's size, or a tile-compressed image's (a BINTABLE with ZIMAGE = T:
    /// ZNAXIS1, ZNAXIS2, ZBITPIX, as fpack writes them), read where it lies. A file whose
    /// primary header holds no data and whose first extension is a table (or that has none), or
    /// whose image has an axis of length 0 (random groups), holds no image: nothing is stated.
    static func fitsProperties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var p = ImageProperties(colorModel: .gray, frameCount: 1)
        func want(_ end: Int) -> PropertyStep {
            end <= input.limit ? .need(end, partial: p) : .needRange((end - 80)..<end, partial: p)
        }
        let primary = FITSHeader(v, at: 0)
        p.bitDepth = primary.bitpix.map(abs)
        p.width = primary.axis1
        p.height = primary.axis2 ?? (primary.axes == 1 ? 1 : nil)
        if primary.axis3 == 3 { p.colorModel = .rgb }
        // A header cut short (a header file without its END) states what its cards do.
        if let missing = primary.missing { return want(missing) }
        // No image where a reader looks for one (an axis of length 0, as random groups' NAXIS1;
        // a primary header alone, or tables after it): nothing to state, not the primary
        // header's BITPIX for a grey image that is not there.
        let noImage = ImageProperties()
        if primary.hasEmptyAxis { return .done(noImage) }
        guard primary.axes == 0, var end = primary.end else { return .done(p) }
        // The extensions start at the block after the primary header's END card; an empty
        // IMAGE extension (NAXIS = 0, as astropy writes `ImageHDU()`) is passed over.
        for _ in 0..<Budget.fitsImageSearch {
            let next = (end + 2879) / 2880 * 2880
            let ext = FITSHeader(v, at: next)
            if let missing = ext.missing {
                // Past the data: no extension (more).
                return missing - 80 >= (input.knownLength ?? Int.max) ? .done(noImage) : want(missing)
            }
            if ext.xtension == "IMAGE   " {
                if ext.hasEmptyAxis { return .done(noImage) }
                if ext.axes == 0, let extEnd = ext.end {
                    end = extEnd
                    continue
                }
                p.bitDepth = ext.bitpix.map(abs)
                p.width = ext.axis1
                p.height = ext.axis2 ?? (ext.axes == 1 ? 1 : nil)
                return .done(p)
            }
            if ext.xtension == "BINTABLE", ext.zimage {
                p.bitDepth = ext.zbitpix.map(abs)
                p.width = ext.zaxis1
                p.height = ext.zaxis2 ?? (ext.zaxes == 1 ? 1 : nil)
                return .done(p)
            }
            return .done(noImage)
        }
        return .done(noImage)
    }

    /// The cards of one FITS header that give an image's shape and its data's size, from `start`
    /// to END (at most `blocks` blocks of 36 cards).
    struct FITSHeader {
        var axes: Int?, bitpix: Int?
        var xtension: String?
        var zimage = false
        var zaxes: Int?, zaxis1: Int?, zaxis2: Int?, zbitpix: Int?
        /// NAXISn's length by n, as the cards give them (a later card wins); PCOUNT, GCOUNT and
        /// GROUPS.
        var axisLengths: [Int: Int] = [:]
        var pcount = 0, gcount = 1, groups = false
        var axis1: Int? { axisLengths[1] }
        var axis2: Int? { axisLengths[2] }
        var axis3: Int? { axisLengths[3] }
        /// Whether an axis it declares has length 0: no pixels (random groups' NAXIS1, an empty
        /// cube's NAXIS3).
        var hasEmptyAxis: Bool {
            guard let axes, axes > 0 else { return false }
            return axisLengths.contains { $0.key <= axes && $0.value == 0 }
        }
        /// The offset of the END card's end, when it was reached.
        var end: Int?
        /// The end of the card that was not held, when the cards ran past the bytes held.
        var missing: Int?

        /// Bytes of the data after the header: |BITPIX| / 8 x GCOUNT x (PCOUNT + the product of
        /// the axes; random groups leave out NAXIS1, which is 0). Nil: not stated, or no data
        /// holds it.
        var dataSize: Int? {
            guard let bitpix, [8, 16, 32, 64].contains(abs(bitpix)), let axes, axes >= 0, axes <= 999 else { return nil }
            guard axes > 0 else { return 0 }
            var product = 1
            let first = groups && axis1 == 0 ? 2 : 1
            guard first <= axes else { return nil }
            for n in first...axes {
                guard let length = axisLengths[n], length >= 0 else { return nil }
                let (p, overflow) = product.multipliedReportingOverflow(by: length)
                guard !overflow, p < 1 << 50 else { return nil }
                product = p
            }
            let (size, overflow) = (abs(bitpix) / 8 * gcount).multipliedReportingOverflow(by: pcount + product)
            return overflow || size >= 1 << 52 || pcount < 0 || gcount < 0 ? nil : size
        }

        /// The n of a `NAXISn` keyword (1 to 999, then spaces to column 8, then `=`).
        static func axisNumber(_ v: ByteView, _ o: Int) -> Int? {
            guard v.u8(o + 8) == UInt8(ascii: "="), let first = v.u8(o + 5), ByteView.isDigit(first) else { return nil }
            var n = 0, i = o + 5
            while i < o + 8, let b = v.u8(i), ByteView.isDigit(b) { n = n * 10 + Int(b - 0x30); i += 1 }
            while i < o + 8 { guard v.u8(i) == 0x20 else { return nil }; i += 1 }
            return n >= 1 ? n : nil
        }

        init(_ v: ByteView, at start: Int, blocks: Int = 8) {
            for card in 0..<(36 * blocks) {
                let o = start + card * 80
                guard v.has(o, 80) else { missing = o + 80; return }
                if v.matches("END     ", at: o) || v.matches("END\u{20}", at: o) && v.all((o + 3)..<(o + 8), equal: 0x20) {
                    end = o + 80
                    return
                }
                var value = o + 10
                func integer() -> Int? {
                    while let b = v.u8(value), b == 0x20 { value += 1 }
                    let negative = v.u8(value) == UInt8(ascii: "-")
                    if negative { value += 1 }
                    return v.decimal(at: &value).map { negative ? -$0 : $0 }
                }
                if v.matches("NAXIS", at: o), let n = Self.axisNumber(v, o) { axisLengths[n] = integer() }
                else if v.matches("BITPIX  =", at: o) { bitpix = integer() }
                else if v.matches("NAXIS   =", at: o) { axes = integer() }
                else if v.matches("PCOUNT  =", at: o) { pcount = integer() ?? 0 }
                else if v.matches("GCOUNT  =", at: o) { gcount = integer() ?? 1 }
                else if v.matches("GROUPS  =", at: o) {
                    while let b = v.u8(value), b == 0x20 { value += 1 }
                    groups = v.u8(value) == UInt8(ascii: "T")
                }
                else if v.matches("XTENSION= '", at: o), v.has(o + 11, 8) {
                    xtension = String(decoding: UnsafeRawBufferPointer(start: v.pointer(o + 11, 8), count: 8), as: UTF8.self)
                }
                else if v.matches("ZIMAGE  =", at: o) {
                    while let b = v.u8(value), b == 0x20 { value += 1 }
                    zimage = v.u8(value) == UInt8(ascii: "T")
                }
                else if v.matches("ZBITPIX =", at: o) { zbitpix = integer() }
                else if v.matches("ZNAXIS  =", at: o) { zaxes = integer() }
                else if v.matches("ZNAXIS1 =", at: o) { zaxis1 = integer() }
                else if v.matches("ZNAXIS2 =", at: o) { zaxis2 = integer() }
            }
        }
    }

    /// DICOM: the data elements after the meta group (explicit VR little-endian), in the transfer
    /// syntax it names (explicit or implicit VR, little- or big-endian), up to the image pixel
    /// module's Rows (0028,0010), Columns (0028,0011), Bits Allocated (0028,0100), Photometric
    /// Interpretation (0028,0004) and Number of Frames (0028,0008). Sequences and items of
    /// undefined length are walked through to their delimiters (PS3.5 §7.5); an element whose VR
    /// is not two capital letters where the syntax says explicit is read as implicit VR from there
    /// on (files whose body is written in implicit VR under an explicit meta group, as pydicom
    /// reads them). Elements past the first bytes are read where they lie.
    static func dicomProperties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var p = ImageProperties(frameCount: 1)
        var o = 132
        var explicit = true
        var bigEndian = false
        /// How deep the walk is in sequences and items of undefined length.
        var depth = 0
        // The bytes at `range`: from the first bytes when they can grow that far, else where they lie.
        func want(_ range: Range<Int>) -> PropertyStep {
            range.upperBound <= input.limit ? .need(range.upperBound, partial: p) : .needRange(range, partial: p)
        }
        for _ in 0..<4096 {
            // The meta group is little-endian whatever the body is.
            guard let leGroup = v.u16le(o), v.has(o + 2, 6) else { return want(o..<(o + 12)) }
            let isMeta = leGroup == 0x0002
            let big = bigEndian && !isMeta
            let group = big ? v.u16be(o)! : leGroup
            let element = v.u16(o + 2, bigEndian: big)!
            if group == 0xFFFE {
                // An item or a delimiter: a tag and a 4-byte length in any transfer syntax.
                let l = v.u32(o + 4, bigEndian: big)!
                switch element {
                case 0xE000:  // an item: of undefined length, its elements follow; else passed over whole
                    if l == 0xFFFF_FFFF { depth += 1; o += 8 } else { o += 8 + Int(l) }
                case 0xE00D, 0xE0DD:  // the end of an item, or of a sequence, of undefined length
                    depth = max(0, depth - 1)
                    o += 8
                default:
                    return .done(p)
                }
                continue
            }
            if depth == 0 && group > 0x0028 { break }
            var length: Int
            var value: Int
            if explicit, !isMeta, !(isCapital(v, o + 4) && isCapital(v, o + 5)) {
                explicit = false  // an implicit-VR body under an explicit meta group
            }
            if isMeta || explicit {
                // The value representations with a 4-byte length (after 2 reserved bytes).
                let longVRs: [StaticString] = ["OB", "OW", "OF", "SQ", "UT", "UN", "OD", "OL", "OV", "UC", "UR"]
                let long = longVRs.contains { v.matches($0, at: o + 4) }
                if long {
                    guard let l = v.u32(o + 8, bigEndian: big) else { return want(o..<(o + 12)) }
                    length = l == 0xFFFF_FFFF ? -1 : Int(l); value = o + 12
                } else {
                    length = Int(v.u16(o + 6, bigEndian: big)!); value = o + 8
                }
            } else {
                let l = v.u32(o + 4, bigEndian: big)!
                length = l == 0xFFFF_FFFF ? -1 : Int(l); value = o + 8
            }
            if length < 0 {
                // A sequence (or UN) of undefined length: its items follow, up to its delimiter.
                depth += 1
                o = value
                continue
            }
            let end = value + length
            if isMeta && element == 0x0010 {
                guard v.has(value, length) else { return want(value..<end) }
                // Transfer Syntax UID: implicit VR little-endian is 1.2.840.10008.1.2 exactly;
                // big-endian explicit is 1.2.840.10008.1.2.2.
                let implicitLE = length >= 17 && v.matches("1.2.840.10008.1.2", at: value) && (length == 17 || v.u8(value + 17) == 0)
                explicit = !implicitLE
                bigEndian = length >= 19 && v.matches("1.2.840.10008.1.2.2", at: value)
            }
            if depth == 0 && group == 0x0028 {
                guard v.has(value, length) else { return want(value..<end) }
                let short = v.u16(value, bigEndian: big).map(Int.init)
                switch element {
                case 0x0010: p.height = short
                case 0x0011: p.width = short
                case 0x0100: p.bitDepth = short
                case 0x0004:
                    if v.matches("MONOCHROME", at: value) { p.colorModel = .gray }
                    else if v.matches("PALETTE", at: value) { p.colorModel = .indexed }
                    else if v.matches("RGB", at: value) || v.matches("YBR", at: value) { p.colorModel = .rgb }
                    if v.matches("ARGB", at: value) { p.hasAlpha = true }
                case 0x0008:
                    var n = value
                    if let frames = v.decimal(at: &n) { p.frameCount = frames }
                default: break
                }
            }
            o = end
        }
        return .done(p)
    }

    /// Whether the byte at `offset` is held and is a capital letter (a VR's).
    private static func isCapital(_ v: ByteView, _ offset: Int) -> Bool {
        guard let b = v.u8(offset) else { return false }
        return b >= UInt8(ascii: "A") && b <= UInt8(ascii: "Z")
    }
}

extension Scientific {
    /// VICAR: the label's `NS=` (samples: width) and `NL=` (lines: height).
    static func vicarProperties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        let range = 0..<min(v.count, 2048)
        guard var ns = v.find(" NS=", in: range), var nl = v.find(" NL=", in: range) else {
            return v.count < 2048 && input.hasMore ? .need(2048, partial: .unknown) : .done(.unknown)
        }
        ns += 4; nl += 4
        return .done(ImageProperties(width: v.decimal(at: &ns, lead: .spacesAndZeros), height: v.decimal(at: &nl, lead: .spacesAndZeros), frameCount: 1))
    }
}
