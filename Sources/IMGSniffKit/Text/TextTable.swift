import ImageSniffScan
/// Columns aligned for a terminal: every table the command prints (scan, rename, undo, types,
/// summaries) goes through this one type.
package struct TextTable {
    package var header: [String]?
    package private(set) var rows: [[String]] = []
    private var rowStyles: [[Style?]] = []
    /// The column that gives way (truncated in the middle: `photos/…/IMG_0001`) when the table
    /// is wider than the terminal.
    package var flexibleColumn: Int?

    package init(header: [String]? = nil, flexibleColumn: Int? = nil) {
        self.header = header
        self.flexibleColumn = flexibleColumn
    }

    /// Adds a row; `styles` colours cells (by index) when the output is coloured.
    package mutating func append(_ cells: [String], styles: [Style?] = []) {
        rows.append(cells.map(TextTable.printable))
        rowStyles.append(styles)
    }

    package var isEmpty: Bool { rows.isEmpty }

    /// Control characters would break the layout, and direction controls would reorder the
    /// row: shown as `?` in tables (`Visible`).
    package static func printable(_ s: String) -> String {
        Visible.text(s)
    }

    /// `s` cut to `width` terminal columns by replacing its middle with "…".
    package static func truncatingMiddle(_ s: String, to width: Int) -> String {
        guard columns(s) > width else { return s }
        guard width >= 3 else { return String(s.prefix(columns: width)) }
        let keep = width - 1
        let head = (keep + 1) / 2
        let front = s.prefix(columns: head)
        return String(front) + "…" + String(s.suffix(columns: keep - columns(String(front))))
    }

    /// The terminal columns `s` takes: two for each East Asian wide or fullwidth character (CJK
    /// ideographs, kana, Hangul, fullwidth forms) and each emoji shown as a picture, none for a
    /// lone zero-width character, one for the rest (a letter and its combining marks are one
    /// character). What a terminal's `wcwidth` says for the common cases.
    package static func columns(_ s: String) -> Int {
        s.reduce(0) { $0 + $1.columns }
    }

    /// The table as text: columns two spaces apart, the last one unpadded, trailing spaces
    /// removed. With `width`, the flexible column shrinks (to no less than 12 characters) so that
    /// lines fit.
    package func render(width: Int? = nil, palette: Palette = .plain) -> String {
        let all = (header.map { [$0] } ?? []) + rows
        guard let columns = all.map(\.count).max(), columns > 0 else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in all {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], TextTable.columns(cell)) }
        }
        if let width, let flexible = flexibleColumn, flexible < columns {
            let total = widths.reduce(0, +) + 2 * (columns - 1)
            if total > width { widths[flexible] = max(12, widths[flexible] - (total - width)) }
        }
        var out = ""
        func line(_ cells: [String], styles: [Style?], bold: Bool) {
            var text = ""
            for (i, original) in cells.enumerated() {
                let cell = i == flexibleColumn ? TextTable.truncatingMiddle(original, to: widths[i]) : original
                let last = i == cells.count - 1
                let padded = last ? cell : cell + String(repeating: " ", count: max(0, widths[i] - TextTable.columns(cell)))
                let style = bold ? Style.bold : (i < styles.count ? styles[i] : nil)
                text += style.map { palette.paint(padded, $0) } ?? padded
                if !last { text += "  " }
            }
            while text.last == " " { text.removeLast() }
            out += text + "\n"
        }
        if let header { line(header, styles: [], bold: true) }
        for (row, styles) in zip(rows, rowStyles) { line(row, styles: styles, bold: false) }
        return out
    }
}

/// What a cell means, for colour.
package enum Style: Sendable {
    case bold, image, other, unknown, error, warning
}

/// Colours for a terminal, or none.
package struct Palette: Sendable {
    package let enabled: Bool

    package static let plain = Palette(enabled: false)

    package init(enabled: Bool) { self.enabled = enabled }

    package func paint(_ s: String, _ style: Style) -> String {
        guard enabled else { return s }
        let code: String
        switch style {
        case .bold: code = "1"
        case .image: code = "32"
        case .other: code = "36"
        case .unknown: code = "2"
        case .error: code = "31"
        case .warning: code = "33"
        }
        return "\u{1B}[" + code + "m" + s + "\u{1B}[0m"
    }
}

/// When to colour: `--color auto|always|never`, with the conventions of NO_COLOR
/// (https://no-color.org), CLICOLOR_FORCE and TERM=dumb.
package enum ColorChoice: String, Sendable, CaseIterable {
    case auto, always, never

    /// Whether output to `fd` is coloured.
    package func isEnabled(for fd: FileDescriptor = .standardOutput) -> Bool {
        switch self {
        case .always: return true
        case .never: return false
        case .auto:
            if Environment.isSet("NO_COLOR") { return false }
            if let force = Environment.value("CLICOLOR_FORCE"), !force.isEmpty, force != "0" { return true }
            if Environment.value("TERM") == "dumb" { return false }
            return fd.isTerminal
        }
    }
}

extension Character {
    /// The terminal columns it takes (`TextTable.columns`).
    var columns: Int {
        let scalars = unicodeScalars
        guard let first = scalars.first else { return 0 }
        if scalars.contains("\u{FE0F}") { return 2 }  // emoji presentation
        switch first.value {
        case 0x200B...0x200D, 0x2060, 0xFEFF: return 0
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x23E9...0x23EC, 0x23F0, 0x23F3,
             0x25FD...0x25FE, 0x2614...0x2615, 0x2648...0x2653, 0x267F, 0x2693, 0x26A1, 0x26AA...0x26AB,
             0x26BD...0x26BE, 0x26C4...0x26C5, 0x26CE, 0x26D4, 0x26EA, 0x26F2...0x26F3, 0x26F5, 0x26FA,
             0x26FD, 0x2705, 0x270A...0x270B, 0x2728, 0x274C, 0x274E, 0x2753...0x2755, 0x2757,
             0x2795...0x2797, 0x27B0, 0x27BF, 0x2B1B...0x2B1C, 0x2B50, 0x2B55,
             0x2E80...0x303E, 0x3041...0x33FF, 0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF,
             0xA960...0xA97F, 0xAC00...0xD7A3, 0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F,
             0xFF00...0xFF60, 0xFFE0...0xFFE6, 0x1F004, 0x1F0CF, 0x1F18E, 0x1F191...0x1F19A, 0x1F1E6...0x1F1FF,
             0x1F200...0x1F251, 0x1F300...0x1F64F, 0x1F680...0x1F6FF, 0x1F7E0...0x1F7EB,
             0x1F90C...0x1F9FF, 0x1FA70...0x1FAFF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return 2
        default:
            return 1
        }
    }
}

extension StringProtocol {
    /// The longest start of it that takes at most `width` terminal columns.
    func prefix(columns width: Int) -> SubSequence {
        var used = 0
        var end = startIndex
        for c in self {
            used += c.columns
            if used > width { break }
            end = index(after: end)
        }
        return self[..<end]
    }

    /// The longest end of it that takes at most `width` terminal columns.
    func suffix(columns width: Int) -> SubSequence {
        var used = 0
        var start = endIndex
        while start > startIndex {
            let before = index(before: start)
            used += self[before].columns
            if used > width { break }
            start = before
        }
        return self[start...]
    }
}
