/// Detects formats from bytes: the Linux counterpart of `CGImageSourceGetType`.
///
/// ```swift
/// let result = ImageSniffer.detect(bytes)                       // any contiguous bytes
/// let hinted = ImageSniffer.detect(bytes, hint: "nef")          // identifier, extension or MIME
/// let file = try ImageSniffer.detect(fileAt: "/data/0001")      // reads a bounded prefix
/// ```
public enum ImageSniffer {
    /// Detects the format of `bytes`, taken to be the whole data.
    ///
    /// - Parameters:
    ///   - bytes: any collection of bytes; contiguous ones (`[UInt8]`, `ArraySlice`, Foundation's
    ///     `Data`) are read in place.
    ///   - hint: what the caller believes the data is: an identifier (`"public.tiff"`), a filename
    ///     extension (`"nef"`, `".NEF"`) or a MIME type. It settles what the bytes cannot and never
    ///     overrides what they say (FORMATS.md section 2).
    public static func detect<Bytes: Collection>(_ bytes: Bytes, hint: String? = nil) -> Detection where Bytes.Element == UInt8 {
        detect(prefix: bytes, totalLength: nil, hint: hint)
    }

    /// Detects the format from the first bytes of longer data.
    ///
    /// The length of the whole data is `totalLength`, or nil when `prefix` is all of it. When a
    /// check needs more than `prefix` holds, the result's `completeness` is `.needsMoreData(n)`:
    /// call again with at least `n` bytes.
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
        let copy = Array(prefix)
        return copy.withUnsafeBytes { detect($0, totalLength: totalLength, tail: tail, hint: hint) }
    }

    /// Detects the format of raw memory, taken to be the whole data unless `totalLength` says more.
    public static func detect(_ buffer: UnsafeRawBufferPointer, totalLength: Int? = nil, tail: [UInt8]? = nil,
                              hint: String? = nil) -> Detection {
        let total = max(totalLength ?? buffer.count, buffer.count)
        guard let tail, total > buffer.count else { return detect(buffer, total: total, tail: nil, hint: hint) }
        return tail.suffix(Limits.tailLength).withUnsafeBytes { detect(buffer, total: total, tail: ByteView(base: $0), hint: hint) }
    }

    private static func detect(_ buffer: UnsafeRawBufferPointer, total: Int, tail: ByteView?, hint: String?) -> Detection {
        let input = Input(view: ByteView(base: buffer), totalLength: total, limit: total, tail: tail)
        switch Detector.run(input) {
        case .done(let hit, let truncated):
            return finish(hit, truncated: truncated, input: input, hint: hint)
        case .needPrefix(let n):
            return Detection(type: .data, confidence: .unknown, completeness: .needsMoreData(n))
        case .needTail:
            return Detection(type: .data, confidence: .unknown, completeness: .needsMoreData(total))
        }
    }

    /// Applies the hint rules (FORMATS.md section 2) to what the bytes said.
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
