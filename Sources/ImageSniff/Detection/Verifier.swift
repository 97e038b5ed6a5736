// Whole-file completeness (`ReadBudget.verify`, `imgsniff scan --verify`): whether the container
// ends where its own structure says, as ImageIO's incremental status would report an incomplete
// file. Without it, `complete` means the header is complete: the checks saw every byte they wanted.
//
// A verifier is declared by a family beside its rules and readers. It asks for bytes anywhere (the
// last 4 KiB, an MPF index, a TIFF's strip table) through the read plan, and for the outcome of a
// walk over the structure (`FrameWalk`: JPEG's scans to EOI, PNG's chunks to IEND, GIF's blocks to
// the trailer, ISO BMFF's boxes to the end) when a cheaper check does not settle it. The walk is
// defined once per format (`walk`), so that a stream can run it as the bytes pass and a file only
// when it is wanted: both give the same answer.

/// What a whole-data check says.
enum VerifyStep: Equatable {
    /// The container ends where its structure says.
    case complete
    /// It does not: cut short (or damaged where it should end).
    case truncated
    /// Not known: no check for the format, or what it needs is out of reach. The answer stays
    /// what the header says.
    case unknown
    /// These bytes are wanted, wherever they lie.
    case needRange(Range<Int>)
    /// The outcome of the format's walk (`Verifier.walk`) is wanted.
    case needWalk
}

/// Checks the completeness of the types it declares.
struct Verifier: Sendable {
    let types: [ImageType]
    /// The check over what is held (`Input`: the length is known), given the outcome of the walk
    /// once it ran (nil before).
    let check: @Sendable (Input, ImageType, FrameWalk.Progress?) -> VerifyStep
    /// The walk the check may want, from what the first bytes say (nil: it wants none).
    let walk: @Sendable (ByteView) -> FrameWalk?
    /// The walk from the types' signature in the first few bytes alone (nil: not theirs), for
    /// when detection reads a far window before it decides (a JPEG's frame header after more
    /// metadata than the first bytes hold): a stream starts it before any byte passes unkept,
    /// and a file walks as the stream does. Without it, no walk runs after a far window.
    let earlyWalk: (@Sendable (ByteView) -> FrameWalk?)?

    init(_ types: [ImageType], walk: @escaping @Sendable (ByteView) -> FrameWalk? = { _ in nil },
         earlyWalk: (@Sendable (ByteView) -> FrameWalk?)? = nil,
         check: @escaping @Sendable (Input, ImageType, FrameWalk.Progress?) -> VerifyStep) {
        self.types = types
        self.check = check
        self.walk = walk
        self.earlyWalk = earlyWalk
    }

    /// The early walk whose signature the first bytes bear, and the verifier it serves.
    static func earlyWalk(_ v: ByteView) -> (Verifier, FrameWalk)? {
        for verifier in Registry.verifiers {
            if let w = verifier.earlyWalk?(v) { return (verifier, w) }
        }
        return nil
    }

    /// The last bytes a check may look at (a stream keeps them).
    static let tailWindow = 4096

    /// What a walk's outcome says of completeness: the end marker reached, or the data ended
    /// first. A structure damaged before its end says nothing either way (decoders often show
    /// what comes before the damage).
    static func step(for outcome: FrameWalk.Progress) -> VerifyStep {
        switch outcome {
        case .counted: return .complete
        case .truncated: return .truncated
        case .broken, .beyondReach, .wants: return .unknown
        }
    }

    /// A boxed codestream's check (JPEG 2000's JP2, JPEG XL's container) once the box walk has
    /// found the top-level boxes whole: each box in turn to `box` (nil: on to the next), then
    /// `otherwise`. A box header the data ends within (a 64-bit size cut short) is cut; past the
    /// boxes a walk reads (`Budget.boxes`), nothing is said.
    static func boxes(_ input: Input, walked: FrameWalk.Progress?, box decide: (Box) -> VerifyStep?,
                      otherwise: () -> VerifyStep) -> VerifyStep {
        guard let walked else { return .needWalk }
        let step = step(for: walked)
        guard step == .complete, let length = input.knownLength else { return step }
        var boxes = Boxes(input.view, from: 0, to: length)
        var count = 0
        while let box = boxes.next() {
            count += 1
            if let answer = decide(box) { return answer }
        }
        if let wanted = boxes.needs?.clamped(to: 0..<length) { return input.view.has(wanted) ? .truncated : .needRange(wanted) }
        return count >= Budget.boxes ? .unknown : otherwise()
    }

    /// Whether `start` bytes and `factors` multiplied (a raster's rows, columns and bytes per
    /// pixel) fit in `length` bytes: complete, or truncated (also when the product overflows:
    /// no data holds it).
    static func fits(_ start: Int, _ factors: Int..., in length: Int) -> VerifyStep {
        var size = 1
        for f in factors {
            let (product, overflow) = size.multipliedReportingOverflow(by: f)
            guard !overflow, product <= Int.max / 2 else { return .truncated }
            size = product
        }
        return start + size <= length ? .complete : .truncated
    }

    /// The verifier of each type.
    static let byType: [ImageType: Verifier] = {
        var table: [ImageType: Verifier] = [:]
        for verifier in Registry.verifiers {
            for type in verifier.types where table[type] == nil { table[type] = verifier }
        }
        return table
    }()
}

/// What one run of a verifier over the held bytes concluded (the drivers' vocabulary).
extension ImageSniffer {
    /// The verifier's step for `type` over `view` (data of `length` bytes; nil: a stream whose
    /// end has not come), given the walk's outcome, and whether it depends on the end. A range is
    /// asked for only when the read plan can fetch it (as it fetches any other: forward, within
    /// the budget; the last `Verifier.tailWindow` bytes always); one past the end is truncation,
    /// one out of reach leaves the answer unknown.
    static func verify(_ type: ImageType, _ view: ByteView, length: Int?, reach: Reach,
                       walked: FrameWalk.Progress?) -> (step: VerifyStep, dependsOnEnd: Bool) {
        guard let verifier = Verifier.byType[type] else { return (.unknown, false) }
        var touched = false
        let step = withUnsafeMutablePointer(to: &touched) { probe -> VerifyStep in
            let input = length.map { Input(view: view, totalLength: $0, limit: min($0, reach.prefixCap), tail: nil, reach: reach) }
                ?? Input(streamView: view, probe: probe, reach: reach)
            let step = verifier.check(input, type, walked)
            guard case .needRange(let r) = step else { return step }
            if view.has(r) { return .unknown }  // held already: a check that asks again is stuck
            // The last bytes are verification's own read, whatever the budget (a stream keeps them).
            if let length, r.lowerBound >= length - Verifier.tailWindow, r.upperBound <= length { return step }
            if input.canFetch(r) { return step }
            return input.isPastEnd(r) ? .truncated : .unknown
        }
        return (step, touched)
    }

    /// The completeness a verified answer takes: truncated when either says so.
    static func merge(_ detection: Detection, _ step: VerifyStep) -> Detection {
        guard step == .truncated, detection.completeness == .complete else { return detection }
        return Detection(type: detection.type, confidence: detection.confidence, isAnimated: detection.isAnimated, completeness: .truncated)
    }
}
