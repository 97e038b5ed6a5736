import Foundation
import Testing
@testable import ImageSniff

@Suite("Catalog and type model")
struct CatalogTests {
    @Test func identifiersAreUniqueAndRoundTrip() {
        var seen = Set<String>()
        for type in ImageType.allCases {
            #expect(seen.insert(type.identifier).inserted, "duplicate identifier \(type.identifier)")
            #expect(ImageType(type.identifier) == type)
            #expect(ImageType(type.identifier.uppercased()) == type, "identifier lookup is case-insensitive")
        }
    }

    /// Every identifier FORMATS.md section 1 names is in the catalog, with the same parents.
    @Test func everyIdentifierOfFormatsSectionOneIsDeclared() throws {
        let formats = Repository.root.deletingLastPathComponent().appendingPathComponent("shared/FORMATS.md")
        guard let text = try? String(contentsOf: formats, encoding: .utf8) else {
            // Outside the project's workspace the spec is not beside the repository.
            return
        }
        let section = text.components(separatedBy: "## 2.").first ?? text
        let pattern = try NSRegularExpression(pattern: "\\b(public|com|org|net|gov|info)\\.[a-z0-9.-]+[a-z0-9]")
        let range = NSRange(section.startIndex..., in: section)
        var named = Set<String>()
        for match in pattern.matches(in: section, range: range) {
            named.insert(String(section[Range(match.range, in: section)!]))
        }
        let exempt: Set<String> = ["public.text", "public.plain-text"]  // declared; listed together in one row
        #expect(named.count > 100)
        for identifier in named.subtracting(exempt) {
            #expect(ImageType(identifier) != nil, "FORMATS.md names \(identifier), the catalog does not")
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
