// One inspection over a source that serves ranges (a file, memory): detection, then the image's
// properties, each reading what it asks for under the read plan (ReadPlan.swift). A stream is
// driven the other way round, as its bytes come (IncrementalSniffer), by the same rules.

/// A source the inspector pulls from.
protocol ReadSource {
    /// The data's length (it may shrink as a file is read: a file cut while we read).
    var length: Int { get }
    var budget: ReadBudget { get }
    /// How many of the first bytes are held.
    var held: Int { get }
    /// What far windows may still be read.
    var reach: Reach { get }
    /// The last bytes, once read.
    var tail: UnsafeRawBufferPointer? { get }
    /// Holds the first `n` bytes (fewer at the end of the data).
    mutating func growPrefix(to n: Int) throws(FileError)
    /// Holds a far window.
    mutating func fetchWindow(_ window: Range<Int>) throws(FileError)
    /// How many more windows within the first bytes' cap it would rather read than grow the first
    /// bytes (0: it grows them).
    var nearWindowsLeft: Int { get }
    /// Holds a window within the first bytes' cap.
    mutating func fetchNearWindow(_ window: Range<Int>) throws(FileError)
    /// Reads the last bytes; false when the data turned out shorter (then `length` says so).
    mutating func readTail() throws(FileError) -> Bool
    /// Calls `body` with what is held.
    func withView<R>(_ body: (ByteView) -> R) -> R
    /// Runs a walk over the data from where it stands (block by block, forgetting each once
    /// passed) to its end: how it ended.
    mutating func walk(_ w: inout FrameWalk) throws(FileError) -> FrameWalk.Progress
}

extension ReadSource {
    var nearWindowsLeft: Int { 0 }
    mutating func fetchNearWindow(_ window: Range<Int>) throws(FileError) { try growPrefix(to: window.upperBound) }
}

enum Inspector {
    /// The most judgements one inspection makes (each grows what is held, so this is never hit
    /// by real data; it bounds a hostile one).
    static let maxRounds = 256

    /// Detection, then (for an image, when asked) its properties, then (`ReadBudget.verify`)
    /// whether the file is whole.
    static func run<S: ReadSource>(_ s: inout S, hint: String?, properties: Bool) throws(FileError) -> Inspection {
        let detection = try detect(&s, hint: hint)
        // A stream starts a completeness walk when the type is decided, which is before any byte
        // past the first bytes has passed only if detection read no far window.
        let walkable = s.reach.readsLeft == s.budget.reads
        let found = properties && detection.type.isImage ? try readProperties(&s, of: detection.type) : .unknown
        guard s.budget.verify else { return Inspection(detection: detection, properties: found) }
        return Inspection(detection: try verify(&s, detection, walkable: walkable), properties: found)
    }

    /// The detection, truncated when the format's completeness check says the file is not whole.
    /// What the check asks for is read as any other request (forward, within the budget); its
    /// walk goes to the end of the data, when it could have started before the first bytes were
    /// passed (`walkable`: as in a stream, which walks as the bytes go by).
    static func verify<S: ReadSource>(_ s: inout S, _ detection: Detection, walkable: Bool) throws(FileError) -> Detection {
        guard detection.completeness == .complete, let verifier = Verifier.byType[detection.type] else { return detection }
        var walked: FrameWalk.Progress?
        for _ in 0..<maxRounds {
            let length = s.length, reach = s.reach
            let step = s.withView { ImageSniffer.verify(detection.type, $0, length: length, reach: reach, walked: walked).step }
            switch step {
            case .complete, .truncated, .unknown:
                return ImageSniffer.merge(detection, step)
            case .needRange(let r):
                let before = s.length
                try serve(r, &s)
                if s.length < before { return ImageSniffer.merge(detection, .truncated) }  // shrank while we read
            case .needWalk:
                guard walked == nil else { return detection }
                // After a far window, only the early walk (`Verifier.earlyWalk`), as a stream runs it.
                let made = s.withView { v in walkable ? verifier.walk(v) : verifier.earlyWalk?(v) }
                guard var w = made else { return detection }
                walked = try s.walk(&w)
            }
        }
        return detection
    }

    static func detect<S: ReadSource>(_ s: inout S, hint: String?) throws(FileError) -> Detection {
        var tailTried = false
        for _ in 0..<maxRounds {
            let length = s.length, reach = s.reach, tail = s.tail
            let verdict = s.withView { ImageSniffer.judge($0, length: length, tail: tail, hint: hint, reach: reach) }
            switch verdict {
            case .decided(let answer):
                return answer
            case .needPrefix(let n):
                let want = min(max(n, s.held * 2), s.length, s.budget.prefixCap)
                guard want > s.held else { return Detection(type: .data, confidence: .unknown, completeness: .truncated) }
                try s.growPrefix(to: want)
            case .needRange(let r):
                try serve(r, &s)
            case .provisional(let answer, _):
                // A trailer is wanted: read the last bytes once (a file that shrank meanwhile is
                // judged again as it is).
                guard !tailTried else { return answer }
                tailTried = true
                _ = try s.readTail()
            }
        }
        return Detection(type: .data, confidence: .unknown, completeness: .truncated)
    }

    /// Serves a request the detector or a reader made (it was fetchable under the reach it saw).
    static func serve<S: ReadSource>(_ r: Range<Int>, _ s: inout S) throws(FileError) {
        switch ReadPlan.action(for: r, held: s.held, length: s.length, cap: s.budget.prefixCap, nearWindowsLeft: s.nearWindowsLeft) {
        case .growPrefix(let n): try s.growPrefix(to: n)
        case .window(let w): try s.fetchWindow(w)
        case .nearWindow(let w): try s.fetchNearWindow(w)
        }
    }

    /// The properties of `type`, reading more as the reader asks.
    static func readProperties<S: ReadSource>(_ s: inout S, of type: ImageType) throws(FileError) -> ImageProperties {
        var last = ImageProperties.unknown
        for _ in 0..<maxRounds {
            let length = s.length, reach = s.reach
            let verdict = s.withView { ImageSniffer.readProperties(type, $0, length: length, reach: reach) }
            last = verdict.partial
            switch verdict {
            case .done(let p):
                return p
            case .needPrefix(let n, let partial):
                let want = min(max(n, s.held * 2), s.length, s.budget.prefixCap)
                guard want > s.held else { return partial }
                let before = s.held
                try s.growPrefix(to: want)
                if s.held <= before { return partial }
            case .needRange(let r, _):
                try serve(r, &s)
            case .walk(var w, var partial):
                let outcome = try s.walk(&w)
                partial.frameCount = w.frameCount(outcome)
                return partial
            }
        }
        return last
    }
}
