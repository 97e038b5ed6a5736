// The read plan: checks and property readers ask for byte ranges anywhere in the data (a TIFF's
// IFD at the end, the segment after a 1 MB ICC profile, a `meta` box after `mdat`), and every
// source (a file, memory, a stream) serves them the same way, within the same budgets, so that
// all three give the same answer for the same bytes.
//
// - The first bytes (the prefix) grow on demand, doubling, up to `ReadBudget.prefixCap`: a range
//   within the cap is served by growing them. (A file reads a range that starts well past them,
//   `ReadPlan.nearJump`, as a window where it lies instead: the same bytes a stream holds, fewer
//   read; such windows count against no budget, as the first bytes do not.)
// - A range past the cap is a far window: at least `ReadPlan.windowSize` bytes from where it is
//   asked, kept for the rest of the inspection.
// - Far windows are read forward: one must start at or after the end of the last one (a stream
//   cannot go back to bytes it passed; a file is held to the same rule, so both answer alike).
// - `ReadBudget.reads` far windows at most, `ReadBudget.bytesKept` bytes held at once,
//   `ReadBudget.bytesSkipped` bytes a stream may pass over to reach a far window.
// - A frame count that only a walk over the whole data gives (a GIF's blocks, an animated WebP's
//   chunks: `FrameWalk`) passes over at most `ReadBudget.bytesSkipped` bytes from where it starts
//   (a file in 1 MiB reads, a stream as it comes), holding none of them; `verify` lifts that.
// A request the budget does not allow is "not within reach": the check takes its fallback and the
// property stays nil, never a guess.

/// How much a detection or an inspection may read, per file or stream. Settable by the caller:
/// `FileSniffer(budget:)`, `ImageSniffer.inspect(_:hint:budget:)`, `IncrementalSniffer(...budget:)`.
public struct ReadBudget: Sendable, Hashable {
    /// Far windows: reads away from the first bytes (64).
    public var reads: Int
    /// Bytes held at once (1 MiB): half for the first bytes, half for far windows.
    public var bytesKept: Int
    /// Bytes passed over: by a stream to reach a far window, by a frame walk (a GIF's or an
    /// animated WebP's frames counted) over the data (64 MiB). A file and memory read a far
    /// window wherever it lies; a stream that would pass more than this to reach one gives it up
    /// (its answer is then what the bytes it kept say: less than a file's, never different).
    public var bytesSkipped: Int
    /// Whole-file checks: completeness by the container's own structure (JPEG's EOI, PNG's IEND,
    /// GIF's trailer, RIFF and ISO BMFF sizes, TIFF strip and tile extents), and frame walks to the
    /// end whatever their length. Costs a read at the end of the file (and for a GIF, the file).
    public var verify: Bool

    public init(reads: Int = 64, bytesKept: Int = 1 << 20, bytesSkipped: Int = 64 << 20, verify: Bool = false) {
        self.reads = max(0, reads)
        self.bytesKept = max(2 * Limits.initialRead, bytesKept)
        self.bytesSkipped = max(0, bytesSkipped)
        self.verify = verify
    }

    /// The defaults: 64 reads, 1 MiB kept, 64 MiB skipped, no whole-file checks.
    public static let `default` = ReadBudget()

    /// The defaults with whole-file checks.
    public static let verifying = ReadBudget(verify: true)

    /// How far the first bytes may grow: half of what may be kept.
    public var prefixCap: Int { bytesKept / 2 }
}

/// What a check may still ask for, as the source stands when it runs.
struct Reach {
    /// Far windows (and walk blocks) that may still be read.
    var readsLeft: Int
    /// Bytes far windows may still hold.
    var windowBytesLeft: Int
    /// A far window must start at or after this offset (the end of the last one).
    var forwardMark: Int
    /// How far the first bytes may grow.
    var prefixCap: Int

    /// The reach of a detection that reads nothing beyond what it is given (the prefix APIs).
    static func none(prefixCap: Int) -> Reach { Reach(readsLeft: 0, windowBytesLeft: 0, forwardMark: Int.max, prefixCap: prefixCap) }

    static func budget(_ b: ReadBudget) -> Reach {
        Reach(readsLeft: b.reads, windowBytesLeft: b.bytesKept - b.prefixCap, forwardMark: 0, prefixCap: b.prefixCap)
    }
}

enum ReadPlan {
    /// The least a far window holds (more than the few bytes asked: the next structure is often
    /// right after).
    static let windowSize = 4096

    /// How a request is served: the first bytes grow to `prefix`, a far window is read, or (a
    /// file) a window within the first bytes' cap is read where it lies instead of all the bytes
    /// before it: the same bytes a stream holds, fewer read.
    enum Action: Equatable {
        case growPrefix(to: Int)
        case window(Range<Int>)
        case nearWindow(Range<Int>)
    }

    /// How far past the first bytes held a request within their cap must start to be read as a
    /// window where it lies rather than by growing them (a TIFF's next IFD 190 KB on, a JPEG's
    /// next segment after a 64 KiB ICC chunk).
    static let nearJump = 16 * 1024

    /// The most such windows one file holds; past them the first bytes grow.
    static let nearWindows = 64

    /// Whether `r` is served by growing the first bytes (it ends within their cap) rather than by a
    /// far window. (Whatever the first bytes hold now: every source classifies alike.)
    static func isNear(_ r: Range<Int>, held: Int, cap: Int) -> Bool { r.upperBound <= cap }

    /// The far window that serves `r` in data of `length` bytes (when known).
    static func window(for r: Range<Int>, length: Int?) -> Range<Int> {
        var upper = max(r.upperBound, r.lowerBound + windowSize)
        if let length { upper = min(upper, max(length, r.upperBound)) }
        return r.lowerBound..<upper
    }

    /// Whether a far request can be served under `reach`: within the data (when its length is
    /// known), forward of the last window, within the reads and bytes left.
    static func canFetch(_ r: Range<Int>, held: Int, length: Int?, reach: Reach) -> Bool {
        guard r.lowerBound >= 0, !r.isEmpty else { return false }
        if let length, r.upperBound > length { return false }
        if isNear(r, held: held, cap: reach.prefixCap) { return true }
        return reach.readsLeft > 0 && r.lowerBound >= reach.forwardMark
            && window(for: r, length: length).count <= reach.windowBytesLeft
    }

    /// The action for a fetchable request `r`, the first bytes holding `held` of data `length`.
    static func action(for r: Range<Int>, held: Int, length: Int?, cap: Int, nearWindowsLeft: Int = 0) -> Action {
        if isNear(r, held: held, cap: cap), nearWindowsLeft > 0, r.lowerBound >= held + nearJump {
            var upper = min(max(r.upperBound, r.lowerBound + windowSize), cap)
            if let length { upper = min(upper, max(length, r.upperBound)) }
            return .nearWindow(r.lowerBound..<upper)
        }
        if isNear(r, held: held, cap: cap) {
            var want = max(r.upperBound, held * 2)
            want = min(want, cap)
            if let length { want = min(want, length) }
            return .growPrefix(to: max(want, r.upperBound))
        }
        return .window(window(for: r, length: length))
    }
}

/// What one judgement of the held bytes concluded (the drivers' vocabulary: files, memory and
/// streams each serve the requests their own way).
enum Verdict {
    case decided(Detection)
    /// The answer if the end adds nothing (a trailer is wanted, or the length).
    case provisional(Detection, awaiting: IncrementalSniffer.Awaiting)
    /// The first `n` bytes are wanted.
    case needPrefix(Int)
    /// These bytes are wanted (far from the first bytes, or near them).
    case needRange(Range<Int>)
}

/// Far windows held by a driver that copies what it reads (a file, a stream): each in storage of
/// its own, freed by `reset()`.
struct WindowStore {
    private(set) var windows: [FarWindow] = []
    private var storage: [UnsafeMutableRawBufferPointer] = []
    /// Bytes held in windows.
    private(set) var bytes = 0
    /// Where the next window may start.
    private(set) var forwardMark = 0
    /// Windows read.
    private(set) var reads = 0
    /// Windows within the first bytes' cap read, and their bytes (counted in `bytes` too).
    private(set) var nearReads = 0
    private(set) var nearBytes = 0

    /// Storage for a window of `range`, to fill; the window is held once `commit` is called.
    /// A window within the first bytes' cap (`near`) counts against neither the far reads nor the
    /// forward rule: it holds bytes a stream holds in its first bytes.
    mutating func add(_ range: Range<Int>, near: Bool = false, fill: (UnsafeMutableRawBufferPointer) -> Int) {
        let buffer = UnsafeMutableRawBufferPointer.forReads(max(range.count, 1))
        let got = max(0, min(fill(buffer), range.count))
        storage.append(buffer)
        if near {
            nearReads += 1
        } else {
            reads += 1
            forwardMark = max(forwardMark, range.upperBound)
        }
        guard got > 0 else { return }
        if near { nearBytes += got }
        let window = FarWindow(offset: range.lowerBound, bytes: UnsafeRawBufferPointer(rebasing: buffer[..<got]))
        // Sorted by offset (they come forward, so this is an append but for equal starts).
        var i = windows.count
        while i > 0 && windows[i - 1].offset > window.offset { i -= 1 }
        windows.insert(window, at: i)
        bytes += got
    }

    /// The reach left under `budget`.
    func reach(_ budget: ReadBudget) -> Reach {
        Reach(readsLeft: budget.reads - reads, windowBytesLeft: budget.bytesKept - budget.prefixCap - (bytes - nearBytes),
              forwardMark: forwardMark, prefixCap: budget.prefixCap)
    }

    mutating func reset() {
        // Most files need no far window: emptying empty arrays still costs ~150 instructions.
        if !storage.isEmpty {
            for buffer in storage { buffer.deallocate() }
            storage.removeAll(keepingCapacity: true)
        }
        if !windows.isEmpty { windows.removeAll(keepingCapacity: true) }
        bytes = 0
        forwardMark = 0
        reads = 0
        nearReads = 0
        nearBytes = 0
    }

    /// Calls `body` with the windows as the `ByteView` wants them.
    func withWindows<R>(_ body: (UnsafeBufferPointer<FarWindow>) throws -> R) rethrows -> R {
        try windows.withUnsafeBufferPointer(body)
    }
}
