import ImageSniffScan
/// A progress line on standard error ("imgsniff: 12345 files scanned (6000/s)"), only when it is
/// a terminal, after half a second, at most ten times a second.
package final class ProgressLine {
    private let enabled: Bool
    private let start: Double
    private var last = 0.0
    private var shown = false
    private let noun: String

    package init(enabled: Bool = FileDescriptor.standardError.isTerminal, noun: String = "files scanned") {
        self.enabled = enabled
        self.noun = noun
        start = Clock.monotonic()
    }

    package func update(_ count: Int, force: Bool = false) {
        guard enabled, force || count & 63 == 0 else { return }
        let t = Clock.monotonic()
        guard force || (t - start > 0.5 && t - last > 0.1) else { return }
        last = t
        let rate = t > start ? Int(Double(count) / (t - start)) : 0
        write("\r\u{1B}[Kimgsniff: \(count) \(noun) (\(rate)/s)")
        shown = true
    }

    /// Removes the line (before other messages and at the end).
    package func clear() {
        guard shown else { return }
        write("\r\u{1B}[K")
        shown = false
    }

    private func write(_ s: String) { try? FileDescriptor.standardError.writeAll(Array(s.utf8)) }
}
