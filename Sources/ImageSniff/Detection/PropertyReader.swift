// Property readers: one per format family, declared with the types it reads, and the registry that
// finds the reader for a detected type. Readers work on the same `Input` as detection checks (the
// bytes in view, the data's length, the read cap) and ask for more the same way.

/// What a property reader says.
enum PropertyStep {
    /// What the header states.
    case done(ImageProperties)
    /// The reader wants the first `n` bytes to go further; `partial` is what it has so far (the
    /// answer if they cannot be had).
    case need(Int, partial: ImageProperties)
    /// The reader wants these bytes, wherever they lie (see `ReadPlan`).
    case needRange(Range<Int>, partial: ImageProperties)
    /// The frames are counted by a walk over the rest of the data (`FrameWalk`): `partial` is
    /// all the rest, its frame count the walk's.
    case walk(FrameWalk, partial: ImageProperties)
}

/// What one run of a property reader over the held bytes concluded.
enum PropertyVerdict {
    case done(ImageProperties)
    case needPrefix(Int, partial: ImageProperties)
    case needRange(Range<Int>, partial: ImageProperties)
    case walk(FrameWalk, partial: ImageProperties)

    var partial: ImageProperties {
        switch self {
        case .done(let p), .needPrefix(_, let p), .needRange(_, let p), .walk(_, let p): return p
        }
    }
}

/// Reads the properties of the types it declares.
struct PropertyReader: Sendable {
    let types: [ImageType]
    let read: @Sendable (Input, ImageType) -> PropertyStep

    init(_ types: [ImageType], read: @escaping @Sendable (Input, ImageType) -> PropertyStep) {
        self.types = types
        self.read = read
    }
}

enum PropertyRegistry {
    /// The image types whose properties are not read, and why.
    static let notStated: [ImageType: String] = [
        .svg: "vector", .xfig: "vector", .wmf: "vector", .emf: "vector", .wordPerfectGraphics: "vector", .cgm: "vector",
        .cr3: "camera RAW (its own container)", .crw: "camera RAW (its own container)", .raf: "camera RAW (its own container)",
        .mrw: "camera RAW (its own container)", .x3f: "camera RAW (its own container)", .rwz: "camera RAW (its own container)",
        .icns: "several images of several sizes", .openRaster: "a ZIP archive (its stack.xml)", .flashPix: "an OLE2 compound file",
        .photoCD: "several resolutions", .appleATX: "a texture wrapper",
        .aliasPIX: "not yet", .mgr: "not yet", .cmuRaster: "not yet", .microDesign: "not yet",
        .solitaireSIR: "not yet", .garminSRF: "not yet", .mcidas: "not yet", .pixar: "not yet",
        .spider: "not yet", .jbig2: "not yet", .nokiaNOL: "not yet", .nokiaNGG: "not yet", .otb: "not yet",
    ]

    /// The reader of each type (every type has at most one: CatalogTests checks it).
    static let byType: [ImageType: PropertyReader] = {
        var table: [ImageType: PropertyReader] = [:]
        for reader in Registry.readers {
            for type in reader.types where table[type] == nil { table[type] = reader }
        }
        return table
    }()
}

extension ImageSniffer {
    /// The properties of `type` from `view` (the held bytes of data of `length` bytes): `.done`,
    /// or a request for bytes that can be had under `reach`.
    static func readProperties(_ type: ImageType, _ view: ByteView, length: Int, reach: Reach) -> PropertyVerdict {
        let input = Input(view: view, totalLength: length, limit: min(length, reach.prefixCap), tail: nil, reach: reach)
        return readProperties(type, input)
    }

    /// `readProperties(_:_:length:reach:)` for a stream whose length is not known yet: also says
    /// whether the answer depends on the end (a reader read the length, or asked for what may lie
    /// past it): then it is the answer if the data ends here.
    static func readProperties(_ type: ImageType, streamView view: ByteView, reach: Reach) -> (PropertyVerdict, dependsOnEnd: Bool) {
        var touched = false
        let verdict = withUnsafeMutablePointer(to: &touched) {
            readProperties(type, Input(streamView: view, probe: $0, reach: reach))
        }
        return (verdict, touched)
    }

    private static func readProperties(_ type: ImageType, _ input: Input) -> PropertyVerdict {
        guard let reader = PropertyRegistry.byType[type] else { return .done(.unknown) }
        let view = input.view
        // Every answer passes `statedOnly`: a size no image can have is not stated.
        switch reader.read(input, type) {
        case .done(let properties):
            return .done(properties.statedOnly)
        case .need(let n, let partial):
            return n > view.count && input.hasMore ? .needPrefix(min(n, input.limit), partial: partial.statedOnly) : .done(partial.statedOnly)
        case .needRange(let r, let partial):
            return !view.has(r) && input.canFetch(r) ? .needRange(r, partial: partial.statedOnly) : .done(partial.statedOnly)
        case .walk(let walk, let partial):
            return .walk(walk, partial: partial.statedOnly)
        }
    }

    /// Detects the format of `bytes` and reads its image's properties.
    ///
    /// Costs one detection, plus one header parse for an image, reading what the answer needs
    /// wherever it lies within `budget` (see `ReadBudget`). Plain `detect(_:hint:)` does no property
    /// work.
    public static func inspect<Bytes: Collection>(_ bytes: Bytes, hint: String? = nil, budget: ReadBudget = .default) -> Inspection
        where Bytes.Element == UInt8 {
        if let result = bytes.withContiguousStorageIfAvailable({ inspect(UnsafeRawBufferPointer($0), hint: hint, budget: budget) }) {
            return result
        }
        return Array(bytes).withUnsafeBytes { inspect($0, hint: hint, budget: budget) }
    }

    /// `inspect(_:hint:budget:)` for raw memory.
    public static func inspect(_ buffer: UnsafeRawBufferPointer, hint: String? = nil, budget: ReadBudget = .default) -> Inspection {
        var source = MemorySource(buffer, total: buffer.count, budget: budget)
        do throws(FileError) {
            return try Inspector.run(&source, hint: hint, properties: true)
        } catch {
            return Inspection(detection: detect(buffer, hint: hint), properties: .unknown)  // unreachable: memory does not fail
        }
    }

    /// The properties of what `detection` found, from `view`, the first bytes of data of `length`
    /// bytes: what the header states within them (a field whose bytes lie further is nil, never a
    /// guess). `properties(of:prefix:totalLength:budget:)` also says how many bytes would settle it.
    public static func properties(of detection: Detection, _ view: UnsafeRawBufferPointer, length: Int) -> ImageProperties {
        switch properties(of: detection, prefix: view, totalLength: length) {
        case .settled(let p), .needsMoreData(_, let p): return p
        }
    }

    /// The properties of what `detection` found, from `prefix`, the first bytes of data of
    /// `totalLength` bytes (nil: `prefix` is all of it), read as a file would be within `budget`:
    /// `.settled`, or `.needsMoreData(upTo:partial:)` when the header's facts lie past `prefix`
    /// (call again with the first `upTo` bytes). For data that arrives in pieces,
    /// `IncrementalSniffer(readsProperties:)` does this bookkeeping.
    public static func properties(of detection: Detection, prefix: UnsafeRawBufferPointer, totalLength: Int? = nil,
                                  budget: ReadBudget = .default) -> PropertyReading {
        guard detection.type.isImage else { return .settled(.unknown) }
        let total = max(totalLength ?? prefix.count, prefix.count)
        var source = MemorySource(prefix, total: total, budget: budget)
        var last = ImageProperties.unknown
        // More first bytes are asked for as a file reads them: at least twice as many (a chain
        // of IFDs costs a few calls, not one per IFD).
        let more = { (n: Int) in min(total, max(n, min(budget.prefixCap, prefix.count * 2))) }
        for _ in 0..<Inspector.maxRounds {
            let reach = source.reach
            let verdict = source.withView { readProperties(detection.type, $0, length: total, reach: reach) }
            last = verdict.partial
            switch verdict {
            case .done(let p):
                return .settled(p)
            case .needPrefix(let n, let partial):
                return .needsMoreData(upTo: more(n), partial: partial)
            case .needRange(let r, let partial):
                if let wanted = source.fetch(r) {
                    let near = ReadPlan.isNear(r, held: prefix.count, cap: budget.prefixCap)
                    return .needsMoreData(upTo: near ? more(wanted) : wanted, partial: partial)
                }
            case .walk(var w, var partial):
                // A frame walk over the data: all of it (as far as the walk's budget) is wanted.
                let outcome = w.advance(ByteView(base: prefix), length: total, limit: w.limit(budget))
                if case .wants(let r) = outcome { return .needsMoreData(upTo: min(total, max(r.upperBound, prefix.count * 2)), partial: partial) }
                partial.frameCount = w.frameCount(outcome)
                return .settled(partial)
            }
        }
        return .settled(last)
    }
}

/// What reading an image's properties from the first bytes of its data found
/// (`ImageSniffer.properties(of:prefix:totalLength:budget:)`).
public enum PropertyReading: Sendable, Hashable {
    /// Every field the header states within the read budget (a nil field is not stated).
    case settled(ImageProperties)
    /// The header's facts lie past the bytes given: the first `upTo` bytes are wanted; `partial`
    /// is what is stated so far.
    case needsMoreData(upTo: Int, partial: ImageProperties)
}
