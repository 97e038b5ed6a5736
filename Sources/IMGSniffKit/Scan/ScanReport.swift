import ImageSniff
import ImageSniffScan
import ImageSniffMagic

/// Counts per type, unknowns, mismatches and errors: the table's closing summary and
/// `scan --summary`.
package struct ScanSummary: Sendable {
    /// Files scanned (named operands that do not exist are not counted).
    package var scanned = 0
    /// Records listed (those that passed the filters).
    package var listed = 0
    package var unknown = 0
    package var empty = 0
    /// Files that could not be read (the exit status is then 2).
    package var errors = 0
    /// FIFOs, devices and sockets met inside directories: listed, never opened, not errors.
    package var notRead = 0
    package var mismatches = 0
    /// Ctrl-C or SIGTERM stopped the scan before the end.
    package var interrupted = false
    package var perType: [ImageType: Int] = [:]
    package var crossCheck = CrossCheckSummary()

    package init() {}

    /// Counts a listed record.
    package mutating func count(_ r: ScanRecord) {
        listed += 1
        if let d = r.detection {
            if d.isUnknown {
                if r.length == 0 { empty += 1 } else { unknown += 1 }
            } else {
                perType[d.type, default: 0] += 1
            }
            if r.extensionMatches == false { mismatches += 1 }
        } else if r.isFailure {
            errors += 1
        } else {
            notRead += 1
        }
        switch r.crossCheck {
        case .compared(let fields)?:
            // The comparison again from libmagic's words (the record keeps them as text).
            if let ours = r.detection?.type {
                crossCheck.add(CrossCheckResult(ours: ours, libmagic: MagicResult(mimeType: fields.mimeType, description: fields.description)))
            }
        case .failed?: crossCheck.addError()
        case nil: break
        }
    }

    private var sortedTypes: [(key: ImageType, value: Int)] {
        perType.sorted { $0.value != $1.value ? $0.value > $1.value : $0.key.identifier < $1.key.identifier }
    }

    /// The summary as lines of text.
    package func lines(filtered: Bool) -> [String] {
        var out = ["\(listed) file\(listed == 1 ? "" : "s")" + (filtered && scanned != listed ? " listed (\(scanned) scanned)" : "")]
        var table = TextTable()
        for (type, n) in sortedTypes { table.append(["  \(n)", type.identifier, type.localizedDescription]) }
        if unknown > 0 { table.append(["  \(unknown)", "public.data", "unknown"]) }
        if empty > 0 { table.append(["  \(empty)", "public.data", "empty"]) }
        if mismatches > 0 { table.append(["  \(mismatches)", "extension mismatch\(mismatches == 1 ? "" : "es")"]) }
        if errors > 0 { table.append(["  \(errors)", "error\(errors == 1 ? "" : "s")"]) }
        if notRead > 0 { table.append(["  \(notRead)", "not read (FIFOs, devices, sockets)"]) }
        out += table.render().split(separator: "\n").map(String.init)
        if crossCheck.total + crossCheck.errors > 0 {
            out.append("")
            out += crossCheck.report(pairLimit: 10).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        if interrupted { out.append("interrupted: the scan stopped before the end") }
        return out
    }

    /// `scan --summary --format json`: one object.
    package func json() -> [UInt8] {
        var object = JSONObjectWriter()
        object.integer("schemaVersion", 2)
        object.integer("scanned", scanned)
        object.integer("listed", listed)
        object.object("types") { types in
            for (type, n) in sortedTypes { types.integer(named: type.identifier, n) }
        }
        object.integer("unknown", unknown)
        object.integer("empty", empty)
        object.integer("mismatches", mismatches)
        object.integer("errors", errors)
        object.integer("notRead", notRead)
        object.bool("interrupted", interrupted)
        if crossCheck.total + crossCheck.errors > 0 {
            object.object("libmagic") { counts in
                for verdict in Verdict.allCases { counts.integer(named: verdict.rawValue, crossCheck.counts[verdict] ?? 0) }
                counts.integer("errors", crossCheck.errors)
            }
        }
        return object.line()
    }

    /// `scan --summary --format csv`: identifier and count per row.
    package func csv() -> String {
        var out = CSV.row(["uti", "description", "count"])
        for (type, n) in sortedTypes { out += CSV.row([type.identifier, type.localizedDescription, String(n)]) }
        if unknown > 0 { out += CSV.row(["public.data", "unknown", String(unknown)]) }
        if empty > 0 { out += CSV.row(["public.data", "empty", String(empty)]) }
        if errors > 0 { out += CSV.row(["", "errors", String(errors)]) }
        if notRead > 0 { out += CSV.row(["", "not read", String(notRead)]) }
        if interrupted { out += CSV.row(["", "interrupted", "1"]) }
        return out
    }
}

/// The terminal table of `scan`.
package struct ScanTable {
    private var table: TextTable
    private let crossCheck: Bool
    private let properties: Bool

    package init(crossCheck: Bool, properties: Bool = false) {
        self.crossCheck = crossCheck
        self.properties = properties
        var header = ["PATH", "TYPE", "IDENTIFIER", "EXT", "FLAGS"]
        if properties { header += ["SIZE"] }
        if crossCheck { header += ["LIBMAGIC", "VERDICT"] }
        table = TextTable(header: header, flexibleColumn: 0)
    }

    package mutating func add(_ r: ScanRecord) {
        var cells = [r.displayPath]
        var styles: [Style?] = [nil]
        if let d = r.detection {
            var flags: [String] = []
            if d.confidence != .conclusive && d.confidence != .unknown { flags.append(d.confidence.rawValue) }
            if d.isAnimated { flags.append("animated") }
            if d.completeness == .truncated { flags.append("truncated") }
            let mismatch = r.extensionMatches == false
            if mismatch { flags.append("mismatch(.\(r.fileExtension ?? ""))") }
            cells += [d.isUnknown ? (r.length == 0 ? "empty" : "unknown") : d.type.localizedDescription, d.type.identifier,
                      d.type.preferredFilenameExtension ?? "-", flags.joined(separator: ",")]
            styles += [d.isUnknown ? .unknown : d.type.isImage ? .image : .other, nil, nil, mismatch ? .warning : nil]
        } else {
            cells += [r.problem.map { (r.isFailure ? "error: " : "not read: ") + $0.message } ?? "error", "-", "-", ""]
            styles += [.error, nil, nil, nil]
        }
        if properties {
            // WxH (and the frames of an animation), as the header states them.
            var size = "-"
            if let p = r.properties, let w = p.width, let h = p.height {
                size = "\(w)x\(h)"
                if let n = p.frameCount, n > 1 { size += " ×\(n)" }
            }
            cells.append(size)
            styles.append(nil)
        }
        if crossCheck {
            switch r.crossCheck {
            case .compared(let result)?: cells += [result.mimeType, result.verdict]
            case .failed?: cells += ["(error)", ""]
            case nil: cells += ["", ""]
            }
        }
        table.append(cells, styles: styles)
    }

    package func render(width: Int?, palette: Palette) -> String { table.render(width: width, palette: palette) }
}
