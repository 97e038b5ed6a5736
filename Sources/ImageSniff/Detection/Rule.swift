// The vocabulary of detection: the bytes a check sees (`Input`), what a check answers (`Step`,
// `Hit`) and the declaration every family makes of its checks (`Rule`). The walk that runs the
// rules is in Detector.swift; the list of families is in Registry.swift.

/// A match found by a check.
struct Hit: Equatable {
    var type: ImageType
    var confidence: Detection.Confidence = .conclusive
    var animated = false

    init(_ type: ImageType, _ confidence: Detection.Confidence = .conclusive, animated: Bool = false) {
        self.type = type
        self.confidence = confidence
        self.animated = animated
    }
}

/// What one check says.
enum Step {
    /// Not this format.
    case no
    /// This format, and this answer.
    case hit(Hit)
    /// The check wants the first `n` bytes to go further. `fallback` is the answer if they cannot
    /// be had (the data ends, or the read cap is reached); nil means "not this format, then".
    case need(Int, fallback: Hit?)
    /// The check wants the last bytes of the data (TGA's footer, JSON's closing bracket).
    case needTail(fallback: Hit?)
    /// The check wants these bytes, wherever they lie (a TIFF's IFD at the end, the segments after
    /// a large one). `fallback` is the answer if they cannot be had (past the end, or out of the
    /// read plan's reach); nil means "not this format, then".
    case needRange(Range<Int>, fallback: Hit?)

    var isHit: Bool { if case .hit = self { return true } else { return false } }
}

/// The bytes under inspection and what is known about the rest.
///
/// The data's end (its length, its last bytes) may not be known yet: a stream still arriving.
/// Then `totalLength` stands in as a length far beyond the read cap, and a check that reads it
/// (or `tail`, or `isWhole`) marks the outcome as depending on the end (`endProbe`): the
/// incremental detector calls such an answer provisional until the stream ends. Checks read
/// them only when they need them, so that an answer that does not depend on the end is final.
struct Input {
    let view: ByteView
    /// How far the view may grow: min(totalLength, read cap).
    let limit: Int
    private let knownTotal: Int
    private let knownTail: ByteView?
    /// Set to true when a check read what is not known yet; nil when the end is known. (A
    /// pointer to the caller's flag, not a class: no allocation per detection.)
    let endProbe: UnsafeMutablePointer<Bool>?
    /// What the read plan may still fetch.
    let reach: Reach

    init(view: ByteView, totalLength: Int, limit: Int, tail: ByteView?, reach: Reach? = nil) {
        self.view = view
        self.knownTotal = totalLength
        self.limit = limit
        self.knownTail = tail
        self.endProbe = nil
        self.reach = reach ?? .none(prefixCap: limit)
    }

    /// Data whose length is not known yet: a stream seen as far as `view`.
    init(streamView view: ByteView, probe: UnsafeMutablePointer<Bool>, reach: Reach? = nil) {
        self.view = view
        self.knownTotal = Input.unknownLength
        self.limit = reach?.prefixCap ?? Limits.maxPrefix
        self.knownTail = nil
        self.endProbe = probe
        self.reach = reach ?? .none(prefixCap: Limits.maxPrefix)
    }

    private init(view: ByteView, total: Int, limit: Int, tail: ByteView?, probe: UnsafeMutablePointer<Bool>?, reach: Reach) {
        self.view = view
        self.knownTotal = total
        self.limit = limit
        self.knownTail = tail
        self.endProbe = probe
        self.reach = reach
    }

    /// Whether the read plan can fetch `range` (not held yet): within the data when its length is
    /// known, and within the plan's reach. (Reading it does not make the answer depend on the end.)
    func canFetch(_ range: Range<Int>) -> Bool {
        ReadPlan.canFetch(range, held: view.count, length: endProbe == nil ? knownTotal : nil, reach: reach)
    }

    /// Whether `range` lies past the end of the data. Of a stream whose end is not known yet, the
    /// answer depends on the end: asking says so (the answer is provisional until the end).
    func isPastEnd(_ range: Range<Int>) -> Bool {
        if let endProbe {
            endProbe.pointee = true
            return false
        }
        return range.upperBound > knownTotal
    }

    /// The data's length when it is known, without making the answer depend on the end (nil for a
    /// stream whose end has not come).
    var knownLength: Int? { endProbe == nil ? knownTotal : nil }

    /// What `totalLength` says of a stream whose end is not known: more than any cap, with
    /// room for arithmetic.
    static let unknownLength = 1 << 60

    /// Length of the whole data; `view.count` when the view is the whole data.
    var totalLength: Int {
        endProbe?.pointee = true
        return knownTotal
    }

    /// The last bytes of the data (up to `Limits.tailLength`), when known.
    var tail: ByteView? {
        endProbe?.pointee = true
        return knownTail
    }

    var hasMore: Bool { view.count < limit }
    var isWhole: Bool { view.count >= totalLength }

    /// The same data from byte `start` of the view on (an embedded header checked by another
    /// rule), with the end as known or unknown as here.
    func dropping(first start: Int) -> Input {
        Input(view: ByteView(base: UnsafeRawBufferPointer(rebasing: view.base[start...])),
              total: knownTotal - start, limit: limit - start, tail: knownTail, probe: endProbe, reach: .none(prefixCap: limit - start))
    }
}


/// One detection rule, declared by the family that owns the check: where the evidence starts,
/// the check itself and every type it can answer.
///
/// The detector builds its first-byte dispatch and its fallback order from these declarations
/// (see `Detector`); nothing else lists formats. Adding a format is a catalog entry plus a rule in
/// a family file (the Format reference article in the documentation catalog says how).
struct Rule: Sendable {
    /// Where a rule's evidence starts.
    enum Start: Sendable, Equatable {
        /// A signature at offset 0 whose first byte is one of these.
        case firstByte([UInt8])
        /// Evidence away from the start, or no magic at all (DICOM, TGA, text): tried in
        /// registry order after every signature failed.
        case elsewhere
    }

    /// How much a match of this rule says.
    enum Strength: Int, Sendable, Comparable {
        /// A signature and structure behind it: tried first.
        case signature
        /// A weak signature (MPEG audio frame sync, a QuickTime atom name): tried after the
        /// signatures that share its first byte.
        case heuristic

        static func < (a: Strength, b: Strength) -> Bool { a.rawValue < b.rawValue }
    }

    /// A name for messages and tests.
    let name: String
    let start: Start
    let strength: Strength
    /// The check may rule on a single byte (text-like signatures such as `#`, `%`, `/`, a
    /// newline): a lone first byte is handed to it rather than answered with a request for two.
    let oneByteDecides: Bool
    /// Every type the check can answer (besides `public.data`).
    let produces: [ImageType]
    /// For formats without magic, whether the bytes are plausible enough for a hint to name the
    /// format when nothing else matched (hint rule 3): `(view, totalLength)`.
    let hintPlausibility: (@Sendable (ByteView, Int) -> Bool)?
    let check: @Sendable (Input) -> Step

    init(_ name: String, _ start: Start, strength: Strength = .signature, oneByteDecides: Bool = false,
         produces: [ImageType], hintPlausibility: (@Sendable (ByteView, Int) -> Bool)? = nil,
         check: @escaping @Sendable (Input) -> Step) {
        self.name = name
        self.start = start
        self.strength = strength
        self.oneByteDecides = oneByteDecides
        self.produces = produces
        self.hintPlausibility = hintPlausibility
        self.check = check
    }
}
