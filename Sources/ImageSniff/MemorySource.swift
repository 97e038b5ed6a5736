// The read plan over bytes in memory: the first bytes and far windows are slices of the buffer
// (no copy), taken as the plan asks, under the same budget and rules as a file's or a stream's.

/// Data in memory, or the first bytes of longer data (`total` past the buffer).
struct MemorySource: ReadSource {
    let buffer: UnsafeRawBufferPointer
    let total: Int
    let budget: ReadBudget
    private var windows: [FarWindow] = []
    private var reads = 0
    private var windowBytes = 0
    private var forwardMark = 0

    init(_ buffer: UnsafeRawBufferPointer, total: Int, budget: ReadBudget) {
        self.buffer = buffer
        self.total = total
        self.budget = budget
    }

    /// The first bytes: all the plan may hold of them.
    var prefix: UnsafeRawBufferPointer { UnsafeRawBufferPointer(rebasing: buffer.prefix(budget.prefixCap)) }

    var length: Int { total }
    var held: Int { prefix.count }
    var tail: UnsafeRawBufferPointer? {
        total == buffer.count && total > budget.prefixCap ? UnsafeRawBufferPointer(rebasing: buffer.suffix(Limits.tailLength)) : nil
    }

    /// The first bytes are all held already (as far as the buffer goes).
    mutating func growPrefix(to n: Int) throws(FileError) {}

    mutating func fetchWindow(_ window: Range<Int>) throws(FileError) {
        guard window.lowerBound < buffer.count else { return }
        let upper = min(window.upperBound, buffer.count)
        reads += 1
        windowBytes += upper - window.lowerBound
        forwardMark = max(forwardMark, window.upperBound)
        windows.append(FarWindow(offset: window.lowerBound, bytes: UnsafeRawBufferPointer(rebasing: buffer[window.lowerBound..<upper])))
        windows.sort { $0.offset < $1.offset }
    }

    mutating func readTail() throws(FileError) -> Bool { false }

    /// The walk passes over the buffer at once (bytes past it, of longer data, are not held).
    mutating func walk(_ w: inout FrameWalk) throws(FileError) -> FrameWalk.Progress {
        w.advance(ByteView(base: buffer), length: total, limit: w.limit(budget))
    }

    var reach: Reach {
        Reach(readsLeft: budget.reads - reads, windowBytesLeft: budget.bytesKept - budget.prefixCap - windowBytes,
              forwardMark: forwardMark, prefixCap: budget.prefixCap)
    }

    /// Serves a far request from the buffer; when the buffer (a prefix of longer data) does not
    /// hold the whole window a file would read for it, the bytes from the start that it wants.
    mutating func fetch(_ r: Range<Int>) -> Int? {
        // Near the start, a file grows its first bytes to the range's end: so many are wanted.
        if ReadPlan.isNear(r, held: prefix.count, cap: budget.prefixCap) { return r.upperBound <= buffer.count ? nil : r.upperBound }
        let window = ReadPlan.window(for: r, length: total)
        guard window.upperBound <= buffer.count else { return window.upperBound }
        try? fetchWindow(window)
        return nil
    }

    /// Runs `body` with the view of what is held.
    func withView<R>(_ body: (ByteView) -> R) -> R {
        windows.withUnsafeBufferPointer { body(ByteView(base: prefix, windows: $0)) }
    }

    /// The detection, reading what it asks for; `.needsMoreData(n)` when it asks for bytes a prefix
    /// of longer data does not hold.
    func detect(tail: UnsafeRawBufferPointer?, hint: String?) -> Detection {
        var source = self
        for _ in 0...(budget.reads + 1) {
            let verdict = source.withView { ImageSniffer.judge($0, length: total, tail: tail, hint: hint, reach: source.reach) }
            switch verdict {
            case .decided(let answer):
                return answer
            case .needPrefix(let n):
                return Detection(type: .data, confidence: .unknown, completeness: .needsMoreData(n))
            case .needRange(let r):
                if r.upperBound <= source.prefix.count {
                    return Detection(type: .data, confidence: .unknown, completeness: .needsMoreData(r.upperBound))
                }
                if let wanted = source.fetch(r) {
                    return Detection(type: .data, confidence: .unknown, completeness: .needsMoreData(wanted))
                }
            case .provisional(let answer, _):
                // A trailer is wanted. Data that fits under the cap is read whole; beyond it, the
                // answer is what the prefix says (pass `tail` for the trailer to count).
                return total <= budget.prefixCap ? Detection(type: .data, confidence: .unknown, completeness: .needsMoreData(total)) : answer
            }
        }
        return Detection(type: .data, confidence: .unknown, completeness: .truncated)
    }
}
