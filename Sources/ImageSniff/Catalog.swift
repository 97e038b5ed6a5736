// The catalog: every type ImageSniff knows, declared once.
//
// Each case of `ImageType` has exactly one entry in `ImageType.declaration` below: identifier,
// direct parents (conformance), filename extensions and MIME types (first = preferred), a human
// description and, for types that detection can only reach through a family node, that node.
// Every question about a type is answered from this table; see CONTRIBUTING.md for how to add one.

/// A type ImageSniff knows: the Linux counterpart of Apple's `UTType` for image formats and
/// their neighbours. Every case is declared, with its identifier and tags, in `declaration` below.
public enum ImageType: CaseIterable, Sendable {
    case item, content, data, image, cameraRawImage, heifStandard, compositeContent
    case audiovisualContent, movie, audio, archive, text, font, jpeg, mpo, jpegLS, png, gif, tiff, bmp
    case ico, cur, icns, jpeg2000, jpegXL, jpegXR, webP, heic, heics, heif, heifs, avif, avis
    case avci, avcs, psd, psb, tga, pict, openEXR, radianceHDR, pbm, pgm, ppm, pam, pfm, phm, sgi
    case dds, ktx, ktx2, astc, pkm, pvr, xbm, xpm, xwd, pcx, dcx, qoi, fits, dicom, svg, wbmp
    case sunRaster, dpx, cineon, flif, bpg, farbfeld, xcf, openRaster, miff, mng, jng, macPaint
    case djvu, appleATX, flashPix, photoCD, wmf, emf, aliasPIX, blp, wal, ilbm, iffPBM, iffANIM
    case pillowIM, jbig, jbig2, msp, mtv, otb, nokiaNOL, nokiaNGG, palmBitmap, palmPDB, pgx, utahRLE
    case viff, vips, gimpBrush, gimpPattern, gimpHose, xvThumbnail, pixar, spider, mcidas, gd, gd2
    case flic, gemIMG, degas, mgr, cmuRaster, microDesign, solitaireSIR, garminSRF, vicar, cals, xcursor
    case xfig, wordPerfectGraphics, nifti, pgf, ani, psxTIM, sixel, os2BitmapArray, os2Icon, os2Pointer
    case rla, basis, nie, nia, iffRGB8, iffDEEP, tvpaintTVPP, analyze, cgm, mrc
    case pdf, postScript, eps, dng, cr2, cr3, crw, nef, nrw, arw, sr2, srf, orf, rw2
    case panasonicRaw, rwl, raf, pef, srw, threeFR, fff, erf, kodakRaw, mrw, mos, iiq, x3f, mef
    case rwz, canonTIFRaw, sonyAXR, olympusOR, olympusSR, leicaRaw, dxoRaw
    case mpeg4, mpeg4Audio, quickTime, threeGPP, mj2, crm, webM, matroska, avi, wave, mp3, aiff
    case flashVideo, mpeg, zip, gzip, colorSyncProfile, trueTypeFont, trueTypeCollection, openTypeFont, woff, woff2
    case html, xml, json, plainText
}

/// What the catalog says about one type.
struct TypeDeclaration: Sendable {
    let identifier: String
    let parents: [ImageType]
    let extensions: [String]
    let mimeTypes: [String]
    let description: String
    /// The node detection stops at when the bytes cannot tell this type from its siblings
    /// (e.g. `.tiff` for a NEF whose vendor structures are out of reach). A hint naming this
    /// type is accepted when detection stops at that node (hint rule 2).
    let family: ImageType?
    /// No rule produces this type: the bytes cannot tell it from its detection family, and only a
    /// hint names it (hint rule 2).
    let hintOnly: Bool

    init(_ identifier: String, _ parents: [ImageType], ext: [String] = [], mime: [String] = [],
         _ description: String, family: ImageType? = nil, hintOnly: Bool = false) {
        self.identifier = identifier
        self.parents = parents
        self.extensions = ext
        self.mimeTypes = mime
        self.description = description
        self.family = family
        self.hintOnly = hintOnly
    }
}

extension ImageType {
    fileprivate var declaration: TypeDeclaration {
        typealias D = TypeDeclaration
        switch self {
        // 1.1 Abstract types
        case .item: return D("public.item", [], "item")
        case .content: return D("public.content", [], "content")
        case .data: return D("public.data", [.item], mime: ["application/octet-stream"], "data")
        case .image: return D("public.image", [.data, .content], "image")
        case .cameraRawImage: return D("public.camera-raw-image", [.image], "camera raw image")
        case .heifStandard: return D("public.heif-standard", [.image], "HEIF-standard image")
        case .compositeContent: return D("public.composite-content", [.content], "composite content")
        case .audiovisualContent: return D("public.audiovisual-content", [.data, .content], "audiovisual content")
        case .movie: return D("public.movie", [.audiovisualContent], "movie")
        case .audio: return D("public.audio", [.audiovisualContent], "audio")
        case .archive: return D("public.archive", [.data], "archive")
        case .text: return D("public.text", [.data, .content], "text")
        case .font: return D("public.font", [.data, .content], "font")

        // 1.2 Raster, vector and container image formats
        case .jpeg: return D("public.jpeg", [.image], ext: ["jpg", "jpeg", "jpe", "jfif"], mime: ["image/jpeg"], "JPEG image")
        case .mpo: return D("public.mpo-image", [.jpeg], ext: ["mpo"], mime: ["image/mpo"], "MPO multi-picture image", family: .jpeg)
        case .jpegLS: return D("org.jpeg.jpeg-ls", [.image], ext: ["jls"], mime: ["image/jls"], "JPEG-LS image", family: .jpeg)
        case .png: return D("public.png", [.image], ext: ["png", "apng"], mime: ["image/png", "image/apng"], "PNG image")
        case .gif: return D("com.compuserve.gif", [.image], ext: ["gif"], mime: ["image/gif"], "GIF image")
        case .tiff: return D("public.tiff", [.image], ext: ["tiff", "tif", "btf"], mime: ["image/tiff"], "TIFF image")
        case .bmp: return D("com.microsoft.bmp", [.image], ext: ["bmp", "dib"], mime: ["image/bmp", "image/x-ms-bmp"], "Windows bitmap image")
        case .ico: return D("com.microsoft.ico", [.image], ext: ["ico"], mime: ["image/vnd.microsoft.icon", "image/x-icon"], "Windows icon image")
        case .cur: return D("com.microsoft.cur", [.image], ext: ["cur"], mime: ["image/x-win-bitmap"], "Windows cursor image")
        case .icns: return D("com.apple.icns", [.image], ext: ["icns"], mime: ["image/x-icns"], "Apple icon image")
        case .jpeg2000: return D("public.jpeg-2000", [.image], ext: ["jp2", "jpx", "jpf", "jpm", "j2k", "j2c", "jph", "jhc"], mime: ["image/jp2", "image/jpx", "image/jpm", "image/x-jp2-codestream"], "JPEG 2000 image")
        case .jpegXL: return D("public.jpeg-xl", [.image], ext: ["jxl"], mime: ["image/jxl"], "JPEG XL image")
        case .jpegXR: return D("com.microsoft.jpeg-xr", [.image], ext: ["jxr", "wdp", "hdp"], mime: ["image/jxr", "image/vnd.ms-photo"], "JPEG XR image")
        case .webP: return D("org.webmproject.webp", [.image], ext: ["webp"], mime: ["image/webp"], "WebP image")
        case .heic: return D("public.heic", [.heifStandard], ext: ["heic"], mime: ["image/heic"], "HEIC image", family: .heif)
        case .heics: return D("public.heics", [.heifStandard], ext: ["heics"], mime: ["image/heic-sequence"], "HEIC image sequence", family: .heifs)
        case .heif: return D("public.heif", [.heifStandard], ext: ["heif", "hif"], mime: ["image/heif"], "HEIF image")
        case .heifs: return D("public.heifs", [.heifStandard], ext: ["heifs"], mime: ["image/heif-sequence"], "HEIF image sequence")
        case .avif: return D("public.avif", [.heifStandard], ext: ["avif"], mime: ["image/avif"], "AVIF image", family: .heif)
        case .avis: return D("public.avis", [.heifStandard], ext: ["avifs", "avis"], mime: ["image/avif-sequence", "image/avif"], "AVIF image sequence", family: .heifs)
        case .avci: return D("public.avci", [.heifStandard], ext: ["avci"], mime: ["image/avci"], "AVC-coded HEIF image", family: .heif)
        case .avcs: return D("public.avcs", [.heifStandard], ext: ["avcs"], mime: ["image/avcs"], "AVC-coded HEIF image sequence", family: .heifs)
        case .psd: return D("com.adobe.photoshop-image", [.image], ext: ["psd"], mime: ["image/vnd.adobe.photoshop"], "Photoshop image")
        case .psb: return D("com.adobe.photoshop-large-image", [.image], ext: ["psb"], mime: ["image/vnd.adobe.photoshop"], "Photoshop large document")
        case .tga: return D("com.truevision.tga-image", [.image], ext: ["tga", "targa", "icb", "vda", "vst"], mime: ["image/x-tga", "image/targa"], "Truevision TGA image")
        case .pict: return D("com.apple.pict", [.image], ext: ["pict", "pct", "pic"], mime: ["image/x-pict", "image/pict"], "QuickDraw PICT image")
        case .openEXR: return D("com.ilm.openexr-image", [.image], ext: ["exr"], mime: ["image/x-exr"], "OpenEXR image")
        case .radianceHDR: return D("public.radiance", [.image], ext: ["hdr", "pic", "rgbe"], mime: ["image/vnd.radiance"], "Radiance HDR image")
        case .pbm: return D("public.pbm", [.image], ext: ["pbm", "pnm"], mime: ["image/x-portable-bitmap"], "portable bitmap image")
        case .pgm: return D("net.sourceforge.netpbm.pgm", [.pbm], ext: ["pgm"], mime: ["image/x-portable-graymap"], "portable graymap image")
        case .ppm: return D("net.sourceforge.netpbm.ppm", [.pbm], ext: ["ppm"], mime: ["image/x-portable-pixmap"], "portable pixmap image")
        case .pam: return D("net.sourceforge.netpbm.pam", [.pbm], ext: ["pam"], mime: ["image/x-portable-arbitrarymap"], "portable arbitrary map image")
        case .pfm: return D("net.sourceforge.netpbm.pfm", [.pbm], ext: ["pfm"], mime: ["image/x-portable-floatmap"], "portable float map image")
        case .phm: return D("net.sourceforge.netpbm.phm", [.pfm], ext: ["phm"], mime: ["image/x-portable-halfmap"], "portable half-float map image")
        case .sgi: return D("com.sgi.sgi-image", [.image], ext: ["sgi", "rgb", "rgba", "bw"], mime: ["image/sgi", "image/x-sgi"], "SGI image")
        case .dds: return D("com.microsoft.dds", [.image], ext: ["dds"], mime: ["image/vnd-ms.dds", "image/x-dds"], "DirectDraw surface")
        case .ktx: return D("org.khronos.ktx", [.image], ext: ["ktx"], mime: ["image/ktx"], "KTX texture")
        case .ktx2: return D("org.khronos.ktx2", [.image], ext: ["ktx2"], mime: ["image/ktx2"], "KTX2 texture")
        case .astc: return D("org.khronos.astc", [.image], ext: ["astc"], mime: ["image/astc"], "ASTC texture")
        case .pkm: return D("com.ericsson.pkm", [.image], ext: ["pkm"], mime: ["image/x-pkm"], "PKM (ETC1/ETC2) texture")
        case .pvr: return D("public.pvr", [.image], ext: ["pvr"], mime: ["image/x-pvr"], "PowerVR texture")
        case .xbm: return D("public.xbitmap-image", [.image], ext: ["xbm"], mime: ["image/x-xbitmap"], "X bitmap image")
        case .xpm: return D("org.x.xpixmap-image", [.image], ext: ["xpm"], mime: ["image/x-xpixmap"], "X pixmap image")
        case .xwd: return D("org.x.xwd-image", [.image], ext: ["xwd"], mime: ["image/x-xwindowdump"], "X window dump image")
        case .pcx: return D("com.zsoft.pcx-image", [.image], ext: ["pcx"], mime: ["image/vnd.zbrush.pcx", "image/x-pcx"], "PCX image")
        case .dcx: return D("com.zsoft.dcx-image", [.image], ext: ["dcx"], mime: ["image/x-dcx"], "multi-page PCX image")
        case .qoi: return D("org.qoiformat.qoi-image", [.image], ext: ["qoi"], mime: ["image/qoi"], "QOI image")
        case .fits: return D("gov.nasa.fits-image", [.image], ext: ["fits", "fit", "fts"], mime: ["image/fits", "application/fits"], "FITS image")
        case .dicom: return D("org.nema.dicom", [.image], ext: ["dcm", "dicom"], mime: ["application/dicom"], "DICOM image")
        case .svg: return D("public.svg-image", [.image], ext: ["svg", "svgz"], mime: ["image/svg+xml"], "SVG image")
        case .wbmp: return D("org.openmobilealliance.wbmp-image", [.image], ext: ["wbmp"], mime: ["image/vnd.wap.wbmp"], "wireless bitmap image")
        case .sunRaster: return D("com.sun.raster-image", [.image], ext: ["ras", "sun"], mime: ["image/x-sun-raster"], "Sun raster image")
        case .dpx: return D("org.smpte.dpx-image", [.image], ext: ["dpx"], mime: ["image/x-dpx"], "DPX image")
        case .cineon: return D("com.kodak.cineon-image", [.image], ext: ["cin"], mime: ["image/x-cineon"], "Cineon image")
        case .flif: return D("info.flif.flif-image", [.image], ext: ["flif"], mime: ["image/flif"], "FLIF image")
        case .bpg: return D("org.bellard.bpg", [.image], ext: ["bpg"], mime: ["image/bpg"], "BPG image")
        case .farbfeld: return D("org.suckless.farbfeld", [.image], ext: ["ff"], mime: ["image/x-farbfeld"], "farbfeld image")
        case .xcf: return D("org.gimp.xcf", [.image], ext: ["xcf"], mime: ["image/x-xcf"], "GIMP image")
        case .openRaster: return D("org.openraster.ora", [.image, .zip], ext: ["ora"], mime: ["image/openraster"], "OpenRaster image")
        case .miff: return D("org.imagemagick.miff", [.image], ext: ["miff"], mime: ["image/x-miff"], "ImageMagick MIFF image")
        case .mng: return D("org.libpng.mng", [.image], ext: ["mng"], mime: ["video/x-mng"], "MNG animation")
        case .jng: return D("org.libpng.jng", [.image], ext: ["jng"], mime: ["image/x-jng"], "JNG image")
        case .macPaint: return D("com.apple.macpaint-image", [.image], ext: ["pntg", "mac"], mime: ["image/x-macpaint"], "MacPaint image")
        case .djvu: return D("org.djvu.djvu", [.image], ext: ["djvu", "djv"], mime: ["image/vnd.djvu"], "DjVu document")
        // Formats ImageIO reads beyond the first catalog, and the long tail (issue 13).
        case .appleATX: return D("com.apple.atx", [.image], ext: ["atx"], "Apple ATX texture")
        case .flashPix: return D("com.kodak.flashpix-image", [.image], ext: ["fpx", "fpix"], mime: ["image/vnd.fpx", "image/x-fpx"], "FlashPix image")
        case .photoCD: return D("com.kodak.photocd", [.image], ext: ["pcd"], mime: ["image/x-photo-cd"], "Kodak Photo CD image")
        case .wmf: return D("com.microsoft.wmf", [.image], ext: ["wmf", "apm"], mime: ["image/wmf", "image/x-wmf", "application/x-msmetafile"], "Windows metafile")
        case .emf: return D("com.microsoft.emf", [.image], ext: ["emf"], mime: ["image/emf", "image/x-emf"], "Windows enhanced metafile")
        case .aliasPIX: return D("com.alias.pix-image", [.image], ext: ["pix", "als", "alias"], mime: ["image/x-alias-pix"], "Alias PIX image")
        case .blp: return D("com.blizzard.blp", [.image], ext: ["blp"], mime: ["image/x-blp"], "Blizzard BLP texture")
        case .wal: return D("com.idsoftware.wal", [.image], ext: ["wal"], mime: ["image/x-wal"], "Quake II WAL texture")
        case .ilbm: return D("com.ea.iff-ilbm", [.image], ext: ["iff", "ilbm", "lbm"], mime: ["image/x-ilbm", "image/x-iff"], "IFF ILBM image")
        case .iffPBM: return D("com.ea.iff-pbm", [.image], ext: ["lbm", "bbm"], mime: ["image/x-ilbm"], "IFF PBM (Deluxe Paint) image")
        case .iffANIM: return D("com.ea.iff-anim", [.image], ext: ["anim", "anm"], mime: ["video/x-anim"], "IFF ANIM animation")
        case .pillowIM: return D("com.pythonware.im", [.image], ext: ["im"], mime: ["image/x-pil-im"], "PIL IM image")
        case .jbig: return D("org.jpeg.jbig", [.image], ext: ["jbg", "jbig", "bie"], mime: ["image/x-jbig"], "JBIG bi-level image")
        case .jbig2: return D("org.jpeg.jbig2", [.image], ext: ["jb2", "jbig2"], mime: ["image/x-jbig2"], "JBIG2 bi-level image")
        case .msp: return D("com.microsoft.msp", [.image], ext: ["msp"], mime: ["image/x-msp"], "Microsoft Paint image")
        case .mtv: return D("org.brainwagon.mtv", [.image], ext: ["mtv"], mime: ["image/x-mtv"], "MTV ray tracer image")
        case .otb: return D("com.nokia.otb", [.image], ext: ["otb"], mime: ["image/x-otb"], "Nokia OTA bitmap")
        case .nokiaNOL: return D("com.nokia.nol", [.image], ext: ["nol"], mime: ["image/x-nokia-nol"], "Nokia operator logo")
        case .nokiaNGG: return D("com.nokia.ngg", [.image], ext: ["ngg"], mime: ["image/x-nokia-ngg"], "Nokia group graphic")
        case .palmBitmap: return D("com.palm.bitmap", [.image], ext: ["palm"], mime: ["image/x-palm"], "Palm OS bitmap")
        case .palmPDB: return D("com.palm.imageviewer-pdb", [.image], ext: ["pdb"], mime: ["image/x-palm-pdb"], "Palm ImageViewer image")
        case .pgx: return D("org.jpeg.pgx", [.image], ext: ["pgx"], mime: ["image/x-pgx"], "JPEG 2000 PGX image")
        case .utahRLE: return D("edu.utah.rle", [.image], ext: ["rle"], mime: ["image/x-utah-rle"], "Utah RLE image")
        case .viff: return D("com.khoral.viff", [.image], ext: ["viff", "xv"], mime: ["image/x-viff"], "Khoros VIFF image")
        case .vips: return D("org.libvips.vips", [.image], ext: ["v", "vips"], mime: ["image/x-vips"], "VIPS image")
        case .gimpBrush: return D("org.gimp.gbr", [.image], ext: ["gbr", "gpb"], mime: ["image/x-gimp-gbr"], "GIMP brush")
        case .gimpPattern: return D("org.gimp.pat", [.image], ext: ["pat"], mime: ["image/x-gimp-pat"], "GIMP pattern")
        case .gimpHose: return D("org.gimp.gih", [.image], ext: ["gih"], mime: ["image/x-gimp-gih"], "GIMP image hose")
        case .xvThumbnail: return D("com.trilon.xv-thumbnail", [.image], mime: ["image/x-xv-thumbnail"], "XV thumbnail")
        case .pixar: return D("com.pixar.pxr", [.image], ext: ["pxr"], mime: ["image/x-pixar"], "Pixar image")
        case .spider: return D("org.wadsworth.spider", [.image], ext: ["spi", "spider"], mime: ["image/x-spider"], "SPIDER image")
        case .mcidas: return D("edu.wisc.ssec.mcidas-area", [.image], ext: ["area"], mime: ["image/x-mcidas-area"], "McIDAS area image")
        case .gd: return D("org.libgd.gd", [.image], ext: ["gd"], mime: ["image/x-gd"], "libgd GD image")
        case .gd2: return D("org.libgd.gd2", [.image], ext: ["gd2"], mime: ["image/x-gd2"], "libgd GD2 image")
        case .flic: return D("com.autodesk.flic", [.image], ext: ["flc", "fli", "cel"], mime: ["video/x-flic", "video/x-fli", "video/x-flc"], "Autodesk FLIC animation")
        case .gemIMG: return D("com.digitalresearch.gem-img", [.image], ext: ["img", "ximg"], mime: ["image/x-gem"], "GEM image")
        case .degas: return D("com.atari.degas", [.image], ext: ["pi1", "pi2", "pi3", "pc1", "pc2", "pc3"], mime: ["image/x-atari-degas"], "Atari DEGAS image")
        case .mgr: return D("com.bellcore.mgr-bitmap", [.image], ext: ["mgr"], mime: ["image/x-mgr"], "MGR bitmap")
        case .cmuRaster: return D("edu.cmu.wm-raster", [.image], ext: ["cmu"], mime: ["image/x-cmu-raster"], "CMU window manager raster")
        case .microDesign: return D("com.microdesign.mda", [.image], ext: ["mda", "mdp"], mime: ["image/x-microdesign"], "MicroDesign page")
        case .solitaireSIR: return D("com.solitaire.sir", [.image], ext: ["sir"], mime: ["image/x-solitaire-sir"], "Solitaire image recorder image")
        case .garminSRF: return D("com.garmin.srf", [.image], ext: ["srf"], mime: ["image/x-garmin-srf"], "Garmin vehicle bitmap")
        case .vicar: return D("gov.nasa.jpl.vicar", [.image], ext: ["vic", "vicar"], mime: ["image/x-vicar"], "VICAR image")
        case .cals: return D("mil.cals.raster", [.image], ext: ["cals", "cal", "ct1"], mime: ["image/x-cals"], "CALS raster image")
        case .xcursor: return D("org.x.xcursor", [.image], mime: ["image/x-xcursor"], "X cursor")
        // Found on real files (Debian and PyPI packages) that libmagic or ImageMagick call images.
        // None has an Apple identifier; these follow the reverse-DNS style of the owners' domains.
        case .xfig: return D("org.xfig.fig", [.image], ext: ["fig"], mime: ["image/x-xfig"], "Xfig drawing")
        case .wordPerfectGraphics:
            return D("com.corel.wordperfect-graphics", [.image], ext: ["wpg"],
                     mime: ["image/x-wordperfect-graphics", "application/x-wpg"], "WordPerfect graphics")
        case .nifti: return D("gov.nih.nifti-image", [.image], ext: ["nii"], mime: ["image/x.nifti"], "NIfTI neuroimaging data")
        case .pgf: return D("org.libpgf.pgf", [.image], ext: ["pgf"], mime: ["image/x-pgf"], "Progressive Graphics File image")
        case .ani: return D("com.microsoft.ani", [.image], ext: ["ani"], mime: ["application/x-navi-animation"], "Windows animated cursor")
        case .psxTIM: return D("com.sony.psx-tim", [.image], ext: ["tim"], mime: ["image/x-sony-tim"], "PlayStation TIM image")
        case .sixel: return D("com.dec.sixel", [.image], ext: ["six", "sixel"], mime: ["image/x-sixel"], "Sixel graphics")
        case .os2BitmapArray: return D("com.ibm.os2-bitmap-array", [.image], ext: ["bga", "bmp"], mime: ["image/x-os2-graphics"], "OS/2 bitmap array")
        case .os2Icon: return D("com.ibm.os2-icon", [.image], ext: ["ico"], mime: ["image/x-os2-ico"], "OS/2 icon")
        case .os2Pointer: return D("com.ibm.os2-pointer", [.image], ext: ["ptr"], mime: ["image/x-ibm-pointer"], "OS/2 pointer")
        // The formats issue 29 found still unnamed in other projects' test files.
        case .rla: return D("com.wavefront.rla-image", [.image], ext: ["rla", "rpf"], mime: ["image/x-rla"], "Wavefront RLA image")
        case .basis: return D("com.binomial.basis-texture", [.image], ext: ["basis"], mime: ["image/x-basis"], "Basis Universal texture")
        case .nie: return D("com.google.wuffs.nie", [.image], ext: ["nie"], mime: ["image/nie"], "NIE (wuffs naive) image")
        case .nia: return D("com.google.wuffs.nia", [.image], ext: ["nia"], mime: ["image/nia"], "NIA (wuffs naive) animation")
        case .iffRGB8: return D("com.impulse.iff-rgb8", [.image], ext: ["rgb8", "iff"], mime: ["image/x-iff"], "IFF RGB8 (Impulse) image")
        case .iffDEEP: return D("com.tvpaint.iff-deep", [.image], ext: ["deep", "iff"], mime: ["image/x-iff"], "IFF DEEP image")
        case .tvpaintTVPP: return D("com.tvpaint.iff-tvpp", [.image], ext: ["tvpp", "iff"], mime: ["image/x-iff"], "TVPaint (IFF TVPP) picture")
        case .analyze: return D("edu.mayo.analyze-header", [.image], ext: ["hdr"], mime: ["image/x-analyze"], "Analyze 7.5 image header")
        case .mrc: return D("uk.ac.cam.mrc-lmb.mrc", [.image], ext: ["mrc", "mrcs", "ccp4"], mime: ["image/x-mrc"], "MRC/CCP4 density map")
        case .cgm: return D("org.iso.cgm", [.image], ext: ["cgm"], mime: ["image/cgm"], "Computer Graphics Metafile (binary)")
        case .pdf: return D("com.adobe.pdf", [.data, .compositeContent], ext: ["pdf"], mime: ["application/pdf"], "PDF document")
        case .postScript: return D("com.adobe.postscript", [.data], ext: ["ps"], mime: ["application/postscript"], "PostScript document")
        case .eps: return D("com.adobe.encapsulated-postscript", [.postScript], ext: ["eps", "epsf"], mime: ["application/postscript", "image/x-eps"], "Encapsulated PostScript", family: .postScript)

        // 1.3 Camera RAW
        case .dng: return D("com.adobe.raw-image", [.cameraRawImage], ext: ["dng"], mime: ["image/x-adobe-dng"], "Adobe DNG raw image", family: .tiff)
        case .cr2: return D("com.canon.cr2-raw-image", [.cameraRawImage], ext: ["cr2"], mime: ["image/x-canon-cr2"], "Canon CR2 raw image", family: .tiff)
        case .cr3: return D("com.canon.cr3-raw-image", [.cameraRawImage], ext: ["cr3"], mime: ["image/x-canon-cr3"], "Canon CR3 raw image")
        case .crw: return D("com.canon.crw-raw-image", [.cameraRawImage], ext: ["crw"], mime: ["image/x-canon-crw"], "Canon CRW raw image")
        case .nef: return D("com.nikon.raw-image", [.cameraRawImage], ext: ["nef"], mime: ["image/x-nikon-nef"], "Nikon NEF raw image", family: .tiff)
        case .nrw: return D("com.nikon.nrw-raw-image", [.cameraRawImage], ext: ["nrw"], mime: ["image/x-nikon-nrw"], "Nikon NRW raw image", family: .tiff)
        case .arw: return D("com.sony.arw-raw-image", [.cameraRawImage], ext: ["arw"], mime: ["image/x-sony-arw"], "Sony ARW raw image", family: .tiff)
        case .sr2: return D("com.sony.sr2-raw-image", [.cameraRawImage], ext: ["sr2"], mime: ["image/x-sony-sr2"], "Sony SR2 raw image", family: .tiff)
        case .srf: return D("com.sony.raw-image", [.cameraRawImage], ext: ["srf"], mime: ["image/x-sony-srf"], "Sony SRF raw image", family: .tiff)
        case .orf: return D("com.olympus.raw-image", [.cameraRawImage], ext: ["orf"], mime: ["image/x-olympus-orf"], "Olympus ORF raw image")
        case .rw2: return D("com.panasonic.rw2-raw-image", [.cameraRawImage], ext: ["rw2"], mime: ["image/x-panasonic-rw2"], "Panasonic RW2 raw image")
        case .panasonicRaw: return D("com.panasonic.raw-image", [.cameraRawImage], ext: ["raw"], mime: ["image/x-panasonic-raw"], "Panasonic raw image", family: .rw2)
        case .rwl: return D("com.leica.rwl-raw-image", [.cameraRawImage], ext: ["rwl"], mime: ["image/x-leica-rwl"], "Leica RWL raw image", family: .rw2)
        case .raf: return D("com.fuji.raw-image", [.cameraRawImage], ext: ["raf"], mime: ["image/x-fuji-raf"], "Fujifilm RAF raw image")
        case .pef: return D("com.pentax.raw-image", [.cameraRawImage], ext: ["pef"], mime: ["image/x-pentax-pef"], "Pentax PEF raw image", family: .tiff)
        case .srw: return D("com.samsung.raw-image", [.cameraRawImage], ext: ["srw"], mime: ["image/x-samsung-srw"], "Samsung SRW raw image", family: .tiff)
        case .threeFR: return D("com.hasselblad.3fr-raw-image", [.cameraRawImage], ext: ["3fr"], mime: ["image/x-hasselblad-3fr"], "Hasselblad 3FR raw image", family: .tiff)
        case .fff: return D("com.hasselblad.fff-raw-image", [.cameraRawImage], ext: ["fff"], mime: ["image/x-hasselblad-fff"], "Hasselblad FFF raw image", family: .tiff)
        case .erf: return D("com.epson.raw-image", [.cameraRawImage], ext: ["erf"], mime: ["image/x-epson-erf"], "Epson ERF raw image", family: .tiff)
        case .kodakRaw: return D("com.kodak.raw-image", [.cameraRawImage], ext: ["dcr", "kdc", "dcs", "k25"], mime: ["image/x-kodak-dcr", "image/x-kodak-kdc"], "Kodak raw image", family: .tiff)
        case .mrw: return D("com.konicaminolta.raw-image", [.cameraRawImage], ext: ["mrw"], mime: ["image/x-minolta-mrw"], "Minolta MRW raw image")
        case .mos: return D("com.leafamerica.raw-image", [.cameraRawImage], ext: ["mos"], mime: ["image/x-leaf-mos"], "Leaf MOS raw image", family: .tiff)
        case .iiq: return D("com.phaseone.raw-image", [.cameraRawImage], ext: ["iiq"], mime: ["image/x-phaseone-iiq"], "Phase One IIQ raw image", family: .tiff)
        case .x3f: return D("com.sigma.x3f-raw-image", [.cameraRawImage], ext: ["x3f"], mime: ["image/x-sigma-x3f"], "Sigma X3F raw image")
        case .mef: return D("com.mamiya.mef-raw-image", [.cameraRawImage], ext: ["mef"], mime: ["image/x-mamiya-mef"], "Mamiya MEF raw image", family: .tiff)
        case .rwz: return D("com.rawzor.rwz-raw-image", [.cameraRawImage], ext: ["rwz"], mime: ["image/x-rawzor"], "Rawzor compressed raw image")
        // Camera RAW identifiers ImageIO declares beyond the first catalog (issue 13). A Canon
        // TIFF RAW and a Sony AXR are, byte for byte, a Canon TIFF and an ARW: only a hint names
        // them. Olympus's OR and SR identifiers are read by ImageIO as ORF; which header says
        // which is not documented, so detection answers ORF and only a hint names them.
        case .canonTIFRaw: return D("com.canon.tif-raw-image", [.cameraRawImage], ext: ["tif"], mime: ["image/tiff"], "Canon TIFF raw image", family: .tiff, hintOnly: true)
        case .sonyAXR: return D("com.sony.axr-raw-image", [.cameraRawImage], ext: ["axr"], mime: ["image/x-sony-axr"], "Sony AXR raw image", family: .tiff, hintOnly: true)
        case .olympusOR: return D("com.olympus.or-raw-image", [.cameraRawImage], ext: ["orf"], mime: ["image/x-olympus-orf"], "Olympus ORF (OR) raw image", family: .orf, hintOnly: true)
        case .olympusSR: return D("com.olympus.sr-raw-image", [.cameraRawImage], ext: ["orf"], mime: ["image/x-olympus-orf"], "Olympus ORF (SR) raw image", family: .orf, hintOnly: true)
        case .leicaRaw: return D("com.leica.raw-image", [.cameraRawImage], ext: ["raw"], mime: ["image/x-leica-raw"], "Leica raw image", family: .rw2)
        case .dxoRaw: return D("com.dxo.raw-image", [.cameraRawImage], ext: ["dxo"], mime: ["image/x-dxo-dxo"], "DxO raw image", family: .tiff)

        // 1.4 Neighbours: recognised so that they are never reported as images
        case .mpeg4: return D("public.mpeg-4", [.movie], ext: ["mp4"], mime: ["video/mp4"], "MPEG-4 movie")
        case .mpeg4Audio: return D("public.mpeg-4-audio", [.audio], ext: ["m4a", "m4b"], mime: ["audio/mp4"], "MPEG-4 audio")
        case .quickTime: return D("com.apple.quicktime-movie", [.movie], ext: ["mov", "qt"], mime: ["video/quicktime"], "QuickTime movie")
        case .threeGPP: return D("public.3gpp", [.movie], ext: ["3gp", "3g2"], mime: ["video/3gpp"], "3GPP movie")
        case .mj2: return D("org.iso.mj2", [.movie], ext: ["mj2"], mime: ["video/mj2"], "Motion JPEG 2000 movie")
        case .crm: return D("com.canon.crm-movie", [.movie], ext: ["crm"], mime: ["video/x-canon-crm"], "Canon CRM movie", family: .cr3)
        case .webM: return D("org.webmproject.webm", [.movie], ext: ["webm"], mime: ["video/webm"], "WebM movie")
        case .matroska: return D("org.matroska.mkv", [.movie], ext: ["mkv"], mime: ["video/x-matroska"], "Matroska movie")
        case .avi: return D("public.avi", [.movie], ext: ["avi"], mime: ["video/x-msvideo"], "AVI movie")
        case .wave: return D("com.microsoft.waveform-audio", [.audio], ext: ["wav", "wave"], mime: ["audio/wav"], "WAVE audio")
        case .mp3: return D("public.mp3", [.audio], ext: ["mp3"], mime: ["audio/mpeg"], "MP3 audio")
        case .aiff: return D("public.aiff-audio", [.audio], ext: ["aiff", "aif", "aifc"], mime: ["audio/aiff", "audio/x-aiff"], "AIFF audio")
        case .flashVideo: return D("com.adobe.flash.video", [.movie], ext: ["flv"], mime: ["video/x-flv"], "Flash video")
        case .mpeg: return D("public.mpeg", [.movie], ext: ["mpg", "mpeg", "m1v"], mime: ["video/mpeg"], "MPEG movie")
        case .zip: return D("public.zip-archive", [.archive], ext: ["zip"], mime: ["application/zip"], "ZIP archive")
        case .gzip: return D("org.gnu.gnu-zip-archive", [.archive], ext: ["gz", "gzip"], mime: ["application/gzip"], "gzip archive")
        case .colorSyncProfile: return D("com.apple.colorsync-profile", [.data], ext: ["icc", "icm"], mime: ["application/vnd.iccprofile"], "ICC colour profile")
        case .trueTypeFont: return D("public.truetype-ttf-font", [.font], ext: ["ttf"], mime: ["font/ttf"], "TrueType font")
        case .trueTypeCollection: return D("public.truetype-collection-font", [.font], ext: ["ttc"], mime: ["font/collection"], "TrueType font collection")
        case .openTypeFont: return D("public.opentype-font", [.font], ext: ["otf"], mime: ["font/otf"], "OpenType font")
        case .woff: return D("org.w3.woff", [.font], ext: ["woff"], mime: ["font/woff"], "WOFF font")
        case .woff2: return D("org.w3.woff2", [.font], ext: ["woff2"], mime: ["font/woff2"], "WOFF2 font")
        case .html: return D("public.html", [.text], ext: ["html", "htm"], mime: ["text/html"], "HTML document")
        case .xml: return D("public.xml", [.text], ext: ["xml"], mime: ["application/xml", "text/xml"], "XML document")
        case .json: return D("public.json", [.text], ext: ["json"], mime: ["application/json"], "JSON document")
        case .plainText: return D("public.plain-text", [.text], ext: ["txt", "text"], mime: ["text/plain"], "plain text")
        }
    }
}

/// The catalog, materialised once: declarations by index and the lookup tables.
enum Catalog {
    static let declarations: [TypeDeclaration] = ImageType.allCases.map { $0.declaration }

    static let byIdentifier: [String: ImageType] = {
        var table: [String: ImageType] = [:]
        for type in ImageType.allCases { table[lowercased(type.declaration.identifier)] = type }
        return table
    }()

    /// Every type per extension, in catalog order (the first one declared is preferred).
    static let byExtension: [String: [ImageType]] = {
        var table: [String: [ImageType]] = [:]
        for type in ImageType.allCases {
            for ext in type.declaration.extensions { table[ext, default: []].append(type) }
        }
        return table
    }()

    /// Every type per MIME type, types that prefer the MIME type first.
    static let byMIMEType: [String: [ImageType]] = {
        var table: [String: [ImageType]] = [:]
        for pass in 0..<2 {
            for type in ImageType.allCases {
                for (index, mime) in type.declaration.mimeTypes.enumerated() where (index == 0) == (pass == 0) {
                    table[mime, default: []].append(type)
                }
            }
        }
        return table
    }()

    /// Transitive supertypes of every type, as bit sets over `ImageType.index`.
    static let ancestors: [TypeSet] = ImageType.allCases.map { type in
        var set = TypeSet()
        var stack = type.declaration.parents
        while let next = stack.popLast() {
            if !set.contains(next) {
                set.insert(next)
                stack.append(contentsOf: next.declaration.parents)
            }
        }
        return set
    }

    /// ASCII lower-casing without Foundation.
    static func lowercased(_ s: String) -> String {
        var bytes = Array(s.utf8)
        for i in bytes.indices where bytes[i] >= 0x41 && bytes[i] <= 0x5A { bytes[i] |= 0x20 }
        return String(decoding: bytes, as: UTF8.self)
    }
}

extension ImageType {
    /// The case's position in the catalog (declaration order, as `allCases` lists them): an index
    /// into the catalog's tables, not stable from release to release (a type is kept, sent or
    /// stored by its `identifier`). A case without payload is stored as this number, in one byte
    /// while there are at most 256 cases (a test checks both).
    @inline(__always)
    package var index: Int { Int(unsafeBitCast(self, to: UInt8.self)) }
}

/// A small fixed-size bit set of types, for conformance queries without allocation.
struct TypeSet: Sendable, Hashable {
    /// Four words: 256 types at most.
    private var words: (UInt64, UInt64, UInt64, UInt64) = (0, 0, 0, 0)

    func contains(_ type: ImageType) -> Bool {
        let bit = type.index
        let mask: UInt64 = 1 << UInt64(bit & 63)
        switch bit >> 6 {
        case 0: return words.0 & mask != 0
        case 1: return words.1 & mask != 0
        case 2: return words.2 & mask != 0
        default: return words.3 & mask != 0
        }
    }

    mutating func insert(_ type: ImageType) {
        let bit = type.index
        let mask: UInt64 = 1 << UInt64(bit & 63)
        switch bit >> 6 {
        case 0: words.0 |= mask
        case 1: words.1 |= mask
        case 2: words.2 |= mask
        default: words.3 |= mask
        }
    }

    static func == (a: TypeSet, b: TypeSet) -> Bool { a.words == b.words }
    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0); hasher.combine(words.1); hasher.combine(words.2); hasher.combine(words.3)
    }
}
