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
        case .ok:
            if let end = walk.unreadValueEnd { return .need(end, fallback: Hit(.rw2, .family)) }
            return .hit(Hit(walk.make("LEICA") ? .rwl : .rw2))
        }
    }
}

/// A few offsets kept inline (no allocation): IFDs visited, SubIFDs to visit.
struct InlineOffsets {
    private var slots: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
        = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var count = 0
    static let capacity = 16

    var isFull: Bool { count == InlineOffsets.capacity }

    mutating func append(_ value: Int) {
        guard count < InlineOffsets.capacity else { return }
        withUnsafeMutableBytes(of: &slots) { $0.storeBytes(of: value, toByteOffset: count * MemoryLayout<Int>.stride, as: Int.self) }
        count += 1
    }

    subscript(i: Int) -> Int {
        withUnsafeBytes(of: slots) { $0.load(fromByteOffset: i * MemoryLayout<Int>.stride, as: Int.self) }
    }

    func contains(_ value: Int) -> Bool {
        for i in 0..<count where self[i] == value { return true }
        return false
    }
}

/// What the walk gathered from the IFDs it visited. String values are ranges into the bytes.
struct TIFFTags {
    var make: Range<Int> = 0..<0
    var model: Range<Int> = 0..<0
    var software: Range<Int> = 0..<0
    var ifd0Compression: UInt32 = 0
    /// Compression codes seen in any IFD that only raw sensor data uses (see `rawCompressionBit`).
    var rawCompressions: UInt32 = 0
    var hasCFAPhotometric = false  // PhotometricInterpretation 32803 (CFA) or 34892 (LinearRaw)
    var hasDNGVersion = false
    var hasSonyPrivate = false  // 0xC634 (SR2Private / DNGPrivateData)
    var hasSonyRawFileType = false  // 0x7000
    var hasLeafData = false  // 0x8606
    var hasKodakIFD = false  // 0x8290
    var hasCFAPattern = false
    var subIFDs = InlineOffsets()

    func hasRawCompression(_ code: UInt32) -> Bool {
        guard let bit = RawWalk.rawCompressionBit(code) else { return false }
        return rawCompressions & bit != 0
    }
}

struct RawWalk {
    let view: ByteView
    let bigEndian: Bool
    var tags = TIFFTags()
    var visited = InlineOffsets()
    /// The end of a value the decision reads (Make, Model, Software) that lies past the bytes
    /// in view: no vendor is decided on bytes not yet read.
    var unreadValueEnd: Int?

    init(view: ByteView, bigEndian: Bool) {
        self.view = view
        self.bigEndian = bigEndian
    }

    enum IFDRead { case ok, bad, needs(Int) }

    /// Reads one IFD's entries into `tags`. Bounded: at most `Limits.maxWalkSteps` entries, at
    /// most 16 IFDs, and an IFD is never read twice.
    mutating func readIFD(_ offset: Int) -> IFDRead {
        guard offset >= 8, !visited.contains(offset), !visited.isFull else { return .bad }
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
            // Make, Model and Software describe the file: IFD0's, not a SubIFD's.
            case 0x010F where visited.count == 1: tags.make = string(entry: e, type: type, count: n)
            case 0x0110 where visited.count == 1: tags.model = string(entry: e, type: type, count: n)
            case 0x0131 where visited.count == 1: tags.software = string(entry: e, type: type, count: n)
            case 0x0103:
                let value = scalar(entry: e, type: type)
                if visited.count == 1 { tags.ifd0Compression = value }
                if let bit = RawWalk.rawCompressionBit(value) { tags.rawCompressions |= bit }
            case 0x0106:
                let value = scalar(entry: e, type: type)
                if value == 32803 || value == 34892 { tags.hasCFAPhotometric = true }
            case 0xC612 where visited.count == 1: tags.hasDNGVersion = true  // an IFD0 tag (DNG 1.x, "IFD 0")
            case 0xC634: tags.hasSonyPrivate = true
            case 0x7000: tags.hasSonyRawFileType = true
            case 0x8606: tags.hasLeafData = true
            case 0x8290: tags.hasKodakIFD = true
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

    /// Where an ASCII value lies (inline when it fits in four bytes), cut at the first NUL, at
    /// most 64 bytes; empty when it is not in the bytes.
    private mutating func string(entry e: Int, type: UInt16, count: UInt32) -> Range<Int> {
        guard type == 2 || type == 7 || type == 1, count > 0 else { return 0..<0 }
        let n = min(Int(count), 64)
        let at: Int
        if count <= 4 { at = e + 8 } else if let o = view.u32(e + 8, bigEndian: bigEndian) { at = Int(o) } else { return 0..<0 }
        guard view.has(at, n) else {
            unreadValueEnd = max(unreadValueEnd ?? 0, at + n)
            return 0..<0
        }
        var length = 0
        while length < n && view.base[at + length] != 0 { length += 1 }
        return at..<(at + length)
    }

    /// Decides the TIFF-based type from IFD0 and what it points to.
    mutating func classify(ifd0: Int) -> Step {
        switch readIFD(ifd0) {
        case .needs(let n): return .need(n, fallback: Hit(.tiff, .family))
        case .bad: return .hit(Hit(.tiff, .family))
        case .ok: break
        }
        if tags.hasDNGVersion { return .hit(Hit(.dng)) }
        if let end = unreadValueEnd { return .need(end, fallback: Hit(.tiff, .family)) }
        let fromIFD0 = decide()
        if fromIFD0.confidence != .family || tags.subIFDs.count == 0 { return .hit(fromIFD0) }
        // IFD0 leaves it open: the SubIFDs hold the raw data's compression and photometric.
        var pending: Int?
        let subIFDs = tags.subIFDs
        for i in 0..<min(subIFDs.count, 8) {
            if case .needs(let n) = readIFD(subIFDs[i]) { pending = max(pending ?? 0, n) }
        }
        if let end = unreadValueEnd { pending = max(pending ?? 0, end) }
        let decided = decide()
        if let pending, decided.confidence == .family { return .need(pending, fallback: decided) }
        return .hit(decided)
    }

    /// Whether the Make starts with `prefix`, ignoring ASCII case.
    func make(_ prefix: StaticString) -> Bool { field(tags.make, startsWith: prefix) }

    /// Whether a string field starts with `s`, ignoring ASCII case ("FlexColor", "Flexcolor").
    private func field(_ range: Range<Int>, startsWith s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard range.count >= n else { return false }
        for i in 0..<n where view.base[range.lowerBound + i] | 0x20 != s.utf8Start[i] | 0x20 { return false }
        return true
    }

    /// Raw evidence that does not depend on the Make string.
    private var rawStructure: Bool {
        tags.rawCompressions != 0 || tags.hasCFAPhotometric || tags.hasCFAPattern
    }

    /// Compression codes that only raw sensor data uses (FORMATS.md 3.4; ExifTool's Exif
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

    private func decide() -> Hit {
        let structural = rawStructure
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
        } else if !structural && !isCameraMaker {
            return Hit(.tiff)
        }
        // A camera maker's TIFF (or raw evidence from an unknown maker) whose kind the bytes
        // cannot settle: the family node, for a hint to decide.
        return Hit(.tiff, .family)
    }

    /// Makers whose TIFF output may be raw data: their TIFFs without raw evidence stay at the
    /// family node. (The vendors decided above are already handled; these are the rest.)
    private var isCameraMaker: Bool {
        make("CANON") || make("LEICA") || make("PANASONIC") || make("OLYMPUS") || make("OM DIGITAL")
            || make("FUJIFILM") || make("MINOLTA") || make("KONICA") || make("SIGMA")
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
