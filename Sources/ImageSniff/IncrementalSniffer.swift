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

    /// The first bytes, up to the read cap.
    private var prefix: [UInt8] = []
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
    public init(expectedLength: Int? = nil, hint: String? = nil) {
        self.expectedLength = expectedLength.map { max(0, $0) }
        self.hint = hint
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
    /// has room to grow the prefix (fewer than `Limits.maxPrefix` bytes seen). Past that, more
    /// bytes only matter at the end: a reader that stops answers with `detection`, and a reader
    /// that reaches the end calls `finish()`.
    public var wantsMoreData: Bool {
        switch status {
        case .needsMoreData: return !isFinished
        case .decided: return false
        case .provisional: return !isFinished && bytesSeen < Limits.maxPrefix
        }
    }

    /// Adds the next bytes of the data.
    public mutating func append<Bytes: Collection>(_ chunk: Bytes) where Bytes.Element == UInt8 {
        precondition(!isFinished, "IncrementalSniffer.append after finish()")
        let count = chunk.count
        guard count > 0 else { return }
        bytesSeen += count
        if isDecided { return }
        // The first chunk is judged where it lies: a decision on it copies nothing.
        var judged: Status?
        if prefix.isEmpty && !tailOffered, let first = chunk.withContiguousStorageIfAvailable({ judgeInPlace($0) }) {
            if case .decided = first {
                status = first
                return
            }
            judged = first
        }
        let room = Limits.maxPrefix - prefix.count
        if room > 0 { prefix.append(contentsOf: chunk.prefix(room)) }
        if !tailOffered {
            if count >= Limits.tailLength {
                lastBytes = Array(chunk.suffix(Limits.tailLength))
            } else {
                lastBytes.append(contentsOf: chunk)
                if lastBytes.count > Limits.tailLength { lastBytes.removeFirst(lastBytes.count - Limits.tailLength) }
            }
        }
        if let judged {
            settle(judged)
            return
        }
        if case .provisional(_, .end) = status { return }  // only the end can change it now
        if prefix.count >= nextRun || bytesSeen == expectedLength { evaluate() }
    }

    /// Judges the first chunk where it lies (the status is the one its copy would get).
    private func judgeInPlace(_ chunk: UnsafeBufferPointer<UInt8>) -> Status {
        let bytes = UnsafeRawBufferPointer(chunk)
        let view = UnsafeRawBufferPointer(rebasing: bytes.prefix(Limits.maxPrefix))
        let known = expectedLength.map { max($0, bytesSeen) }
        let tail = known == bytesSeen ? UnsafeRawBufferPointer(rebasing: bytes.suffix(Limits.tailLength)) : nil
        return ImageSniffer.judge(view, length: known, tail: tail, hint: hint)
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
        let total = bytesSeen
        let hint = self.hint
        let final = prefix.withUnsafeBytes { view in
            lastBytes.withUnsafeBytes { tail in
                ImageSniffer.judge(view, length: total, tail: tail, hint: hint)
            }
        }
        switch final {
        case .decided(let answer), .provisional(let answer, _): status = .decided(answer)
        case .needsMoreData:
            // Unreachable: with the end known, the view holds all there is to have.
            status = .decided(Detection(type: .data, confidence: .unknown, completeness: .truncated))
        }
    }

    /// Runs the detector on what is held, and sets the status.
    private mutating func evaluate() {
        let known = expectedLength.map { max($0, bytesSeen) }
        // The tail is known once offered, or once the data has all come.
        let tailKnown = known != nil && (tailOffered || bytesSeen == known)
        let hint = self.hint
        settle(prefix.withUnsafeBytes { view in
            lastBytes.withUnsafeBytes { tail in
                ImageSniffer.judge(view, length: known, tail: tailKnown ? tail : nil, hint: hint)
            }
        })
    }

    /// Takes the detector's answer for what is held; a request for more sets the next run.
    private mutating func settle(_ judged: Status) {
        status = judged
        if case .needsMoreData(let n) = judged {
            let held = prefix.count
            // At least double what is held between runs (a walk that asks for a few bytes more
            // each time costs a logarithmic number of runs), within what there is to have.
            nextRun = max(n, min(held * 2, held + 64 * 1024))
            nextRun = min(nextRun, min(expectedLength.map { max($0, bytesSeen) } ?? Limits.maxPrefix, Limits.maxPrefix))
            status = .needsMoreData(nextRun)
        }
    }
}
