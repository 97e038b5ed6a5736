/// What detection concluded about some bytes.
public struct Detection: Sendable, Hashable {
    /// How the answer was reached.
    public enum Confidence: String, Sendable, Hashable, CaseIterable {
        /// The bytes decide: a signature and the structure behind it.
        case conclusive
        /// A heuristic on the bytes (plausible header fields, text statistics, a frame sync):
        /// right on real files, but there is no magic number to be sure.
        case likely
        /// The bytes name a family (a TIFF whose vendor cannot be told, a `mif1` HEIF) and no
        /// hint settled which member it is. `type` is the family node.
        case family
        /// The bytes alone could not decide and the hint did, within what the bytes allow.
        case hinted
        /// Nothing matched: `type` is `public.data`.
        case unknown
    }

    /// Whether the bytes seen were enough.
    public enum Completeness: Sendable, Hashable {
        /// The checks saw every byte they wanted.
        case complete
        /// The data ended before a check had what it wanted: the file is cut short (or simply
        /// tiny). The answer is what the bytes present allow.
        case truncated
        /// The caller passed a prefix of longer data (see `ImageSniffer.detect(prefix:totalLength:hint:)`)
        /// and a check wants at least this many bytes from the start to decide.
        case needsMoreData(Int)
    }

    /// The type: a concrete format, a family node (see `confidence`), or `public.data`.
    public let type: ImageType
    public let confidence: Confidence
    /// APNG, animated GIF and WebP, AVIF and HEIF sequences, animated FLIF.
    public let isAnimated: Bool
    public let completeness: Completeness

    public init(type: ImageType, confidence: Confidence, isAnimated: Bool = false,
                completeness: Completeness = .complete) {
        self.type = type
        self.confidence = confidence
        self.isAnimated = isAnimated
        self.completeness = completeness
    }

    /// Nothing known matched.
    public var isUnknown: Bool { confidence == .unknown }
}

extension Detection: CustomStringConvertible {
    public var description: String {
        var text = "\(type.identifier) (\(confidence.rawValue)"
        if isAnimated { text += ", animated" }
        switch completeness {
        case .complete: break
        case .truncated: text += ", truncated"
        case .needsMoreData(let n): text += ", needs \(n) bytes"
        }
        return text + ")"
    }
}
