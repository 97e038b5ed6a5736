// When a file's name suits its content: the one rule behind `imgsniff scan --mismatches`, the
// `extensionMatches` field of every record, and `imgsniff rename`'s decision to keep a name.

/// A filename extension that the programs a user opens such files with accept for content of
/// another type than the one the catalog gives it (a conventional name of a variant, or a
/// documented alias).
public struct ExtensionAlias: Sendable {
    /// The extensions (lower case, without the dot).
    public let extensions: [String]
    /// Content conforming to one of these (or in the detection family of one) fits.
    public let contents: [ImageType]
    /// Why the name works.
    public let reason: String
}

extension ExtensionAlias {
    /// Every alias, in one table (the FormatReference article lists it; a test checks each row).
    public static let all: [ExtensionAlias] = [
        ExtensionAlias(extensions: ["tx", "svs", "ndpi", "scn", "bif", "qptiff", "ptif", "ptiff", "gtif", "gtiff"], contents: [.tiff],
                       reason: "TIFF variants: tiled textures (OpenImageIO .tx), whole-slide images (Aperio .svs, Hamamatsu .ndpi, Leica .scn, Ventana .bif, .qptiff), pyramid TIFF, GeoTIFF"),
        ExtensionAlias(extensions: ["jpc", "j2k", "j2c"], contents: [.jpeg2000],
                       reason: "JPEG 2000 codestreams are named .jpc, .j2k or .j2c; the catalog's type covers codestream and container alike"),
        ExtensionAlias(extensions: ["heic", "heif", "hif"], contents: [.heics, .heifs],
                       reason: "HEIF image sequences (bursts, Live Photos' stills) are written and opened as .heic or .heif"),
        ExtensionAlias(extensions: ["avif"], contents: [.avis],
                       reason: "animated AVIF is written and opened as .avif (.avifs is rarely used)"),
        ExtensionAlias(extensions: ["rle"], contents: [.bmp],
                       reason: "Windows RLE bitmaps (BI_RLE4, BI_RLE8) are BMP files conventionally named .rle"),
        ExtensionAlias(extensions: ["iff", "ilbm", "lbm", "ham", "ham6", "ham8", "sham", "pchg", "dhr", "ctbl", "dctv"],
                       contents: [.ilbm, .iffPBM],
                       reason: "IFF ILBM variants (HAM, SHAM, PCHG, DCTV...) keep their own extensions; IFF readers open them all"),
        ExtensionAlias(extensions: ["html", "htm", "xhtml", "xht"], contents: [.xml, .html],
                       reason: "XHTML is XML that browsers open as .html; .xhtml and .xht name it too"),
        ExtensionAlias(extensions: ["hdr"], contents: [.nifti],
                       reason: "NIfTI's two-file form (ni1 or ni2 in its header) keeps the header in a .hdr beside the .img that holds the voxels, as Analyze 7.5 did; only the single file (n+1, n+2) is .nii, and renaming one half breaks the pair"),
        ExtensionAlias(extensions: ["gz"], contents: [.gzip, .svg],
                       reason: "any gzip stream (a compressed SVG named logo.svg.gz) is named .gz"),
        ExtensionAlias(extensions: ["tgz"], contents: [.gzip],
                       reason: "a tar archive compressed with gzip is named .tgz (the catalog has no tar type: the file is the gzip stream around it)"),
        ExtensionAlias(extensions: ["ico"], contents: [.png],
                       reason: "a PNG named favicon.ico: browsers and servers expect the .ico name and read the PNG (an icon directory may hold PNG images too)"),
        ExtensionAlias(extensions: ["map"], contents: [.pbm],
                       reason: "netpbm colour maps (pnmcolormap, ppmquant -map) are netpbm images named .map"),
        ExtensionAlias(extensions: ["map", "st", "ali", "rec"], contents: [.mrc],
                       reason: "MRC/CCP4 density maps are .map in the EMDB; IMOD names tilt series .st, aligned stacks .ali and tomograms .rec"),
        ExtensionAlias(extensions: ["ai"], contents: [.pdf, .postScript],
                       reason: "Adobe Illustrator files are PDF (PostScript before version 9) named .ai"),
        ExtensionAlias(extensions: ["thm"], contents: [.jpeg],
                       reason: "cameras' .THM thumbnails beside a video or RAW are JPEG files"),
        ExtensionAlias(extensions: ["epsi", "epsf", "ept"], contents: [.postScript],
                       reason: "Encapsulated PostScript variants"),
        ExtensionAlias(extensions: ["mp4", "m4a", "m4v", "m4b", "3gp", "3g2"], contents: [.mpeg4, .mpeg4Audio, .threeGPP],
                       reason: "MPEG-4 movies, MPEG-4 audio and 3GPP share one container that players open under each other's names (ffmpeg writes audio-only MP4 with the isom brand, named .m4a)"),
        ExtensionAlias(extensions: ["sxr", "mxr"], contents: [.openEXR],
                       reason: "multi-view (stereo) OpenEXR"),
    ]

    /// The rows that name `ext` (lower case, without the dot), in table order.
    public static func rows(for ext: String) -> [ExtensionAlias] {
        byExtension[ext] ?? []
    }

    /// The rows by each extension they name, in table order (asked once a file in a scan).
    private static let byExtension: [String: [ExtensionAlias]] = {
        var rows: [String: [ExtensionAlias]] = [:]
        for row in all {
            for ext in Set(row.extensions) { rows[ext, default: []].append(row) }
        }
        return rows
    }()
}

extension Detection {
    /// The extensions of image formats whose every file starts with a signature the detector
    /// finds (JPEG's SOI, PNG's and GIF's signatures, the RIFF, ISO BMFF, TIFF and JPEG XL
    /// headers...): content no rule names under one of them is not that format. Other
    /// extensions may name content the rules do not know (a DASH segment named `.mp4`, an RF64
    /// `.wav`, a headerless `.raw` dump), or a format whose two-letter signature the detector
    /// wants more structure behind than some readers do (`.bmp`: Pillow opens a BMP whose
    /// planes field is not 1), so there unknown content has no verdict.
    static let signedImageExtensions: Set<String> = [
        "jpg", "jpeg", "jpe", "jfif", "png", "apng", "gif", "webp", "heic", "heif", "hif", "avif", "jxl",
        "psd", "psb", "qoi", "exr", "jp2", "dng", "nef", "cr2", "cr3", "arw", "orf", "rw2", "raf",
    ]

    /// Whether a filename extension suits this content: readers a user would open the file with
    /// accept these bytes under that name.
    ///
    /// It fits when it names
    /// - the detected type or a supertype (`.jpg` on JPEG, `.ps` on EPS);
    /// - a type of the detected type's detection family (`.tif` on a NEF, `.jpg` on an MPO);
    /// - for a family or hinted answer, a member of the family (`.nef` or `.dng` on a TIFF whose
    ///   maker could not be told: a family answer never replaces a more specific name);
    /// - an `ExtensionAlias` of the content (`.tx` and `.svs` on TIFF, `.heic` on a HEIF sequence,
    ///   PNG in `.ico`, `.gz` on any gzip...).
    ///
    /// Whole content no rule names (`public.data`) does not fit the extension of an image format
    /// whose files always start with a signature (`signedImageExtensions`: `.jpg`, `.png` or
    /// `.gif` on noise, or on an HTML error page saved under that name); the answer is nil for
    /// any other extension. Empty data is data too: a caller that counts empty files apart
    /// (as `imgsniff scan` does) asks only for the others.
    ///
    /// - Parameter fileExtension: the extension, with or without its dot, in any case.
    /// - Returns: nil when there is nothing to compare (unknown content that may still be of the
    ///   type the extension names, or data cut too short to tell; an extension the catalog does
    ///   not declare for any type: one known only from an alias may name other contents still,
    ///   as `.map` names JavaScript source maps and linker maps beside netpbm colour maps and
    ///   density maps), false when the extension names other types only.
    public func extensionFits(_ fileExtension: String) -> Bool? {
        var ext = fileExtension.lowercased()
        if ext.hasPrefix(".") { ext.removeFirst() }
        let named = ImageType.types(filenameExtension: ext)
        guard !isUnknown, type != .data else {
            return completeness == .complete && Self.signedImageExtensions.contains(ext) ? false : nil
        }
        let family = type.detectionFamilyChain
        for candidate in named {
            if type.conforms(to: candidate) { return true }
            if family.contains(where: { $0.conforms(to: candidate) }) { return true }
            if confidence == .family || confidence == .hinted, candidate != type, candidate.belongs(toFamily: type) { return true }
        }
        let aliases = ExtensionAlias.rows(for: ext)
        for row in aliases {
            for content in row.contents {
                if type.conforms(to: content) || family.contains(where: { $0.conforms(to: content) }) { return true }
            }
        }
        return named.isEmpty ? nil : false
    }
}
