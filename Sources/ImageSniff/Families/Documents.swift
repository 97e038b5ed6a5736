// Documents that sit next to images: PDF, PostScript and EPS (text, and the DOS binary EPS
// header), and DjVu (a scanned-document image format).

enum Documents: FormatFamily {
    static let rules = [
        Rule("PDF", .firstByte([0x25]), oneByteDecides: true, produces: [.pdf], check: pdf),
        Rule("PostScript, EPS", .firstByte([0x25]), oneByteDecides: true, produces: [.postScript, .eps], check: postScript),
        Rule("DOS EPS", .firstByte([0xC5]), produces: [.eps], check: dosEPS),
        Rule("DjVu", .firstByte([0x41]), produces: [.djvu], check: djvu),
    ]

    /// `%PDF-` and a version number `d.d`.
    static func pdf(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("%PDF-") { return early }
        guard let major = v.u8(5), let dot = v.u8(6) else { return .need(8, fallback: nil) }
        return ByteView.isDigit(major) && dot == UInt8(ascii: ".") ? .hit(Hit(.pdf)) : .no
    }

    /// `%!PS-Adobe-N.N` (EPS when the first line also says `EPSF-N.N`), or `%!` / `%!PS` alone on
    /// the first line followed by more PostScript comments or code.
    static func postScript(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("%!") { return early }
        let lineEnd = Text.firstLineEnd(v, from: 0, max: Budget.headerLine)
        guard let lineEnd else { return v.count < Budget.headerLine && input.hasMore ? .need(Budget.headerLine, fallback: nil) : .no }
        if v.matches("%!PS-Adobe-", at: 0), let d = v.u8(11), ByteView.isDigit(d) {
            if v.find("EPSF-", in: 11..<lineEnd) != nil { return .hit(Hit(.eps)) }
            return .hit(Hit(.postScript))
        }
        // `%!` or `%!PS` with nothing else on the line; or `%!`, a space and a title, with a
        // comment on the next line (`%! viewjpeg.ps   Copyright ...` then `%`).
        var o = v.matches("%!PS") ? 4 : 2
        let titled = o == 2 && (v.u8(2) == 0x20 || v.u8(2) == 0x09)
        while o < lineEnd, v.base[o] == 0x20 || v.base[o] == 0x09 { o += 1 }
        if o == lineEnd { return .hit(Hit(.postScript, .likely)) }
        guard titled else { return .no }
        var next = lineEnd
        while let b = v.u8(next), b == 0x0A || b == 0x0D { next += 1 }
        guard let first = v.u8(next) else { return input.hasMore ? .need(next + 1, fallback: nil) : .no }
        return first == UInt8(ascii: "%") ? .hit(Hit(.postScript, .likely)) : .no
    }

    /// DOS EPS binary header: `C5 D0 D3 C6`, then offsets to the PostScript section.
    static func dosEPS(_ input: Input) -> Step {
        let v = input.view
        guard v.equals(0xC5D0_D3C6, length: 4) else { return .no }
        guard let psStart = v.u32le(4), let psLength = v.u32le(8) else { return .need(12, fallback: nil) }
        return psStart >= 30 && psLength > 0 ? .hit(Hit(.eps)) : .no
    }

    static func djvu(_ input: Input) -> Step {
        let v = input.view
        if let early = v.signature("AT&TFORM") { return early }
        guard v.has(12, 4) else { return .need(16, fallback: nil) }
        return v.matches("DJVU", at: 12) || v.matches("DJVM", at: 12) || v.matches("DJVI", at: 12) || v.matches("THUM", at: 12)
            ? .hit(Hit(.djvu)) : .no
    }
}

// MARK: - Whole-file check

extension Documents {
    /// Whole PDF: its end-of-file marker, `%%EOF`, within its last 1,024 bytes (where readers
    /// look for it, as Acrobat's implementation notes to the PDF reference say; a writer may add
    /// a line end or a few bytes after it). A file cut right after an earlier revision's marker
    /// (an incremental update) or a linearized file's first part looks whole.
    static let verifiers = [
        Verifier([.pdf]) { input, _, _ in
            let length = input.totalLength
            let tail = max(0, length - 1024)..<length
            guard input.view.has(tail) else { return .needRange(tail) }
            return input.view.find("%%EOF", in: tail) != nil ? .complete : .truncated
        },
    ]
}

// MARK: - Properties

extension Documents {
    static let readers = [
        PropertyReader([.djvu], read: { input, _ in
            // The first INFO chunk (a single page's, or the first page of a bundled document).
            let v = input.view
            guard let at = v.find("INFO", in: 12..<min(v.count, 4096)) else {
                return v.count < 4096 && input.hasMore ? .need(4096, partial: .unknown) : .done(.unknown)
            }
            guard let w = v.u16be(at + 8), let h = v.u16be(at + 10) else { return .need(at + 12, partial: .unknown) }
            return .done(ImageProperties(width: Int(w), height: Int(h)))
        }),
    ]
}
