// A bounded DEFLATE decoder (RFC 1951) for looking inside gzip (RFC 1952): enough to see
// whether a gzip file holds an SVG document (SVGZ), and whether a gzip member is whole. It
// produces at most `limit` bytes of output (or, counting them only, passes over the whole
// stream) and stops at the first inconsistency; it never reads outside the bytes it is given.

enum Inflate {
    /// How far inflating got.
    enum Outcome {
        /// `limit` bytes came out, or the stream ended cleanly: the output is all there is to see.
        case complete
        /// The compressed bytes ran out first: more of the input would give more output.
        case ranOut
        /// The stream is damaged.
        case corrupt
    }

    /// The first (up to) `limit` bytes of the gzip member at the start of `v`, and how far it
    /// got (`.ranOut`, with no output, when the header itself runs past `v`); nil when the
    /// header is malformed.
    static func gunzipPrefix(_ v: ByteView, limit: Int) -> (output: [UInt8], outcome: Outcome)? {
        guard let o = memberStart(v) else { return nil }
        guard o < v.count else { return ([], .ranOut) }
        var decoder = Decoder(input: v, start: o, limit: limit)
        decoder.run()
        let outcome: Outcome
        if decoder.output.count >= limit || (decoder.finished && !decoder.failed) {
            outcome = .complete
        } else if decoder.ranOut {
            outcome = .ranOut
        } else {
            outcome = .corrupt
        }
        return (decoder.output, outcome)
    }

    /// Where the compressed data of the gzip member at `start` begins (past the header's optional
    /// fields; past the end of `v` when they run beyond it); nil when the header is malformed.
    private static func memberStart(_ v: ByteView, at start: Int = 0) -> Int? {
        guard v.u8(start) == 0x1F, v.u8(start + 1) == 0x8B, v.u8(start + 2) == 8, let flags = v.u8(start + 3) else { return nil }
        var o = start + 10
        if flags & 0x04 != 0 {  // FEXTRA
            guard let xlen = v.u16le(o) else { return max(o, v.count) + 1 }
            o += 2 + Int(xlen)
        }
        if flags & 0x08 != 0 { o = skipZeroTerminated(v, o) }  // FNAME
        if flags & 0x10 != 0 { o = skipZeroTerminated(v, o) }  // FCOMMENT
        if flags & 0x02 != 0 { o += 2 }  // FHCRC
        return o
    }

    /// Whether the gzip members at the start of `v` (all of the data, `length` bytes) are whole:
    /// each one's compressed stream decodes to the end of its final block within the data, and
    /// the 8-byte trailer after it states the length that came out (modulo 2^32; its CRC-32 is
    /// not checked: the output is counted, not kept). Another member may follow (`cat a.gz
    /// b.gz`); what follows the last one that is not a member (zeros, padding) is not judged, as
    /// gzip only warns of it. `.ranOut`: the data ends first; `.corrupt`: a stream or a trailer
    /// is inconsistent; nil: not a gzip header.
    static func gzipMembers(_ v: ByteView, length: Int) -> Outcome? {
        var at = 0
        for index in 0..<Budget.gzipMembers {
            guard let o = memberStart(v, at: at) else { return index == 0 ? nil : .complete }
            guard o < length else { return .ranOut }
            var decoder = Decoder(input: v, start: o, limit: Int.max, keepsOutput: false)
            decoder.run()
            guard decoder.finished else { return decoder.ranOut ? .ranOut : .corrupt }
            // The trailer starts at the byte after the final block (the bits taken in past it
            // are given back): CRC-32, then ISIZE.
            let trailer = decoder.position - decoder.bitCount / 8
            guard trailer + 8 <= length, let size = v.u32le(trailer + 4) else { return .ranOut }
            guard size == UInt32(truncatingIfNeeded: decoder.produced) else { return .corrupt }
            at = trailer + 8
            // The end, or what is not the start of another member.
            guard at < length, v.u8(at) == 0x1F, at + 1 == length || v.u8(at + 1) == 0x8B else { return .complete }
            if at + 10 > length { return .ranOut }  // a member's header cut short
        }
        return .complete
    }

    private static func skipZeroTerminated(_ v: ByteView, _ start: Int) -> Int {
        var o = start
        while let b = v.u8(o), b != 0 { o += 1 }
        return o + 1
    }

    /// Canonical Huffman code: how many codes of each length, the symbols in code order, and a
    /// table that decodes any code of up to `tableBits` bits in one look-up. Fixed-size storage
    /// in one object (a class, so that decoding reads it in place rather than copying it): a gzip
    /// file's first block builds three of these, and with arrays (three allocations each) and
    /// codes read a bit at a time, inflating 64 bytes of a man page took about 57,000
    /// instructions, most of a scan of /usr/share/man.
    final class Huffman: Sendable {
        /// Codes this long or shorter are decoded by one look-up; longer ones (rare in practice:
        /// up to 15 bits) a bit at a time.
        static let tableBits = 9
        let counts: InlineArray<16, UInt16>
        let symbols: InlineArray<288, UInt16>
        /// Indexed by the next bits of input (first bit lowest) under `tableMask`: the symbol << 4
        /// and its code's length; 0 where the code is longer than the table, or unused.
        let table: InlineArray<512, UInt16>
        /// As many bits as the longest code, at most `tableBits`; none for a code built without
        /// its table.
        let tableMask: Int

        /// Where a code may leave part of the code space unused, as zlib takes it: a code-length
        /// code never, a block's literal or distance code only as one code of one bit (or none at
        /// all), the fixed distance code (30 codes of 5 bits) always.
        enum UnusedCodes { case refused, oneOneBitCode, allowed }

        /// Builds the code from code lengths (at most 288); nil when the lengths over-subscribe
        /// the code space, or leave part of it unused where `unused` refuses that. `table`: whether
        /// to build the look-up table, which pays for itself over a few dozen symbols (a block's
        /// code-length code decodes about 300; 64 bytes of output take fewer).
        init?(lengths: Span<UInt8>, unused: UnusedCodes = .oneOneBitCode, table fast: Bool = true) {
            guard lengths.count <= 288 else { return nil }
            var counts = InlineArray<16, UInt16>(repeating: 0)
            var symbols = InlineArray<288, UInt16>(repeating: 0)
            var table = InlineArray<512, UInt16>(repeating: 0)
            var countsSpan = counts.mutableSpan, symbolsSpan = symbols.mutableSpan, tableSpan = table.mutableSpan
            // Through unsafe pointers: a gzip file's first block builds three codes, about a third
            // of the work of seeing its first bytes, and checked indexing doubled it. Every index
            // is in range: a length is 0...15 (checked), a symbol is below `lengths.count`
            // (at most 288), and a table index is below `1 << tableBits` (at most 512).
            let tableBits: Int? = lengths.withUnsafeBufferPointer { l -> Int? in
                countsSpan.withUnsafeMutableBufferPointer { c -> Int? in
                    symbolsSpan.withUnsafeMutableBufferPointer { s -> Int? in
                        tableSpan.withUnsafeMutableBufferPointer { t -> Int? in
                            Huffman.build(lengths: l, counts: c, symbols: s, table: t, unused: unused, fast: fast)
                        }
                    }
                }
            }
            guard let tableBits else { return nil }
            self.counts = counts
            self.symbols = symbols
            self.table = table
            self.tableMask = (1 << tableBits) - 1
        }

        /// Fills `counts`, `symbols` and `table` (all zero) from `lengths`; the table's bits, or nil
        /// when the lengths make no code (see `init`).
        private static func build(lengths l: UnsafeBufferPointer<UInt8>, counts c: UnsafeMutableBufferPointer<UInt16>,
                                  symbols s: UnsafeMutableBufferPointer<UInt16>, table t: UnsafeMutableBufferPointer<UInt16>,
                                  unused: UnusedCodes, fast: Bool) -> Int? {
            // Counted in four tallies, one for each of four lengths in a row: lengths repeat, and
            // one tally's count would wait on its last increment at every step.
            var highest: UInt8 = 0
            var tallies = InlineArray<64, UInt16>(repeating: 0)
            var i = 0
            while i &+ 4 <= l.count {
                let a = l[i], b = l[i &+ 1], d = l[i &+ 2], e = l[i &+ 3]
                highest |= a | b | d | e
                tallies[Int(a & 15)] &+= 1
                tallies[16 &+ Int(b & 15)] &+= 1
                tallies[32 &+ Int(d & 15)] &+= 1
                tallies[48 &+ Int(e & 15)] &+= 1
                i &+= 4
            }
            while i < l.count {
                highest |= l[i]
                tallies[Int(l[i] & 15)] &+= 1
                i &+= 1
            }
            guard highest <= 15 else { return nil }
            let zeros = Int(tallies[0] &+ tallies[16] &+ tallies[32] &+ tallies[48])
            for len in 1...15 { c[len] = tallies[len] &+ tallies[16 &+ len] &+ tallies[32 &+ len] &+ tallies[48 &+ len] }
            var left = 1
            for len in 1...15 {
                left <<= 1
                left -= Int(c[len])
                if left < 0 { return nil }
            }
            var longest = 15
            while longest > 0 && c[longest] == 0 { longest -= 1 }
            if left > 0 && longest > 0 {
                switch unused {
                case .refused: return nil
                case .oneOneBitCode: if longest != 1 { return nil }
                case .allowed: break
                }
            }
            // Each length's symbols in order, and the unused ones (length 0) after them all: every
            // symbol is written, with no branch on its length.
            var offsets = InlineArray<16, UInt16>(repeating: 0)
            for len in 1..<15 { offsets[len + 1] = offsets[len] &+ c[len] }
            offsets[0] = UInt16(l.count - zeros)
            for symbol in 0..<l.count {
                let length = Int(l[symbol] & 15)
                s[Int(offsets[length])] = UInt16(symbol)
                offsets[length] &+= 1
            }
            // Codes are given out in order: each length's first code follows the last of the
            // length before, shifted left. The input holds a code's first bit lowest, so each code
            // of `len` bits is entered, bits reversed, at every index that ends in it.
            let tableBits = fast ? min(longest, Huffman.tableBits) : 0
            var code = 0, index = 0, len = 1
            while len <= tableBits {
                for _ in 0..<Int(c[len]) {
                    var reversed = 0
                    for b in 0..<len where code & (1 << b) != 0 { reversed |= 1 << (len - 1 - b) }
                    let entry = s[index] << 4 | UInt16(len)
                    var i = reversed
                    while i < 1 << tableBits {
                        t[i] = entry
                        i += 1 << len
                    }
                    code += 1
                    index += 1
                }
                code <<= 1
                len += 1
            }
            return tableBits
        }
    }

    struct Decoder {
        let input: ByteView
        var position: Int  // next byte
        var bitBuffer: UInt64 = 0
        var bitCount = 0
        let limit: Int
        /// Whether the bytes that come out are kept in `output`, or only counted.
        let keepsOutput: Bool
        var output: [UInt8] = []
        /// How many bytes came out (kept or not).
        var produced = 0
        var failed = false
        /// The input ended before the stream did.
        var ranOut = false
        /// The final block ended.
        var finished = false

        init(input: ByteView, start: Int, limit: Int, keepsOutput: Bool = true) {
            self.input = input
            self.position = start
            self.limit = limit
            self.keepsOutput = keepsOutput
            if keepsOutput { output.reserveCapacity(limit) }
        }

        /// Takes in whole bytes until `n` bits (at most 56) are at hand, or the input ends.
        @inline(__always) mutating func takeIn(_ n: Int) {
            if bitCount < n { refill() }
        }

        /// Tops the bits at hand up to 56 or more: eight bytes in one load where they lie in the
        /// first bytes held (the bytes past the ones counted in are entered too, and entered
        /// again, the same bits in the same places, by the next load), else a byte at a time.
        @inline(__always) mutating func refill() {
            if position >= 0, position &+ 8 <= input.base.count, let base = input.base.baseAddress {
                let word = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: position, as: UInt64.self))
                bitBuffer |= word &<< UInt64(bitCount)
                position &+= (63 &- bitCount) &>> 3
                bitCount |= 56
            } else {
                refillByBytes()
            }
        }

        /// Near the end of the bytes held: whole bytes while they last (`ByteView` reads them from
        /// the far windows too).
        mutating func refillByBytes() {
            while bitCount <= 56, let b = input.u8(position) {
                position += 1
                bitBuffer |= UInt64(b) << UInt64(bitCount)
                bitCount += 8
            }
        }

        /// `n` bits, least significant first; nil (and `failed`) when the input runs out.
        @inline(__always) mutating func bits(_ n: Int) -> Int? {
            takeIn(n)
            guard bitCount >= n else { failed = true; ranOut = true; return nil }
            let value = Int(bitBuffer & ((1 << UInt64(n)) - 1))
            bitBuffer >>= UInt64(n)
            bitCount -= n
            return value
        }

        /// One symbol: by the code's table where it is that short and its bits are at hand, else
        /// its code read a bit at a time (codes are stored most significant bit first) from the
        /// bits at hand: up to 15 are taken in first, fewer at the end of the input.
        @inline(__always) mutating func decode(_ h: Huffman) -> Int? {
            takeIn(15)
            let entry = Int(h.table[Int(truncatingIfNeeded: bitBuffer) & h.tableMask])
            let length = entry & 15
            if length != 0 && length <= bitCount {
                bitBuffer >>= UInt64(length)
                bitCount -= length
                return entry >> 4
            }
            var code = 0, first = 0, index = 0
            var pending = bitBuffer
            for len in 1...15 {
                guard len <= bitCount else { failed = true; ranOut = true; return nil }
                code |= Int(pending & 1)
                pending >>= 1
                let count = Int(h.counts[len])
                if code - first < count {
                    bitBuffer = pending
                    bitCount -= len
                    return Int(h.symbols[index + code - first])
                }
                index += count
                first = (first + count) << 1
                code <<= 1
            }
            failed = true
            return nil
        }

        mutating func run() {
            var last = false
            while !last && !failed && produced < limit {
                guard let final = bits(1), let type = bits(2) else { return }
                last = final == 1
                switch type {
                case 0: stored()
                case 1: compressed(Inflate.fixedLiterals, Inflate.fixedDistances)
                case 2: dynamic()
                default: failed = true
                }
            }
            if last && !failed { finished = true }
        }

        mutating func stored() {
            // To the next byte boundary: the rest of the byte being read is dropped, and the whole
            // bytes taken in ahead of it (a refill takes in 56 bits or more) are given back.
            position -= bitCount / 8
            bitBuffer = 0
            bitCount = 0
            guard let length = input.u16le(position), let check = input.u16le(position + 2) else {
                failed = true
                ranOut = true
                return
            }
            guard length == ~check else { failed = true; return }
            position += 4
            guard keepsOutput else {
                // Counted only: the block's bytes must all be there.
                guard input.has(position, Int(length)) else { failed = true; ranOut = true; return }
                position += Int(length)
                produced += Int(length)
                return
            }
            for _ in 0..<Int(length) {
                guard produced < limit else { return }
                guard let b = input.u8(position) else { failed = true; ranOut = true; return }
                output.append(b)
                produced += 1
                position += 1
            }
        }

        mutating func dynamic() {
            guard let nlen = bits(5), let ndist = bits(5), let ncode = bits(4) else { return }
            let literalCount = nlen + 257, distanceCount = ndist + 1
            guard literalCount <= 286, distanceCount <= 30 else { failed = true; return }
            var lengths = InlineArray<19, UInt8>(repeating: 0)
            for i in 0..<(ncode + 4) {
                guard let l = bits(3) else { return }
                lengths[Inflate.codeLengthOrder[i]] = UInt8(l)
            }
            guard let codeLengths = Huffman(lengths: lengths.span, unused: .refused) else { failed = true; return }
            var all = InlineArray<316, UInt8>(repeating: 0)
            let total = literalCount + distanceCount
            var i = 0
            while i < total {
                guard let symbol = decode(codeLengths) else { return }
                if symbol < 16 {
                    all[i] = UInt8(symbol); i += 1
                    continue
                }
                var value: UInt8 = 0
                var repeatCount: Int
                if symbol == 16 {
                    guard i > 0, let r = bits(2) else { failed = true; return }
                    value = all[i - 1]; repeatCount = 3 + r
                } else if symbol == 17 {
                    guard let r = bits(3) else { return }
                    repeatCount = 3 + r
                } else {
                    guard let r = bits(7) else { return }
                    repeatCount = 11 + r
                }
                guard i + repeatCount <= total else { failed = true; return }
                for _ in 0..<repeatCount { all[i] = value; i += 1 }
            }
            let fast = limit - produced > 64
            guard let literals = Huffman(lengths: all.span.extracting(0..<literalCount), table: fast),
                  let distances = Huffman(lengths: all.span.extracting(literalCount..<total), table: fast) else { failed = true; return }
            compressed(literals, distances)
        }

        mutating func compressed(_ literals: Huffman, _ distances: Huffman) {
            while produced < limit {
                guard let symbol = decode(literals) else { return }
                if symbol < 256 {
                    if keepsOutput { output.append(UInt8(symbol)) }
                    produced += 1
                    continue
                }
                if symbol == 256 { return }
                let index = symbol - 257
                guard index < 29, let extra = bits(Inflate.lengthExtra(index)) else { failed = true; return }
                let length = Inflate.lengthBase(index) + extra
                guard let d = decode(distances), d < 30, let dExtra = bits(Inflate.distanceExtra(d)) else { failed = true; return }
                let distance = Inflate.distanceBase(d) + dExtra
                guard distance <= produced else { failed = true; return }
                guard keepsOutput else { produced += length; continue }
                for _ in 0..<length {
                    guard produced < limit else { return }
                    output.append(output[output.count - distance])
                    produced += 1
                }
            }
        }
    }

    static let codeLengthOrder = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    // Length codes 257–285 and distance codes 0–29 (RFC 1951, 3.2.5).
    static func lengthExtra(_ i: Int) -> Int { i < 8 || i == 28 ? 0 : (i - 4) / 4 }
    static func lengthBase(_ i: Int) -> Int {
        if i == 28 { return 258 }
        if i < 8 { return 3 + i }
        let extra = lengthExtra(i)
        return ((4 + (i - 8) % 4) << extra) + 3
    }
    static func distanceExtra(_ d: Int) -> Int { d < 4 ? 0 : d / 2 - 1 }
    static func distanceBase(_ d: Int) -> Int {
        if d < 4 { return d + 1 }
        let extra = distanceExtra(d)
        return ((2 + d % 2) << extra) + 1
    }

    static let fixedLiterals: Huffman = {
        var lengths = [UInt8](repeating: 8, count: 288)
        for i in 144..<256 { lengths[i] = 9 }
        for i in 256..<280 { lengths[i] = 7 }
        return Huffman(lengths: lengths.span)!
    }()

    static let fixedDistances: Huffman = Huffman(lengths: [UInt8](repeating: 5, count: 30).span, unused: .allowed)!
}
