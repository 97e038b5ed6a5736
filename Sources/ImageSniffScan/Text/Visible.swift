/// Text for a terminal: control characters shown as `?`.
package enum Visible {
    /// `text` with C0 controls, DEL and C1 controls shown as `?` (a file name's escape sequences
    /// never reach the terminal), line feeds too unless `keepingLineFeeds`. A one-line message
    /// keeps none: a line feed in a file name would start a line that reads as another message.
    package static func text(_ text: String, keepingLineFeeds: Bool = false) -> String {
        Visible.text(text) { s in
            (s.value < 0x20 && !(keepingLineFeeds && s.value == 0x0A)) || (0x7F...0x9F).contains(s.value)
        }
    }

    /// `text` with every scalar `hidden` picks shown as `?` (the table hides fewer).
    package static func text(_ text: String, hiding hidden: (Unicode.Scalar) -> Bool) -> String {
        guard text.unicodeScalars.contains(where: hidden) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { hidden($0) ? "?" : $0 }))
    }
}
