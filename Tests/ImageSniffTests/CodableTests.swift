import Foundation
import ImageSniff
import Testing
import TestSupport

/// Every result a program keeps or sends round-trips through JSON, in the documented shape.
@Suite("Codable results")
struct CodableTests {
    static func roundTrip<T: Codable & Equatable>(_ value: T) throws -> (T, String) {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        let data = try encoder.encode(value)
        return (try JSONDecoder().decode(T.self, from: data), String(decoding: data, as: UTF8.self))
    }

    /// Every test image's inspection (detection and properties) comes back equal.
    @Test func everyTestImagesInspectionRoundTrips() throws {
        let sniffer = FileSniffer()
        var seen = Set<ImageType>()
        for entry in Manifest.entries {
            let inspection = try sniffer.inspect(fileAt: entry.url.path)
            let (back, json) = try Self.roundTrip(inspection)
            #expect(back == inspection, "\(entry.file): \(json)")
            #expect(json.contains("\"type\":\"\(inspection.detection.type.identifier)\""), "\(json)")
            seen.insert(inspection.detection.type)
        }
        #expect(seen.count > 150)
    }

    /// Every type, by its identifier; an identifier this release does not know fails to decode.
    @Test func typesAreTheirIdentifiers() throws {
        for type in ImageType.allCases {
            let (back, json) = try Self.roundTrip([type])
            #expect(back == [type])
            #expect(json == "[\"\(type.identifier)\"]")
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([ImageType].self, from: Data(#"["org.example.nothing"]"#.utf8)) }
    }

    @Test func confidenceAndCompletenessByName() throws {
        for c in Detection.Confidence.allCases {
            let (back, json) = try Self.roundTrip([c])
            #expect(back == [c] && json == "[\"\(c.rawValue)\"]")
        }
        let cases: [(Detection.Completeness, String)] = [(.complete, #"["complete"]"#), (.truncated, #"["truncated"]"#),
                                                          (.needsMoreData(8192), #"[{"needsMoreData":8192}]"#)]
        for (value, expected) in cases {
            let (back, json) = try Self.roundTrip([value])
            #expect(back == [value] && json == expected, "\(json)")
        }
        #expect(throws: DecodingError.self) { try JSONDecoder().decode([Detection.Completeness].self, from: Data(#"["whole"]"#.utf8)) }
    }

    @Test func detectionShape() throws {
        let d = Detection(type: .gif, confidence: .conclusive, isAnimated: true, completeness: .truncated)
        let (back, json) = try Self.roundTrip(d)
        #expect(back == d)
        #expect(json == #"{"completeness":"truncated","confidence":"conclusive","isAnimated":true,"type":"com.compuserve.gif"}"#)
    }

    /// Errors carry a stable code (an errno name or a kind), a message, and come back alike.
    @Test func fileErrorsRoundTrip() throws {
        let errors = [FileError(kind: .notFound, code: ENOENT), FileError(kind: .permissionDenied, code: EACCES),
                      FileError(kind: .isDirectory, code: EISDIR), FileError(kind: .notRegularFile("FIFO")),
                      FileError(kind: .system, code: EIO), FileError(kind: .system, code: 135)]
        for error in errors {
            let (back, json) = try Self.roundTrip(error)
            #expect(back == error, "\(json)")
            #expect(json.contains("\"message\":"))
        }
        let missing = FileSniffer()
        do {
            _ = try missing.detect(fileAt: "/nonexistent/imagesniff")
            Issue.record("a missing file was read")
        } catch {
            let (_, json) = try Self.roundTrip(error)
            #expect(json.contains(#""code":"ENOENT""#), "\(json)")
        }
    }
}
