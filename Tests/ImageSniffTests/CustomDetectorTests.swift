import Foundation
import ImageSniff
import Testing
import TestSupport

/// Formats of one's own beside the built-in ones.
@Suite("Custom detectors")
struct CustomDetectorTests {
    static let sprite = CustomType(identifier: "com.example.sprite", description: "Example sprite",
                                   conformsTo: ["public.image"], filenameExtensions: ["spr"], mimeTypes: ["image/x-example-sprite"])
    static let spriteDetector = CustomDetector(type: sprite, magic: Array("SPR1".utf8))

    /// A ZIP-based document told by the name of its first entry (as OpenDocument's "mimetype").
    static let pack = CustomType(identifier: "com.example.pack", description: "Example pack", within: .zip)
    static let packDetector = CustomDetector(type: pack) { bytes, _ in
        // The local file header's name starts at 30; this test's archive holds png/rgb8 stored as "rgb8".
        bytes.count > 34 && bytes[30..<34].elementsEqual(Array("rgb8".utf8))
    }

    @Test func aCustomFormatIsNamed() throws {
        let sniffer = CustomSniffer(detectors: [Self.spriteDetector])
        let bytes = Array("SPR1".utf8) + [UInt8](repeating: 7, count: 100)
        #expect(sniffer.detect(bytes) == .custom(Self.sprite, builtIn: ImageSniffer.detect(bytes)))
        #expect(sniffer.detect(bytes).identifier == "com.example.sprite")
        #expect(Self.sprite.isImage && Self.sprite.conforms(to: "com.example.sprite"))
        // Too short, or other bytes: the built-in answer.
        #expect(sniffer.detect(Array("SPR".utf8)) == .builtIn(ImageSniffer.detect(Array("SPR".utf8))))
        let tree = try ScratchTree()
        try tree.file("a", bytes)
        #expect(try sniffer.detect(fileAt: tree.root.appendingPathComponent("a").path).identifier == "com.example.sprite")
    }

    /// A custom check never overrides what the bytes conclusively are: one that would match
    /// every JPEG runs only on content the built-ins do not know.
    @Test func builtInAnswersStand() throws {
        let greedy = CustomDetector(type: CustomType(identifier: "com.example.greedy", description: "Greedy"), magic: [0xFF, 0xD8])
        let sniffer = CustomSniffer(detectors: [greedy, Self.spriteDetector])
        var checked = 0
        for entry in Manifest.entries {
            let result = try sniffer.detect(fileAt: entry.url.path)
            let builtIn = try FileSniffer().detect(fileAt: entry.url.path)
            if builtIn.type != .data { #expect(result == .builtIn(builtIn), "\(entry.file)") }
            checked += 1
        }
        #expect(checked > 400)
    }

    /// A custom format written in a built-in one (`within`) refines that answer, over the bytes
    /// already read, and conforms to it.
    @Test func aFormatWithinABuiltInOne() throws {
        let sniffer = CustomSniffer(detectors: [Self.packDetector])
        let zip = Repository.testImages.appendingPathComponent("archive/zip-with-png").path
        let other = Repository.testImages.appendingPathComponent("archive/zip").path
        guard case .custom(let type, let builtIn) = try sniffer.detect(fileAt: zip) else {
            Issue.record("the pack was not named")
            return
        }
        #expect(type == Self.pack && builtIn.type == .zip)
        #expect(type.conforms(to: "public.zip-archive") && type.conforms(to: "public.archive"))
        #expect(try sniffer.detect(fileAt: other) == .builtIn(try FileSniffer().detect(fileAt: other)))
    }

    /// The check is handed the data's length and its first 4 KiB, from memory as from a file.
    @Test func theCheckSeesTheFirstBytesAndTheLength() throws {
        let seen = Seen()
        let probe = CustomDetector(type: CustomType(identifier: "com.example.probe", description: "Probe")) { bytes, length in
            seen.record(bytes.count, length)
            return false
        }
        let sniffer = CustomSniffer(detectors: [probe])
        let data = (0..<10_000).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 3) }  // binary, nothing known
        _ = sniffer.detect(data)
        #expect(seen.last?.0 == 4096 && seen.last?.1 == 10_000)
        let tree = try ScratchTree()
        try tree.file("z", data)
        _ = try sniffer.detect(fileAt: tree.root.appendingPathComponent("z").path)
        #expect(seen.last?.0 == 4096 && seen.last?.1 == 10_000, "a file's check sees what its bytes' does")
    }

    @Test func customTypesAreCodable() throws {
        let data = try JSONEncoder().encode([Self.sprite, Self.pack])
        #expect(try JSONDecoder().decode([CustomType].self, from: data) == [Self.sprite, Self.pack])
    }

    final class Seen: @unchecked Sendable {
        private let lock = NSLock()
        private var value: (Int, Int?)?
        func record(_ count: Int, _ length: Int?) { lock.lock(); value = (count, length); lock.unlock() }
        var last: (Int, Int?)? { lock.lock(); defer { lock.unlock() }; return value }
    }
}
