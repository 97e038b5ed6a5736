// The detection walk. Roots are chosen by the first byte (fixed-offset, unambiguous signatures
// first); each family check may only make an answer more specific. Formats without magic at
// offset 0 (DICOM, legacy PVR, MacPaint, PICT, TGA) and text come after.

/// A match found by a family check.
struct Hit {
    var type: ImageType
    var confidence: Detection.Confidence = .conclusive
    var animated = false

    init(_ type: ImageType, _ confidence: Detection.Confidence = .conclusive, animated: Bool = false) {
        self.type = type
        self.confidence = confidence
        self.animated = animated
    }
}

/// What one family check says.
enum Step {
    /// Not this family.
    case no
    /// This family, and this answer.
    case hit(Hit)
    /// The check wants the first `n` bytes to go further. `fallback` is the answer if they cannot
    /// be had (the data ends, or the read cap is reached); nil means "not this family, then".
    case need(Int, fallback: Hit?)
    /// The check wants the last bytes of the data (TGA's footer).
    case needTail(fallback: Hit?)
}

/// The bytes under inspection and what is known about the rest.
struct Input {
    let view: ByteView
    /// Length of the whole data; `view.count` when the view is the whole data.
    let totalLength: Int
    /// How far the view may grow: min(totalLength, read cap).
    let limit: Int
    /// The last bytes of the data (up to `Limits.tailLength`), when known.
    let tail: ByteView?

    var hasMore: Bool { view.count < limit }
    var isWhole: Bool { view.count >= totalLength }
}

/// Hard caps on what detection reads.
public enum Limits {
    /// The first read of a file.
    public static let initialRead = 4096
    /// The most of a file's prefix any check may ask for (TIFF IFDs, a JPEG segment walk past a
    /// large Exif block, a PNG chunk walk to `acTL`).
    public static let maxPrefix = 512 * 1024
    /// How many bytes of a file's end are read for trailers (TGA 2.0's footer is 26).
    public static let tailLength = 26
    /// The most segments, chunks, boxes or IFD entries any walk visits.
    public static let maxWalkSteps = 4096
}

/// The result of one pass over the bytes.
enum Outcome {
    case done(Hit, truncated: Bool)
    case needPrefix(Int)
    case needTail
}

enum Detector {
    static func run(_ input: Input) -> Outcome {
        let v = input.view
        var truncated = false
        guard v.count > 0 else {
            return .done(Hit(.data, .unknown), truncated: false)
        }

        // 1. Signatures at offset 0, chosen by the first byte.
        switch resolve(magic(input), input, &truncated) {
        case .some(let outcome): return outcome
        case .none: break
        }

        // A signature began to match and the data ended: a cut file, not text.
        if truncated { return .done(Hit(.data, .unknown), truncated: true) }

        // 2. Formats whose evidence is elsewhere, then text.
        for index in 0..<7 {
            let step: Step
            switch index {
            case 0: step = Misc.dicom(input)
            case 1: step = Textures.pvrLegacy(input)
            case 2: step = Misc.macPaint(input)
            case 3: step = Misc.pict(input)
            case 4: step = Misc.tga(input)
            case 5: step = Misc.wbmp(input)
            default: step = Text.classify(input)
            }
            switch resolve(step, input, &truncated) {
            case .some(let outcome): return outcome
            case .none: continue
            }
        }
        return .done(Hit(.data, .unknown), truncated: truncated)
    }

    /// Turns a step into an outcome, or nil to go on with the next check.
    @inline(__always)
    private static func resolve(_ step: Step, _ input: Input, _ truncated: inout Bool) -> Outcome? {
        switch step {
        case .no:
            return nil
        case .hit(let hit):
            return .done(hit, truncated: truncated)
        case .need(let n, let fallback):
            // Ask for more only when it can be had: a structure past the read cap (a TIFF whose
            // IFD0 sits at the end of a large file) is answered from what is here.
            if n > input.view.count && input.hasMore && n <= input.limit { return .needPrefix(n) }
            // Wanting more than the data holds is truncation, whether or not all of it is in view.
            if n > input.totalLength { truncated = true }
            if let fallback { return .done(fallback, truncated: truncated) }
            return nil
        case .needTail(let fallback):
            if input.tail == nil && !input.isWhole { return .needTail }
            if let fallback { return .done(fallback, truncated: truncated) }
            return nil
        }
    }

    // swiftlint:disable:next cyclomatic_complexity
    private static func magic(_ input: Input) -> Step {
        let v = input.view
        let first = v.base[0]
        // One byte that starts a known signature is not enough to say anything.
        if v.count < 2 && first != 0x0A && first != 0x23 && first != 0x25 && first != 0x2F && first != 0x21 {
            return firstByteStartsASignature(first) ? .need(2, fallback: nil) : .no
        }
        switch first {
        case 0x00: return firstOf(input, ISOBMFF.detect, JPEG2000.box, Misc.icoCur, Misc.mrw, Misc.xwd, ISOBMFF.quickTimeWithoutFtyp)
        case 0x01: return Misc.sgi(input)
        case 0x03: return Textures.pvr(input)
        case 0x0A: return Misc.pcx(input)
        case 0x13: return Textures.astc(input)
        case 0x1A: return Media.ebml(input)
        case 0x1F: return Media.gzip(input)
        case 0x23: return firstOf(input, Misc.radiance, Text.xbm)  // '#'
        case 0x25: return firstOf(input, Text.pdf, Text.postScript)  // '%'
        case 0x2F: return Text.xpm(input)  // '/'
        case 0x21: return Text.xpm(input)  // '!' XPM2
        case 0x38: return Misc.psd(input)  // '8'
        case 0x41: return Misc.djvu(input)  // 'A'
        case 0x42: return firstOf(input, Misc.bmp, Misc.bpg)  // 'B'
        case 0x44: return Textures.dds(input)  // 'D'
        case 0x46: return firstOf(input, RAW.raf, Misc.flif, RAW.x3f)  // 'F'
        case 0x47: return GIF.detect(input)  // 'G'
        case 0x49: return firstOf(input, TIFF.detect, Media.id3)  // 'I'
        case 0x4D: return TIFF.detect(input)  // 'M'
        case 0x50: return firstOf(input, Netpbm.detect, Media.zip, Textures.pvr)  // 'P'
        case 0x52: return RIFF.detect(input)  // 'R'
        case 0x53: return firstOf(input, Misc.fits, Misc.dpx)  // 'S'
        case 0x58: return Misc.dpx(input)  // 'X'
        case 0x59: return Misc.sun(input)
        case 0x66: return Misc.farbfeld(input)  // 'f'
        case 0x67: return Misc.xcf(input)  // 'g'
        case 0x69: return firstOf(input, Misc.icns, Misc.miff)  // 'i'
        case 0x71: return Misc.qoi(input)  // 'q'
        case 0x72: return RAW.rwz(input)  // 'r'
        case 0x76: return Misc.exr(input)  // 'v'
        case 0x80: return Misc.cineon(input)
        case 0x89, 0x8A, 0x8B: return PNG.detect(input)
        case 0xAB: return Textures.ktx(input)
        case 0xB1: return Misc.dcx(input)
        case 0xC5: return Text.dosEPS(input)
        case 0xD7: return Misc.cineon(input)
        case 0xFF: return firstOf(input, JPEG.detect, JPEG2000.codestream, Misc.jxlCodestream, Media.mpegAudio)
        default:
            if v.count >= 8, v.base[4] == 0x66, v.u32be(4) == fourCC("ftyp") { return ISOBMFF.detect(input) }
            return .no
        }
    }

    private static func firstByteStartsASignature(_ b: UInt8) -> Bool {
        switch b {
        case 0x00, 0x01, 0x03, 0x13, 0x1A, 0x1F, 0x38, 0x41, 0x42, 0x44, 0x46, 0x47, 0x49, 0x4D, 0x50, 0x52,
             0x53, 0x58, 0x59, 0x66, 0x67, 0x69, 0x71, 0x72, 0x76, 0x80, 0x89, 0x8A, 0x8B, 0xAB, 0xB1, 0xC5, 0xD7, 0xFF:
            return true
        default:
            return false
        }
    }

    /// The first check that does not say `.no`; a `need` without fallback is remembered and
    /// given back only if no later check matches. (Fixed arity rather than variadic, so that
    /// the hot path allocates no array.)
    @inline(__always)
    private static func firstOf(_ input: Input, _ a: ((Input) -> Step)?, _ b: ((Input) -> Step)?,
                                _ c: ((Input) -> Step)? = nil, _ d: ((Input) -> Step)? = nil,
                                _ e: ((Input) -> Step)? = nil, _ f: ((Input) -> Step)? = nil) -> Step {
        var pending: Step = .no
        for index in 0..<6 {
            let check: ((Input) -> Step)?
            switch index {
            case 0: check = a
            case 1: check = b
            case 2: check = c
            case 3: check = d
            case 4: check = e
            default: check = f
            }
            guard let check else { break }
            let step = check(input)
            switch step {
            case .no: continue
            case .hit: return step
            case .need(_, let fallback), .needTail(let fallback):
                if fallback != nil { return step }
                if case .no = pending { pending = step }
            }
        }
        return pending
    }
}

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
