// The properties of the Text family's formats (the rules are in Text.swift).

extension Text {
    static let readers = [
        PropertyReader([.xbm], read: { input, _ in
            // The definitions, after a byte order mark, white space and the comments that may
            // come first (a copyright notice: X11's xbitmaps put 1.9 KB of it before `#define
            // xterm_width 48`), as detection finds them.
            let v = input.view
            var start = contentStart(v)
            if v.u8(start) == UInt8(ascii: "/") {
                if let defines = afterCComments(v, from: start, limit: Budget.textWindow) {
                    start = defines
                } else if v.count < Budget.textWindow && input.hasMore {
                    return .need(Budget.textWindow, partial: .unknown)
                }
            }
            let range = start..<max(start, min(v.count, start + 1024))
            let w = v.number(after: "_width ", in: range), h = v.number(after: "_height ", in: range)
            if (w == nil || h == nil) && v.count < start + 1024 && input.hasMore { return .need(start + 1024, partial: .unknown) }
            return .done(ImageProperties(width: w, height: h, bitDepth: 1, colorModel: .gray, hasAlpha: false, frameCount: 1))
        }),
        PropertyReader([.xpm], read: { input, _ in
            // XPM3: the first string of the array, "W H NCOLORS CPP"; XPM2: the line after the magic.
            let v = input.view
            let range = 0..<min(v.count, 4096)
            var o: Int
            if v.matches("! XPM2") {
                guard let line = v.find("\n", in: range) else { return .need(4096, partial: .unknown) }
                o = line + 1
            } else {
                guard let brace = v.find("{", in: range), let quote = v.find("\"", in: brace..<range.upperBound) else {
                    return v.count < 4096 && input.hasMore ? .need(4096, partial: .unknown) : .done(.unknown)
                }
                o = quote + 1
            }
            guard let w = v.decimal(at: &o), let h = v.decimal(at: &o) else { return .done(.unknown) }
            return .done(ImageProperties(width: w, height: h, bitDepth: 8, colorModel: .indexed, frameCount: 1))
        }),
    ]
}

// MARK: - Whole-file check

extension Text {
    static let verifiers = [Verifier([.svg]) { input, _, _ in svgStep(input) }]

    /// Whole SVGZ: each gzip member decodes to the end of its final block, and its trailer's
    /// length matches what came out (the output is counted, not kept: the CRC-32 is not
    /// checked). The compressed data is read whole, so only up to the first bytes' cap (512 KiB
    /// by default: Inkscape's examples are 100-200 KB); a larger one is not checked. A stream
    /// that does not decode is not whole either.
    static func svgzStep(_ input: Input) -> VerifyStep {
        let v = input.view, length = input.totalLength
        guard length <= input.limit else { return .unknown }
        guard v.has(0, length) else { return .needRange(0..<length) }
        switch Inflate.gzipMembers(v, length: length) {
        case .complete?: return .complete
        case .ranOut?, .corrupt?: return .truncated
        case nil: return .unknown
        }
    }

    /// Whole SVG: the root element's end tag (`</svg>`, or `</prefix:svg>`) ends the document,
    /// after which come only white space, comments and processing instructions (XML's Misc). A
    /// file cut short ends inside an element, or after an end tag of another. A gzip-compressed
    /// SVG (SVGZ) is whole when its gzip member is (`svgzStep`). UTF-16 text is not checked; nor
    /// is a nested `<svg>` told from the root (a cut right after an inner one's end tag looks
    /// whole).
    static func svgStep(_ input: Input) -> VerifyStep {
        let v = input.view, length = input.totalLength
        guard let b0 = v.u8(0), let b1 = v.u8(1) else { return .truncated }
        if b0 == 0x1F && b1 == 0x8B { return svgzStep(input) }
        if b0 == 0 || b1 == 0 || b0 == 0xFE || b0 == 0xFF { return .unknown }
        let tail = max(0, length - Verifier.tailWindow)..<length
        guard v.has(tail) else { return .needRange(tail) }
        func byte(_ at: Int) -> UInt8 { v.u8(at)! }
        /// The offset of the last `"<" + second` before `end` within the tail.
        func opening(_ second: UInt8, before end: Int) -> Int? {
            var at = end - 2
            while at >= tail.lowerBound {
                if byte(at) == UInt8(ascii: "<") && byte(at + 1) == second { return at }
                at -= 1
            }
            return nil
        }
        var end = length
        while true {
            while end > tail.lowerBound, ByteView.isSpace(byte(end - 1)) { end -= 1 }
            guard end - tail.lowerBound >= 2, byte(end - 1) == UInt8(ascii: ">") else { return .truncated }
            // A comment or a processing instruction after the root: passed over.
            let misc: UInt8? = end - tail.lowerBound >= 3 && v.matches("-->", at: end - 3) ? UInt8(ascii: "!")
                : byte(end - 2) == UInt8(ascii: "?") ? UInt8(ascii: "?") : nil
            guard let misc else { break }
            guard let start = opening(misc, before: end - 1) else { return .unknown }  // longer than the tail
            end = start
        }
        guard let tag = opening(UInt8(ascii: "/"), before: end - 1) else { return .truncated }
        var nameEnd = end - 1
        while nameEnd > tag + 2, ByteView.isSpace(byte(nameEnd - 1)) { nameEnd -= 1 }
        let name = tag + 2..<nameEnd
        guard name.count >= 3, v.matches("svg", at: name.upperBound - 3) else { return .truncated }
        return name.count == 3 || byte(name.upperBound - 4) == UInt8(ascii: ":") ? .complete : .truncated
    }
}
