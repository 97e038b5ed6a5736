// JPEG XL: the ISO BMFF-style container (`JXL ` signature box) and the naked codestream (`FF 0A`).

enum JPEGXL: FormatFamily {
    static let rules = [
        Rule("JPEG XL container", .firstByte([0x00]), produces: [.jpegXL], check: container),
        Rule("JPEG XL codestream", .firstByte([0xFF]), produces: [.jpegXL], check: codestream),
    ]

    /// `00 00 00 0C "JXL " 0D 0A 87 0A`: the signature box.
    static func container(_ input: Input) -> Step {
        let v = input.view
        if v.count < 12 {
            let maybe = v.prefixMatches(0x0000_000C, length: 4) && v.prefixMatches(0x4A58_4C20_0D0A_870A, length: 8, at: 4)
            return maybe ? .need(12, fallback: nil) : .no
        }
        guard v.u32be(0) == 12 && v.equals(0x4A58_4C20_0D0A_870A, length: 8, at: 4) else { return .no }
        // Boxes follow the signature box (`ftyp`, then the codestream's `jxlc` or `jxlp`): the
        // signature alone, or with its ftyp and nothing after, is cut short.
        let hit = Hit(.jpegXL)
        guard v.has(12, 8) else { return .need(20, fallback: hit) }
        if v.u32be(16) == fourCC("ftyp"), let ftypSize = v.u32be(12), ftypSize >= 16, ftypSize <= 4096,
           !v.has(12 + Int(ftypSize), 8) {
            return .need(12 + Int(ftypSize) + 8, fallback: hit)
        }
        return .hit(hit)
    }

    /// A naked codestream: `FF 0A`, then a size header and the start of the image metadata that
    /// parse (a first byte of zero is a valid size header: a height of 1, 33, 65, ...). The
    /// metadata says whether it is an animation.
    static func codestream(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(1) == 0x0A else { return .no }
        // Every bit pattern parses: only running out of data stops the header. A codestream cut
        // inside it is still likely one (libmagic names JPEG XL from the two bytes alone).
        let cut = Hit(.jpegXL, .likely)
        guard v.count >= 3 else { return .need(3, fallback: cut) }
        var bits = BitReader(v, from: 2)
        guard let header = CodestreamHeader(&bits) else {
            return bits.ranOut && v.count < 64 ? .need(64, fallback: cut) : .no
        }
        return .hit(Hit(.jpegXL, animated: header.animated))
    }
}

/// What the first bits of a JPEG XL codestream say (ISO/IEC 18181-1: the size header, then the
/// image metadata up to its animation header).
struct CodestreamHeader {
    var width = 0
    var height = 0
    var orientation = 1
    var animated = false
    /// Bits per sample of the colour channels (32, 16 or 24 for floating point); nil when the
    /// bits run out before the field. Reading it never makes the header invalid.
    var bitDepth: Int?
    /// Whether an extra channel is alpha, and whether the colour space is grey (else RGB or
    /// XYB); nil when the bits run out before them (or the colour space is unknown).
    var hasAlpha: Bool?
    var isGrey: Bool?

    init?(_ bits: inout BitReader) {
        guard let (w, h) = CodestreamHeader.size(&bits) else { return nil }
        width = w
        height = h
        guard let allDefault = bits.bit() else { return nil }
        if allDefault == 1 { (bitDepth, hasAlpha, isGrey) = (8, false, false); return }
        guard let extraFields = bits.bit() else { return nil }
        if extraFields == 1 {
            guard let orientation = bits.read(3), let intrinsic = bits.bit() else { return nil }
            self.orientation = Int(orientation) + 1
            if intrinsic == 1 { guard CodestreamHeader.size(&bits) != nil else { return nil } }
            guard let preview = bits.bit() else { return nil }
            if preview == 1 { guard CodestreamHeader.previewSize(&bits) else { return nil } }
            guard let animation = bits.bit() else { return nil }
            animated = animation == 1
        }
        bitDepth = CodestreamHeader.bitDepth(&bits, afterAnimationHeader: animated)
        guard bitDepth != nil else { return }
        (hasAlpha, isGrey) = CodestreamHeader.channels(&bits)
    }

    /// After the bit depth: the extra channels (is one alpha?) and the colour encoding (grey?).
    /// ImageMetadata: `modular_16_bit_buffer_sufficient`, `num_extra_channels`, each channel's
    /// ExtraChannelInfo, `xyb_encoded`, then ColourEncoding's `all_default`, `want_icc` and
    /// `colour_space` (0 RGB, 1 grey, 2 XYB, 3 unknown).
    static func channels(_ bits: inout BitReader) -> (hasAlpha: Bool?, isGrey: Bool?) {
        guard bits.bit() != nil, let count = u32(&bits, [(0, 0), (1, 0), (2, 4), (1, 12)]) else { return (nil, nil) }
        var alpha = false
        for _ in 0..<min(Int(count), 256) {
            guard let defaults = bits.bit() else { return (nil, nil) }
            if defaults == 1 { alpha = true; continue }  // all default: an 8-bit alpha channel
            // Its type (0 alpha, 2 spot colour, 5 colour filter array), depth, dimension shift
            // and name, then what its type adds.
            guard let type = u32(&bits, [(0, 0), (1, 0), (2, 4), (18, 6)]), sampleDepth(&bits) != nil,
                  u32(&bits, [(0, 0), (3, 0), (4, 0), (1, 3)]) != nil,
                  let nameLength = u32(&bits, [(0, 0), (0, 4), (16, 5), (48, 10)]), bits.skip(8 * Int(nameLength))
            else { return (nil, nil) }
            switch type {
            case 0:
                alpha = true
                guard bits.bit() != nil else { return (nil, nil) }  // alpha_associated
            case 2: guard bits.skip(64) else { return (nil, nil) }  // red, green, blue, solidity (F16)
            case 5: guard u32(&bits, [(1, 0), (0, 2), (3, 4), (19, 8)]) != nil else { return (nil, nil) }
            default: break
            }
        }
        guard bits.bit() != nil, let colourDefaults = bits.bit() else { return (alpha, nil) }  // xyb_encoded
        if colourDefaults == 1 { return (alpha, false) }  // sRGB
        guard bits.bit() != nil, let space = u32(&bits, [(0, 0), (1, 0), (2, 4), (18, 6)]) else { return (alpha, nil) }
        return (alpha, space == 1 ? true : space == 0 || space == 2 ? false : nil)
    }

    /// A BitDepth bundle: floating point or not, bits per sample, and a float's exponent bits.
    static func sampleDepth(_ bits: inout BitReader) -> Int? {
        guard let floatingPoint = bits.bit() else { return nil }
        let depths: [(offset: UInt32, bits: Int)] = floatingPoint == 1
            ? [(32, 0), (16, 0), (24, 0), (1, 6)] : [(8, 0), (10, 0), (12, 0), (1, 6)]
        guard let depth = u32(&bits, depths) else { return nil }
        if floatingPoint == 1 { guard bits.read(4) != nil else { return nil } }  // exp_bits - 1
        return Int(depth)
    }

    /// ImageMetadata's bit depth, which follows the animation header when there is one (ticks
    /// per second as a numerator and a denominator, the loop count, a timecode flag).
    static func bitDepth(_ bits: inout BitReader, afterAnimationHeader animation: Bool) -> Int? {
        if animation {
            guard u32(&bits, [(100, 0), (1000, 0), (1, 10), (1, 30)]) != nil,
                  u32(&bits, [(1, 0), (1001, 0), (1, 8), (1, 10)]) != nil,
                  u32(&bits, [(0, 0), (0, 3), (0, 16), (0, 32)]) != nil,
                  bits.bit() != nil else { return nil }
        }
        return sampleDepth(&bits)
    }

    /// A `U32` field: a 2-bit selector picks one of four distributions (a constant, or an offset
    /// plus some bits).
    static func u32(_ bits: inout BitReader, _ d: [(offset: UInt32, bits: Int)]) -> UInt32? {
        guard let selector = bits.read(2) else { return nil }
        let (offset, n) = d[Int(selector)]
        guard n > 0 else { return offset }
        guard let value = bits.read(n) else { return nil }
        return offset &+ UInt32(truncatingIfNeeded: value)
    }

    /// The aspect ratios a 3-bit code stands for (1:1, 12:10, 4:3, 3:2, 16:9, 5:4, 2:1).
    static func width(height: Int, ratio: UInt64) -> Int {
        switch ratio {
        case 1: return height
        case 2: return height * 12 / 10
        case 3: return height * 4 / 3
        case 4: return height * 3 / 2
        case 5: return height * 16 / 9
        case 6: return height * 5 / 4
        default: return height * 2
        }
    }

    static func size(_ bits: inout BitReader) -> (Int, Int)? {
        guard let small = bits.bit() else { return nil }
        let height: Int
        if small == 1 {
            guard let h = bits.read(5) else { return nil }
            height = (Int(h) + 1) * 8
        } else {
            guard let h = u32(&bits, [(1, 9), (1, 13), (1, 18), (1, 30)]) else { return nil }
            height = Int(h)
        }
        guard let ratio = bits.read(3) else { return nil }
        if ratio != 0 { return (width(height: height, ratio: ratio), height) }
        if small == 1 {
            guard let w = bits.read(5) else { return nil }
            return ((Int(w) + 1) * 8, height)
        }
        guard let w = u32(&bits, [(1, 9), (1, 13), (1, 18), (1, 30)]) else { return nil }
        return (Int(w), height)
    }

    static func previewSize(_ bits: inout BitReader) -> Bool {
        guard let div8 = bits.bit() else { return false }
        let d: [(UInt32, Int)] = div8 == 1 ? [(16, 0), (32, 0), (1, 5), (33, 9)] : [(1, 6), (65, 8), (321, 10), (1345, 12)]
        guard u32(&bits, d) != nil, let ratio = bits.read(3) else { return false }
        return ratio != 0 || u32(&bits, d) != nil
    }
}

/// Reads bits least significant first, as JPEG XL writes them.
struct BitReader {
    let view: ByteView
    private var position: Int
    private(set) var ranOut = false

    init(_ view: ByteView, from byte: Int) {
        self.view = view
        position = byte * 8
    }

    mutating func read(_ n: Int) -> UInt64? {
        var value: UInt64 = 0
        for i in 0..<n {
            guard let byte = view.u8(position >> 3) else { ranOut = true; return nil }
            value |= UInt64((byte >> UInt8(position & 7)) & 1) << UInt64(i)
            position += 1
        }
        return value
    }

    mutating func bit() -> UInt64? { read(1) }

    /// Passes over `n` bits; false when the view ends first.
    mutating func skip(_ n: Int) -> Bool {
        guard n > 0 else { return true }
        guard view.u8((position + n - 1) >> 3) != nil else { ranOut = true; return false }
        position += n
        return true
    }
}

// MARK: - Whole-file check

extension JPEGXL {
    /// Whole: a container's top-level boxes end where the data does, and they hold the
    /// codestream: a `jxlc` box, or `jxlp` parts up to the one whose index is flagged last (its
    /// high bit). A container cut where a codestream box begins has whole boxes (cjxl's JPEG
    /// reconstruction writes a part, the `jbrd` box, then the last part). A bare codestream is
    /// not checked: its frames' sizes lie in entropy-coded headers.
    static let verifiers = [
        Verifier([.jpegXL], walk: { v in v.equals(0xFF0A, length: 2) ? nil : FrameWalk(.boxes, at: 0) }) { input, _, walked in
            let v = input.view
            if v.equals(0xFF0A, length: 2) { return .unknown }
            return Verifier.boxes(input, walked: walked, box: { box in
                if box.type == fourCC("jxlc") { return .complete }
                guard box.type == fourCC("jxlp") else { return nil }
                let index = box.payload..<(box.payload + 4)
                guard v.has(index) else { return .needRange(index) }  // past the end: truncated
                return v.u32be(box.payload)! & 0x8000_0000 != 0 ? .complete : nil
            }, otherwise: { .truncated })
        },
    ]
}

// MARK: - Properties

extension JPEGXL {
    static let readers = [PropertyReader([.jpegXL], read: properties)]

    /// The codestream's size header and image metadata (naked, or in a jxlc or jxlp box).
    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        var start = 0
        if !v.equals(0xFF0A, length: 2) {
            start = -1
            var boxes = Boxes(v, from: 0, to: Int.max, dataEnd: input.totalLength)
            var steps = 0
            while steps < 64, let box = boxes.next() {
                steps += 1
                if box.type == fourCC("jxlc") { start = box.payload; break }
                if box.type == fourCC("jxlp") { start = box.payload + 4; break }  // after the part's index
            }
            if start < 0, let wanted = boxes.needs { return .need(wanted.lowerBound + 8, partial: .unknown) }
            guard start >= 0 else { return .done(.unknown) }
        }
        guard v.has(start, 2), v.equals(0xFF0A, length: 2, at: start) else { return .need(start + 64, partial: .unknown) }
        var reader = BitReader(v, from: start + 2)
        guard let header = CodestreamHeader(&reader) else { return .need(start + 128, partial: .unknown) }
        var p = ImageProperties(width: header.width, height: header.height, bitDepth: header.bitDepth,
                                colorModel: header.isGrey.map { $0 ? .gray : .rgb }, hasAlpha: header.hasAlpha, orientation: header.orientation)
        if !header.animated { p.frameCount = 1 }
        if (header.bitDepth == nil || header.isGrey == nil) && reader.ranOut { return .need(start + 256, partial: p) }
        return .done(p)
    }
}
