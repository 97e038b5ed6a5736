// TIFF-structured directories (TIFF and BigTIFF, Exif blocks, the MPF index, JPEG XR): one reader
// for every check and property reader that walks them.

/// The byte order and offset size of a TIFF structure whose header starts at `base` (offsets in it
/// count from there: 0 for a TIFF file, the `II*\0` of an Exif or MPF block elsewhere).
struct TIFFLayout: Equatable {
    let bigEndian: Bool
    /// 8-byte offsets and counts (BigTIFF, `II+\0`).
    let bigTIFF: Bool
    let base: Int

    var entrySize: Int { bigTIFF ? 20 : 12 }
    var countSize: Int { bigTIFF ? 8 : 2 }
    var offsetSize: Int { bigTIFF ? 8 : 4 }

    /// The layout of the header at `base` (`II*\0`, `MM\0*`, or BigTIFF's `II+\0 08 00 00 00`),
    /// and the offset of IFD0 (absolute); nil when it is no TIFF header (or not in view).
    /// With `anyIdentifier`, another identifier than 42 or 43 reads as classic TIFF: the camera
    /// RAW formats built on TIFF's structure that mark it otherwise (Panasonic's `IIU\0`,
    /// Olympus's `IIRO` and `MMOR`), once detection has named them.
    static func header(_ v: ByteView, at base: Int, anyIdentifier: Bool = false) -> (layout: TIFFLayout, ifd0: Int)? {
        guard let b0 = v.u8(base), let b1 = v.u8(base + 1), b0 == b1, b0 == 0x49 || b0 == 0x4D else { return nil }
        let big = b0 == 0x4D
        guard let ident = v.u16(base + 2, bigEndian: big) else { return nil }
        if ident == 42 || anyIdentifier && ident != 43 {
            let layout = TIFFLayout(bigEndian: big, bigTIFF: false, base: base)
            guard let ifd0 = layout.offset(v, base + 4) else { return nil }
            return (layout, ifd0)
        }
        guard ident == 43, v.u16(base + 4, bigEndian: big) == 8, v.u16(base + 6, bigEndian: big) == 0 else { return nil }
        let layout = TIFFLayout(bigEndian: big, bigTIFF: true, base: base)
        guard let ifd0 = layout.offset(v, base + 8) else { return nil }
        return (layout, ifd0)
    }

    /// An offset field at `o`, made absolute (`base` added, clamped so arithmetic cannot overflow).
    func offset(_ v: ByteView, _ o: Int) -> Int? {
        if bigTIFF { return v.u64(o, bigEndian: bigEndian).map { clampOffset($0) + base } }
        return v.u32(o, bigEndian: bigEndian).map { Int($0) + base }
    }
}

/// One directory entry: its tag, field type, value count and where its value lies (inline in the
/// entry when it fits, else at the offset the entry gives).
struct IFDEntry {
    /// Where the entry's value field is (its inline value, or its offset).
    let field: Int
    let tag: UInt16
    let type: UInt16
    /// The number of values (clamped to 2^20).
    let count: Int
    /// Where the value (or its first element) starts: inside the entry, or at its offset.
    let valueAt: Int
    /// Whether the value is inline in the entry.
    let inline: Bool

    /// Bytes per value of the field type (0 for types this reader does not know).
    static func size(ofType type: UInt16) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11, 13: return 4
        case 5, 10, 12, 16, 17, 18: return 8
        default: return 0
        }
    }

    /// The bytes the whole value occupies.
    var byteCount: Int { count * IFDEntry.size(ofType: type) }

    /// The value's range (to read it when it is not in view).
    var valueRange: Range<Int> { valueAt..<(valueAt + max(byteCount, 1)) }

    /// The value field of the entry read as one SHORT (type 3) or LONG (any other type), whatever
    /// the count says: the tags that hold one small number (Compression, Photometric) are read
    /// there, as readers do when a count is damaged.
    func inlineScalar(_ v: ByteView, _ layout: TIFFLayout) -> Int? {
        type == 3 ? v.u16(field, bigEndian: layout.bigEndian).map(Int.init) : v.u32(field, bigEndian: layout.bigEndian).map(Int.init)
    }

    /// Element `i` of a BYTE, SHORT, LONG or LONG8 value (nil when out of view or another type;
    /// a LONG8 that does not fit 2^48 is clamped).
    func integer(_ v: ByteView, _ layout: TIFFLayout, at i: Int = 0) -> Int? {
        guard i >= 0, i < count else { return nil }
        switch type {
        case 1, 7: return v.u8(valueAt + i).map(Int.init)
        case 3: return v.u16(valueAt + 2 * i, bigEndian: layout.bigEndian).map(Int.init)
        case 4, 13: return v.u32(valueAt + 4 * i, bigEndian: layout.bigEndian).map(Int.init)
        case 16, 18: return v.u64(valueAt + 8 * i, bigEndian: layout.bigEndian).map(clampOffset)
        default: return nil
        }
    }
}

/// A directory read from the bytes: its entries in place, and the offset of the next one.
struct IFD {
    let layout: TIFFLayout
    /// Where the directory (its entry count) starts.
    let start: Int
    let count: Int

    enum Read {
        case ok(IFD)
        /// The directory lies (partly) past the bytes in view: these bytes are wanted.
        case needs(Range<Int>)
        /// No directory can be there (an offset before the header, an absurd entry count).
        case bad
    }

    /// The directory at `at` (absolute), at most `Budget.ifdEntries` entries: its count and its
    /// entries must be in view (the next directory's offset after them is read by `next`).
    static func read(_ v: ByteView, at: Int, _ layout: TIFFLayout) -> Read {
        guard at >= layout.base + 8 else { return .bad }
        let countRaw: Int?
        if layout.bigTIFF {
            countRaw = v.u64(at, bigEndian: layout.bigEndian).map { $0 > UInt64(Budget.ifdEntries) ? Budget.ifdEntries + 1 : Int($0) }
        } else {
            countRaw = v.u16(at, bigEndian: layout.bigEndian).map(Int.init)
        }
        guard let count = countRaw else { return .needs(at..<(at + layout.countSize)) }
        guard count > 0, count <= Budget.ifdEntries else { return .bad }
        let end = at + layout.countSize + count * layout.entrySize
        guard v.has(at, end - at) else { return .needs(at..<end) }
        return .ok(IFD(layout: layout, start: at, count: count))
    }

    /// Entry `i`.
    func entry(_ v: ByteView, _ i: Int) -> IFDEntry? {
        let e = start + layout.countSize + i * layout.entrySize
        guard let tag = v.u16(e, bigEndian: layout.bigEndian), let type = v.u16(e + 2, bigEndian: layout.bigEndian) else { return nil }
        let count: Int
        if layout.bigTIFF {
            guard let n = v.u64(e + 4, bigEndian: layout.bigEndian) else { return nil }
            count = Int(min(n, 1 << 20))
        } else {
            guard let n = v.u32(e + 4, bigEndian: layout.bigEndian) else { return nil }
            count = Int(min(n, 1 << 20))
        }
        let field = e + (layout.bigTIFF ? 12 : 8)
        let bytes = count * IFDEntry.size(ofType: type)
        if bytes <= layout.offsetSize { return IFDEntry(field: field, tag: tag, type: type, count: count, valueAt: field, inline: true) }
        guard let at = layout.offset(v, field) else { return nil }
        return IFDEntry(field: field, tag: tag, type: type, count: count, valueAt: at, inline: false)
    }

    /// The entries, in order.
    func entries(_ v: ByteView) -> [IFDEntry] { (0..<count).compactMap { entry(v, $0) } }

    /// The first entry with `tag`.
    func entry(_ v: ByteView, tag: UInt16) -> IFDEntry? {
        for i in 0..<count { if let e = entry(v, i), e.tag == tag { return e } }
        return nil
    }

    /// Where the next directory's offset is stored.
    var nextField: Range<Int> {
        let at = start + layout.countSize + count * layout.entrySize
        return at..<(at + layout.offsetSize)
    }

    /// The next directory's offset (absolute), or nil at the end of the chain (an offset of 0) or
    /// when the field is not in view.
    func next(_ v: ByteView) -> Int? {
        let raw = layout.offset(v, start + layout.countSize + count * layout.entrySize)
        guard let raw, raw != layout.base else { return nil }
        return raw
    }
}
