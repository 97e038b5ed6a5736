/// Detects formats from bytes: the Linux counterpart of `CGImageSourceGetType`.
///
/// ```swift
/// let result = ImageSniffer.detect(bytes)                       // any contiguous bytes
/// let hinted = ImageSniffer.detect(bytes, hint: "nef")          // identifier, extension or MIME
/// let file = try ImageSniffer.detect(fileAt: "/data/0001")      // reads its first 4 KiB
/// ```
public enum ImageSniffer {
    /// This release's version (semantic versioning: see the README). The `imgsniff` command prints
    /// it for `--version`; a record or a log can carry it.
    public static let version = "0.3.0"

    /// Detects the format of `bytes`, taken to be the whole data.
    ///
    /// - Parameters:
    ///   - bytes: any collection of bytes; contiguous ones (`[UInt8]`, `ArraySlice`, Foundation's
    ///     `Data`) are read in place.
    ///   - hint: what the caller believes the data is: an identifier (`"public.tiff"`), a filename
    ///     extension (`"nef"`, `".NEF"`) or a MIME type. It settles what the bytes cannot and never
    ///     overrides what they say (see the HowHintsWork article).
    public static func detect<Bytes: Collection>(_ bytes: Bytes, hint: String? = nil) -> Detection where Bytes.Element == UInt8 {
        detect(prefix: bytes, totalLength: nil, hint: hint)
    }

    /// Detects the format from the first bytes of longer data.
    ///
    /// The length of the whole data is `totalLength`, or nil when `prefix` is all of it. When a
    /// check needs more than `prefix` holds, the result's `completeness` is `.needsMoreData(n)`:
    /// call again with at least `n` bytes. (For data that arrives in pieces,
    /// `IncrementalSniffer` does this bookkeeping.)
    ///
    /// Whatever the size of `prefix`, detection looks at no more than its first
    /// `Limits.maxPrefix` bytes and its last `Limits.tailLength` (when `prefix` is the whole data);
    /// a collection that is not contiguous is copied only as far as that.
    /// - Parameters:
    ///   - prefix: the first bytes of the data.
    ///   - totalLength: as above.
    ///   - tail: the last bytes of the whole data (up to `Limits.tailLength` are used), for
    ///     trailers such as TGA 2.0's footer when `prefix` does not reach the end.
    ///   - hint: an identifier, filename extension or MIME type (see `detect(_:hint:)`).
    public static func detect<Bytes: Collection>(prefix: Bytes, totalLength: Int?, tail: [UInt8]? = nil,
                                                 hint: String? = nil) -> Detection where Bytes.Element == UInt8 {
        if let result = prefix.withContiguousStorageIfAvailable({ buffer in
            detect(UnsafeRawBufferPointer(buffer), totalLength: totalLength, tail: tail, hint: hint)
        }) {
            return result
        }
        // Not contiguous: copy what detection can look at, no more.
        let count = prefix.count
        let head = Array(prefix.prefix(Limits.maxPrefix))
        let total = max(totalLength ?? count, count)
        var end = tail
        if end == nil && count > head.count && total == count { end = Array(prefix.suffix(Limits.tailLength)) }
        return head.withUnsafeBytes { detect($0, totalLength: total, tail: end, hint: hint) }
    }

    /// Detects the format of raw memory, taken to be the whole data unless `totalLength` says more.
    /// Reads what the answer needs within the default `ReadBudget`: the first
    /// `ReadBudget.prefixCap` bytes, ranges further on, and the last `Limits.tailLength`.
    public static func detect(_ buffer: UnsafeRawBufferPointer, totalLength: Int? = nil, tail: [UInt8]? = nil,
                              hint: String? = nil) -> Detection {
        detect(buffer, totalLength: totalLength, tail: tail, hint: hint, budget: .default)
    }

    static func detect(_ buffer: UnsafeRawBufferPointer, totalLength: Int?, tail: [UInt8]?, hint: String?,
                       budget: ReadBudget) -> Detection {
        let total = max(totalLength ?? buffer.count, buffer.count)
        if let tail, total > buffer.count {
            return tail.suffix(Limits.tailLength).withUnsafeBytes {
                MemorySource(buffer, total: total, budget: budget).detect(tail: $0, hint: hint)
            }
        }
        let source = MemorySource(buffer, total: total, budget: budget)
        if total == buffer.count && total > budget.prefixCap {
            // The whole data, longer than the cap: its own last bytes are the tail.
            return source.detect(tail: UnsafeRawBufferPointer(rebasing: buffer.suffix(Limits.tailLength)), hint: hint)
        }
        return source.detect(tail: nil, hint: hint)
    }

    /// What the detector says of `view` (the first bytes of data of `length`, nil: not known
    /// yet, and the far windows a read plan holds), whose last bytes are `tail` (nil: not known
    /// yet), under `reach`. Every API answers through here: bytes, prefixes, files and streams.
    static func judge(_ view: ByteView, length: Int?, tail: UnsafeRawBufferPointer?, hint: String?, reach: Reach) -> Verdict {
        guard length == nil else { return judge(view, length: length, tail: tail, probe: nil, hint: hint, reach: reach) }
        var touched = false
        return withUnsafeMutablePointer(to: &touched) { judge(view, length: nil, tail: nil, probe: $0, hint: hint, reach: reach) }
    }

    private static func judge(_ bytes: ByteView, length: Int?, tail: UnsafeRawBufferPointer?,
                              probe: UnsafeMutablePointer<Bool>?, hint: String?, reach: Reach) -> Verdict {
        let input: Input
        if let length {
            input = Input(view: bytes, totalLength: length, limit: min(length, reach.prefixCap),
                          tail: length > bytes.count ? tail.map { ByteView(base: $0) } : nil, reach: reach)
        } else {
            input = Input(streamView: bytes, probe: probe!, reach: reach)
        }
        switch Detector.run(input) {
        case .needPrefix(let n):
            return .needPrefix(n)
        case .needRange(let r):
            return .needRange(r)
        case .done(let hit, let truncated):
            let answer = ImageSniffer.finish(hit, truncated: truncated, input: input, hint: hint)
            return probe?.pointee == true ? .provisional(answer, awaiting: .end) : .decided(answer)
        case .needTail:
            // The answer if the end adds nothing: the checks that wanted it take their fallbacks.
            let assumed = length ?? Input.unknownLength
            let blind = Input(view: bytes, totalLength: assumed, limit: min(assumed, reach.prefixCap),
                              tail: ByteView(base: UnsafeRawBufferPointer(start: nil, count: 0)), reach: reach)
            switch Detector.run(blind) {
            case .needPrefix(let n):
                return .needPrefix(n)
            case .needRange(let r):
                return .needRange(r)
            case .done(let hit, let truncated):
                let answer = ImageSniffer.finish(hit, truncated: truncated, input: blind, hint: hint)
                return .provisional(answer, awaiting: length == nil ? .end : .tail)
            case .needTail:
                // Unreachable: a check given a tail never asks for one.
                return .provisional(Detection(type: .data, confidence: .unknown), awaiting: length == nil ? .end : .tail)
            }
        }
    }

    /// Applies the hint rules (see the HowHintsWork article) to what the bytes said.
    static func finish(_ hit: Hit, truncated: Bool, input: Input, hint: String?) -> Detection {
        let completeness: Detection.Completeness = truncated ? .truncated : .complete
        if let hint, hit.confidence == .family || hit.confidence == .unknown {
            for candidate in ImageType.types(hint: hint) {
                if let hinted = apply(candidate, to: hit, input: input) {
                    return Detection(type: hinted, confidence: .hinted, isAnimated: hit.animated, completeness: completeness)
                }
            }
        }
        return Detection(type: hit.type, confidence: hit.confidence, isAnimated: hit.animated, completeness: completeness)
    }

    /// The type a hint may settle on, or nil when the bytes do not allow it.
    private static func apply(_ candidate: ImageType, to hit: Hit, input: Input) -> ImageType? {
        if hit.confidence == .family {
            // Rule 2: a hint naming the family node or one of its members.
            return candidate.belongs(toFamily: hit.type) ? candidate : nil
        }
        // Rule 3: a format without magic whose plausibility check passes on these bytes.
        guard let plausible = Detector.hintPlausibility(for: candidate) else { return nil }
        return plausible(input.view, input.totalLength) ? candidate : nil
    }
}
