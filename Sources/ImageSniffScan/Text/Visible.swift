/// Text for a terminal: control characters shown as `?`.
package enum Visible {
    /// `text` with C0 controls, DEL, C1 controls and the Unicode direction controls shown as `?`
    /// (a file name's escape sequences never reach the terminal, and a right-to-left override
    /// cannot show `photo` U+202E `gpj.exe` as `photoexe.jpg`), line feeds too unless `keepingLineFeeds`.
    /// A one-line message keeps none: a line feed in a file name would start a line that reads as
    /// another message.
    package static func text(_ text: String, keepingLineFeeds: Bool = false) -> String {
        Visible.text(text) { s in isHidden(s) && !(keepingLineFeeds && s.value == 0x0A) }
    }

    /// Whether `s` is shown as `?`: a C0 or C1 control, DEL, a line or paragraph separator, a
    /// zero-width space, word joiner or byte order mark (invisible, so that two names would look
    /// the same), or a character that changes the direction of the text around it (marks,
    /// embeddings, overrides, isolates). Zero-width joiners and non-joiners are kept: emoji
    /// sequences and Persian and Indic words need them.
    package static func isHidden(_ s: Unicode.Scalar) -> Bool {
        switch s.value {
        case 0..<0x20, 0x7F...0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: return true
        case 0x2028, 0x2029: return true  // line and paragraph separators
        case 0x200B, 0x2060, 0xFEFF: return true  // zero width: "photo\u{200B}.jpg" looks like photo.jpg
        default: return false
        }
    }

    /// `text` with every scalar `hidden` picks shown as `?`.
    package static func text(_ text: String, hiding hidden: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: hidden) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { hidden($0) ? "?" : $0 }))
    }
}
