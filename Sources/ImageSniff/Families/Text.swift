// Text-based images (SVG, XBM, XPM) and the text neighbours (HTML, XML, JSON, plain text). Magic
// that appears in prose ("/* XPM */ is a comment") must survive a check of what follows before
// it names a format. (PostScript and PDF, which start with text too, are in Documents.swift.)

enum Text: FormatFamily {
    static let rules = [
        Rule("XPM", .firstByte([0x2F, 0x21]), oneByteDecides: true, produces: [.xpm], check: xpm),
        Rule("XBM", .firstByte([0x23]), oneByteDecides: true, produces: [.xbm], check: xbm),
        Rule("text (SVG, HTML, XML, JSON, XBM, plain)", .elsewhere, strength: .heuristic,
             produces: [.svg, .html, .xml, .json, .xbm, .plainText], check: classify),
    ]




    /// XPM3 (`/* XPM */`) or XPM2 (`! XPM2`).
    static func xpm(_ input: Input) -> Step {
        let v = input.view
        return v.matches("/* XPM */") || v.matches("! XPM2") ? .hit(Hit(.xpm)) : .no
    }

    /// XBM: C source that is exactly a bitmap's definitions, as X11's reader takes them:
    /// `#define NAME_width N`, `#define NAME_height N` (optionally `NAME_x_hot`, `NAME_y_hot`), then
    /// `static [unsigned] char ANY_bits[] = {` (`short` in X10 bitmaps). Other C source that
    /// defines a `_width` is not a bitmap.
    static func xbm(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("#define ") { return early }
        // The definitions and the array's declaration are within this window.
        let window = 4 * Budget.headerLine
        if v.count < window && input.hasMore { return .need(window, fallback: nil) }
        var o = 0
        guard let name = define(v, at: &o), name.count > 6, v.matches("_width", at: name.upperBound - 6) else { return .no }
        let stem = name.lowerBound..<(name.upperBound - 6)
        guard let height = define(v, at: &o), sameStem(v, stem, height, suffix: "_height") else { return .no }
        // Hot spot definitions, then the array of bits.
        while let hot = define(v, at: &o) {
            guard sameStem(v, stem, hot, suffix: "_x_hot") || sameStem(v, stem, hot, suffix: "_y_hot") else { return .no }
        }
        guard let statement = v.find("static", in: o..<min(v.count, o + window)) else { return .no }
        var p = statement
        while p < min(v.count, statement + window), v.base[p] != UInt8(ascii: "[") { p += 1 }
        // The array's name may differ from the definitions' (X11 reads only its `_bits` suffix;
        // Ghostscript's gs_m.xbm declares gs.m.bm_bits after gs_m.xbm_width).
        guard p < v.count, p - 5 > statement, v.matches("_bits", at: p - 5) else { return .no }
        return .hit(Hit(.xbm))
    }

    /// One `#define NAME DIGITS` line at `o` (blank lines before it skipped): the range of NAME,
    /// with `o` moved past the line; nil (and `o` unmoved) when there is none.
    private static func define(_ v: ByteView, at o: inout Int) -> Range<Int>? {
        var p = o
        while let b = v.u8(p), ByteView.isSpace(b) { p += 1 }
        guard v.matches("#define", at: p) else { return nil }
        p += 7
        guard let gap = v.u8(p), gap == 0x20 || gap == 0x09 else { return nil }
        while let b = v.u8(p), b == 0x20 || b == 0x09 { p += 1 }
        let start = p
        while let b = v.u8(p), !ByteView.isSpace(b) { p += 1 }
        let name = start..<p
        while let b = v.u8(p), b == 0x20 || b == 0x09 { p += 1 }
        let digits = p
        while let b = v.u8(p), ByteView.isDigit(b) { p += 1 }
        guard p > digits, !name.isEmpty, let end = v.u8(p), end == 0x0A || end == 0x0D || end == 0x20 || end == 0x09 else { return nil }
        while let b = v.u8(p), b != 0x0A { p += 1 }
        o = p
        return name
    }

    /// Whether `name` is `stem` followed by `suffix`.
    private static func sameStem(_ v: ByteView, _ stem: Range<Int>, _ name: Range<Int>, suffix: StaticString) -> Bool {
        name.count == stem.count + suffix.utf8CodeUnitCount && v.matches(suffix, at: name.lowerBound + stem.count)
            && v.base[name.lowerBound..<(name.lowerBound + stem.count)].elementsEqual(v.base[stem])
    }

    static func firstLineEnd(_ v: ByteView, from: Int, max: Int) -> Int? {
        var o = from
        while o < v.count && o < from + max {
            if v.base[o] == 0x0A || v.base[o] == 0x0D { return o }
            o += 1
        }
        return nil
    }

    // MARK: Generic text

    /// Whether the bytes look like text: no NUL and no control characters other than the
    /// usual white space, form feed, backspace and escape; valid UTF-8, or else a single-byte
    /// code page (Latin-1, Windows-1252 with its quotes and dashes at 0x80–0x9F, Mac Roman) with
    /// few bytes above 0x7F.
    static func isText(_ v: ByteView, upTo limit: Int, dataEndsAtView: Bool) -> Bool {
        let n = min(v.count, limit)
        let dataEndsHere = dataEndsAtView && n == v.count
        var utf8 = true
        var high = 0
        var i = 0
        let ones: UInt64 = 0x0101_0101_0101_0101, highs: UInt64 = 0x8080_8080_8080_8080
        while i < n {
            // Eight bytes at a time while they are printable ASCII (no high bit, nothing below
            // 0x20, no DEL); the first other byte (a line feed, a UTF-8 lead byte) goes through
            // the byte-by-byte rules below, after the printable bytes before it. (The lowest byte
            // these masks flag is exact: a borrow only carries upwards.)
            if i + 8 <= n {
                let w = v.base.loadUnaligned(fromByteOffset: i, as: UInt64.self)
                let control = (w &- ones &* 0x20) & ~w & highs
                let del = ((w ^ (ones &* 0x7F)) &- ones) & ~(w ^ (ones &* 0x7F)) & highs
                let other = (w & highs) | control | del
                guard other != 0 else {
                    i += 8
                    continue
                }
                i += other.trailingZeroBitCount >> 3
            }
            let b = v.base[i]
            if b < 0x80 {
                if b < 0x20 {
                    switch b {
                    case 0x09, 0x0A, 0x0C, 0x0D, 0x08, 0x1B: break
                    default: return false
                    }
                } else if b == 0x7F {
                    return false
                }
                i += 1
                continue
            }
            high += 1
            if utf8 {
                let length: Int
                switch b {
                case 0xC2...0xDF: length = 2
                case 0xE0...0xEF: length = 3
                case 0xF0...0xF4: length = 4
                default: length = 0
                }
                if length == 0 {
                    utf8 = false
                } else {
                    var k = 1
                    while k < length && i + k < n {
                        if v.base[i + k] & 0xC0 != 0x80 { utf8 = false; break }
                        k += 1
                    }
                    // Cut mid-character: fine where the window (not the data) ends.
                    if utf8 && k < length && dataEndsHere { utf8 = false }
                    if utf8 { i += length; continue }
                }
            }
            i += 1
        }
        // Code-page text is mostly ASCII with the odd accented letter or curly quote; more high
        // bytes than that is binary.
        return utf8 || high * 8 <= n
    }

    /// Whether the code units after a UTF-16 byte order mark look like text: at least two, no
    /// NUL and no control characters other than the usual white space, every surrogate paired,
    /// and at least four of them. A BOM is two bytes that binary headers have too (GD's truecolor
    /// `FF FE` and two 16-bit sizes).
    static func isUTF16Text(_ v: ByteView, upTo limit: Int, bigEndian: Bool) -> Bool {
        let n = min(v.count, limit)
        var units = 0
        var i = 2
        var expectLow = false
        while i + 1 < n {
            let unit = bigEndian ? UInt16(v.base[i]) << 8 | UInt16(v.base[i + 1]) : UInt16(v.base[i + 1]) << 8 | UInt16(v.base[i])
            switch unit {
            case 0x09, 0x0A, 0x0C, 0x0D: if expectLow { return false }
            case 0x00..<0x20, 0x7F, 0xFFFE, 0xFFFF: return false
            case 0xD800...0xDBFF:
                if expectLow { return false }
                expectLow = true
            case 0xDC00...0xDFFF:
                if !expectLow { return false }
                expectLow = false
            default: if expectLow { return false }
            }
            units += 1
            i += 2
        }
        return units >= 4
    }

    /// Whether the code points after a UTF-32 byte order mark look like text: at least four, none
    /// NUL, a control other than white space, a surrogate or past U+10FFFF.
    static func isUTF32Text(_ v: ByteView, upTo limit: Int, bigEndian: Bool) -> Bool {
        let n = min(v.count, limit)
        var units = 0
        var i = 4
        while i + 3 < n {
            guard let u = bigEndian ? v.u32be(i) : v.u32le(i) else { break }
            switch u {
            case 0x09, 0x0A, 0x0C, 0x0D: break
            case 0x00..<0x20, 0x7F, 0xD800...0xDFFF, 0x110000...: return false
            default: break
            }
            units += 1
            i += 4
        }
        return units >= 4
    }

    /// Classifies text: SVG, HTML and XML by their first element, JSON by its shape, XBM/XPM by
    /// their C text, otherwise plain text.
    static func classify(_ input: Input) -> Step {
        let v = input.view
        var utf16 = false
        if v.equals(0xFFFE, length: 2) || v.equals(0xFEFF, length: 2) { utf16 = true }
        let utf32: Bool? = v.equals(0xFFFE_0000, length: 4) ? false : v.equals(0x0000_FEFF, length: 4) ? true : nil
        // Text is judged on its first 2 KiB (or the whole, when shorter): no sooner, so that a
        // prefix never says "text" of data that turns binary within the window.
        // (The length is read only when it matters: a stream's text is judged without its end.)
        let window = v.count >= Budget.textWindow ? Budget.textWindow : min(input.totalLength, Budget.textWindow)
        if v.count < window && input.hasMore { return .need(window, fallback: nil) }
        if let bigEndian = utf32 { return isUTF32Text(v, upTo: window, bigEndian: bigEndian) ? .hit(Hit(.plainText, .likely)) : .no }
        if utf16 {
            let bigEndian = v.base[0] == 0xFE
            guard isUTF16Text(v, upTo: window, bigEndian: bigEndian) else { return .no }
            return .hit(utf16Markup(v, upTo: window, bigEndian: bigEndian) ?? Hit(.plainText, .likely))
        }
        guard isText(v, upTo: window, dataEndsAtView: v.count <= window && input.isWhole) else { return .no }
        let start = contentStart(v)
        guard start < v.count else { return v.count >= 2 ? .hit(Hit(.plainText, .likely)) : .no }
        guard v.count >= 2 else { return .no }  // one byte says nothing

        if v.base[start] == UInt8(ascii: "<") {
            let more = input.hasMore && v.count < Budget.markupWindow
            // Judged on the markup window at most: a source that happens to hold more (a stream's
            // chunk, a larger first read) must not see a prolog end that the window does not.
            let markup = v.count > Budget.markupWindow
                ? ByteView(base: UnsafeRawBufferPointer(rebasing: v.base.prefix(Budget.markupWindow))) : v
            switch markupRoot(markup, from: start, complete: !more) {
            case .svg: return .hit(Hit(.svg))
            case .html: return .hit(Hit(.html, .likely))
            case .xml: return .hit(Hit(.xml, .likely))
            case .undecided:
                if more { return .need(min(v.count * 4, Budget.markupWindow), fallback: Hit(.xml, .likely)) }
                return .hit(Hit(.xml, .likely))
            case .unclosed:
                return .need(min(v.count * 4, Budget.markupWindow), fallback: Hit(.plainText, .likely))
            case .notMarkup: break
            }
        }
        if v.base[start] == UInt8(ascii: "{") || v.base[start] == UInt8(ascii: "[") {
            // The closing bracket is at the far end: in view, in the tail, or to be read.
            if let end = input.isWhole ? v : input.tail {
                if looksLikeJSON(v, from: start, end: end) { return .hit(Hit(.json, .likely)) }
            } else {
                return .needTail(fallback: Hit(.plainText, .likely))
            }
        }
        if xbm(input.dropping(first: start)).isHit {
            return .hit(Hit(.xbm))
        }
        // XBM after a C comment (a copyright notice): X11's reader skips it too.
        if v.base[start] == UInt8(ascii: "/"), let defines = afterCComments(v, from: start, limit: window),
           xbm(input.dropping(first: defines)).isHit {
            return .hit(Hit(.xbm))
        }
        return .hit(Hit(.plainText, .likely))
    }

    /// Markup in UTF-16 text (after its byte order mark; XML 1.0 section 4.3.3 lets a document be
    /// UTF-16 with a BOM): the code units of the text window, ASCII as bytes and anything else as
    /// one byte that is neither a name nor markup (0x80), judged by `markupRoot` as UTF-8 is.
    /// The window is all there is to see: SVG, HTML or XML by the first element, XML when the
    /// prolog or the first tag runs past it; nil when it is not markup.
    static func utf16Markup(_ v: ByteView, upTo limit: Int, bigEndian: Bool) -> Hit? {
        let n = min(v.count, limit)
        var ascii: [UInt8] = []
        ascii.reserveCapacity(n / 2)
        var i = 2
        while i + 1 < n {
            let unit = bigEndian ? UInt16(v.base[i]) << 8 | UInt16(v.base[i + 1]) : UInt16(v.base[i + 1]) << 8 | UInt16(v.base[i])
            ascii.append(unit < 0x80 ? UInt8(unit) : 0x80)
            i += 2
        }
        var start = 0
        while start < ascii.count, ByteView.isSpace(ascii[start]) { start += 1 }
        guard start < ascii.count, ascii[start] == UInt8(ascii: "<") else { return nil }
        return ascii.withUnsafeBytes { buffer -> Hit? in
            let text = ByteView(base: buffer)
            switch markupRoot(text, from: start, complete: true) {
            case .svg: return Hit(.svg)
            case .html: return Hit(.html, .likely)
            case .xml: return Hit(.xml, .likely)
            case .undecided: return Hit(.xml, .likely)  // as UTF-8 markup cut in its prolog or first tag
            case .unclosed, .notMarkup: return nil
            }
        }
    }

    /// Where UTF-8 text's content begins: past a byte order mark and white space.
    static func contentStart(_ v: ByteView) -> Int {
        var start = v.equals(0xEFBB_BF, length: 3) ? 3 : 0
        while start < v.count, ByteView.isSpace(v.base[start]) { start += 1 }
        return start
    }

    /// Where C comments (`/* ... */`, `// ...`) and the white space around them end, within
    /// `limit`; nil when a comment runs past it.
    static func afterCComments(_ v: ByteView, from start: Int, limit: Int) -> Int? {
        let end = min(v.count, limit)
        var o = start
        while o + 1 < end, v.base[o] == UInt8(ascii: "/") {
            if v.base[o + 1] == UInt8(ascii: "*") {
                guard let close = v.find("*/", in: (o + 2)..<end) else { return nil }
                o = close + 2
            } else if v.base[o + 1] == UInt8(ascii: "/") {
                guard let line = firstLineEnd(v, from: o, max: end - o) else { return nil }
                o = line
            } else {
                return nil
            }
            while o < end, ByteView.isSpace(v.base[o]) { o += 1 }
        }
        return o < end && o > start ? o : nil
    }

    /// What the start of markup says. `undecided`: the view ends inside the prolog or a tag;
    /// `unclosed`: the first element (without an XML declaration) is not closed within the view,
    /// and more of the data may close it.
    enum Markup { case svg, html, xml, undecided, unclosed, notMarkup }

    /// Skips the prolog (`<?...?>`, comments, `<!DOCTYPE ...>`) to the first element. Without an
    /// XML declaration, text only counts as markup when its first element is well formed and
    /// closed again (`<a>…</a>` or `<a/>`): `<https://example.com>` or `<DRAFT!>` is prose.
    /// `complete`: the view is all there is to see, so a token it cuts is judged as it stands;
    /// otherwise the answer never depends on where the view happens to end.
    static func markupRoot(_ v: ByteView, from start: Int, complete: Bool = true) -> Markup {
        var o = start
        var sawDeclaration = false
        for _ in 0..<Budget.markupItems {
            while o < v.count, ByteView.isSpace(v.base[o]) { o += 1 }
            guard o < v.count else { return .undecided }
            guard v.base[o] == UInt8(ascii: "<") else { return sawDeclaration ? .xml : .notMarkup }
            // A token cut by the end of the view (`<!-`, `<!DOCT`) is not judged on its start.
            if !complete && v.count - o < 9 { return .undecided }
            if v.matches("<?", at: o) {
                guard let end = v.find("?>", in: o..<v.count) else { return .undecided }
                if v.matches("<?xml", at: o) { sawDeclaration = true }
                o = end + 2
            } else if v.matches("<!--", at: o) {
                guard let end = v.find("-->", in: o..<v.count) else { return .undecided }
                o = end + 3
            } else if v.matchesIgnoringCase("<!DOCTYPE", at: o) {
                if v.matchesIgnoringCase("<!DOCTYPE html", at: o) { return .html }
                if v.matchesIgnoringCase("<!DOCTYPE svg", at: o) { return .svg }
                // Skip to the closing '>' (past an internal subset in brackets).
                var depth = 0
                var p = o + 9
                while p < v.count {
                    let b = v.base[p]
                    if b == UInt8(ascii: "[") { depth += 1 } else if b == UInt8(ascii: "]") { depth -= 1 } else if b == UInt8(ascii: ">") && depth <= 0 { break }
                    p += 1
                }
                guard p < v.count else { return .undecided }
                o = p + 1
            } else {
                return element(v, at: o, declared: sawDeclaration, complete: complete)
            }
        }
        return .undecided
    }

    private static func isNameStart(_ c: UInt8) -> Bool {
        (c >= 0x41 && c <= 0x5A) || (c >= 0x61 && c <= 0x7A) || c == UInt8(ascii: "_")
    }

    private static func isNameByte(_ c: UInt8) -> Bool {
        isNameStart(c) || ByteView.isDigit(c) || c == UInt8(ascii: "-") || c == UInt8(ascii: ".") || c == UInt8(ascii: ":")
    }

    /// The first element at `o` (which holds `<`): its name decides SVG and HTML.
    private static func element(_ v: ByteView, at o: Int, declared: Bool, complete: Bool) -> Markup {
        guard let c = v.u8(o + 1) else { return .undecided }
        guard isNameStart(c) else { return declared ? .xml : .notMarkup }
        var nameEnd = o + 1
        while nameEnd < v.count, isNameByte(v.base[nameEnd]) { nameEnd += 1 }
        guard nameEnd < v.count else { return .undecided }
        let terminator = v.base[nameEnd]
        if !complete && terminator == UInt8(ascii: "/") && nameEnd + 1 >= v.count { return .undecided }
        let selfClosing = terminator == UInt8(ascii: "/") && v.u8(nameEnd + 1) == UInt8(ascii: ">")
        guard ByteView.isSpace(terminator) || terminator == UInt8(ascii: ">") || selfClosing else {
            return declared ? .xml : .notMarkup
        }
        let nameLength = nameEnd - (o + 1)
        var local = o + 1
        if let colon = v.find(":", in: (o + 1)..<nameEnd) { local = colon + 1 }
        if nameEnd - local == 3, v.matches("svg", at: local) { return .svg }
        let htmlNames: [StaticString] = ["html", "head", "body", "title", "meta", "script", "div", "p", "a", "table"]
        for name in htmlNames where name.utf8CodeUnitCount == nameLength && v.matchesIgnoringCase(name, at: o + 1) {
            return declared && nameLength != 4 ? .xml : .html
        }
        if declared { return .xml }
        // No declaration: the element must close (self-closing, or a matching end tag in reach).
        guard let close = v.find(">", in: nameEnd..<v.count) else { return .undecided }
        if close > 0 && v.base[close - 1] == UInt8(ascii: "/") { return .xml }
        var p = close + 1
        while p + 2 + nameLength <= v.count {
            if v.base[p] == UInt8(ascii: "<") && v.base[p + 1] == UInt8(ascii: "/") {
                var same = true
                for i in 0..<nameLength where v.base[p + 2 + i] != v.base[o + 1 + i] { same = false; break }
                if same { return .xml }
            }
            p += 1
        }
        return complete ? .notMarkup : .unclosed
    }

    /// JSON's shape: an object starting with a string key (or empty), or an array of values,
    /// closed by the matching bracket at the end of the data (in `end`: the whole data, or its
    /// last bytes).
    static func looksLikeJSON(_ v: ByteView, from start: Int, end: ByteView) -> Bool {
        let open = v.base[start]
        var o = start + 1
        while o < v.count, ByteView.isSpace(v.base[o]) { o += 1 }
        guard o < v.count else { return false }
        let first = v.base[o]
        if open == UInt8(ascii: "{") {
            guard first == UInt8(ascii: "\"") || first == UInt8(ascii: "}") else { return false }
        } else {
            switch first {
            case UInt8(ascii: "\""), UInt8(ascii: "{"), UInt8(ascii: "["), UInt8(ascii: "]"), UInt8(ascii: "-"),
                 UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                break
            default:
                guard ByteView.isDigit(first) else { return false }
            }
        }
        var last = end.count - 1
        while last >= 0, ByteView.isSpace(end.base[last]) { last -= 1 }
        guard last >= 0 else { return false }
        return end.base[last] == (open == UInt8(ascii: "{") ? UInt8(ascii: "}") : UInt8(ascii: "]"))
    }
}
