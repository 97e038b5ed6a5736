// TIFF, BigTIFF and the TIFF-shaped formats: camera RAW with their own header identifiers
// (ORF, RW2/RWL/RAW, CRW's CIFF, CR2's marker, IIQ), JPEG XR, and the TIFF-based RAW told apart
// by a bounded walk of IFD0, its SubIFDs and the Exif IFD (FORMATS.md 3.4).

enum TIFF {
    static func detect(_ input: Input) -> Step {
        let v = input.view
        guard v.count >= 4 else {
            let maybe = v.matchesAvailablePrefix("II") || v.matchesAvailablePrefix("MM")
            return maybe ? .need(4, fallback: nil) : .no
        }
        let b0 = v.base[0], b1 = v.base[1]
        guard b0 == b1, b0 == 0x49 || b0 == 0x4D else { return .no }
        let big = b0 == 0x4D
        guard let ident = v.u16(2, bigEndian: big) else { return .no }

        // Headers that are not TIFF's 42.
        if !big {
            if v.matches("II\u{1A}\0\0\0HEAPCCDR") || v.matches("II\u{1A}\0\0\0HEAPJPGM") { return .hit(Hit(.crw)) }
            if v.matches("IIRO") || v.matches("IIRS") { return .hit(Hit(.orf)) }
            if v.matches("IIU\0") { return panasonic(input) }
            if v.equals(0x4949_BC01, length: 4) || v.equals(0x4949_BC00, length: 4) {
                guard let ifd = v.u32le(4) else { return .need(8, fallback: nil) }
                return ifd >= 8 && ifd & 1 == 0 ? .hit(Hit(.jpegXR)) : .no
            }
        } else if v.matches("MMOR") {
            return .hit(Hit(.orf))
        }
        if v.matches("IIII") || v.matches("MMMM") { return .hit(Hit(.iiq)) }
        if ident == 43 {
            // BigTIFF: byte size of offsets 8, then zero.
            guard let size = v.u16(4, bigEndian: big), let zero = v.u16(6, bigEndian: big) else {
                return .need(8, fallback: nil)
            }
            return size == 8 && zero == 0 ? .hit(Hit(.tiff)) : .no
        }
        guard ident == 42 else { return .no }
        guard let ifd0 = v.u32(4, bigEndian: big) else { return .need(8, fallback: nil) }
        guard ifd0 >= 8 else { return .no }
        if !big, v.matches("CR", at: 8), v.u8(10) == 2 { return .hit(Hit(.cr2)) }
        if v.find("IIII", in: 8..<32) != nil || v.find("MMMM", in: 8..<32) != nil { return .hit(Hit(.iiq)) }
        var walk = RawWalk(view: v, bigEndian: big)
        return walk.classify(ifd0: Int(ifd0))
    }

    /// `IIU\0`: RW2 and RWL carry `88 E7 74 D8` at 8 (RWL if the Make is Leica); older files are `.raw`.
    private static func panasonic(_ input: Input) -> Step {
        let v = input.view
        guard v.has(8, 4) else { return .need(12, fallback: Hit(.rw2, .family)) }
        guard v.u32be(8) == 0x88E7_74D8 else { return .hit(Hit(.panasonicRaw)) }
        guard let ifd0 = v.u32le(4) else { return .hit(Hit(.rw2)) }
        var walk = RawWalk(view: v, bigEndian: false)
        switch walk.readIFD(Int(ifd0)) {
        case .needs(let n): return .need(n, fallback: Hit(.rw2, .family))
        case .bad: return .hit(Hit(.rw2))
        case .ok: return .hit(Hit(walk.makeStarts("LEICA") ? .rwl : .rw2))
        }
    }
}

/// What the walk gathered from the IFDs it visited.
struct TIFFTags {
    var make: [UInt8] = []
    var model: [UInt8] = []
    var software: [UInt8] = []
    var ifd0Compression: UInt32 = 0
    var compressions: [UInt32] = []
    var photometrics: [UInt32] = []
    var hasDNGVersion = false
    var hasSonyPrivate = false  // 0xC634 (SR2Private / DNGPrivateData) with a Sony Make, or 0x7000
    var hasSonyRawFileType = false
    var hasLeafData = false  // 0x8606
    var hasKodakIFD = false  // 0x8290
    var hasMakerNote = false
    var hasCFAPattern = false
    var subIFDs: [Int] = []
    var exifIFD: Int?
}

struct RawWalk {
    let view: ByteView
    let bigEndian: Bool
    var tags = TIFFTags()
    var visited: [Int] = []

    init(view: ByteView, bigEndian: Bool) {
        self.view = view
        self.bigEndian = bigEndian
    }

    enum IFDRead { case ok, bad, needs(Int) }

    /// Reads one IFD's entries into `tags`. Bounded: at most `Limits.maxWalkSteps` entries, and an
    /// IFD is never read twice.
    mutating func readIFD(_ offset: Int) -> IFDRead {
        guard offset >= 8, !visited.contains(offset), visited.count < 16 else { return .bad }
        guard let count = view.u16(offset, bigEndian: bigEndian) else { return .needs(offset + 2) }
        guard count > 0, Int(count) <= Limits.maxWalkSteps else { return .bad }
        let end = offset + 2 + Int(count) * 12
        guard view.has(offset, end - offset) else { return .needs(end) }
        visited.append(offset)
        for i in 0..<Int(count) {
            let e = offset + 2 + i * 12
            guard let tag = view.u16(e, bigEndian: bigEndian), let type = view.u16(e + 2, bigEndian: bigEndian),
                  let n = view.u32(e + 4, bigEndian: bigEndian) else { return .bad }
            switch tag {
            case 0x010F: tags.make = string(entry: e, type: type, count: n)
            case 0x0110: tags.model = string(entry: e, type: type, count: n)
            case 0x0131: tags.software = string(entry: e, type: type, count: n)
            case 0x0103:
                let value = scalar(entry: e, type: type)
                if visited.count == 1 { tags.ifd0Compression = value }
                tags.compressions.append(value)
            case 0x0106: tags.photometrics.append(scalar(entry: e, type: type))
            case 0xC612: tags.hasDNGVersion = true
            case 0xC634: tags.hasSonyPrivate = true
            case 0x7000: tags.hasSonyRawFileType = true
            case 0x8606: tags.hasLeafData = true
            case 0x8290: tags.hasKodakIFD = true
            case 0x927C: tags.hasMakerNote = true
            case 0x828E: tags.hasCFAPattern = true
            case 0x014A:
                // SubIFDs: one offset inline, or several at an offset.
                if n == 1 {
                    tags.subIFDs.append(Int(scalar(entry: e, type: 4)))
                } else if n > 1, n <= 16, let at = view.u32(e + 8, bigEndian: bigEndian) {
                    for k in 0..<Int(n) {
                        if let sub = view.u32(Int(at) + 4 * k, bigEndian: bigEndian) { tags.subIFDs.append(Int(sub)) }
                    }
                }
            case 0x8769: tags.exifIFD = Int(scalar(entry: e, type: 4))
            default: break
            }
        }
        return .ok
    }

    /// A SHORT or LONG value stored in the entry.
    private func scalar(entry e: Int, type: UInt16) -> UInt32 {
        if type == 3 { return UInt32(view.u16(e + 8, bigEndian: bigEndian) ?? 0) }
        return view.u32(e + 8, bigEndian: bigEndian) ?? 0
    }

    /// An ASCII value (inline when it fits in four bytes), cut at the first NUL, at most 64 bytes.
    private func string(entry e: Int, type: UInt16, count: UInt32) -> [UInt8] {
        guard type == 2 || type == 7 || type == 1, count > 0 else { return [] }
        let n = min(Int(count), 64)
        let at: Int
        if count <= 4 { at = e + 8 } else if let o = view.u32(e + 8, bigEndian: bigEndian) { at = Int(o) } else { return [] }
        guard view.has(at, n) else { return [] }
        var out: [UInt8] = []
        out.reserveCapacity(n)
        for i in 0..<n {
            let b = view.base[at + i]
            if b == 0 { break }
            out.append(b)
        }
        return out
    }

    /// Decides the TIFF-based type from IFD0 and what it points to.
    mutating func classify(ifd0: Int) -> Step {
        switch readIFD(ifd0) {
        case .needs(let n): return .need(n, fallback: Hit(.tiff, .family))
        case .bad: return .hit(Hit(.tiff, .family))
        case .ok: break
        }
        if tags.hasDNGVersion { return .hit(Hit(.dng)) }
        // SubIFDs and the Exif IFD hold the raw data's compression and the maker note.
        var pending: Int?
        for sub in tags.subIFDs.prefix(8) + (tags.exifIFD.map { [$0] } ?? []) {
            if case .needs(let n) = readIFD(sub) { pending = max(pending ?? 0, n) }
        }
        if tags.hasDNGVersion { return .hit(Hit(.dng)) }
        let decided = decide()
        if let pending, decided.confidence == .family { return .need(pending, fallback: decided) }
        return .hit(decided)
    }

    func makeStarts(_ prefixes: StaticString...) -> Bool {
        for p in prefixes {
            let n = p.utf8CodeUnitCount
            if tags.make.count >= n {
                var same = true
                for i in 0..<n {
                    var a = tags.make[i], b = p.utf8Start[i]
                    if a >= 0x61 && a <= 0x7A { a -= 0x20 }
                    if b >= 0x61 && b <= 0x7A { b -= 0x20 }
                    if a != b { same = false; break }
                }
                if same { return true }
            }
        }
        return false
    }

    /// Whether a string field starts with `s`, ignoring ASCII case ("FlexColor", "Flexcolor").
    private func field(_ bytes: [UInt8], startsWith s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard bytes.count >= n else { return false }
        for i in 0..<n where bytes[i] | 0x20 != s.utf8Start[i] | 0x20 { return false }
        return true
    }

    /// Raw evidence that does not depend on the Make string.
    private var rawStructure: Bool {
        tags.compressions.contains(where: RawWalk.isVendorRawCompression)
            || tags.photometrics.contains(32803) || tags.photometrics.contains(34892)
            || tags.hasCFAPattern
    }

    /// Compression codes that only raw sensor data uses (FORMATS.md 3.4; ExifTool's Exif
    /// compression table): Sony ARW, packed raw, Samsung SRW, Kodak KDC and DCR, Nikon NEF,
    /// Pentax PEF, lossy DNG.
    static func isVendorRawCompression(_ code: UInt32) -> Bool {
        switch code {
        case 32767, 32769, 32770, 32772, 32867, 34713, 65000, 65535, 34892: return true
        default: return false
        }
    }

    private func decide() -> Hit {
        let c = tags.compressions
        let structural = rawStructure
        if makeStarts("NIKON") {
            if structural { return Hit(tags.ifd0Compression == 6 ? .nrw : .nef) }
        } else if makeStarts("SONY") {
            if tags.hasSonyRawFileType || tags.hasSonyPrivate || c.contains(32767) || structural {
                if field(tags.model, startsWith: "DSC-R1") { return Hit(.sr2) }
                if field(tags.model, startsWith: "DSC-F828") { return Hit(.srf) }
                return Hit(.arw)
            }
        } else if makeStarts("PENTAX", "ASAHI", "RICOH") {
            if c.contains(65535) || structural { return Hit(.pef) }
        } else if makeStarts("SAMSUNG") {
            if c.contains(32770) || c.contains(32772) || structural { return Hit(.srw) }
        } else if makeStarts("HASSELBLAD", "IMACON") {
            if structural {
                let flexcolor = field(tags.software, startsWith: "Flexcolor") || makeStarts("IMACON")
                return Hit(flexcolor ? .fff : .threeFR)
            }
        } else if makeStarts("SEIKO EPSON") {
            if structural { return Hit(.erf) }
        } else if makeStarts("KODAK", "EASTMAN KODAK") {
            if c.contains(65000) || c.contains(32867) || tags.hasKodakIFD || structural { return Hit(.kodakRaw) }
        } else if makeStarts("LEAF") {
            if tags.hasLeafData || structural { return Hit(.mos) }
        } else if makeStarts("MAMIYA") {
            if structural { return Hit(.mef) }
        } else if makeStarts("PHASE ONE") {
            if structural { return Hit(.iiq) }
        } else if tags.make.isEmpty && !structural {
            return Hit(.tiff)
        } else if !structural && !isCameraMaker {
            return Hit(.tiff)
        }
        // A camera maker's TIFF (or raw evidence from an unknown maker) whose kind the bytes
        // cannot settle: the family node, for a hint to decide.
        return Hit(.tiff, .family)
    }

    /// Makers whose TIFF output may be raw data: their TIFFs without raw evidence stay at the family node.
    private var isCameraMaker: Bool {
        makeStarts("CANON", "NIKON", "SONY", "PENTAX", "ASAHI", "RICOH", "SAMSUNG", "HASSELBLAD", "IMACON",
                   "SEIKO EPSON", "KODAK", "EASTMAN KODAK", "LEAF", "MAMIYA", "PHASE ONE", "LEICA",
                   "PANASONIC", "OLYMPUS", "FUJIFILM", "MINOLTA", "KONICA")
    }
}

/// RAW formats with magic of their own.
enum RAW {
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

    static func rwz(_ input: Input) -> Step {
        input.view.signature("rawzor") ?? .hit(Hit(.rwz))
    }
}
