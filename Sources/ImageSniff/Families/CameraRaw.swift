// Camera RAW: the formats with a magic of their own (Canon CRW's CIFF heap, Olympus ORF,
// Panasonic RW2/RWL/RAW, Phase One IIQ, Fujifilm RAF, Sigma X3F, Minolta MRW, Rawzor RWZ) and
// the vendor rules that tell the TIFF-based ones apart (DNG, CR2, NEF/NRW, ARW/SR2/SRF, PEF, SRW,
// 3FR/FFF, ERF, DCR/KDC, MOS, MEF, IIQ) from what TIFF.swift's IFD walk gathered.

enum CameraRaw: FormatFamily {
    static let rules = [
        Rule("Canon CRW (CIFF)", .firstByte([0x49]), produces: [.crw], check: crw),
        Rule("Olympus ORF", .firstByte([0x49, 0x4D]), produces: [.orf], check: orf),
        Rule("Panasonic RW2, RWL, RAW; Leica RAW", .firstByte([0x49]), produces: [.rw2, .rwl, .panasonicRaw, .leicaRaw], check: panasonic),
        Rule("Phase One IIQ", .firstByte([0x49, 0x4D]), produces: [.iiq], check: phaseOne),
        Rule("Fujifilm RAF", .firstByte([0x46]), produces: [.raf], check: raf),
        Rule("Sigma X3F", .firstByte([0x46]), produces: [.x3f], check: x3f),
        Rule("Minolta MRW", .firstByte([0x00]), produces: [.mrw], check: mrw),
        Rule("Rawzor RWZ", .firstByte([0x72]), produces: [.rwz], check: rwz),
    ]

    /// The RAW types the TIFF rule can answer (a TIFF header and a walk of IFD0).
    static let tiffBased: [ImageType] = [.dng, .dxoRaw, .cr2, .nef, .nrw, .arw, .sr2, .srf, .pef, .srw, .threeFR, .fff,
                                         .erf, .kodakRaw, .mos, .mef, .iiq]

    // MARK: Own magic

    /// `II 1A 00 00 00 "HEAPCCDR"` (or `"HEAPJPGM"`): the CIFF heap of Canon's first RAW.
    static func crw(_ input: Input) -> Step {
        let v = input.view
        return v.matches("II\u{1A}\0\0\0HEAPCCDR") || v.matches("II\u{1A}\0\0\0HEAPJPGM") ? .hit(Hit(.crw)) : .no
    }

    /// `IIRO`, `IIRS` or `MMOR`: a TIFF header with Olympus's own identifier.
    static func orf(_ input: Input) -> Step {
        let v = input.view
        return v.matches("IIRO") || v.matches("IIRS") || v.matches("MMOR") ? .hit(Hit(.orf)) : .no
    }

    /// `IIU\0`: RW2 and RWL carry `88 E7 74 D8` at 8; older files (`.raw`) do not. Either way a
    /// Make of Leica makes it Leica's (RWL, or Leica's `.raw` from Panasonic-built cameras).
    static func panasonic(_ input: Input) -> Step {
        let v = input.view
        guard v.matches("IIU\0") else { return .no }
        guard v.has(8, 4) else { return .need(12, fallback: Hit(.rw2, .family)) }
        let modern = v.u32be(8) == 0x88E7_74D8
        let (panasonic, leica): (ImageType, ImageType) = modern ? (.rw2, .rwl) : (.panasonicRaw, .leicaRaw)
        guard let ifd0 = v.u32le(4) else { return .hit(Hit(panasonic)) }
        var walk = IFDWalk(view: v, layout: TIFFLayout(bigEndian: false, bigTIFF: false, base: 0))
        switch walk.readIFD(Int(ifd0)) {
        case .needs(let r): return .needRange(r, fallback: Hit(.rw2, .family))
        case .bad: return .hit(Hit(panasonic))
        case .ok:
            if let r = walk.unreadValue { return .needRange(r, fallback: Hit(.rw2, .family)) }
            return .hit(Hit(walk.make("LEICA") ? leica : panasonic))
        }
    }

    /// Phase One: an `IIII` or `MMMM` block header at 0.
    static func phaseOne(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("IIII") || v.matchesAvailablePrefix("MMMM") else { return .no }
        guard v.count >= 8 else { return .need(8, fallback: nil) }
        return phaseOneBlock(v, at: 0) ? .hit(Hit(.iiq)) : .no
    }

    /// A Phase One block header at `o`: `IIII` or `MMMM`, then the `Raw` tag in the next four
    /// bytes read in that byte order (`?waR` little-endian, `Raw?` big-endian), or the `01 00 00 00`
    /// form. `IIII` alone is common (Canon's DPP recipes start `IIII 04 00 04 00`).
    static func phaseOneBlock(_ v: ByteView, at o: Int) -> Bool {
        if v.matches("IIII", at: o) {
            return v.matches("waR", at: o + 5) || v.equals(0x0100_0000, length: 4, at: o + 4)
        }
        if v.matches("MMMM", at: o) {
            return v.matches("Raw", at: o + 4) || v.equals(0x0000_0001, length: 4, at: o + 4)
        }
        return false
    }

    static func raf(_ input: Input) -> Step {
        input.view.signature("FUJIFILMCCD-RAW") ?? .hit(Hit(.raf))
    }

    static func x3f(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("FOVb") { return early }
        // Version (LE u32, 2.x/3.x/4.x) follows.
        guard let version = v.u32le(4) else { return .need(8, fallback: Hit(.x3f)) }
        return version >> 16 >= 1 && version >> 16 <= 5 ? .hit(Hit(.x3f)) : .no
    }

    /// Minolta MRW: `\0MRM` (big-endian blocks), or the rare `\0MRI` (little-endian), which is
    /// taken only with a known first block (`\0PRD`, `\0TTW`, `\0WBG`, `\0RIF`) at 8.
    static func mrw(_ input: Input) -> Step {
        let v = input.view
        guard v.signature("\0MRM") != nil else { return .hit(Hit(.mrw)) }
        if let step = v.signature("\0MRI") { return step }
        guard v.has(8, 4) else { return input.hasMore ? .need(12, fallback: nil) : .no }
        let known = v.matches("\0PRD", at: 8) || v.matches("\0TTW", at: 8) || v.matches("\0WBG", at: 8) || v.matches("\0RIF", at: 8)
        return known ? .hit(Hit(.mrw)) : .no
    }

    static func rwz(_ input: Input) -> Step {
        input.view.signature("rawzor") ?? .hit(Hit(.rwz))
    }

    // MARK: TIFF-based

    /// Markers in a standard TIFF header: CR2's `"CR" 02` at 8 (IFD0 at 16), and a Phase One
    /// block within the first 32 bytes.
    static func headerMarker(_ v: ByteView, bigEndian: Bool) -> Hit? {
        if !bigEndian, v.matches("CR", at: 8), v.u8(10) == 2 { return Hit(.cr2) }
        for marker: StaticString in ["IIII", "MMMM"] {
            if let at = v.find(marker, in: 8..<32), phaseOneBlock(v, at: at) { return Hit(.iiq) }
        }
        return nil
    }

    /// Decides the TIFF-based type from IFD0 and what it points to.
    static func classify(_ walk: inout IFDWalk, ifd0: Int) -> Step {
        switch walk.readIFD(ifd0) {
        case .needs(let r): return .needRange(r, fallback: Hit(.tiff, .family))
        case .bad: return .hit(Hit(.tiff, .family))
        case .ok: break
        }
        if walk.tags.hasDNGVersion {
            // DxO ONE files are DNGs made by DxO; ImageIO names them apart.
            if let r = walk.unreadValue { return .needRange(r, fallback: Hit(.dng)) }
            return .hit(Hit(walk.make("DXO") ? .dxoRaw : .dng))
        }
        if let r = walk.unreadValue { return .needRange(r, fallback: Hit(.tiff, .family)) }
        let fromIFD0 = decide(walk)
        if fromIFD0.confidence != .family || walk.tags.subIFDs.count == 0 { return .hit(fromIFD0) }
        // IFD0 leaves it open: the SubIFDs hold the raw data's compression and photometric.
        let subIFDs = walk.tags.subIFDs
        for i in 0..<min(subIFDs.count, Budget.tiffSubIFDs) {
            if case .needs(let r) = walk.readIFD(subIFDs[i]) { walk.want(r) }
        }
        let decided = decide(walk)
        if let pending = walk.unreadValue, decided.confidence == .family { return .needRange(pending, fallback: decided) }
        return .hit(decided)
    }

    /// Raw evidence that does not depend on the Make string.
    private static func rawStructure(_ tags: TIFFTags) -> Bool {
        tags.rawCompressions != 0 || tags.hasCFAPhotometric || tags.hasCFAPattern
    }

    /// Compression codes that only raw sensor data uses (the FormatReference article; ExifTool's Exif
    /// compression table), each as a flag: Sony ARW, packed raw, Samsung SRW (two), Kodak KDC,
    /// Nikon NEF, Kodak DCR, Pentax PEF, lossy DNG.
    static func rawCompressionBit(_ code: UInt32) -> UInt32? {
        switch code {
        case 32767: return 1 << 0
        case 32769: return 1 << 1
        case 32770: return 1 << 2
        case 32772: return 1 << 3
        case 32867: return 1 << 4
        case 34713: return 1 << 5
        case 65000: return 1 << 6
        case 65535: return 1 << 7
        case 34892: return 1 << 8
        default: return nil
        }
    }

    private static func decide(_ walk: IFDWalk) -> Hit {
        let tags = walk.tags
        let structural = rawStructure(tags)
        func make(_ prefix: StaticString) -> Bool { walk.make(prefix) }
        func field(_ range: Range<Int>, startsWith s: StaticString) -> Bool { walk.field(range, startsWith: s) }
        if make("NIKON") {
            if structural { return Hit(tags.ifd0Compression == 6 ? .nrw : .nef) }
        } else if make("SONY") {
            if tags.hasSonyRawFileType || tags.hasSonyPrivate || structural {
                if field(tags.model, startsWith: "DSC-R1") { return Hit(.sr2) }
                if field(tags.model, startsWith: "DSC-F828") { return Hit(.srf) }
                return Hit(.arw)
            }
        } else if make("PENTAX") || make("ASAHI") || make("RICOH") {
            if structural { return Hit(.pef) }
        } else if make("SAMSUNG") {
            if structural { return Hit(.srw) }
        } else if make("HASSELBLAD") || make("IMACON") {
            if structural {
                let flexcolor = field(tags.software, startsWith: "Flexcolor") || make("IMACON")
                return Hit(flexcolor ? .fff : .threeFR)
            }
        } else if make("SEIKO EPSON") {
            if structural { return Hit(.erf) }
        } else if make("KODAK") || make("EASTMAN KODAK") {
            if tags.hasKodakIFD || structural { return Hit(.kodakRaw) }
        } else if make("LEAF") {
            if tags.hasLeafData || structural { return Hit(.mos) }
        } else if make("MAMIYA") {
            if structural { return Hit(.mef) }
        } else if make("PHASE ONE") {
            if structural { return Hit(.iiq) }
        } else if tags.make.isEmpty && !structural {
            return Hit(.tiff)
        } else if !structural && !isCameraMaker(walk) {
            return Hit(.tiff)
        }
        // A camera maker's TIFF (or raw evidence from an unknown maker) whose kind the bytes
        // cannot settle: the family node, for a hint to decide.
        return Hit(.tiff, .family)
    }

    /// Makers whose TIFF output may be raw data: their TIFFs without raw evidence stay at the
    /// family node. (The vendors decided above are already handled; these are the rest.)
    private static func isCameraMaker(_ walk: IFDWalk) -> Bool {
        let make = walk.make
        return make("CANON") || make("LEICA") || make("PANASONIC") || make("OLYMPUS") || make("OM DIGITAL")
            || make("FUJIFILM") || make("MINOLTA") || make("KONICA") || make("SIGMA")
    }
}

// MARK: - Whole-file check

extension CameraRaw {
    /// Whole: a Canon CRW's heap (`crwStep`); the parts a Fujifilm RAF header places (big-endian
    /// offset and length pairs at 84: the JPEG preview, the CFA header, the CFA data) end within
    /// the data.
    static let verifiers = [
        Verifier([.crw]) { input, _, _ in crwStep(input) },
        Verifier([.raf]) { input, _, _ in
            let v = input.view
            guard v.has(0, 108) else { return .needRange(0..<108) }  // the header: past the end, truncated
            var end = 0
            for field in [84, 92, 100] {
                guard let offset = v.u32be(field), let length = v.u32be(field + 4) else { return .unknown }
                if offset > 0 && length > 0 { end = max(end, Int(offset) + Int(length)) }
            }
            guard end > 0 else { return .unknown }
            return end <= input.totalLength ? .complete : .truncated
        },
    ]

    /// CRW: the root heap runs from the header's end to the end of the file, and its last 4
    /// bytes place its table of records (a count, then 10 bytes a record: tag, size, offset),
    /// which follows the records' data and ends where those 4 bytes begin. Whole when the table
    /// is there, and each record kept in the heap lies before it: a cut file's last 4 bytes are
    /// image data, or a field of the table, which place no such table.
    static func crwStep(_ input: Input) -> VerifyStep {
        let v = input.view, length = input.totalLength
        guard let heap = v.u32le(2).map(Int.init), heap >= 14, length >= heap + 6 else { return .truncated }
        let last = (length - 4)..<length
        guard v.has(last) else { return .needRange(last) }
        let table = heap + Int(v.u32le(last.lowerBound)!)
        guard table + 2 <= last.lowerBound else { return .truncated }
        guard v.has(table, 2) else { return .needRange(table..<(table + 2)) }
        let records = table + 2..<(table + 2 + 10 * Int(v.u16le(table)!))
        guard records.upperBound == last.lowerBound else { return .truncated }
        guard v.has(records) else { return .needRange(records) }
        for at in stride(from: records.lowerBound, to: records.upperBound, by: 10) {
            // Bits 14-15 of the tag: 0 keeps the record's data in the heap (1: in the record).
            guard v.u16le(at)! >> 14 == 0 else { continue }
            if Int(v.u32le(at + 6)!) + Int(v.u32le(at + 2)!) > table - heap { return .truncated }
        }
        return .complete
    }
}
