// The netpbm family: P1–P6 (PBM, PGM, PPM, ASCII and binary), P7 (PAM), PF/Pf (PFM) and PH/Ph (PHM).
// The header must parse as numbers (comments allowed), so "P1 means ..." is text, not an image.

enum Netpbm: FormatFamily {
    static let rules = [
        Rule("netpbm", .firstByte([0x50]), produces: [.pbm, .pgm, .ppm, .pam, .pfm, .phm, .xvThumbnail], check: detect),
    ]

    /// Moves `o` past white space and `#` comments (to the end of their line) in a header.
    static func skipSpaceAndComments(_ v: ByteView, _ o: inout Int) {
        while let b = v.u8(o) {
            if ByteView.isSpace(b) { o += 1; continue }
            if b == UInt8(ascii: "#") { while let c = v.u8(o), c != 0x0A && c != 0x0D { o += 1 }; continue }
            break
        }
    }

    static func detect(_ input: Input) -> Step {
        let v = input.view
        guard let kind = v.u8(1) else { return .need(2, fallback: nil) }
        let type: ImageType
        let numbers: Int
        switch kind {
        case UInt8(ascii: "1"), UInt8(ascii: "4"): type = .pbm; numbers = 2
        case UInt8(ascii: "2"), UInt8(ascii: "5"): type = .pgm; numbers = 3
        case UInt8(ascii: "3"), UInt8(ascii: "6"): type = .ppm; numbers = 3
        case UInt8(ascii: "7"): return v.u8(2) == 0x20 ? xvThumbnail(input) : pam(input)
        case UInt8(ascii: "F"), UInt8(ascii: "f"): type = .pfm; numbers = 3
        case UInt8(ascii: "H"), UInt8(ascii: "h"): type = .phm; numbers = 3
        default: return .no
        }
        guard let sep = v.u8(2) else { return .need(3, fallback: nil) }
        // White space or a comment (netpbm reads `P6#comment` as `P6` and a comment).
        guard ByteView.isSpace(sep) || sep == UInt8(ascii: "#") else { return .no }
        // Width, height (and maxval or scale), separated by white space and `#` comments.
        var o = 2
        var parsed = 0
        while parsed < numbers {
            skipSpaceAndComments(v, &o)
            guard let b = v.u8(o) else { return .need(o + 16, fallback: nil) }
            let isFloat = type == .pfm || type == .phm
            if isFloat && parsed == 2 {
                // The scale: an optionally negative decimal number.
                guard b == UInt8(ascii: "-") || b == UInt8(ascii: "+") || ByteView.isDigit(b) || b == UInt8(ascii: ".") else { return .no }
            } else {
                guard ByteView.isDigit(b) else { return .no }
            }
            var digits = 0
            while let c = v.u8(o), ByteView.isDigit(c) || (isFloat && parsed == 2 && (c == UInt8(ascii: "-") || c == UInt8(ascii: "+") || c == UInt8(ascii: ".") || c == UInt8(ascii: "e") || c == UInt8(ascii: "E"))) {
                o += 1; digits += 1
                if digits > 20 { return .no }
            }
            guard let end = v.u8(o) else { return .need(o + 2, fallback: parsed >= 1 ? Hit(type) : nil) }
            guard ByteView.isSpace(end) || end == UInt8(ascii: "#") else { return .no }
            parsed += 1
        }
        return .hit(Hit(type))
    }

    /// `P7` then header lines of WIDTH, HEIGHT, DEPTH, MAXVAL, TUPLTYPE up to ENDHDR.
    /// (`P7 332` is an XV thumbnail, not PAM.)
    private static func pam(_ input: Input) -> Step {
        let v = input.view
        guard v.has(0, 4) else { return .need(8, fallback: nil) }
        guard v.base[2] == 0x0A else { return .no }
        var o = 3
        while let b = v.u8(o), b == UInt8(ascii: "#") {
            while let c = v.u8(o), c != 0x0A { o += 1 }
            o += 1
        }
        for keyword in ["WIDTH", "HEIGHT", "DEPTH", "MAXVAL", "TUPLTYPE", "ENDHDR"] as [StaticString] where v.matches(keyword, at: o) {
            return .hit(Hit(.pam))
        }
        return v.count < o + 8 ? .need(o + 8, fallback: nil) : .no
    }

    /// XV's thumbnails: `P7 332`, comment lines, then `WIDTH HEIGHT 255` and the 3-3-2 pixels.
    private static func xvThumbnail(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("P7 332\n") { return early }
        var o = 7
        while let b = v.u8(o), b == UInt8(ascii: "#") {
            while let c = v.u8(o), c != 0x0A { o += 1 }
            o += 1
        }
        var numbers = (0, 0, 0)
        for index in 0..<3 {
            var value = 0, digits = 0
            while let b = v.u8(o), ByteView.isDigit(b), digits < 6 { value = value * 10 + Int(b - 0x30); o += 1; digits += 1 }
            guard let end = v.u8(o) else { return .need(o + 16, fallback: nil) }
            guard digits > 0, end == (index == 2 ? 0x0A : 0x20) else { return .no }
            o += 1
            if index == 0 { numbers.0 = value } else if index == 1 { numbers.1 = value } else { numbers.2 = value }
        }
        guard numbers.0 > 0, numbers.1 > 0, numbers.2 == 255, input.totalLength >= o + numbers.0 * numbers.1 else { return .no }
        return .hit(Hit(.xvThumbnail))
    }
}

// MARK: - Properties

extension Netpbm {
    /// The bits a sample needs for values up to `maxval`.
    static func bits(forMaximum maxval: Int) -> Int {
        var bits = 1
        while bits < 32 && (1 << bits) - 1 < maxval { bits += 1 }
        return bits
    }
}

extension Netpbm {
    static let readers = [PropertyReader([.pbm, .pgm, .ppm, .pam, .pfm, .phm, .xvThumbnail], read: properties)]

    /// Whole: a binary image's raster (P4, P5, P6 after their header and one white space byte;
    /// PAM after `ENDHDR` and its line feed; PFM and PHM after their scale and one white space
    /// byte: 4-byte or 2-byte floats, three a pixel for `PF` and `PH`, one for `Pf` and `Ph`)
    /// fits in the data. Plain (ASCII) images are not checked. A file may hold more than one
    /// image: only the first is checked.
    static let verifiers = [Verifier([.pbm, .pgm, .ppm, .pam, .pfm, .phm]) { input, type, _ in rasterStep(input, type) }]

    static func rasterStep(_ input: Input, _ type: ImageType) -> VerifyStep {
        let v = input.view
        let bytesPerSample = { (maxval: Int) in maxval > 255 ? 2 : 1 }
        if type == .pam {
            // A header that the data ends within (no ENDHDR before the end) is cut short.
            let span = 0..<min(input.totalLength, 4096)
            guard v.has(span) else { return .needRange(span) }
            guard let end = v.find("ENDHDR", in: span) else { return span.upperBound == input.totalLength ? .truncated : .unknown }
            let header = 0..<end
            guard let w = v.number(after: "WIDTH", in: header), let h = v.number(after: "HEIGHT", in: header),
                  let depth = v.number(after: "DEPTH", in: header), let maxval = v.number(after: "MAXVAL", in: header) else { return .unknown }
            return Verifier.fits(end + 7, w, h, depth, bytesPerSample(maxval), in: input.totalLength)
        }
        let kind = v.u8(1) ?? 0
        if type == .pfm || type == .phm {
            var o = 2
            skipSpaceAndComments(v, &o)
            guard let w = v.decimal(at: &o) else { return .unknown }
            skipSpaceAndComments(v, &o)
            guard let h = v.decimal(at: &o) else { return .unknown }
            skipSpaceAndComments(v, &o)
            let scale = o
            while let c = v.u8(o), ByteView.isDigit(c) || "+-.eE".utf8.contains(c) { o += 1 }
            guard o > scale, v.u8(o).map(ByteView.isSpace) == true else { return .unknown }
            let channels = kind == UInt8(ascii: "F") || kind == UInt8(ascii: "H") ? 3 : 1
            return Verifier.fits(o + 1, w, h, channels, type == .pfm ? 4 : 2, in: input.totalLength)
        }
        guard kind == UInt8(ascii: "4") || kind == UInt8(ascii: "5") || kind == UInt8(ascii: "6") else { return .unknown }
        var o = 2
        var numbers: [Int] = []
        while numbers.count < (kind == UInt8(ascii: "4") ? 2 : 3) {
            skipSpaceAndComments(v, &o)
            guard let n = v.decimal(at: &o) else { return .unknown }
            numbers.append(n)
        }
        o += 1  // the one white space byte before the raster
        switch kind {
        case UInt8(ascii: "4"): return Verifier.fits(o, (numbers[0] + 7) / 8, numbers[1], in: input.totalLength)
        case UInt8(ascii: "5"): return Verifier.fits(o, numbers[0], numbers[1], bytesPerSample(numbers[2]), in: input.totalLength)
        default: return Verifier.fits(o, numbers[0], numbers[1], 3, bytesPerSample(numbers[2]), in: input.totalLength)
        }
    }

    /// The header's numbers (comments skipped): width, height, and maxval or scale; PAM's
    /// keyword lines.
    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        if type == .pam {
            guard let end = v.find("ENDHDR", in: 0..<min(v.count, 4096)) else { return .need(4096, partial: .unknown) }
            let range = 0..<end
            var p = ImageProperties(width: v.number(after: "WIDTH", in: range), height: v.number(after: "HEIGHT", in: range), frameCount: 1)
            let depth = v.number(after: "DEPTH", in: range) ?? 1
            if let maxval = v.number(after: "MAXVAL", in: range) { p.bitDepth = Netpbm.bits(forMaximum: maxval) }
            p.colorModel = depth >= 3 ? .rgb : .gray
            p.hasAlpha = depth == 2 || depth == 4
            return .done(p)
        }
        var o = type == .xvThumbnail ? 7 : 2
        var numbers: [Int] = []
        let wanted = type == .pbm ? 2 : 3
        while numbers.count < wanted {
            // White space and comments, then a number (PFM's scale is a decimal: only its sign counts).
            skipSpaceAndComments(v, &o)
            if (type == .pfm || type == .phm) && numbers.count == 2 { break }
            guard let n = v.decimal(at: &o) else { return v.u8(o) == nil ? .need(o + 64, partial: .unknown) : .done(.unknown) }
            numbers.append(n)
        }
        guard numbers.count >= 2 else { return .done(.unknown) }
        var p = ImageProperties(width: numbers[0], height: numbers[1], hasAlpha: false, frameCount: 1)
        let kind = v.u8(1) ?? 0
        switch type {
        case .pbm: p.bitDepth = 1; p.colorModel = .gray
        case .pgm: p.colorModel = .gray
        case .ppm: p.colorModel = .rgb
        case .pfm: p.bitDepth = 32; p.colorModel = kind == UInt8(ascii: "F") ? .rgb : .gray
        case .phm: p.bitDepth = 16; p.colorModel = kind == UInt8(ascii: "H") ? .rgb : .gray
        case .xvThumbnail: p.bitDepth = 8; p.colorModel = .rgb
        default: break
        }
        if (type == .pgm || type == .ppm), numbers.count == 3 { p.bitDepth = Netpbm.bits(forMaximum: numbers[2]) }
        return .done(p)
    }
}
