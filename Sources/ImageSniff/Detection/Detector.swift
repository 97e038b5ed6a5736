// The detection walk, built once from the rules the families declare (Registry.swift):
//
// 1. The rules whose signature starts with the data's first byte, strong signatures before
//    heuristics, in registry order. The first that does not say `.no` answers; a request for more
//    bytes without a fallback is kept and given back only if no later rule matches.
// 2. When no signature matched, the rules whose evidence is elsewhere (DICOM's marker at 128,
//    then the magic-less formats, text last), strong before heuristic, in registry order.
// A rule can only make an answer more specific, never hide another format's.

/// The result of one pass over the bytes.
enum Outcome {
    case done(Hit, truncated: Bool)
    case needPrefix(Int)
    case needTail
    /// A range the read plan can fetch (see `ReadPlan`).
    case needRange(Range<Int>)
}

enum Detector {
    /// The dispatch, made once from `Registry.rules`.
    struct Table {
        /// Rule indices (into `rules`) for each first byte: `order[slots[b] ..< slots[b + 1]]`.
        let slots: [Int]
        let order: [Int]
        /// Whether a lone first byte is handed to its rules (every one of them decides on one byte).
        let loneByteDecides: [Bool]
        /// Rules whose evidence is elsewhere, in order (strong before heuristic, then registry order).
        let elsewhere: [Int]
        let rules: [Rule]
        /// Each rule's check alone: calling one copies no `Rule` (its name, first bytes and
        /// types would be retained and released on every call).
        let checks: [Check]

        /// A check in a struct of its own: an array of bare closures holds each behind a
        /// reabstraction thunk (its element type is generic), which costs a call, a retain and a
        /// release of the thunk's context on every check (eight checks a file; 13 million
        /// instructions over the 20,000-file bench tree).
        struct Check {
            let run: @Sendable (Input) -> Step
        }

        init(_ rules: [Rule]) {
            self.rules = rules
            self.checks = rules.map { Check(run: $0.check) }
            // Strong signatures first; registry order within a strength (a stable sort).
            let ranked = rules.indices.sorted { (rules[$0].strength, $0) < (rules[$1].strength, $1) }
            // One pass: each rule into the buckets of its first bytes (start-up cost matters: a
            // one-file scan builds this table once).
            var buckets = [[Int]](repeating: [], count: 256)
            var elsewhere: [Int] = []
            for index in ranked {
                switch rules[index].start {
                case .firstByte(let bytes): for b in bytes where buckets[Int(b)].last != index { buckets[Int(b)].append(index) }
                case .elsewhere: elsewhere.append(index)
                }
            }
            var slots = [Int](repeating: 0, count: 257)
            var order: [Int] = []
            var lone = [Bool](repeating: false, count: 256)
            for byte in 0..<256 {
                slots[byte] = order.count
                let here = buckets[byte]
                order += here
                lone[byte] = !here.isEmpty && here.allSatisfy { rules[$0].oneByteDecides }
            }
            slots[256] = order.count
            self.slots = slots
            self.order = order
            self.loneByteDecides = lone
            self.elsewhere = elsewhere
        }
    }

    static let table = Table(Registry.rules)

    static func run(_ input: Input) -> Outcome {
        let v = input.view
        var truncated = false
        guard v.count > 0 else { return .done(Hit(.data, .unknown), truncated: false) }

        // 1. Signatures at offset 0, chosen by the first byte.
        if let outcome = resolve(signatures(input), input, &truncated) { return outcome }

        // A signature began to match and the data ended: a cut file, not text.
        if truncated { return .done(Hit(.data, .unknown), truncated: true) }

        // 2. Formats whose evidence is elsewhere, then text.
        for index in table.elsewhere {
            if let outcome = resolve(check(index, input), input, &truncated) { return outcome }
        }
        return .done(Hit(.data, .unknown), truncated: truncated)
    }

    /// Runs one rule; in debug builds, checks that it answered a type it declares.
    @inline(__always)
    private static func check(_ index: Int, _ input: Input) -> Step {
        let step = table.checks[index].run(input)
        #if DEBUG
        let rule = table.rules[index]
        let answered: Hit?
        switch step {
        case .no: answered = nil
        case .hit(let hit): answered = hit
        case .need(_, let fallback), .needTail(let fallback), .needRange(_, let fallback): answered = fallback
        }
        if let answered, answered.type != .data {
            assert(rule.produces.contains(answered.type), "rule \(rule.name) answered undeclared \(answered.type)")
        }
        #endif
        return step
    }

    /// The rules of the first byte, one after the other.
    private static func signatures(_ input: Input) -> Step {
        let first = Int(input.view.base[0])
        let slot = table.slots[first]..<table.slots[first + 1]
        // One byte that starts a signature says nothing yet (unless its rules decide on one byte).
        if input.view.count < 2 && !table.loneByteDecides[first] { return slot.isEmpty ? .no : .need(2, fallback: nil) }
        var pending: Step = .no
        for position in slot {
            let step = check(table.order[position], input)
            switch step {
            case .no: continue
            case .hit: return step
            case .need(_, let fallback), .needTail(let fallback), .needRange(_, let fallback):
                if fallback != nil { return step }
                if case .no = pending { pending = step }
            }
        }
        return pending
    }

    /// Turns a step into an outcome, or nil to go on with the next check.
    @inline(__always)
    private static func resolve(_ step: Step, _ input: Input, _ truncated: inout Bool) -> Outcome? {
        switch step {
        case .no:
            return nil
        case .hit(let hit):
            return .done(hit, truncated: truncated)
        case .need(let n, let fallback):
            // The first bytes grow as far as they may (to the cap, or the whole data under it),
            // and then the check answers from what is there: so its answer does not depend on
            // how far they had grown when it asked (a stream's chunks, a file's doubling reads).
            // Structures further on are asked for by range (`.needRange`).
            if n > input.view.count && input.hasMore { return .needPrefix(min(n, input.limit)) }
            // Wanting more than the data holds is truncation, whether or not all of it is in view.
            // (Of a stream whose end is not known yet, that depends on the end: reading the
            // length says so.)
            if n > input.totalLength { truncated = true }
            if let fallback { return .done(fallback, truncated: truncated) }
            return nil
        case .needTail(let fallback):
            if input.endProbe != nil || (input.tail == nil && !input.isWhole) { return .needTail }
            if let fallback { return .done(fallback, truncated: truncated) }
            return nil
        case .needRange(let range, let fallback):
            // Fetched when the read plan can (wherever it lies); past the end of the data it is
            // truncation; out of reach, the fallback.
            if !input.view.has(range) {
                if input.canFetch(range) { return .needRange(range) }
                // A range that runs past the end: the bytes before the end are read first (the
                // check may decide from them, as it does over the whole data in memory; a stream
                // that knows its length would otherwise call it truncation before they came).
                if let length = input.knownLength, range.lowerBound < length, range.upperBound > length {
                    let before = range.lowerBound..<length
                    if !input.view.has(before), input.canFetch(before) { return .needRange(before) }
                }
                if input.isPastEnd(range) { truncated = true }
            }
            if let fallback { return .done(fallback, truncated: truncated) }
            return nil
        }
    }

    /// The rule that declares `type` with a hint plausibility check (hint rule 3), if any.
    static func hintPlausibility(for type: ImageType) -> (@Sendable (ByteView, Int) -> Bool)? {
        for rule in table.rules where rule.hintPlausibility != nil && rule.produces.contains(type) {
            return rule.hintPlausibility
        }
        return nil
    }
}
