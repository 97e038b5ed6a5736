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
/// With `readsProperties`, it goes on once the type is decided, until the image's properties
/// settle (`propertyProgress`: each field stated, not stated, or not yet), so that an upload can
/// be refused as soon as its header states too many pixels:
///
/// ```swift
/// var sniffer = IncrementalSniffer(expectedLength: contentLength, readsProperties: true)
/// for try await chunk in body {
///     sniffer.append(chunk)
///     if case .stated(let pixels) = sniffer.propertyProgress.pixelCount, pixels > limit { throw TooLarge() }
///     if !sniffer.wantsMoreData { break }
/// }
/// ```
///
/// Guarantees:
/// - **Monotonic.** Once `status` is `.decided`, more bytes never change the answer (they are
///   counted and otherwise ignored). `.provisional` answers may change; `.needsMoreData` answers
///   nothing. Once `propertyProgress.isSettled`, the properties never change.
/// - **Same answer as a file and as memory.** After `finish()`, the answer is the one
///   `ImageSniffer.inspect(_:hint:budget:)` gives for all the bytes appended, under the same
///   `ReadBudget`, whether the length was announced or not. One limit, for properties: a stream
///   cannot go back. When the length is not announced and a check or the property reader waits
///   for the end (bytes at an offset the data never reaches, or the length itself: known only at
///   `finish()`), the bytes that pass meanwhile are not kept; the properties come from what is
///   held at the end, and a field whose bytes passed is not stated (nil), never a different value.
/// - **Bounded.** It keeps at most `ReadBudget.bytesKept` bytes (the first
///   `ReadBudget.prefixCap`, and far windows a check asked for as they pass) and
///   `Limits.tailLength` from the end, whatever the length of the data; a frame walk keeps only
///   the few bytes it is in the middle of (and the chunk it is passing). It runs the detector only when it has the bytes a
///   check asked for (the wanted length at least doubles between runs), not on every chunk.
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

    /// What the sniffer knows so far. With `ReadBudget.verify`, an answer stays provisional until
    /// `finish()`: whether the data is whole is known only at its end.
    public var status: Status {
        if budget.verify, !isFinished, case .decided(let answer) = state { return .provisional(answer, awaiting: .end) }
        return state
    }
    private var state: Status = .needsMoreData(1)
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
    /// Whether the image's properties are read as well, once its type is decided (see
    /// `propertyProgress`).
    public let readsProperties: Bool
    /// The image's properties as they settle (only with `readsProperties`): what the header has
    /// stated so far, and whether what it has not stated may still come.
    public private(set) var propertyProgress = PropertyProgress(properties: .unknown, isSettled: false)
    /// The properties' answer if the data ends here (a reader read the length of a stream whose
    /// end is not known): nothing more is wanted before the end, up to the cap.
    private var propertiesAwaitEnd = false
    /// A frame count under way (`FrameWalk`), and the properties it completes.
    private var framesWalk: StreamWalk?
    private var walkPartial = ImageProperties.unknown
    /// With `ReadBudget.verify`: the format's completeness walk, run as the bytes pass from the
    /// moment the type is decided; the last `Verifier.tailWindow` bytes; and whether the check
    /// waits for the end (it asked for what only the end gives).
    private var verifyWalk: StreamWalk?
    /// The type whose verifier `verifyWalk` walks for (a provisional answer may start it).
    private var verifyWalkType: ImageType?
    /// Where the chunk being added starts.
    private var chunkStart = 0
    /// Whether `verifyWalk` is the early walk (`Verifier.earlyWalk`), started before the type.
    private var verifyWalkIsEarly = false
    private var verifyTail: [UInt8] = []
    private var verifyWaits = false
    /// While a frame walk runs: the first bytes' length at which the completeness check runs again
    /// (it asked for more of them).
    private var verifyRun: Int?

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
    /// The data ended (of a length not announced) while detection or the property reader waited
    /// for its end (a far window it never reached, or the length): the bytes that passed
    /// meanwhile were not kept (what the invariants allow for).
    private(set) var waitedPastTheEnd = false

    /// - Parameters:
    ///   - expectedLength: the length of the whole data when known in advance (HTTP's
    ///     `Content-Length`, a file's size); nil when only the end of the stream will tell. If the
    ///     data turns out longer or shorter, `finish()` answers for the bytes that came.
    ///   - hint: an identifier, filename extension or MIME type (see `ImageSniffer.detect(_:hint:)`).
    ///   - budget: what the sniffer may read (the default: `ReadBudget.default`).
    ///   - readsProperties: whether to read the image's properties too, once its type is decided
    ///     (`propertyProgress`); then `wantsMoreData` stays true until they settle.
    public init(expectedLength: Int? = nil, hint: String? = nil, budget: ReadBudget = .default, readsProperties: Bool = false) {
        self.expectedLength = expectedLength.map { max(0, $0) }
        self.hint = hint
        self.budget = budget
        self.readsProperties = readsProperties
        if !readsProperties { propertyProgress = PropertyProgress(properties: .unknown, isSettled: true) }
        if expectedLength == 0 { evaluate() }
    }

    /// The answer so far: decided or provisional; nil while more data is wanted.
    public var detection: Detection? {
        switch state {
        case .needsMoreData: return nil
        case .decided(let d), .provisional(let d, _): return d
        }
    }

    /// Whether the answer is final.
    public var isDecided: Bool {
        if case .decided = state { return true }
        return false
    }

    /// Whether the type is decided and, with `readsProperties`, the properties have settled:
    /// more bytes change nothing.
    private var isDone: Bool { isDecided && propertyProgress.isSettled && !budget.verify }

    /// Whether a reader should go on reading: nothing is decided, or a provisional answer still
    /// has room to grow the prefix (fewer than `ReadBudget.prefixCap` bytes seen), or (with
    /// `readsProperties`) the properties are still being read. Past that, more bytes only matter
    /// at the end: a reader that stops answers with `detection` and `propertyProgress`, and a
    /// reader that reaches the end calls `finish()`.
    public var wantsMoreData: Bool {
        if isFinished { return false }
        if budget.verify { return true }  // whole or not: only the end says
        switch state {
        case .needsMoreData: return true
        case .decided:
            if propertyProgress.isSettled { return false }
            return !propertiesAwaitEnd || bytesSeen < budget.prefixCap || pending != nil
        case .provisional: return bytesSeen < budget.prefixCap || pending != nil
        }
    }

    /// Adds the next bytes of the data.
    public mutating func append<Bytes: Collection>(_ chunk: Bytes) where Bytes.Element == UInt8 {
        precondition(!isFinished, "IncrementalSniffer.append after finish()")
        let count = chunk.count
        guard count > 0 else { return }
        let start = bytesSeen
        chunkStart = start
        bytesSeen += count
        if isDone { return }
        // The first chunk is judged where it lies: a decision on it copies nothing.
        var judged: Verdict?
        if prefix.isEmpty && !tailOffered && start == 0, let first = chunk.withContiguousStorageIfAvailable({ judgeInPlace($0) }) {
            if case .decided(let answer) = first, !readsProperties, !budget.verify {
                state = .decided(answer)
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
        if budget.verify { keepTail(chunk) }
        if let judged { settle(judged) } else if pending != nil {
            // The far window being filled takes the bytes below.
        } else if framesWalk != nil {
            // The frame walk takes the bytes below; the completeness check runs when the first
            // bytes it asked for have come.
            if let n = verifyRun, prefix.count >= n || bytesSeen == expectedLength { evaluateVerify() }
        } else if isAwaitingEnd {
            // Only the end can change it now.
        } else if prefix.count >= nextRun || bytesSeen == expectedLength || (start + count > cap && pending == nil) {
            evaluate()
        }
        if framesWalk != nil || verifyWalk != nil {
            feedWalks(chunk, at: start)
            // While the frame walk runs, only a window the completeness check wants is taken.
            if framesWalk != nil && pending == nil {
                if start + count > cap { forwardMark = max(forwardMark, start + count) }  // passed
                return
            }
        }
        // Past the cap: the bytes a far window wants are kept; the others pass.
        if start + count > cap {
            var at = max(start, cap)
            let end = start + count
            var bytes = chunk.dropFirst(at - start)
            while at < end && !isDone {
                guard let want = pending else { break }
                // The next byte the window wants. One that starts within the first bytes (and runs
                // past their cap) takes what they hold first.
                var next = want.lowerBound + pendingBytes.count
                if next < at && at <= prefix.count {
                    pendingBytes.append(contentsOf: prefix[next..<at])
                    next = at
                }
                if next < at {
                    // Bytes it wants have passed unkept: the window is out of reach.
                    dropPending(want)
                    continue
                }
                if next > at {
                    let pass = min(next, end) - at
                    skipped += pass
                    at += pass
                    bytes = bytes.dropFirst(pass)
                    if skipped > budget.bytesSkipped {
                        // Too far to go: the window is out of reach.
                        dropPending(want)
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
                    if framesWalk != nil {
                        // The properties count frames from here on (a walk that runs takes only
                        // what it has not had).
                        feedWalks(chunk, at: start)
                        if pending == nil { return }
                    }
                }
            }
            // What no far window wanted has passed: no window can start before it now.
            forwardMark = max(forwardMark, pending == nil ? end : min(end, pending!.lowerBound))
        }
        // A walk started within this chunk takes the rest of it.
        if verifyWalk != nil { feedWalks(chunk, at: start) }
    }

    /// Whether what is held answers as far as it can until the end of the data.
    private var isAwaitingEnd: Bool {
        switch state {
        case .provisional(_, .end): return true
        case .decided: return propertiesAwaitEnd || propertyProgress.isSettled && verifyWaits
        default: return false
        }
    }

    /// Gives up the far window being filled (out of reach), and judges without it.
    private mutating func dropPending(_ want: Range<Int>) {
        pending = nil
        pendingBytes = []
        forwardMark = max(forwardMark, want.upperBound)
        evaluate()
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
        if isDone { return }
        // Detection, or the property reader, waited for the end: for a far window the data never
        // reached, or for the length itself.
        waitedPastTheEnd = expectedLength == nil && (pending != nil || propertiesAwaitEnd || !isDecided)
        // A far window that was still coming holds what came.
        if pending != nil, !pendingBytes.isEmpty { commitPending() }
        pending = nil
        forwardMark = max(forwardMark, bytesSeen)
        if !isDecided {
            let final = run(length: bytesSeen, tail: true)
            switch final {
            case .decided(let answer), .provisional(let answer, _): state = .decided(answer)
            case .needPrefix, .needRange:
                // Unreachable: with the end known, everything there is to have was offered.
                state = .decided(Detection(type: .data, confidence: .unknown, completeness: .truncated))
            }
        }
        if var walk = framesWalk {
            // The data ended within the walk: it counts what is left, knowing the end.
            prefix.withUnsafeBytes { walk.advance(length: bytesSeen, limit: walk.limit(budget), first: $0) }
            endWalk(walk.frameCount)
        } else if !propertyProgress.isSettled, let type = detection?.type, type.isImage {
            // The properties from everything there is (what they still wanted is past the end); a
            // walk they start now runs over what is held.
            let verdict = withView { ImageSniffer.readProperties(type, $0, length: bytesSeen, reach: reach) }
            if case .walk(let w, let partial) = verdict {
                walkPartial = partial
                var walk = withView { StreamWalk(w, held: $0, length: bytesSeen, limit: w.limit(budget)) }
                prefix.withUnsafeBytes { walk.advance(length: bytesSeen, limit: walk.limit(budget), first: $0) }
                endWalk(walk.frameCount)
            } else {
                propertyProgress = PropertyProgress(properties: verdict.partial, isSettled: true)
            }
        } else {
            propertyProgress = PropertyProgress(properties: propertyProgress.properties, isSettled: true)
        }
        if budget.verify, case .decided(let answer) = state { state = .decided(finalVerification(answer)) }
    }

    /// Keeps the last bytes a completeness check looks at.
    private mutating func keepTail<Bytes: Collection>(_ chunk: Bytes) where Bytes.Element == UInt8 {
        if chunk.count >= Verifier.tailWindow {
            verifyTail = Array(chunk.suffix(Verifier.tailWindow))
        } else {
            verifyTail.append(contentsOf: chunk)
            if verifyTail.count > 2 * Verifier.tailWindow { verifyTail.removeFirst(verifyTail.count - Verifier.tailWindow) }
        }
    }

    /// The completeness check at the end, over what is held, the last bytes and the walk.
    private mutating func finalVerification(_ answer: Detection) -> Detection {
        guard answer.completeness == .complete, let verifier = Verifier.byType[answer.type] else { return answer }
        let tail = verifyTail.suffix(Verifier.tailWindow)
        if !walksAlike(verifyWalkType, answer.type) { verifyWalk = nil }  // started for a provisional answer the end overturned
        if verifyWalkIsEarly && windowReads == 0 { verifyWalk = nil }  // the type's own walk, as a file's
        if verifyWalk == nil, windowReads == 0, let w = withView({ verifier.walk($0) }) {
            // Decided only now: the walk runs over what is held (all of it, for data under the cap).
            verifyWalk = withView { StreamWalk(w, held: $0, length: bytesSeen, limit: w.limit(budget)) }
        }
        verifyWalk?.advance(length: bytesSeen, limit: Int.max)
        let walked = verifyWalk?.outcome
        let reach = self.reach
        let step: VerifyStep = Array(tail).withUnsafeBytes { last in
            withView { view in
                // The last bytes join the far windows.
                var all = Array(view.windows)
                all.append(FarWindow(offset: bytesSeen - last.count, bytes: last))
                all.sort { $0.offset < $1.offset }
                return all.withUnsafeBufferPointer { w in
                    let full = ByteView(base: view.base, windows: w)
                    var step = ImageSniffer.verify(answer.type, full, length: bytesSeen, reach: reach, walked: nil).step
                    if step == .needWalk { step = walked.map { ImageSniffer.verify(answer.type, full, length: bytesSeen, reach: reach, walked: $0).step } ?? .unknown }
                    if case .needRange = step { step = .unknown }  // no more bytes to be had
                    return step
                }
            }
        }
        return ImageSniffer.merge(answer, step)
    }

    /// During the data: the completeness check asks for the ranges it needs before they pass
    /// (an MPF index, a TIFF's strip tables); what only the end gives waits for `finish()`.
    private mutating func evaluateVerify() {
        // A window being filled is served first (its end runs the check again).
        guard budget.verify, !isFinished, pending == nil, case .decided(let answer) = state, answer.completeness == .complete else { return }
        let known = expectedLength.map { max($0, bytesSeen) }
        let (step, dependsOnEnd) = withView { ImageSniffer.verify(answer.type, $0, length: known, reach: reach, walked: nil) }
        verifyWaits = true
        verifyRun = nil
        if case .needRange(let r) = step, !dependsOnEnd {
            // The last bytes are kept for the end (`finish()` checks over them): asked for as a
            // window, bytes of them that have passed would be asked for again and again.
            if let known, r.lowerBound >= known - Verifier.tailWindow { return }
            verifyWaits = false
            let upTo = want(r, known: known)
            if pending == nil { verifyRun = upTo }
        }
    }

    /// Starts the completeness walk when the type is decided from the first bytes, or answered
    /// provisionally (a decision that waits for the end would come when the bytes past the first
    /// have gone; a file, knowing its length, decides at once and walks). Once detection has read
    /// a far window, bytes before it may have passed: no walk, as for a file.
    private mutating func startVerifyWalk(_ answer: Detection) {
        if !walksAlike(verifyWalkType, answer.type) { verifyWalk = nil }
        // Decided without a far window: the type's own walk (an MPO's starts at its last image),
        // as a file's, rather than the early one.
        if verifyWalkIsEarly && windowReads == 0 { verifyWalk = nil }
        verifyWalkIsEarly = false
        guard budget.verify, verifyWalk == nil, windowReads == 0, let verifier = Verifier.byType[answer.type], let w = withView({ verifier.walk($0) }) else { return }
        let known = expectedLength.map { max($0, bytesSeen) }
        verifyWalk = withView { StreamWalk(w, held: $0, length: known, limit: w.limit(budget)) }
        verifyWalkType = answer.type
    }

    /// While undecided, before any byte has passed unkept (the chunk being added starts within
    /// the first bytes; a walk started now is given the rest of it): the early completeness
    /// walk whose signature the first bytes bear (`Verifier.earlyWalk`), kept for when
    /// detection reads a far window before it decides (a JPEG whose frame header lies past
    /// the first bytes).
    private mutating func startEarlyVerifyWalk(known: Int?) {
        guard budget.verify, verifyWalk == nil, windowReads == 0, chunkStart <= prefix.count,
              let (verifier, w) = withView({ Verifier.earlyWalk($0) }) else { return }
        verifyWalk = withView { StreamWalk(w, held: $0, length: known, limit: w.limit(budget)) }
        verifyWalkType = verifier.types.first
        verifyWalkIsEarly = true
    }

    /// Whether a completeness walk started for `started` serves `type` (one verifier for both:
    /// a JPEG that turns out an MPO).
    private func walksAlike(_ started: ImageType?, _ type: ImageType) -> Bool {
        guard let started else { return false }
        return started == type || Verifier.byType[started].map { $0.types.contains(type) } ?? false
    }

    /// Calls `body` with what is held: the first bytes and the far windows.
    private func withView<R>(_ body: (ByteView) -> R) -> R {
        prefix.withUnsafeBytes { first in
            arena.withUnsafeBytes { held in
                let far = windows.map { FarWindow(offset: $0.offset, bytes: UnsafeRawBufferPointer(rebasing: held[$0.start..<($0.start + $0.count)])) }
                return far.withUnsafeBufferPointer { body(ByteView(base: first, windows: $0)) }
            }
        }
    }

    /// Runs the detector on what is held.
    private func run(length: Int?, tail tailKnown: Bool) -> Verdict {
        let hint = self.hint
        let reach = self.reach
        return withView { view in
            lastBytes.withUnsafeBytes { tail in
                ImageSniffer.judge(view, length: length, tail: tailKnown ? tail : nil, hint: hint, reach: reach)
            }
        }
    }

    /// Runs the detector (or, once the type is decided, the property reader) on what is held,
    /// and sets the status.
    private mutating func evaluate() {
        if isDecided {
            // The completeness check runs beside a frame walk (the bytes it wants pass meanwhile).
            if propertyProgress.isSettled || framesWalk != nil { evaluateVerify() } else { evaluateProperties() }
            return
        }
        let known = expectedLength.map { max($0, bytesSeen) }
        // The tail is known once offered, or once the data has all come.
        let tailKnown = known != nil && (tailOffered || bytesSeen == known)
        settle(run(length: known, tail: tailKnown))
    }

    /// Takes the detector's answer for what is held; a request for more sets the next run or
    /// the far window to take from the stream.
    private mutating func settle(_ judged: Verdict) {
        let known = expectedLength.map { max($0, bytesSeen) }
        if case .decided = judged {} else { startEarlyVerifyWalk(known: known) }
        switch judged {
        case .decided(let answer):
            state = .decided(answer)
            startVerifyWalk(answer)
            if !propertyProgress.isSettled {
                if answer.type.isImage {
                    evaluateProperties()
                } else {
                    propertyProgress = PropertyProgress(properties: .unknown, isSettled: true)
                }
            }
            if propertyProgress.isSettled || framesWalk != nil { evaluateVerify() }
        case .provisional(let answer, let awaiting):
            state = .provisional(answer, awaiting: awaiting)
            startVerifyWalk(answer)
        case .needPrefix(let n):
            state = .needsMoreData(want(n, known: known))
        case .needRange(let r):
            state = .needsMoreData(want(r, known: known))
        }
    }

    /// Runs the property reader of the decided type on what is held.
    private mutating func evaluateProperties() {
        guard let type = detection?.type else { return }
        let known = expectedLength.map { max($0, bytesSeen) }
        let verdict: PropertyVerdict
        if let known {
            verdict = withView { ImageSniffer.readProperties(type, $0, length: known, reach: reach) }
            propertiesAwaitEnd = false
        } else {
            let (answer, dependsOnEnd) = withView { ImageSniffer.readProperties(type, streamView: $0, reach: reach) }
            verdict = answer
            // Only an answer waits for the end; a request is served first.
            if case .done = answer { propertiesAwaitEnd = dependsOnEnd } else { propertiesAwaitEnd = false }
        }
        switch verdict {
        case .done(let p):
            propertyProgress = PropertyProgress(properties: p, isSettled: !propertiesAwaitEnd)
            if propertyProgress.isSettled { evaluateVerify() }
        case .needPrefix(let n, let partial):
            propertyProgress = PropertyProgress(properties: partial, isSettled: false)
            _ = want(n, known: known)
        case .needRange(let r, let partial):
            propertyProgress = PropertyProgress(properties: partial, isSettled: false)
            _ = want(r, known: known)
        case .walk(let w, let partial):
            propertyProgress = PropertyProgress(properties: partial, isSettled: false)
            startWalk(w, partial: partial)
            if framesWalk != nil { evaluateVerify() }
        }
    }

    /// Starts a frame walk: over what is held, then over the bytes as they come.
    private mutating func startWalk(_ w: FrameWalk, partial: ImageProperties) {
        walkPartial = partial
        let known = expectedLength.map { max($0, bytesSeen) }
        let walk = withView { StreamWalk(w, held: $0, length: known, limit: w.limit(budget)) }
        framesWalk = walk
        if walk.outcome != nil { endWalk(walk.frameCount) }
    }

    /// Gives the walks the bytes of `chunk` (at `offset` in the data) they have not had.
    private mutating func feedWalks<Bytes: Collection>(_ chunk: Bytes, at offset: Int) where Bytes.Element == UInt8 {
        let known = expectedLength.map { max($0, bytesSeen) }
        if var walk = framesWalk {
            framesWalk = nil  // one copy of its bytes while it is fed
            prefix.withUnsafeBytes { walk.feed(chunk, at: offset, length: known, limit: walk.limit(budget), first: $0) }
            framesWalk = walk
            if walk.outcome != nil { endWalk(walk.frameCount) }
        }
        if var walk = verifyWalk, walk.outcome == nil {
            verifyWalk = nil
            walk.feed(chunk, at: offset, length: known, limit: Int.max)
            verifyWalk = walk
        }
    }

    /// The frame walk is over: the properties settle with its count.
    private mutating func endWalk(_ frames: Int?) {
        var p = walkPartial
        p.frameCount = frames
        propertyProgress = PropertyProgress(properties: p, isSettled: true)
        framesWalk = nil
        evaluateVerify()
    }

    /// Sets the next run for a range a check or reader asked for: the first bytes grow, or a far
    /// window is taken from the stream when it comes (the bytes before it pass). Returns how many
    /// bytes from the start are wanted.
    private mutating func want(_ r: Range<Int>, known: Int?) -> Int {
        if ReadPlan.isNear(r, held: prefix.count, cap: budget.prefixCap) { return want(r.upperBound, known: known) }
        let window = ReadPlan.window(for: r, length: known)
        pending = window
        pendingBytes = []
        windowReads += 1
        return window.upperBound
    }

    private mutating func want(_ n: Int, known: Int?) -> Int {
        let held = prefix.count, cap = budget.prefixCap
        // At least double what is held between runs (a walk that asks for a few bytes more
        // each time costs a logarithmic number of runs), within what there is to have.
        nextRun = max(n, min(held * 2, held + 64 * 1024))
        nextRun = min(nextRun, min(known ?? cap, cap))
        return nextRun
    }
}

/// What the header of an image arriving in pieces has stated so far (`IncrementalSniffer`
/// with `readsProperties`).
public struct PropertyProgress: Sendable, Hashable {
    /// What the header has stated so far. Before the properties settle, a stated field is what
    /// the header says if the data goes on as it declares (a stream cut short may still lose a
    /// count that runs to its end).
    public let properties: ImageProperties
    /// Whether reading is over: a field not stated now never will be (the header does not state
    /// it within the read budget, or the data is not an image).
    public let isSettled: Bool

    public init(properties: ImageProperties, isSettled: Bool) {
        self.properties = properties
        self.isSettled = isSettled
    }

    /// One field's state: stated, not stated, or not yet known.
    public func state<Value>(_ field: KeyPath<ImageProperties, Value?>) -> PropertyState<Value> {
        if let value = properties[keyPath: field] { return .stated(value) }
        return isSettled ? .notStated : .notYet
    }

    /// The pixel count's state (width × height): what a decompression budget is checked against.
    public var pixelCount: PropertyState<Int> {
        if let value = properties.pixelCount { return .stated(value) }
        return isSettled ? .notStated : .notYet
    }
}

/// The state of one property of an image arriving in pieces.
public enum PropertyState<Value> {
    /// The header states it (final once the properties settle).
    case stated(Value)
    /// The header does not state it (within the read budget): it never will.
    case notStated
    /// Not known yet: more bytes may state it.
    case notYet

    /// The value, when stated.
    public var value: Value? {
        if case .stated(let v) = self { return v }
        return nil
    }
}

extension PropertyState: Sendable where Value: Sendable {}
extension PropertyState: Equatable where Value: Equatable {}
extension PropertyState: Hashable where Value: Hashable {}

/// A walk fed by a stream: the walk, and the bytes it has still to pass over (from what it wants
/// next to the last byte seen).
struct StreamWalk {
    private(set) var walk: FrameWalk
    private var bytes: [UInt8] = []
    private var start: Int
    /// How it ended (nil while it goes on).
    private(set) var outcome: FrameWalk.Progress?
    /// The frame count its outcome gives (`FrameWalk.frameCount`), once it has ended.
    var frameCount: Int? { outcome.flatMap { walk.frameCount($0) } }

    /// Starts the walk over what `view` holds from its position on.
    init(_ w: FrameWalk, held view: ByteView, length: Int?, limit: Int) {
        walk = w
        start = w.offset
        var o = w.offset
        while true {
            let run = view.run(from: o)
            if run.isEmpty { break }
            bytes.append(contentsOf: run)
            o += run.count
        }
        advance(length: length, limit: limit, first: view.base)
    }

    /// The limit of the walk under `budget`.
    func limit(_ budget: ReadBudget) -> Int { walk.limit(budget) }

    /// Gives the walk the bytes of `chunk` (at `offset` in the data) it has not had; `first` are
    /// the first bytes held (a TIFF's IFD chain may go back into them).
    mutating func feed<Bytes: Collection>(_ chunk: Bytes, at offset: Int, length: Int?, limit: Int,
                                          first: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) where Bytes.Element == UInt8 {
        guard outcome == nil else { return }
        let have = start + bytes.count
        let end = offset + chunk.count
        guard end > have else { return }
        // Bytes the walk wanted have passed without it: its answer is out of reach.
        guard offset <= have else {
            outcome = .beyondReach
            bytes = []
            return
        }
        bytes.append(contentsOf: chunk.dropFirst(have - offset))
        advance(length: length, limit: limit, first: first)
    }

    /// Runs the walk over the bytes it holds, and keeps only those from what it wants next.
    mutating func advance(length: Int?, limit: Int, first: UnsafeRawBufferPointer = UnsafeRawBufferPointer(start: nil, count: 0)) {
        guard outcome == nil else { return }
        var w = walk
        let progress = bytes.withUnsafeBytes { held in
            withUnsafePointer(to: FarWindow(offset: start, bytes: held)) { window in
                w.advance(ByteView(base: first, windows: UnsafeBufferPointer(start: window, count: 1)),
                          length: length, limit: limit)
            }
        }
        walk = w
        guard case .wants(let r) = progress else {
            outcome = progress
            bytes = []
            return
        }
        // Kept from where the walk stands (a step that looks ahead, as past a JPEG's EOI, reads
        // its own position again), or from what it wants.
        let keep = max(start, min(r.lowerBound, w.offset))
        let have = start + bytes.count
        if keep >= have {
            bytes.removeAll(keepingCapacity: true)
        } else {
            bytes.removeFirst(keep - start)
        }
        start = keep
    }
}
