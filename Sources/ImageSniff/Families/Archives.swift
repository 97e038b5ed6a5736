// Archives: ZIP (and OpenRaster, a ZIP whose first member names its type) and gzip (and SVGZ, an
// SVG document inside gzip).

enum Archives: FormatFamily {
    static let rules = [
        Rule("ZIP, OpenRaster", .firstByte([0x50]), produces: [.zip, .openRaster], check: zip),
        Rule("gzip, SVGZ", .firstByte([0x1F]), produces: [.gzip, .svg], check: gzip),
    ]

    /// `PK\3\4`; OpenRaster when the first member is an uncompressed `mimetype` of `image/openraster`.
    static func zip(_ input: Input) -> Step {
        let v = input.view
        guard v.matchesAvailablePrefix("PK\u{03}\u{04}") else {
            // An empty archive is only its end record.
            return v.matches("PK\u{05}\u{06}") ? .hit(Hit(.zip)) : .no
        }
        guard v.count >= 30 else { return .need(30, fallback: v.count >= 4 ? Hit(.zip) : nil) }
        let nameLength = Int(v.u16le(26) ?? 0), extraLength = Int(v.u16le(28) ?? 0)
        if nameLength == 8 {
            guard v.has(30, 8) else { return .need(38, fallback: Hit(.zip)) }
        }
        if nameLength == 8, v.matches("mimetype", at: 30) {
            let data = 30 + nameLength + extraLength
            guard v.has(data, 16) else { return .need(data + 16, fallback: Hit(.zip)) }
            if v.matches("image/openraster", at: data) { return .hit(Hit(.openRaster)) }
        }
        return .hit(Hit(.zip))
    }

    static func gzip(_ input: Input) -> Step {
        let v = input.view
        guard let method = v.u8(2) else { return v.u8(1) == 0x8B ? .need(3, fallback: nil) : .no }
        guard v.u8(1) == 0x8B, method == 8 else { return .no }
        guard let flags = v.u8(3) else { return .need(10, fallback: nil) }
        guard flags & 0xE0 == 0 else { return .no }  // reserved flag bits are zero
        guard v.count >= 10 else { return .need(10, fallback: Hit(.gzip)) }
        // SVGZ: an SVG document inside. Inflate a bounded prefix and look at the root element.
        // Most gzip streams hold no markup (man pages, changelogs, tarballs): the first byte they
        // inflate to, past a byte order mark and white space, is not `<`, which a few bytes show
        // at a fraction of the cost of the whole window (the window took about 50 microseconds a
        // man page, most of a scan of /usr/share/man).
        if let (head, _) = Inflate.gunzipPrefix(v, limit: Budget.inflatedLead),
           let first = firstSignificant(head), head[first] != UInt8(ascii: "<") {
            return .hit(Hit(.gzip))
        }
        if let (inner, outcome) = Inflate.gunzipPrefix(v, limit: Budget.inflatedSVGZ) {
            // Decide only on all the output there is to see: a cut stream could turn to binary.
            if outcome == .ranOut && input.hasMore {
                return .need(min(input.limit, v.count * 2 + 4096), fallback: Hit(.gzip))
            }
            // A stream the data ends within (all of it in view) is judged on what it gave: an
            // SVG cut short is one, and truncated.
            let cut = outcome == .ranOut && v.count >= input.totalLength
            guard outcome == .complete || cut else { return .hit(Hit(.gzip)) }
            let isSVG = inner.withUnsafeBytes { raw -> Bool in
                let view = ByteView(base: raw)
                guard let start = firstSignificant(inner),
                      Text.isText(view, upTo: view.count, dataEndsAtView: false) else { return false }
                return Text.markupRoot(view, from: start) == .svg
            }
            if isSVG { return cut ? .need(input.totalLength + 1, fallback: Hit(.svg)) : .hit(Hit(.svg)) }
        }
        return .hit(Hit(.gzip))
    }

    /// Where inflated `output` goes on past a UTF-8 byte order mark and white space; nil when
    /// it does not reach a byte there yet (or holds only part of the mark).
    private static func firstSignificant(_ output: [UInt8]) -> Int? {
        let mark: [UInt8] = [0xEF, 0xBB, 0xBF]
        var i = 0
        if output.starts(with: mark) { i = 3 } else if mark.starts(with: output) { return nil }
        while i < output.count, ByteView.isSpace(output[i]) { i += 1 }
        return i < output.count ? i : nil
    }
}
