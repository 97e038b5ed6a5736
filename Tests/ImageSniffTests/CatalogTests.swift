import Foundation
import Testing
@testable import ImageSniff

@Suite("Catalog and type model")
struct CatalogTests {
    /// A type's index is its place in `allCases` and the one byte it is stored in: the catalog's
    /// tables and bit sets rely on both.
    @Test func indicesAreThePlacesInTheCatalog() {
        #expect(MemoryLayout<ImageType>.size == 1)
        #expect(ImageType.allCases.count <= 256)
        for (i, type) in ImageType.allCases.enumerated() { #expect(type.index == i, "\(type)") }
    }

    @Test func identifiersAreUniqueAndRoundTrip() {
        var seen = Set<String>()
        for type in ImageType.allCases {
            #expect(seen.insert(type.identifier).inserted, "duplicate identifier \(type.identifier)")
            #expect(ImageType(type.identifier) == type)
            #expect(ImageType(type.identifier.uppercased()) == type, "identifier lookup is case-insensitive")
        }
    }

    /// The catalog keeps the project's type decisions (Fixtures/type-decisions.tsv): every
    /// identifier declared, with the same direct parents, preferred extension and MIME type, and
    /// no type declared without a decision.
    @Test func catalogKeepsTheTypeDecisions() throws {
        let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures/type-decisions.tsv")
        let rows = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
            .filter { !$0.hasPrefix("#") && !$0.hasPrefix("identifier\t") }
            .map { $0.split(separator: "\t", omittingEmptySubsequences: false).map(String.init) }
        #expect(rows.count > 100)
        let decided = Set(rows.compactMap(\.first))
        for type in ImageType.allCases where !decided.contains(type.identifier) {
            Issue.record("\(type.identifier) is declared without a row in type-decisions.tsv")
        }
        for row in rows {
            try #require(row.count == 4, "malformed row \(row)")
            guard let type = ImageType(row[0]) else {
                Issue.record("\(row[0]) is decided but not declared")
                continue
            }
            let parents = row[1].split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(Set(type.parents.map(\.identifier)) == Set(parents), "\(row[0]) parents")
            if !row[2].isEmpty { #expect(type.preferredFilenameExtension == row[2], "\(row[0]) extension") }
            if !row[3].isEmpty { #expect(type.preferredMIMEType == row[3], "\(row[0]) MIME type") }
        }
    }

    @Test func conformanceIsTransitive() {
        #expect(ImageType.nef.conforms(to: .cameraRawImage))
        #expect(ImageType.nef.conforms(to: .image))
        #expect(ImageType.nef.conforms(to: .data))
        #expect(ImageType.nef.conforms(to: .item))
        #expect(ImageType.nef.conforms(to: .content))
        #expect(!ImageType.nef.conforms(to: .tiff))
        #expect(ImageType.mpo.conforms(to: .jpeg))
        #expect(ImageType.phm.conforms(to: .pfm) && ImageType.phm.conforms(to: .pbm))
        #expect(ImageType.avif.conforms(to: .heifStandard))
        #expect(!ImageType.avif.conforms(to: .heif), "AVIF and HEIF are siblings under public.heif-standard")
        #expect(ImageType.openRaster.conforms(to: .zip) && ImageType.openRaster.conforms(to: .archive))
        #expect(ImageType.eps.conforms(to: .postScript))
        #expect(!ImageType.pdf.isImage && !ImageType.mpeg4.isImage && !ImageType.svg.conforms(to: .text))
        #expect(ImageType.mpeg4.conforms(to: .movie) && ImageType.mp3.conforms(to: .audio))
        #expect(ImageType.jpeg.supertypes == [.image, .data, .content, .item])
    }

    @Test func everyConcreteTypeHasTagsAndAbstractOnesHaveNone() {
        // A concrete type has an extension or a MIME type (most have both; X cursors and XV
        // thumbnails have no extension of their own, Apple's ATX no MIME type).
        for type in ImageType.allCases where !type.isAbstract {
            #expect(type.preferredFilenameExtension != nil || type.preferredMIMEType != nil, "\(type) has no tags")
            #expect(!type.localizedDescription.isEmpty)
        }
        #expect(ImageType.image.isAbstract && ImageType.cameraRawImage.isAbstract)
    }

    @Test(arguments: [("JPG", ImageType.jpeg), ("jpeg", .jpeg), (".Jpe", .jpeg), ("nef", .nef), ("TIF", .tiff),
                      ("heic", .heic), ("avifs", .avis), ("3fr", .threeFR), ("pgm", .pgm), ("ora", .openRaster)])
    func extensionLookup(ext: String, expected: ImageType) {
        #expect(ImageType(filenameExtension: ext) == expected)
    }

    @Test func mimeLookup() {
        #expect(ImageType(mimeType: "image/jpeg") == .jpeg)
        #expect(ImageType(mimeType: "IMAGE/PNG; charset=binary") == .png)
        #expect(ImageType(mimeType: "image/apng") == .png)
        #expect(ImageType(mimeType: "image/avif") == .avif, "AVIF prefers image/avif; AVIS lists it second")
        #expect(ImageType(mimeType: "image/x-nikon-nef") == .nef)
        #expect(ImageType(mimeType: "image/unknown-thing") == nil)
        #expect(ImageType(filenameExtension: "nope") == nil)
    }

    @Test func hintsNameTypesThreeWays() {
        #expect(ImageType.types(hint: "public.tiff") == [.tiff])
        #expect(ImageType.types(hint: "image/tiff").first == .tiff)
        #expect(ImageType.types(hint: "tif").first == .tiff, "TIFF first; Canon's TIFF RAW shares .tif")
        #expect(ImageType.types(hint: "pic").contains(.pict) && ImageType.types(hint: "pic").contains(.radianceHDR))
        #expect(ImageType.types(hint: "what.ever").isEmpty)
    }
}
