// TIFF and BigTIFF, and the bounded IFD walk whose findings tell TIFF-based camera RAW apart
// (the vendor rules themselves are in CameraRaw.swift).

enum TIFF: FormatFamily {
    static let rules = [
        Rule("TIFF", .firstByte([0x49, 0x4D]), produces: [.tiff] + CameraRaw.tiffBased, check: detect),
    ]

    /// `II*\0` or `MM\0*` with IFD0's offset, or BigTIFF (`II+\0`, offset size 8); then the camera
    /// RAW markers of the header and a walk of IFD0 (and its SubIFDs).
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
        if ident == 43 {
            // BigTIFF: byte size of offsets 8, then zero.
            guard let size = v.u16(4, bigEndian: big), let zero = v.u16(6, bigEndian: big) else {
                return .need(8, fallback: nil)
            }
            guard size == 8 && zero == 0 else { return .no }
            // IFD0 is walked as a classic TIFF's is: a BigTIFF DNG (DNG 1.7 allows BigTIFF) or
            // camera RAW says so there, and a TIFF whose IFDs were not read is not proven plain
            // (the family node, which a hint may refine).
            guard let ifd0 = v.u64(8, bigEndian: big) else { return .need(16, fallback: Hit(.tiff, .family)) }
            guard ifd0 >= 16, ifd0 < UInt64(Int32.max) else { return .hit(Hit(.tiff, .family)) }
            var walk = IFDWalk(view: v, layout: TIFFLayout(bigEndian: big, bigTIFF: true, base: 0))
            return CameraRaw.classify(&walk, ifd0: Int(ifd0))
        }
        guard ident == 42 else { return .no }
        guard let ifd0 = v.u32(4, bigEndian: big) else { return .need(8, fallback: nil) }
        guard ifd0 >= 8 else { return .no }
        // The header markers lie within the first 32 bytes: see them all before deciding.
        if v.count < 32 && input.hasMore { return .need(32, fallback: Hit(.tiff, .family)) }
        // DICOM's 128-byte preamble may hold a TIFF header (PS3.10). When `DICM` follows it and
        // IFD0 lies past the end of the data, the TIFF is only the preamble: not this format.
        if v.count < 132 && input.hasMore { return .need(132, fallback: Hit(.tiff, .family)) }
        if v.matches("DICM", at: 128) && Int(ifd0) >= input.totalLength { return .no }
        if let marked = CameraRaw.headerMarker(v, bigEndian: big) { return .hit(marked) }
        var walk = IFDWalk(view: v, layout: TIFFLayout(bigEndian: big, bigTIFF: false, base: 0))
        return CameraRaw.classify(&walk, ifd0: Int(ifd0))
    }
}

/// A few offsets kept inline (no allocation): IFDs visited, SubIFDs to visit.
struct InlineOffsets {
    private var slots: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
        = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
    private(set) var count = 0
    /// The tuple's slots (`Budget.tiffIFDs` is this many).
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

}

/// A bounded walk over TIFF IFDs that gathers the tags camera RAW is told apart by. String
/// values are kept as ranges into the bytes.
struct IFDWalk {
    let view: ByteView
    let layout: TIFFLayout
    var tags = TIFFTags()
    var visited = InlineOffsets()
    /// A value the decision reads (Make, Model, Software, SubIFD offsets) that lies past the bytes
    /// held: no vendor is decided on bytes not yet read. (The first such, by offset: far reads go
    /// forward.)
    var unreadValue: Range<Int>?

    mutating func want(_ range: Range<Int>) {
        if let known = unreadValue, known.lowerBound <= range.lowerBound { return }
        unreadValue = range
    }

    init(view: ByteView, layout: TIFFLayout) {
        self.view = view
        self.layout = layout
    }

    enum IFDRead { case ok, bad, needs(Range<Int>) }

    /// Reads one IFD's entries into `tags`. Bounded: at most `Budget.ifdEntries` entries, at
    /// most `Budget.tiffIFDs` IFDs, and an IFD is never read twice.
    mutating func readIFD(_ offset: Int) -> IFDRead {
        guard offset >= 8, !visited.contains(offset), !visited.isFull else { return .bad }
        let ifd: IFD
        switch IFD.read(view, at: offset, layout) {
        case .ok(let read): ifd = read
        case .needs(let range): return .needs(range)
        case .bad: return .bad
        }
        visited.append(offset)
        let first = visited.count == 1
        for i in 0..<ifd.count {
            guard let e = ifd.entry(view, i) else { return .bad }
            switch e.tag {
            // Make, Model and Software describe the file: IFD0's, not a SubIFD's.
            case 0x010F where first: tags.make = string(e)
            case 0x0110 where first: tags.model = string(e)
            case 0x0131 where first: tags.software = string(e)
            case 0x0103:
                let value = UInt32(truncatingIfNeeded: e.inlineScalar(view, layout) ?? 0)
                if first { tags.ifd0Compression = value }
                if let bit = CameraRaw.rawCompressionBit(value) { tags.rawCompressions |= bit }
            case 0x0106:
                let value = e.inlineScalar(view, layout) ?? 0
                if value == 32803 || value == 34892 { tags.hasCFAPhotometric = true }
            case 0xC612 where first: tags.hasDNGVersion = true  // an IFD0 tag (DNG 1.x, "IFD 0")
            case 0xC634: tags.hasSonyPrivate = true
            case 0x7000: tags.hasSonyRawFileType = true
            case 0x8606: tags.hasLeafData = true
            case 0x8290: tags.hasKodakIFD = true
            case 0x828E: tags.hasCFAPattern = true
            case 0x014A:
                // SubIFDs: one offset inline, or several at an offset.
                if e.count == 1 {
                    tags.subIFDs.append(view.u32(e.field, bigEndian: layout.bigEndian).map { Int($0) + layout.base } ?? 0)
                } else if e.count > 1, e.count <= Budget.tiffIFDs {
                    // The offsets are read only when all of them are in view: no decision on some.
                    guard view.has(e.valueAt, e.byteCount) else {
                        want(e.valueAt..<(e.valueAt + e.byteCount))
                        break
                    }
                    for k in 0..<e.count {
                        if let sub = e.integer(view, layout, at: k) { tags.subIFDs.append(sub + layout.base) }
                    }
                }
            default: break
            }
        }
        return .ok
    }

    /// Where an ASCII value lies, cut at the first NUL, at most `Budget.tiffString` bytes; empty
    /// when it is not in the bytes.
    private mutating func string(_ e: IFDEntry) -> Range<Int> {
        guard e.type == 2 || e.type == 7 || e.type == 1, e.count > 0 else { return 0..<0 }
        let n = min(e.count, Budget.tiffString)
        guard view.has(e.valueAt, n) else {
            want(e.valueAt..<(e.valueAt + n))
            return 0..<0
        }
        var length = 0
        while length < n && view.u8(e.valueAt + length) != 0 { length += 1 }
        return e.valueAt..<(e.valueAt + length)
    }

    /// Whether a string field starts with `s`, ignoring ASCII case ("FlexColor", "Flexcolor").
    func field(_ range: Range<Int>, startsWith s: StaticString) -> Bool {
        let n = s.utf8CodeUnitCount
        guard range.count >= n else { return false }
        for i in 0..<n where (view.u8(range.lowerBound + i) ?? 0) | 0x20 != s.utf8Start[i] | 0x20 { return false }
        return true
    }

    /// Whether the Make starts with `prefix`, ignoring ASCII case.
    func make(_ prefix: StaticString) -> Bool { field(tags.make, startsWith: prefix) }
}
