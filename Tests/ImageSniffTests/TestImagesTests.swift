import Foundation
import Testing
@testable import ImageSniff

@Suite("TestImages against their manifest")
struct TestImagesTests {
    @Test func manifestIsLargeAndVaried() throws {
        let entries = try Manifest.load()
        #expect(entries.count >= 150)
        #expect(Set(entries.map(\.identifier)).count >= 90)
    }

    /// Every file, read through the file path API, gives its manifest identifier and animation flag.
    @Test(arguments: Manifest.entries)
    func fileMatchesManifest(_ entry: ManifestEntry) throws {
        let d = try ImageSniffer.detect(fileAt: entry.url.path)
        #expect(d.type.identifier == entry.identifier, "\(entry.file): got \(d)")
        #expect(d.isAnimated == entry.animated, "\(entry.file): animation \(d.isAnimated)")
        // The in-memory path agrees with the file path.
        let data = try Data(contentsOf: entry.url)
        #expect(ImageSniffer.detect(data).type == d.type, "\(entry.file): bytes and file disagree")
    }

    /// Every concrete catalog type has at least one test image (real where an encoder exists,
    /// otherwise a minimal file built from the published structure and marked so in the manifest),
    /// but those only a hint names: they have no bytes of their own.
    @Test func everyCatalogTypeHasATestImage() throws {
        let covered = Set(try Manifest.load().map(\.identifier))
        for type in ImageType.allCases where !type.isAbstract && type != .data && !type.isNamedOnlyByHint {
            let isCovered = covered.contains(type.identifier)
            #expect(isCovered, "no test image for \(type.identifier)")
        }
    }

    /// The types only a hint names are named by it on their family's bytes (a Canon TIFF RAW is a
    /// Canon TIFF), and never on bytes that say something else conclusively (an AXR is an ARW).
    @Test func hintOnlyTypesAreNamedByAHint() throws {
        let canon = try #require(Manifest.entries.first { $0.file == "appleraw/canon-tif-raw-eos1d" })
        let plain = try ImageSniffer.detect(fileAt: canon.url.path)
        #expect(plain.type == .tiff && plain.confidence == .family)
        let hinted = try ImageSniffer.detect(fileAt: canon.url.path, hint: "com.canon.tif-raw-image")
        #expect(hinted.type == .canonTIFRaw && hinted.confidence == .hinted)
        let axr = try #require(Manifest.entries.first { $0.file == "appleraw/sony-axr" })
        #expect(try ImageSniffer.detect(fileAt: axr.url.path, hint: "axr").type == .arw)
        let nikonTIFF = Repository.testImages.appendingPathComponent("raw/plain-tiff-nikon-make").path
        #expect(try ImageSniffer.detect(fileAt: nikonTIFF, hint: "axr").type == .sonyAXR, "a TIFF family answer takes it")
        for type in ImageType.allCases where type.isNamedOnlyByHint {
            #expect(type.detectionFamily != nil)
        }
    }

    /// Files in TestImages that the manifest forgot.
    @Test func everyFileIsInTheManifest() throws {
        let listed = Set(try Manifest.load().map(\.file))
        let scripts: Set<String> = ["manifest.tsv", "make-test-images.sh", "synthesize.py", "pyencode.py", "README.md",
                                    "libmagic-disagreements.tsv", "libmagic-reasons.tsv", "file-report.tsv", "identify-sizes.tsv", "jxlinfo.tsv"]
        let root = Repository.testImages.path
        let walker = FileManager.default.enumerator(atPath: root)
        while let item = walker?.nextObject() as? String {
            var isDir: ObjCBool = false
            FileManager.default.fileExists(atPath: root + "/" + item, isDirectory: &isDir)
            if isDir.boolValue || scripts.contains(item) || item.hasSuffix(".py") || item.hasSuffix(".sh") { continue }
            let isListed = listed.contains(item)
            #expect(isListed, "\(item) is not in manifest.tsv")
        }
    }
}
