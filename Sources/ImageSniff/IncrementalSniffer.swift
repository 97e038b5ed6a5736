// Detection as bytes arrive, in the spirit of ImageIO's `CGImageSourceCreateIncremental`,
// `CGImageSourceUpdateData(_:_:final:)` and `CGImageSourceGetStatus`.

/// Detects a format from data that arrives in pieces: an upload body, a socket, a pipe.
///
/// Append chunks as they come and look at `status` after each: it says whether more bytes are
/// wanted (and how many from the start), or that the answer is decided. Call `finish()` when the
/// data ends. The length of the data may be known in advance (a `Content-Length`) or not.
///
/// ```swift
/// var sniffer = IncrementalSniffer(expectedLength: contentLength)
/// for try await chunk in body {
///     sniffer.append(chunk)
///     if case .decided(let detection) = sniffer.status { return detection }
/// }
/// sniffer.finish()
/// return sniffer.detection!
/// ```
///
/// Guarantees:
/// - **Monotonic.** Once `status` is `.decided`, more bytes never change the answer (they are
///   counted and otherwise ignored). `.provisional` answers may change; `.needsMoreData` answers
///   nothing.
/// - **Same answer as whole data.** After `finish()`, the answer is the one
///   `ImageSniffer.detect(_:hint:)` gives for all the bytes appended.
/// - **Bounded.** It keeps at most `Limits.maxPrefix` bytes from the start and
///   `Limits.tailLength` from the end, whatever the length of the data, and runs the detector
///   only when it has the bytes a check asked for (the wanted length at least doubles between
///   runs), not on every chunk.
///
/// A few formats need the end of the data: TGA's optional footer, and the formats without magic
/// that are checked against the length (WBMP, DEGAS...). For them the answer from the bytes seen
/// is `.provisional`: final unless the end says otherwise. With a known length, offer the last
/// bytes with `offerTail(_:)` (a ranged read) or keep appending; with an unknown length only
/// `finish()` settles it. `wantsMoreData` tells a reader when to stop reading.
public struct IncrementalSniffer: Sendable {
    /// What the sniffer knows so far.
    public enum Status: Sendable, Hashable {
        /// Nothing is decided yet: at least this many bytes from the start are wanted.
        case needsMoreData(Int)
        /// The answer is final: more bytes never change it.
        case decided(Detection)
        /// The answer from the bytes seen, final unless the end of the data says otherwise.
        case provisional(Detection, awaiting: Awaiting)
    }

    /// What would settle a provisional answer.
    public enum Awaiting: Sendable, Hashable {
        /// The last bytes of the data (`Limits.tailLength`): offer them with `offerTail(_:)`.
        case tail
        /// The end of the data: its length and last bytes, known at `finish()`.
        case end
    }

    public private(set) var status: Status = .needsMoreData(1)
    /// Every byte appended so far (kept or not).
    public private(set) var bytesSeen = 0
    /// Whether `finish()` was called.
    public private(set) var isFinished = false

    /// The length announced at creation, if any.
    public let expectedLength: Int?
    public let hint: String?
    /// What the sniffer may read (see `ReadBudget`): how far the first bytes are kept, far windows,
    /// and how many bytes it passes over to reach one.
    public let budget: ReadBudget

    /// The first bytes, up to the cap.
    private var prefix: [UInt8] = []
    /// Far windows taken from the stream as it passed: their bytes one after the other in `arena`.
    private var windows: [(offset: Int, start: Int, count: Int)] = []
    private var arena: [UInt8] = []
    /// The far window being filled from the stream, and how much of it has come.
    private var pending: Range<Int>?
    private var pendingBytes: [UInt8] = []
    /// Far windows read (and skipped-to), the end of the last, and bytes passed over to reach them.
    private var windowReads = 0
    private var forwardMark = 0
    private var skipped = 0
    /// The last bytes seen (up to `Limits.tailLength`), or the tail offered.
    private var lastBytes: [UInt8] = []
    private var tailOffered = false
    /// The prefix length at which the detector runs next.
    private var nextRun = 1

    /// - Parameters:
    ///   - expectedLength: the length of the whole data when known in advance (HTTP's
    ///     `Content-Length`, a file's size); nil when only the end of the stream will tell. If the
    ///     data turns out longer or shorter, `finish()` answers for the bytes that came.
    ///   - hint: an identifier, filename extension or MIME type (see `ImageSniffer.detect(_:hint:)`).
    ///   - budget: what the sniffer may read (the default: `ReadBudget.default`).
    public init(expectedLength: Int? = nil, hint: String? = nil, budget: ReadBudget = .default) {
        self.expectedLength = expectedLength.map { max(0, $0) }
        self.hint = hint
        self.budget = budget
        if expectedLength == 0 { evaluate() }
    }

    /// The answer so far: decided or provisional; nil while more data is wanted.
    public var detection: Detection? {
        switch status {
        case .needsMoreData: return nil
        case .decided(let d), .provisional(let d, _): return d
        }
    }

    /// Whether the answer is final.
    public var isDecided: Bool {
        if case .decided = status { return true }
        return false
    }

    /// Whether a reader should go on reading: nothing is decided, or a provisional answer still
    /// has room to grow the prefix (fewer than `ReadBudget.prefixCap` bytes seen). Past that,
    /// more bytes only matter at the end: a reader that stops answers with `detection`, and a
    /// reader that reaches the end calls `finish()`.
    public var wantsMoreData: Bool {
        switch status {
        case .needsMoreData: return !isFinished
        case .decided: return false
        case .provisional: return !isFinished && (bytesSeen < budget.prefixCap || pending != nil)
        }
    }

    /// Adds the next bytes of the data.
    public mutating func append<Bytes: Collection>(_ chunk: Bytes) where Bytes.Element == UInt8 {
        precondition(!isFinished, "IncrementalSniffer.append after finish()")
        let count = chunk.count
        guard count > 0 else { return }
        let start = bytesSeen
        bytesSeen += count
        if isDecided { return }
        // The first chunk is judged where it lies: a decision on it copies nothing.
        var judged: Verdict?
        if prefix.isEmpty && !tailOffered && start == 0, let first = chunk.withContiguousStorageIfAvailable({ judgeInPlace($0) }) {
            if case .decided(let answer) = first {
                status = .decided(answer)
                return
            }
            judged = first
        }
        let cap = budget.prefixCap
        let room = cap - prefix.count
        if room > 0 { prefix.append(contentsOf: chunk.prefix(room)) }
        if !tailOffered {
            if count >= Limits.tailLength {
                lastBytes = Array(chunk.suffix(Limits.tailLength))
            } else {
                lastBytes.append(contentsOf: chunk)
                if lastBytes.count > Limits.tailLength { lastBytes.removeFirst(lastBytes.count - Limits.tailLength) }
            }
        }
        if let judged { settle(judged) } else if case .provisional(_, .end) = status, pending == nil {
            // Only the end can change it now.
        } else if prefix.count >= nextRun || bytesSeen == expectedLength || (start + count > cap && pending == nil) {
            evaluate()
        }
        // Past the cap: the bytes a far window wants are kept; the others pass.
        if start + count > cap {
            var at = max(start, cap)
            let end = start + count
            var bytes = chunk.dropFirst(at - start)
            while at < end && !isDecided {
                guard let want = pending else { break }
                if want.lowerBound > at {
                    let pass = min(want.lowerBound, end) - at
                    skipped += pass
                    at += pass
                    bytes = bytes.dropFirst(pass)
                    if skipped > budget.bytesSkipped {
                        // Too far to go: the window is out of reach.
                        pending = nil
                        pendingBytes = []
                        forwardMark = max(forwardMark, want.upperBound)
                        evaluate()
                        continue
                    }
                    if at == end { break }
                }
                let take = min(want.upperBound, end) - at
                pendingBytes.append(contentsOf: bytes.prefix(take))
                at += take
                bytes = bytes.dropFirst(take)
                if at >= want.upperBound || (expectedLength.map { at >= $0 } ?? false) {
                    commitPending()
                    evaluate()
                }
            }
            // What no far window wanted has passed: no window can start before it now.
            forwardMark = max(forwardMark, pending == nil ? end : min(end, pending!.lowerBound))
        }
    }

    /// Holds the far window that has come whole.
    private mutating func commitPending() {
        guard let want = pending else { return }
        windows.append((want.lowerBound, arena.count, pendingBytes.count))
        arena.append(contentsOf: pendingBytes)
        forwardMark = max(forwardMark, want.upperBound)
        pending = nil
        pendingBytes = []
    }

    /// What the read plan may still fetch from the stream.
    private var reach: Reach {
        Reach(readsLeft: budget.reads - windowReads, windowBytesLeft: budget.bytesKept - budget.prefixCap - arena.count,
              forwardMark: forwardMark, prefixCap: budget.prefixCap)
    }

    /// Judges the first chunk where it lies (the status is the one its copy would get).
    private func judgeInPlace(_ chunk: UnsafeBufferPointer<UInt8>) -> Verdict {
        let bytes = UnsafeRawBufferPointer(chunk)
        let view = UnsafeRawBufferPointer(rebasing: bytes.prefix(budget.prefixCap))
        let known = expectedLength.map { max($0, bytesSeen) }
        let tail = known == bytesSeen ? UnsafeRawBufferPointer(rebasing: bytes.suffix(Limits.tailLength)) : nil
        return ImageSniffer.judge(ByteView(base: view), length: known, tail: tail, hint: hint, reach: reach)
    }

    /// Offers the last bytes of the data (for a known length): the answer awaiting them settles.
    /// At most `Limits.tailLength` of them are used.
    public mutating func offerTail<Bytes: Collection>(_ tail: Bytes) where Bytes.Element == UInt8 {
        guard !isDecided, !isFinished, expectedLength != nil else { return }
        lastBytes = Array(tail.suffix(Limits.tailLength))
        tailOffered = true
        evaluate()
    }

    /// The data has ended: the answer is decided from every byte appended.
    public mutating func finish() {
        guard !isFinished else { return }
        isFinished = true
        if isDecided { return }
        // A far window that was still coming holds what came.
        if pending != nil, !pendingBytes.isEmpty { commitPending() }
        pending = nil
        forwardMark = max(forwardMark, bytesSeen)
        let final = run(length: bytesSeen, tail: true)
        switch final {
        case .decided(let answer), .provisional(let answer, _): status = .decided(answer)
        case .needPrefix, .needRange:
            // Unreachable: with the end known, everything there is to have was offered.
            status = .decided(Detection(type: .data, confidence: .unknown, completeness: .truncated))
        }
    }

    /// Runs the detector on what is held.
    private func run(length: Int?, tail tailKnown: Bool) -> Verdict {
        let hint = self.hint
        let reach = self.reach
        return prefix.withUnsafeBytes { first in
            arena.withUnsafeBytes { held in
                let far = windows.map { FarWindow(offset: $0.offset, bytes: UnsafeRawBufferPointer(rebasing: held[$0.start..<($0.start + $0.count)])) }
                return far.withUnsafeBufferPointer { w in
                    lastBytes.withUnsafeBytes { tail in
                        ImageSniffer.judge(ByteView(base: first, windows: w), length: length, tail: tailKnown ? tail : nil, hint: hint, reach: reach)
                    }
                }
            }
        }
    }

    /// Runs the detector on what is held, and sets the status.
    private mutating func evaluate() {
        let known = expectedLength.map { max($0, bytesSeen) }
        // The tail is known once offered, or once the data has all come.
        let tailKnown = known != nil && (tailOffered || bytesSeen == known)
        settle(run(length: known, tail: tailKnown))
    }

    /// Takes the detector's answer for what is held; a request for more sets the next run or
    /// the far window to take from the stream.
    private mutating func settle(_ judged: Verdict) {
        let cap = budget.prefixCap
        let known = expectedLength.map { max($0, bytesSeen) }
        switch judged {
        case .decided(let answer):
            status = .decided(answer)
        case .provisional(let answer, let awaiting):
            status = .provisional(answer, awaiting: awaiting)
        case .needPrefix(let n):
            wantPrefix(n, cap: cap, known: known)
        case .needRange(let r):
            if ReadPlan.isNear(r, held: prefix.count, cap: cap) {
                wantPrefix(r.upperBound, cap: cap, known: known)
            } else {
                // A far window: taken from the stream when it comes (the bytes before it pass).
                let window = ReadPlan.window(for: r, length: known)
                pending = window
                pendingBytes = []
                windowReads += 1
                status = .needsMoreData(window.upperBound)
            }
        }
    }

    private mutating func wantPrefix(_ n: Int, cap: Int, known: Int?) {
        let held = prefix.count
        // At least double what is held between runs (a walk that asks for a few bytes more
        // each time costs a logarithmic number of runs), within what there is to have.
        nextRun = max(n, min(held * 2, held + 64 * 1024))
        nextRun = min(nextRun, min(known ?? cap, cap))
        status = .needsMoreData(nextRun)
    }
}
