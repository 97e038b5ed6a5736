@testable import ImageSniff
import Testing

/// The one rule for "the extension fits the content" (`Detection.extensionFits`), row by row.
@Suite("Extension fits")
struct ExtensionFitTests {
    static func fits(_ ext: String, _ type: ImageType, _ confidence: Detection.Confidence = .conclusive) -> Bool? {
        Detection(type: type, confidence: confidence).extensionFits(ext)
    }

    @Test func generalRules() {
        #expect(Self.fits("jpg", .jpeg) == true)
        #expect(Self.fits(".JPEG", .jpeg) == true, "a dot and capitals are taken")
        #expect(Self.fits("ps", .eps) == true, "a supertype's extension")
        #expect(Self.fits("tif", .nef) == true, "the detection family's extension")
        #expect(Self.fits("jpg", .mpo) == true)
        #expect(Self.fits("nef", .tiff, .family) == true, "a family answer never replaces a member's name")
        #expect(Self.fits("dng", .tiff, .hinted) == true)
        #expect(Self.fits("nef", .tiff) == false, "a TIFF proven plain is not a NEF")
        #expect(Self.fits("png", .jpeg) == false)
        #expect(Self.fits("docx", .jpeg) == nil, "an extension nothing knows")
    }

    /// Content no rule names does not fit the extension of an image format whose files always
    /// start with a signature (a stranger's garbage.jpg was not listed by --mismatches); any
    /// other extension may name content the rules do not know, and data cut too short to tell
    /// fits nothing and everything.
    @Test func unknownContent() {
        for ext in ["jpg", "PNG", ".gif", "webp", "heic", "avif", "nef", "psd"] {
            #expect(Self.fits(ext, .data, .unknown) == false, "\(ext) on data no rule names")
        }
        // A DASH segment named .mp4, an RF64 .wav, a MATLAB .fig, a NIfTI-2 .nii, 8SVX in an .iff,
        // a headerless .raw dump, font metrics in a .pfm, a prefixed .zip: not known to the rules.
        for ext in ["tga", "txt", "svg", "docx", "mp4", "wav", "fig", "nii", "iff", "raw", "pfm", "zip", "ps", "mpg", "ttf", "bmp"] {
            #expect(Self.fits(ext, .data, .unknown) == nil, "\(ext): its files may be content the rules do not name")
        }
        let cut = Detection(type: .data, confidence: .unknown, completeness: .truncated)
        #expect(cut.extensionFits("jpg") == nil, "too few bytes to tell")
        // What the detector makes of real bytes.
        #expect(ImageSniffer.detect(Array("not a photo at all, just some words".utf8) + [0, 1, 2, 0xFE]).extensionFits("jpg") == false)
        #expect(ImageSniffer.detect([0xFF, 0xD8]).extensionFits("jpg") == nil)
        // Every listed extension is a catalog extension of an image type.
        for ext in Detection.signedImageExtensions {
            #expect(ImageType.types(filenameExtension: ext).contains { $0.isImage }, "\(ext)")
        }
    }

    /// Every alias row: each of its extensions fits each content it names, and does not fit a
    /// type it does not name (one that shares no parent with them but `public.image`).
    @Test(arguments: ExtensionAlias.all.indices)
    func aliasRow(_ index: Int) {
        let row = ExtensionAlias.all[index]
        #expect(!row.reason.isEmpty)
        for ext in row.extensions {
            #expect(ext == ext.lowercased() && !ext.hasPrefix("."))
            for content in row.contents {
                #expect(Self.fits(ext, content) == true, "\(ext) on \(content.identifier)")
            }
            let other: ImageType = row.contents.contains(.qoi) ? .farbfeld : .qoi
            #expect(Self.fits(ext, other) != true, "\(ext) on \(other.identifier)")
        }
    }

    /// The cases users met: working names that a rename must keep and a scan must not flag.
    @Test func workingNamesOfOtherProjects() {
        #expect(Self.fits("heic", .heics) == true)
        #expect(Self.fits("avif", .avis) == true)
        #expect(Self.fits("tx", .tiff) == true)
        #expect(Self.fits("svs", .tiff) == true)
        #expect(Self.fits("svs", .nef) == true, "a TIFF-based file in a whole-slide name")
        #expect(Self.fits("jpc", .jpeg2000) == true)
        #expect(Self.fits("rle", .bmp) == true)
        #expect(Self.fits("rle", .utahRLE) == true)
        #expect(Self.fits("pchg", .ilbm) == true)
        #expect(Self.fits("sham", .ilbm) == true)
        #expect(Self.fits("html", .xml) == true)
        #expect(Self.fits("gz", .svg) == true)
        #expect(Self.fits("tgz", .gzip) == true, "a stranger's a.tgz had no verdict")
        #expect(Self.fits("ico", .png) == true)
        #expect(Self.fits("map", .ppm) == true)
        #expect(Self.fits("hdr", .nifti) == true, "nibabel's nifti1.hdr: the header of a .hdr/.img pair")
        #expect(Self.fits("hdr", .radianceHDR) == true)
        #expect(Self.fits("m4a", .mpeg4) == true, "a reviewer's isom-branded audio named .m4a")
        #expect(Self.fits("mp4", .mpeg4Audio) == true && Self.fits("mp4", .threeGPP) == true)
        // and what still lies
        #expect(Self.fits("ico", .jpeg) == false)
        #expect(Self.fits("heic", .avif) == false)
        #expect(Self.fits("gz", .png) == false)
        #expect(Self.fits("hdr", .png) == false)
        // an extension known only from an alias names other contents too: nothing to compare
        #expect(Self.fits("map", .json) == nil, "a JavaScript source map")
        #expect(Self.fits("map", .plainText) == nil, "a linker map")
        #expect(Self.fits("map", .mrc) == true)
    }
}
