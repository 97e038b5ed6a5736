import Foundation
import ImageSniff
import Testing
import TestSupport

/// Whole-file checks (`ReadBudget.verify`): every test image of a format that has one is whole
/// (but the one made cut in half), and the same image without its last tenth is truncated.
@Suite("Whole-file completeness")
struct VerifyTests {
    /// The formats with a whole-file check.
    static let checked: Set<ImageType> = [.jpeg, .mpo, .png, .gif, .webP, .heic, .heif, .avif, .avis, .heics, .tiff]

    static let entries = Manifest.entries.filter { entry in
        guard let type = ImageType(entry.identifier) else { return false }
        return checked.contains(type)
    }

    /// Images damaged before their end (noise where a block should be): the walk stops at the
    /// damage, which says nothing either way (`Verifier.step`), whole or cut.
    static let damaged: Set<String> = ["foreign/gif-noise-after-screen"]

    @Test(arguments: entries)
    func wholeAndCut(_ entry: ManifestEntry) throws {
        let data = try entry.bytes()
        let whole = ImageSniffer.inspect(data, budget: .verifying).detection
        if Self.damaged.contains(entry.file) {
            let cut = ImageSniffer.inspect(Array(data.prefix(data.count - data.count / 10)), budget: .verifying).detection
            #expect(whole.completeness == .complete && cut.completeness == .complete, "\(entry.file): \(whole), cut: \(cut)")
            #expect(whole.type == ImageType(entry.identifier) && cut.type == whole.type)
            return
        }
        if entry.file.hasSuffix("-cut-half") {
            // Made cut: its header is whole, the file is not.
            #expect(ImageSniffer.inspect(data).detection.completeness == .complete)
            #expect(whole.completeness == .truncated, "\(entry.file): \(whole)")
            return
        }
        #expect(whole.completeness == .complete, "\(entry.file) whole: \(whole)")
        let cut = Array(data.prefix(data.count - max(1, data.count / 10)))
        let plain = ImageSniffer.inspect(cut).detection
        let verified = ImageSniffer.inspect(cut, budget: .verifying).detection
        #expect(verified.completeness == .truncated, "\(entry.file) cut by a tenth: \(verified) (without checks: \(plain))")
        #expect(verified.type == plain.type, "checks change the completeness only")
    }
}
