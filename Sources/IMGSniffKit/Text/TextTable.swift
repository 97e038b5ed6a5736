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

    /// `s` cut to `width` characters by replacing its middle with "…".
    package static func truncatingMiddle(_ s: String, to width: Int) -> String {
        guard s.count > width, width >= 3 else { return s.count > width ? String(s.prefix(width)) : s }
        let keep = width - 1
        let head = (keep + 1) / 2, tail = keep / 2
        return String(s.prefix(head)) + "…" + String(s.suffix(tail))
    }

    /// The table as text: columns two spaces apart, the last one unpadded, trailing spaces
    /// removed. With `width`, the flexible column shrinks (to no less than 12 characters) so that
    /// lines fit.
    package func render(width: Int? = nil, palette: Palette = .plain) -> String {
        let all = (header.map { [$0] } ?? []) + rows
        guard let columns = all.map(\.count).max(), columns > 0 else { return "" }
        var widths = [Int](repeating: 0, count: columns)
        for row in all {
            for (i, cell) in row.enumerated() { widths[i] = max(widths[i], cell.count) }
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
                let padded = last ? cell : cell + String(repeating: " ", count: max(0, widths[i] - cell.count))
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
