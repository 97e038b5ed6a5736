import Foundation
import Testing
@testable import ImageSniff

/// The one list of families: its rules and readers, and the reference written from it.
@Suite("Family registry")
struct RegistryTests {
    /// Every image type a rule can produce has a property reader, or is in the explicit list of
    /// types whose properties are not stated (with the reason there).
    @Test func everyImageTypeHasAReaderOrIsListed() {
        let produced = Set(Registry.rules.flatMap(\.produces)).filter(\.isImage)
        for type in produced.sorted(by: { $0.identifier < $1.identifier }) {
            let read = PropertyRegistry.byType[type] != nil
            let listed = PropertyRegistry.notStated[type] != nil
            #expect(read != listed, "\(type.identifier): \(read ? "a reader and listed as not stated" : "no reader, and not listed as not stated")")
        }
        for type in PropertyRegistry.notStated.keys { #expect(type.isImage, "\(type.identifier) is listed but is no image") }
    }

    /// A type is read by one reader only (the table takes the first; a second would be dead).
    @Test func noTypeHasTwoReaders() {
        var seen: [ImageType: Int] = [:]
        for reader in Registry.readers { for type in reader.types { seen[type, default: 0] += 1 } }
        for (type, n) in seen { #expect(n == 1, "\(type.identifier) has \(n) readers") }
    }

    /// docs/formats.md is written from the registry and the catalog: it must be current
    /// (`IMAGESNIFF_WRITE_REFERENCE=1 swift test --filter RegistryTests` rewrites it).
    @Test func formatReferenceIsCurrent() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
            .appendingPathComponent("../../docs/formats.md").standardized
        let text = FormatReference.markdown()
        if ProcessInfo.processInfo.environment["IMAGESNIFF_WRITE_REFERENCE"] != nil {
            try text.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let current = try String(contentsOf: url, encoding: .utf8)
        #expect(current == text, "docs/formats.md is stale: IMAGESNIFF_WRITE_REFERENCE=1 swift test --filter RegistryTests")
    }
}
