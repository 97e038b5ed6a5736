import Testing
@testable import ImageSniff

/// The detection rules the families declare, and the dispatch built from them.
@Suite("Detection rules")
struct RulesTests {
    /// Every concrete catalog type is answered by some rule, or marked as named only by a hint.
    @Test func everyConcreteTypeIsProducedOrHintOnly() {
        let produced = Set(Registry.rules.flatMap(\.produces))
        for type in ImageType.allCases where !type.isAbstract && type != .data {
            if type.isNamedOnlyByHint {
                #expect(!produced.contains(type), "\(type) is marked hint-only but rule(s) produce it")
                #expect(type.detectionFamily != nil, "\(type) is hint-only without a family for a hint to settle")
            } else {
                #expect(produced.contains(type), "no rule produces \(type) and it is not marked hint-only")
            }
        }
    }

    /// Rules produce concrete catalog types, and declare where they start.
    @Test func declarationsAreWellFormed() {
        var names = Set<String>()
        for rule in Registry.rules {
            #expect(names.insert(rule.name).inserted, "two rules named \(rule.name)")
            #expect(!rule.produces.isEmpty, "\(rule.name) produces nothing")
            for type in rule.produces { #expect(!type.isAbstract, "\(rule.name) produces abstract \(type)") }
            if case .firstByte(let bytes) = rule.start { #expect(!bytes.isEmpty, "\(rule.name) starts nowhere") }
            if rule.hintPlausibility != nil { #expect(rule.start == .elsewhere, "\(rule.name): only formats without magic take a hint from nothing") }
        }
    }

    /// The dispatch holds each first-byte rule under each of its bytes, strong signatures before
    /// heuristics, and the rules with evidence elsewhere in registry order with text last.
    @Test func dispatchIsBuiltFromTheDeclarations() {
        let table = Detector.table
        for (index, rule) in Registry.rules.enumerated() {
            guard case .firstByte(let bytes) = rule.start else {
                #expect(table.elsewhere.contains(index))
                continue
            }
            for b in bytes {
                let slot = table.order[table.slots[Int(b)]..<table.slots[Int(b) + 1]]
                #expect(slot.contains(index), "\(rule.name) missing under byte \(b)")
            }
        }
        for b in 0..<256 {
            let slot = table.order[table.slots[b]..<table.slots[b + 1]].map { Registry.rules[$0].strength }
            #expect(slot == slot.sorted(), "byte \(b): a heuristic before a signature")
        }
        #expect(Registry.rules[table.elsewhere.last!].produces.contains(.plainText), "text comes last")
        let strengths = table.elsewhere.map { Registry.rules[$0].strength }
        #expect(strengths == strengths.sorted(), "a heuristic before a signature among the rules with evidence elsewhere")
        #expect(table.order.count == Registry.rules.reduce(0) { n, rule in
            if case .firstByte(let bytes) = rule.start { return n + bytes.count } else { return n }
        })
    }

    /// A lone first byte is answered by its rules only when every one of them decides on one byte.
    @Test func loneBytes() {
        #expect(ImageSniffer.detect([0xFF]).completeness == .truncated, "one byte of a JPEG signature")
        #expect(ImageSniffer.detect(prefix: [0xFF], totalLength: 100).completeness == .needsMoreData(2))
        #expect(ImageSniffer.detect([0x2F]).completeness == .complete, "a lone '/' is handed to XPM, which says no")
        #expect(ImageSniffer.detect([0x61]) == Detection(type: .data, confidence: .unknown))
    }
}
