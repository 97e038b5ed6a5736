// Bounds-checked reads over the bytes under inspection. Every accessor answers nil (or false)
// when the bytes are not there; none can trap, whatever the offset.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// A range of the data held away from its first bytes: what a read plan fetched at `offset`.
struct FarWindow {
    let offset: Int
    let bytes: UnsafeRawBufferPointer
    var end: Int { offset + bytes.count }
}

/// The bytes under inspection: the first bytes of the data (`base`, from offset 0) and the
/// ranges a read plan fetched further on (`windows`, sorted, apart from `base`). Offsets are the
/// data's own; every accessor reads wherever the bytes are held, and answers nil where they are not.
struct ByteView {
    let base: UnsafeRawBufferPointer
    let windows: UnsafeBufferPointer<FarWindow>

    init(base: UnsafeRawBufferPointer, windows: UnsafeBufferPointer<FarWindow> = UnsafeBufferPointer(start: nil, count: 0)) {
        self.base = base
        self.windows = windows
    }

    /// How many of the data's first bytes are held (the far windows are not counted).
    @inline(__always) var count: Int { base.count }

    /// Where `length` bytes at `offset` are held: the start of their run, or nil.
    @inline(__always) func pointer(_ offset: Int, _ length: Int) -> UnsafeRawPointer? {
        guard offset >= 0, length >= 0 else { return nil }
        if offset <= base.count &- length { return base.baseAddress.map { $0 + offset } ?? (length == 0 ? UnsafeRawPointer(bitPattern: 1) : nil) }
        return farPointer(offset, length)
    }

    private func farPointer(_ offset: Int, _ length: Int) -> UnsafeRawPointer? {
        // The windows are sorted by offset: the last one starting at or before `offset` holds it,
        // unless windows overlap (then an earlier one may).
        var low = 0, high = windows.count
        while low < high {
            let mid = (low + high) / 2
            if windows[mid].offset <= offset { low = mid + 1 } else { high = mid }
        }
        var i = low - 1
        while i >= 0 {
            let w = windows[i]
            if offset &+ length <= w.end { return w.bytes.baseAddress.map { $0 + (offset - w.offset) } }
            i -= 1
        }
        return nil
    }

    /// Whether `length` bytes exist at `offset` (in the first bytes or one far window).
    @inline(__always) func has(_ offset: Int, _ length: Int) -> Bool {
        if offset >= 0 && length >= 0 && offset <= base.count &- length { return true }
        return windows.count > 0 && farPointer(offset, length) != nil
    }

    /// The held bytes from `offset` to the end of the run that holds it (the first bytes, or a
    /// far window): empty when `offset` is not held.
    func run(from offset: Int) -> UnsafeRawBufferPointer {
        if offset >= 0 && offset < base.count { return UnsafeRawBufferPointer(rebasing: base[offset...]) }
        for w in windows where offset >= w.offset && offset < w.end {
            return UnsafeRawBufferPointer(rebasing: w.bytes[(offset - w.offset)...])
        }
        return UnsafeRawBufferPointer(start: nil, count: 0)
    }

    /// Whether every byte of `range` is held.
    func has(_ range: Range<Int>) -> Bool { has(range.lowerBound, range.count) }

    @inline(__always) func u8(_ offset: Int) -> UInt8? {
        if offset >= 0 && offset < base.count { return base[offset] }
        return windows.count > 0 ? farPointer(offset, 1)?.load(as: UInt8.self) : nil
    }

    @inline(__always) func u16be(_ offset: Int) -> UInt16? {
        guard let p = pointer(offset, 2) else { return nil }
        return UInt16(p.load(as: UInt8.self)) << 8 | UInt16(p.load(fromByteOffset: 1, as: UInt8.self))
    }

    @inline(__always) func u16le(_ offset: Int) -> UInt16? {
        guard let p = pointer(offset, 2) else { return nil }
        return UInt16(p.load(fromByteOffset: 1, as: UInt8.self)) << 8 | UInt16(p.load(as: UInt8.self))
    }

    @inline(__always) func u16(_ offset: Int, bigEndian: Bool) -> UInt16? {
        bigEndian ? u16be(offset) : u16le(offset)
    }

    @inline(__always) func u32be(_ offset: Int) -> UInt32? {
        guard let p = pointer(offset, 4) else { return nil }
        return UInt32(p.load(as: UInt8.self)) << 24 | UInt32(p.load(fromByteOffset: 1, as: UInt8.self)) << 16
            | UInt32(p.load(fromByteOffset: 2, as: UInt8.self)) << 8 | UInt32(p.load(fromByteOffset: 3, as: UInt8.self))
    }

    @inline(__always) func u32le(_ offset: Int) -> UInt32? {
        guard let p = pointer(offset, 4) else { return nil }
        return UInt32(p.load(fromByteOffset: 3, as: UInt8.self)) << 24 | UInt32(p.load(fromByteOffset: 2, as: UInt8.self)) << 16
            | UInt32(p.load(fromByteOffset: 1, as: UInt8.self)) << 8 | UInt32(p.load(as: UInt8.self))
    }

    @inline(__always) func u32(_ offset: Int, bigEndian: Bool) -> UInt32? {
        bigEndian ? u32be(offset) : u32le(offset)
    }

    func u64(_ offset: Int, bigEndian: Bool) -> UInt64? {
        guard let a = u32(offset, bigEndian: bigEndian), let b = u32(offset + 4, bigEndian: bigEndian) else { return nil }
        return bigEndian ? UInt64(a) << 32 | UInt64(b) : UInt64(b) << 32 | UInt64(a)
    }

    /// Whether the ASCII (or any byte) string `s` stands at `offset`.
    @inline(__always) func matches(_ s: StaticString, at offset: Int = 0) -> Bool {
        let n = s.utf8CodeUnitCount
        guard let q = pointer(offset, n) else { return false }
        let p = s.utf8Start
        for i in 0..<n where q.load(fromByteOffset: i, as: UInt8.self) != p[i] { return false }
        return true
    }

    /// Whether `s` stands at `offset`, ignoring ASCII case.
    func matchesIgnoringCase(_ s: StaticString, at offset: Int) -> Bool {
        let n = s.utf8CodeUnitCount
        guard let q = pointer(offset, n) else { return false }
        return ByteView.equalIgnoringCase(UnsafeRawBufferPointer(start: q, count: n), s, count: n)
    }

    /// Whether the bytes that exist of `s`'s length at `offset` match it, ignoring ASCII case.
    func prefixMatchesIgnoringCase(_ s: StaticString, at offset: Int = 0) -> Bool {
        guard offset >= 0, offset <= base.count else { return false }
        let n = min(s.utf8CodeUnitCount, base.count - offset)
        return ByteView.equalIgnoringCase(UnsafeRawBufferPointer(rebasing: base[offset..<(offset + n)]), s, count: n)
    }

    /// Whether the first `count` bytes of `bytes` and of `s` are equal, ignoring ASCII case.
    private static func equalIgnoringCase(_ bytes: UnsafeRawBufferPointer, _ s: StaticString, count: Int) -> Bool {
        let p = s.utf8Start
        for i in 0..<count {
            var b = bytes[i]
            if b >= 0x41 && b <= 0x5A { b |= 0x20 }
            var c = p[i]
            if c >= 0x41 && c <= 0x5A { c |= 0x20 }
            if b != c { return false }
        }
        return true
    }

    /// Whether the bytes that exist match a prefix of `s` at `offset` (for cut-short data).
    func matchesAvailablePrefix(_ s: StaticString, at offset: Int = 0) -> Bool {
        let n = min(s.utf8CodeUnitCount, base.count - offset)
        guard offset >= 0, n >= 0 else { return false }
        let p = s.utf8Start
        for i in 0..<n where base[offset + i] != p[i] { return false }
        return true
    }

    /// Whether the `length` bytes at `offset` are the big-endian bytes of `value` (for
    /// signatures with bytes above 0x7F, which a `StaticString` would store as UTF-8).
    @inline(__always) func equals(_ value: UInt64, length: Int, at offset: Int = 0) -> Bool {
        guard let q = pointer(offset, length) else { return false }
        for i in 0..<length where q.load(fromByteOffset: i, as: UInt8.self) != UInt8(truncatingIfNeeded: value >> UInt64(8 * (length - 1 - i))) {
            return false
        }
        return true
    }

    /// Whether the bytes that exist of the `length` at `offset` match the big-endian `value`.
    @inline(__always) func prefixMatches(_ value: UInt64, length: Int, at offset: Int = 0) -> Bool {
        guard offset >= 0 else { return false }
        let n = min(length, base.count - offset)
        guard n >= 0 else { return false }
        for i in 0..<n where base[offset + i] != UInt8(truncatingIfNeeded: value >> UInt64(8 * (length - 1 - i))) { return false }
        return true
    }

    /// The first offset in `range` where `s` stands, among the bytes held: the first bytes and
    /// every far window that `range` reaches (a range may start in the first bytes and run on into
    /// a window). An occurrence must lie within one run of held bytes: one that straddles the
    /// first bytes' end and a window that begins there is not found.
    func find(_ s: StaticString, in range: Range<Int>) -> Int? {
        guard s.utf8CodeUnitCount > 0 else { return nil }
        var first = find(s, in: range, run: base, origin: 0)
        for w in windows where w.end > range.lowerBound && w.offset < min(range.upperBound, first ?? .max) {
            if let hit = find(s, in: range, run: w.bytes, origin: w.offset), hit < first ?? .max { first = hit }
        }
        return first
    }

    /// `find` within one run of held bytes that starts at the data's offset `origin`.
    private func find(_ s: StaticString, in range: Range<Int>, run: UnsafeRawBufferPointer, origin: Int) -> Int? {
        let n = s.utf8CodeUnitCount
        let lower = max(range.lowerBound, origin, 0)
        let upper = min(range.upperBound, origin + run.count) - n
        guard lower <= upper, let start = run.baseAddress else { return nil }
        // The first byte by memchr (many bytes a step), the rest compared where it is found.
        let p = s.utf8Start
        var i = lower
        while i <= upper {
            guard let hit = memchr(start + (i - origin), Int32(p[0]), upper - i + 1) else { return nil }
            let at = start.distance(to: UnsafeRawPointer(hit)) + origin
            if n == 1 || memcmp(hit + 1, p + 1, n - 1) == 0 { return at }
            i = at + 1
        }
        return nil
    }

    /// A big-endian base-128 number at `offset` (7 bits a byte, high bit set: another byte
    /// follows), as WBMP, BPG and FLIF write sizes; `offset` moves past it. Nil when the number is
    /// cut by the view or longer than `maxBytes`.
    func base128(at offset: inout Int, maxBytes: Int = 5) -> Int? {
        var value = 0
        for _ in 0..<maxBytes {
            guard let b = u8(offset) else { return nil }
            offset += 1
            value = value << 7 | Int(b & 0x7F)
            if b & 0x80 == 0 { return value }
        }
        return nil
    }

    /// What `decimal(at:)` passes over before the digits.
    enum DecimalLead {
        /// Nothing: the digits start at once.
        case none
        /// Spaces (0x20) and zeros that more digits follow (free leading zeros).
        case spacesAndZeros
        /// White space (space, tab, line ends, form feed).
        case whitespace
    }

    /// A decimal number at `o` (after what `lead` passes over), at most `maxDigits` digits; `o`
    /// moves past it. Nil when there is no digit. The one decimal parser of the text headers.
    func decimal(at o: inout Int, lead: DecimalLead = .whitespace, maxDigits: Int = 10) -> Int? {
        switch lead {
        case .none: break
        case .whitespace: while let b = u8(o), ByteView.isSpace(b) { o += 1 }
        case .spacesAndZeros:
            while let b = u8(o), b == 0x20 || b == 0x30 && u8(o + 1).map(ByteView.isDigit) == true { o += 1 }
        }
        var value = 0, digits = 0
        while let b = u8(o), ByteView.isDigit(b), digits < maxDigits {
            value = value * 10 + Int(b - 0x30)
            o += 1
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    /// The decimal number after `key` (e.g. `columns=`) within `range`, white space skipped.
    func number(after key: StaticString, in range: Range<Int>) -> Int? {
        guard var o = find(key, in: range) else { return nil }
        o += key.utf8CodeUnitCount
        return decimal(at: &o)
    }

    /// Whether every byte in `range` (which must exist) is `value`.
    func all(_ range: Range<Int>, equal value: UInt8) -> Bool {
        guard range.lowerBound >= 0, range.upperBound <= base.count else { return false }
        for i in range where base[i] != value { return false }
        return true
    }

    /// Whether the byte is an ASCII letter, digit or space (a four-character code's alphabet).
    static func isFourCCByte(_ b: UInt8) -> Bool {
        (b >= 0x30 && b <= 0x39) || (b >= 0x41 && b <= 0x5A) || (b >= 0x61 && b <= 0x7A) || b == 0x20
    }

    static func isDigit(_ b: UInt8) -> Bool { b >= 0x30 && b <= 0x39 }

    static func isSpace(_ b: UInt8) -> Bool { b == 0x20 || b == 0x09 || b == 0x0A || b == 0x0D || b == 0x0B || b == 0x0C }
}

/// Four-character codes as big-endian integers: `fourCC("ftyp")`.
@inline(__always) func fourCC(_ s: StaticString) -> UInt32 {
    let p = s.utf8Start
    return UInt32(p[0]) << 24 | UInt32(p[1]) << 16 | UInt32(p[2]) << 8 | UInt32(p[3])
}

/// An offset taken from the file, clamped so that arithmetic on it cannot overflow.
@inline(__always) func clampOffset(_ v: UInt64) -> Int { v > (1 << 48) ? (1 << 48) : Int(v) }

extension ByteView {
    /// For a check that starts with a fixed signature: nil when the signature stands at
    /// `offset`, `.no` when the bytes differ, and a request for the rest when the data seen so
    /// far is a strict prefix of it (so that a cut file is not mistaken for something else).
    @inline(__always) func signature(_ s: StaticString, at offset: Int = 0) -> Step? {
        if matches(s, at: offset) { return nil }
        return matchesAvailablePrefix(s, at: offset) && count < offset + s.utf8CodeUnitCount
            ? .need(offset + s.utf8CodeUnitCount, fallback: nil) : .no
    }

    /// `signature(_:at:)` for signatures written as big-endian integers.
    @inline(__always) func signature(_ value: UInt64, length: Int, at offset: Int = 0) -> Step? {
        if equals(value, length: length, at: offset) { return nil }
        return prefixMatches(value, length: length, at: offset) && count < offset + length
            ? .need(offset + length, fallback: nil) : .no
    }
}
