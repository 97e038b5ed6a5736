// From libmagic's answers (MIME type + description) to ImageSniff identifiers: one table.

import ImageSniff

/// Translates libmagic's MIME types (and, where a MIME type is ambiguous, its description) into
/// ImageSniff types.
public enum MagicMapping {
    /// What libmagic's answer means as a type.
    public enum Meaning: Sendable, Hashable {
        /// libmagic recognised nothing: `application/octet-stream`, an empty file.
        case unknown
        /// libmagic named this type.
        case type(ImageType)
        /// libmagic named a format that ImageSniff does not declare (e.g. `image/wmf`).
        case unmapped
        /// libmagic named a kind of text the catalog does not declare: source code, scripts,
        /// troff (`text/x-c`, `text/x-shellscript`, `application/javascript`, any other
        /// `text/*`). All of these are plain text to ImageSniff (Apple: `public.source-code`
        /// conforms to `public.plain-text`).
        case kindOfText
    }

    /// Every MIME type libmagic 5.44 can print for an image, and those of the neighbours (formats
    /// that are not images), mapped to an identifier; `nil` = a format the catalog does not declare
    /// (listed so that the table is visibly complete: a test checks every `image/*` string in
    /// the compiled database has a row). Checked after `refinements`; MIME types not listed fall
    /// back to `ImageType.types(mimeType:)`.
    public static let table: [String: String?] = [
        // Unknown to libmagic.
        "application/octet-stream": "public.data",
        "application/x-empty": "public.data",     // magic_buffer / magic_descriptor on 0 bytes
        "inode/x-empty": "public.data",           // magic_file / `file` on an empty file

        // Images ImageSniff knows. libmagic spellings that differ from the catalog's first.
        "image/avif": "public.avif",
        "image/bmp": "com.microsoft.bmp",
        "image/x-ms-bmp": "com.microsoft.bmp",    // BMP and headerless DIB, both com.microsoft.bmp
        "image/bpg": "org.bellard.bpg",
        "image/x-os2-graphics": "com.ibm.os2-bitmap-array",
        "image/x-os2-ico": "com.ibm.os2-icon",
        "image/x-ibm-pointer": "com.ibm.os2-pointer",
        "image/fits": "gov.nasa.fits-image",
        "application/dicom": "org.nema.dicom",
        "image/gif": "com.compuserve.gif",
        "image/heic": "public.heic",
        "image/heic-sequence": "public.heics",
        "image/heif": "public.heif",               // refined by description (heim/heis, avic)
        "image/heif-sequence": "public.heifs",     // refined by description (hevm/hevs, avcs)
        "image/jls": "org.jpeg.jpeg-ls",
        "image/jp2": "public.jpeg-2000",
        "image/jpx": "public.jpeg-2000",
        "image/jpm": "public.jpeg-2000",
        "image/x-jp2-codestream": "public.jpeg-2000",
        "image/jpeg": "public.jpeg",
        "image/jxl": "public.jpeg-xl",
        "image/jxr": "com.microsoft.jpeg-xr",
        "image/png": "public.png",
        "image/svg+xml": "public.svg-image",
        "image/tiff": "public.tiff",
        "image/vnd.adobe.photoshop": "com.adobe.photoshop-image", // PSB refined by description
        "image/vnd.djvu": "org.djvu.djvu",
        "image/vnd.microsoft.icon": "com.microsoft.ico",
        "image/x-win-bitmap": "com.microsoft.cur", // libmagic: "MS Windows cursor resource"
        "image/webp": "org.webmproject.webp",
        "image/x-canon-cr2": "com.canon.cr2-raw-image",
        "image/x-canon-crw": "com.canon.crw-raw-image",
        "image/x-fuji-raf": "com.fuji.raw-image",
        "image/x-olympus-orf": "com.olympus.raw-image",
        "image/x-x3f": "com.sigma.x3f-raw-image",
        "image/x-dcx": "com.zsoft.dcx-image",
        "image/x-pcx": "com.zsoft.pcx-image",
        "image/x-dpx": "org.smpte.dpx-image",
        "image/x-exr": "com.ilm.openexr-image",
        "image/x-icns": "com.apple.icns",
        "image/x-miff": "org.imagemagick.miff",
        "image/x-portable-bitmap": "public.pbm",
        "image/x-portable-graymap": "net.sourceforge.netpbm.pgm",
        "image/x-portable-greymap": "net.sourceforge.netpbm.pgm",
        "image/x-portable-pixmap": "net.sourceforge.netpbm.ppm",
        "image/x-portable-arbitrarymap": "net.sourceforge.netpbm.pam",
        "image/x-qoi": "org.qoiformat.qoi-image",
        "image/x-tga": "com.truevision.tga-image",
        "image/x-xcf": "org.gimp.xcf",
        "image/x-xpixmap": "org.x.xpixmap-image",
        "image/x-xwindowdump": "org.x.xwd-image",
        "image/x-eps": "com.adobe.encapsulated-postscript",
        "video/x-mng": "org.libpng.mng",
        "video/x-jng": "org.libpng.jng",
        "image/vnd.fpx": "com.kodak.flashpix-image",
        "image/wmf": "com.microsoft.wmf",
        "image/cgm": "org.iso.cgm",
        "image/x-atari-degas": "com.atari.degas",
        "image/x-gem": "com.digitalresearch.gem-img",
        "image/x-gimp-gbr": "org.gimp.gbr",
        "image/x-gimp-gih": "org.gimp.gih",
        "image/x-gimp-pat": "org.gimp.pat",
        "image/x-xcursor": "org.x.xcursor",
        "image/x-xv-thumbnail": "com.trilon.xv-thumbnail",
        "video/x-fli": "com.autodesk.flic",
        "video/x-flc": "com.autodesk.flic",

        // Images libmagic names that the catalog does not declare.
        "image/g3fax": nil, "image/vnd.dwg": nil, "image/vnd.dxf": nil,
        "image/x-3ds": nil,
        "image/x-award-bioslogo": nil, "image/x-award-bioslogo2": nil,
        "image/x-commodore-vbm": nil, "image/x-corel-bmf": nil, "image/x-corel-cpt": nil,
        "image/x-corel-des": nil, "image/x-cpi": nil, "image/x-deskmate-fig": nil,
        "image/x-epoc-mbm": nil, "image/x-epoc-sketch": nil, "image/x-garmin-exe": nil,
        "image/x-godot-stex": nil, "image/x-greenstreet-art": nil,
        "image/x-hsi": nil, "image/x-idf": nil, "image/x-ilab": nil,
        "image/x-intergraph": nil, "image/x-intergraph-cit": nil, "image/x-intergraph-rgb": nil,
        "image/x-intergraph-rle": nil, "image/x-lss16": nil, "image/x-ms-awd": nil,
        "image/x-ms-icl": nil, "image/x-mvg": nil, "image/x-niff": nil,
        "image/x-paintnet": nil, "image/x-pgf": "org.libpgf.pgf",
        "image/x-polar-monitor-bitmap": nil,
        "image/x-quicktime": nil,     // QuickTime image (QTIF)
        "image/x-sony-tim": "com.sony.psx-tim", "image/x-ulead-imaginfo": nil, "image/x-ulead-pe3": nil,
        "image/x-ulead-pe4": nil, "image/x-ulead-pst": nil, "image/x-ulead-tpl": nil,
        "image/x-unknown": nil,       // ZIF, FGF, PBF: GIF/PNG look-alikes, none of ours
        "image/x-wordperfect-graphics": "com.corel.wordperfect-graphics", "image/x-wpg": "com.corel.wordperfect-graphics",
        "image/x-xfig": "org.xfig.fig", "image/x.nifti": "gov.nih.nifti-image",

        // Neighbours: formats that are not images.
        "video/mp4": "public.mpeg-4",
        "video/x-m4v": "public.mpeg-4",
        "video/quicktime": "com.apple.quicktime-movie",
        "video/3gpp": "public.3gpp",
        "video/3gpp2": "public.3gpp",
        "video/mj2": "org.iso.mj2",
        "video/webm": "org.webmproject.webm",
        "video/x-matroska": "org.matroska.mkv",
        "video/x-msvideo": "public.avi",
        "audio/mp4": "public.mpeg-4-audio",
        "audio/x-m4a": "public.mpeg-4-audio",
        "audio/mpeg": "public.mp3",
        "audio/x-wav": "com.microsoft.waveform-audio",
        "audio/wav": "com.microsoft.waveform-audio",
        "application/pdf": "com.adobe.pdf",
        "application/postscript": "com.adobe.postscript", // EPS refined by description
        "application/zip": "public.zip-archive",
        "application/x-zip": "public.zip-archive",
        "application/gzip": "org.gnu.gnu-zip-archive",
        "application/x-gzip": "org.gnu.gnu-zip-archive",
        "text/plain": "public.plain-text",
        "text/html": "public.html",
        "text/xml": "public.xml",
        "application/xml": "public.xml",
        "application/json": "public.json",
        "audio/x-aiff": "public.aiff-audio",
        "video/x-flv": "com.adobe.flash.video",
        "video/mpeg": "public.mpeg",
        "font/sfnt": "public.truetype-ttf-font",          // OpenType with TrueType outlines too
        "application/vnd.ms-opentype": "public.opentype-font",
        "font/woff": "org.w3.woff",
        "font/woff2": "org.w3.woff2",
        "application/vnd.iccprofile": "com.apple.colorsync-profile",
    ]

    /// Where the MIME type alone is ambiguous, the description decides: (MIME type, a substring
    /// of the description, identifier). The first row whose MIME type and substring match wins.
    public static let refinements: [(mime: String, contains: String, identifier: String)] = [
        // "8BPS" version 2 is PSB: libmagic prints "Adobe Photoshop Image (PSB), 16 x 16, ...".
        ("image/vnd.adobe.photoshop", "Photoshop Image (PSB)", "com.adobe.photoshop-large-image"),
        // Brands heim/heis (L-HEVC) and hevm/hevs are HEVC-coded: HEIC, not generic HEIF.
        ("image/heif", "HEIF Image L-HEVC", "public.heic"),
        ("image/heif-sequence", "Sequence L-HEVC", "public.heics"),
        // Brand avic ("HEIF Image AVC") and avcs.
        ("image/heif", "HEIF Image AVC", "public.avci"),
        ("image/heif-sequence", "Sequence AVC", "public.avcs"),
        // EPS is PostScript whose DSC header says "EPSF".
        ("application/postscript", "type EPS", "com.adobe.encapsulated-postscript"),
    ]

    /// Kinds of text libmagic names with an `application/` MIME type.
    public static let textMIMETypes: Set<String> = [
        "application/javascript", "application/x-awk", "application/x-setupscript",
        "application/x-wine-extension-ini",
    ]

    /// Formats libmagic 5.44 recognises without giving a MIME type: its MIME answer is only
    /// `application/octet-stream` (or `text/plain` for a text format), but its description
    /// names the format. (MIME type, description prefix, identifier); checked before `table`.
    public static let describedOnly: [(mime: String, prefix: String, identifier: String)] = [
        ("application/octet-stream", "SGI image data", "com.sgi.sgi-image"),
        ("application/octet-stream", "Microsoft DirectDraw Surface (DDS)", "com.microsoft.dds"),
        ("application/octet-stream", "Khronos KTX texture", "org.khronos.ktx"),
        ("application/octet-stream", "Khronos KTX2 texture", "org.khronos.ktx2"),
        ("application/octet-stream", "ASTC ", "org.khronos.astc"),
        ("application/octet-stream", "PowerVR ", "public.pvr"),
        ("application/octet-stream", "Sun raster image data", "com.sun.raster-image"),
        ("application/octet-stream", "Cineon image data", "com.kodak.cineon-image"),
        ("application/octet-stream", "FLIF", "info.flif.flif-image"),
        ("application/octet-stream", "farbfeld image data", "org.suckless.farbfeld"),
        ("application/octet-stream", "Radiance HDR image data", "public.radiance"),
        ("application/octet-stream", "Minolta Dimage camera raw image data", "com.konicaminolta.raw-image"),
        ("application/octet-stream", "MacPaint image data", "com.apple.macpaint-image"),
        ("application/octet-stream", "JPEG 2000", "public.jpeg-2000"), // brand `jph ` (HTJ2K)
        ("text/plain", "xbm image", "public.xbitmap-image"),
        ("application/octet-stream", "IFF data, ILBM", "com.ea.iff-ilbm"),
        ("application/octet-stream", "IFF data, ANIM", "com.ea.iff-anim"),
        ("application/octet-stream", "icrosoft Paint image data", "com.microsoft.msp"),   // 5.44 drops the M of 1.x
        ("application/octet-stream", "Microsoft Paint image data", "com.microsoft.msp"),
        ("application/octet-stream", "FireViewer/ImageViewer PalmOS document", "com.palm.imageviewer-pdb"),
        ("application/octet-stream", "RLE image data", "edu.utah.rle"),
        ("application/octet-stream", "Windows Enhanced Metafile (EMF) image data", "com.microsoft.emf"),
        ("application/octet-stream", "Kodak Photo CD image pack", "com.kodak.photocd"),
        ("application/octet-stream", "MGR bitmap", "com.bellcore.mgr-bitmap"),
        ("application/octet-stream", "CMU window manager raster image data", "edu.cmu.wm-raster"),
        ("application/octet-stream", "MicroDesign data", "com.microdesign.mda"),
        ("application/octet-stream", "Solitaire Image Recorder format", "com.solitaire.sir"),
        ("application/octet-stream", "Garmin Bitmap file", "com.garmin.srf"),
        ("application/octet-stream", "PDS (VICAR) image data", "gov.nasa.jpl.vicar"),
        ("application/octet-stream", "JBIG2 image", "org.jpeg.jbig2"),
        ("application/octet-stream", "X11 cursor", "org.x.xcursor"),
        ("application/octet-stream", "BasisLZ ", "com.binomial.basis-texture"),
        ("application/octet-stream", "IFF data, RGB8", "com.impulse.iff-rgb8"),
        ("application/octet-stream", "IFF data, DEEP", "com.tvpaint.iff-deep"),
        ("application/octet-stream", "CCP4 Electron Density Map", "uk.ac.cam.mrc-lmb.mrc"),
    ]

    /// What libmagic's MIME type and description mean in ImageSniff's terms.
    public static func meaning(mimeType: String, description: String = "") -> Meaning {
        let mime = normalized(mimeType)
        for row in refinements where row.mime == mime && description.contains(row.contains) {
            if let type = ImageType(row.identifier) { return classify(type) }
        }
        for row in describedOnly where row.mime == mime && description.hasPrefix(row.prefix) {
            if let type = ImageType(row.identifier) { return classify(type) }
        }
        if let entry = table[mime] {
            guard let identifier = entry, let type = ImageType(identifier) else { return .unmapped }
            return classify(type)
        }
        if let type = ImageType.types(mimeType: mime).first { return classify(type) }
        if mime.hasPrefix("text/") || textMIMETypes.contains(mime) { return .kindOfText }
        return .unmapped
    }

    /// The type libmagic names, or nil when it names nothing or something the catalog lacks.
    public static func type(mimeType: String, description: String = "") -> ImageType? {
        if case .type(let type) = meaning(mimeType: mimeType, description: description) { return type }
        return nil
    }

    private static func classify(_ type: ImageType) -> Meaning {
        type == .data ? .unknown : .type(type)
    }

    /// Lower case, parameters (`; charset=binary`) and spaces removed.
    static func normalized(_ mime: String) -> String {
        var s = Substring(mime)
        if let semicolon = s.firstIndex(of: ";") { s = s[..<semicolon] }
        return String(s.filter { $0 != " " }).lowercased()
    }
}
