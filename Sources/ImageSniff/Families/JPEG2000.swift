// JPEG 2000: the JP2 signature box (JP2, JPX, JPM; Motion JPEG 2000 is a movie) and raw
// codestreams (J2K, J2C, HTJ2K).

enum JPEG2000: FormatFamily {
    static let rules = [
        Rule("JPEG 2000 signature box", .firstByte([0x00]), produces: [.jpeg2000, .mj2], check: box),
        Rule("JPEG 2000 codestream", .firstByte([0xFF]), produces: [.jpeg2000], check: codestream),
    ]

    /// The JP2 signature box, then `ftyp` with the brand deciding JP2/JPX/JPM vs Motion JPEG 2000.
    /// (The JPEG XL container has the same layout with its own signature: JPEGXL.swift.)
    static func box(_ input: Input) -> Step {
        let v = input.view
        guard v.u32be(0) == 12 || v.count < 4 else { return .no }
        if v.count < 12 {
            let maybe = v.prefixMatches(0x0000_000C, length: 4) && v.prefixMatches(0x6A50_2020_0D0A_870A, length: 8, at: 4)
            return maybe ? .need(12, fallback: nil) : .no
        }
        guard v.equals(0x6A50_2020_0D0A_870A, length: 8, at: 4) || v.equals(0x6A50_1A1A_0D0A_870A, length: 8, at: 4) else { return .no }
        guard let type = v.u32be(16), let brand = v.u32be(20) else { return .need(24, fallback: nil) }  // could be Motion JPEG 2000, a movie
        guard type == fourCC("ftyp") else { return .hit(Hit(.jpeg2000)) }
        let hit = brand == fourCC("mjp2") || brand == fourCC("mj2s") ? Hit(.mj2) : Hit(.jpeg2000)
        // The header box (`jp2h`, with the image's size) or a movie's `moov` follows the ftyp
        // box: data that ends with the ftyp is cut short.
        if let ftypSize = v.u32be(12), ftypSize >= 16, ftypSize <= 4096, !v.has(12 + Int(ftypSize), 8) {
            return .need(12 + Int(ftypSize) + 8, fallback: hit)
        }
        return .hit(hit)
    }

    /// A raw codestream: SOC (`FF 4F`) followed by SIZ (`FF 51`) and its plausible length.
    static func codestream(_ input: Input) -> Step {
        let v = input.view
        guard v.u8(1) == 0x4F else { return .no }
        guard let siz = v.u16be(2), let length = v.u16be(4) else { return .need(6, fallback: nil) }
        guard siz == 0xFF51, length >= 41 else { return .no }
        return .hit(Hit(.jpeg2000))
    }
}

// MARK: - Whole-file check

extension JPEG2000 {
    /// Whole: a raw codestream's tile-parts run to its end marker (EOC, `FF D9`); a JP2's
    /// top-level boxes end where the data does, one of them is the `jp2c` box that holds the
    /// codestream (brands `jp2 ` and `jph `, which require it: a JPX may keep its codestreams
    /// elsewhere), and a `jp2c` box that runs to the end (size 0) ends with EOC.
    static let verifiers = [
        Verifier([.jpeg2000], walk: { v in v.equals(0xFF4F_FF51, length: 4) ? nil : FrameWalk(.boxes, at: 0) }) { input, _, walked in
            let v = input.view
            if v.equals(0xFF4F_FF51, length: 4) { return codestreamStep(input) }
            var codestream = false
            return Verifier.boxes(input, walked: walked, box: { box in
                guard box.type == fourCC("jp2c") else { return nil }
                if v.u32be(box.start) == 0 { return endsWithEOC(input) }
                codestream = true
                return nil
            }, otherwise: {
                let brand = v.u32be(20)
                return codestream || (brand != fourCC("jp2 ") && brand != fourCC("jph ")) ? .complete : .truncated
            })
        },
    ]

    /// Whether the data's last two bytes are EOC.
    static func endsWithEOC(_ input: Input) -> VerifyStep {
        let length = input.totalLength
        guard length >= 2 else { return .truncated }
        let last = (length - 2)..<length
        guard input.view.has(last) else { return .needRange(last) }
        return input.view.u16be(length - 2) == 0xFFD9 ? .complete : .truncated
    }

    /// A raw codestream (ISO/IEC 15444-1, Annex A): the main header's marker segments (each a
    /// marker and a length) to the first SOT, then each tile-part as long as its SOT says (Psot),
    /// to EOC; what follows EOC is a trailer. A tile-part of length 0 runs to EOC, which must then
    /// end the data. The markers are asked for in order before the data's length is looked at, so
    /// that a stream keeps them as they pass. Unknown at a marker that is not one (damage) or past
    /// `Budget.codestreamMarkers` markers.
    static func codestreamStep(_ input: Input) -> VerifyStep {
        let v = input.view
        var at = 2  // after SOC
        for _ in 0..<Budget.codestreamMarkers {
            guard v.has(at..<(at + 2)) else { return .needRange(at..<(at + 2)) }  // past the end: truncated
            let marker = v.u16be(at)!
            if marker == 0xFFD9 { return .complete }
            guard marker >= 0xFF30 else { return .unknown }
            // Markers 0xFF30-0xFF3F stand alone (no length).
            if marker <= 0xFF3F { at += 2; continue }
            let field = (at + 2)..<(at + 4)
            guard v.has(field) else { return .needRange(field) }
            let length = Int(v.u16be(at + 2)!)
            guard length >= 2 else { return .unknown }
            if marker == 0xFF90 {  // SOT: Psot, the tile-part's length from the SOT marker on
                let psotField = (at + 6)..<(at + 10)
                guard length >= 10 else { return .unknown }
                guard v.has(psotField) else { return .needRange(psotField) }
                let psot = Int(v.u32be(at + 6)!)
                if psot == 0 { return endsWithEOC(input) }
                guard psot >= 14 else { return .unknown }
                at += psot
            } else {
                at += 2 + length
            }
        }
        return .unknown
    }
}

// MARK: - Properties

extension JPEG2000 {
    static let readers = [PropertyReader([.jpeg2000], read: properties)]

    static func properties(_ input: Input, _ type: ImageType) -> PropertyStep {
        let v = input.view
        if v.equals(0xFF4F_FF51, length: 4) { return codestream(v, at: 0) }
        var p = ImageProperties(frameCount: 1, hasICCProfile: false)
        // The boxes: jp2h holds ihdr (size, components, depth) and colr (colour space or ICC).
        var boxes = Boxes(v, from: 0, to: Int.max, dataEnd: input.totalLength)
        var steps = 0
        while steps < 64, let box = boxes.next() {
            steps += 1
            if box.type == fourCC("jp2c") { return p.width == nil ? codestream(v, at: box.payload) : .done(p) }
            guard box.type == fourCC("jp2h") else { continue }
            guard box.end <= v.count else { return .need(box.end, partial: p) }
            for child in Boxes(v, from: box.payload, to: box.end) {
                let c = child.start
                if child.type == fourCC("ihdr"), let h = v.u32be(c + 8), let w = v.u32be(c + 12), let nc = v.u16be(c + 16), let bpc = v.u8(c + 18) {
                    p.width = Int(w); p.height = Int(h)
                    p.bitDepth = bpc == 255 ? nil : Int(bpc & 0x7F) + 1
                    p.colorModel = nc >= 3 ? .rgb : .gray
                    p.hasAlpha = nc == 2 || nc == 4
                }
                if child.type == fourCC("colr"), let method = v.u8(c + 8) {
                    if method == 2 || method == 3 { p.hasICCProfile = true }
                    if method == 1, let cs = v.u32be(c + 11) {
                        switch cs {
                        case 12: p.colorModel = .cmyk
                        case 14: p.colorModel = .lab
                        case 17: p.colorModel = .gray
                        case 16, 18: p.colorModel = .rgb
                        default: break
                        }
                    }
                }
            }
            return .done(p)
        }
        if let wanted = boxes.needs { return .need(wanted.lowerBound + 8, partial: p) }
        return .done(p)
    }

    /// The codestream's SIZ segment: the image area, components and their depth.
    static func codestream(_ v: ByteView, at o: Int) -> PropertyStep {
        guard v.has(o, 44) else { return .need(o + 44, partial: .unknown) }
        guard v.equals(0xFF4F_FF51, length: 4, at: o), let x = v.u32be(o + 8), let y = v.u32be(o + 12),
              let x0 = v.u32be(o + 16), let y0 = v.u32be(o + 20), let components = v.u16be(o + 40), x > x0, y > y0 else { return .done(.unknown) }
        var p = ImageProperties(width: Int(x - x0), height: Int(y - y0), frameCount: 1)
        if let depth = v.u8(o + 42) { p.bitDepth = Int(depth & 0x7F) + 1 }
        p.colorModel = components >= 3 ? .rgb : .gray
        p.hasAlpha = components == 2 || components == 4
        return .done(p)
    }
}
