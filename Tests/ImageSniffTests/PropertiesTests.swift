import Foundation
import Testing
@testable import ImageSniff

/// One row of TestImages/identify-sizes.tsv: what ImageMagick's identify says of a test image.
struct IdentifyRow: Sendable, CustomStringConvertible {
    let file: String, width: Int, height: Int, frames: Int, coder: String
    /// Read with a coder prefix (`MTV:file`): identify does not know the format by its content.
    let prefixed: Bool
    var description: String { file }
    /// The operand identify was given.
    var operand: String { prefixed ? "\(coder):\(file)" : file }

    static let rows: [IdentifyRow] = {
        guard let text = try? String(contentsOf: Repository.testImages.appendingPathComponent("identify-sizes.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("file\t") else { return nil }
            let c = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            guard c.count >= 5, let w = Int(c[1]), let h = Int(c[2]), let n = Int(c[3]) else { return nil }
            return IdentifyRow(file: c[0], width: w, height: h, frames: n, coder: c[4], prefixed: c.count > 5 && c[5] == "prefix")
        }
    }()
}

/// What `tool ARGUMENTS` prints, run in TestImages (standard error discarded).
func toolOutput(_ tool: String, _ arguments: [String]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: tool)
    process.arguments = arguments
    process.currentDirectoryURL = Repository.testImages
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = FileHandle.nullDevice
    try process.run()
    let out = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    return out
}

@Suite("Image properties against ImageMagick's identify")
struct PropertiesTests {
    /// Files whose format ImageIO (and ImageSniff) report differently from identify, and why.
    static func knownDifference(_ entry: ManifestEntry, _ row: IdentifyRow) -> String? {
        guard let type = ImageType(entry.identifier) else { return "not a catalog type" }
        if !type.isImage { return "not an image" }
        if type.conforms(to: .cameraRawImage) { return "camera RAW: identify reads the TIFF preview in IFD0; ImageIO reports the raw image" }
        if [ImageType.svg, .wmf, .emf, .xfig, .wordPerfectGraphics, .cgm, .eps, .postScript].contains(type) { return "vector: no pixel size in the header" }
        if row.coder == "IPTC" { return "identify's IPTC coder misfires on the file's first bytes" }
        if entry.file == "fits/astropy-tile-compressed" {
            return "identify 6.9 does not read tile compression: it gives the BINTABLE's bytes a row and rows, not ZNAXIS1 and ZNAXIS2"
        }
        return nil
    }

    static let eligible: [(ManifestEntry, IdentifyRow)] = {
        let byFile = Dictionary(Manifest.entries.map { ($0.file, $0) }, uniquingKeysWith: { a, _ in a })
        return IdentifyRow.rows.compactMap { row in byFile[row.file].map { ($0, row) } }
    }()

    @Test func recordIsPresent() {
        #expect(IdentifyRow.rows.count > 200, "TestImages/identify-sizes.tsv missing or short: bash TestImages/record-identify.sh")
    }

    /// Every raster test image identify sizes has the same width and height here (and, for
    /// GIF, WebP and MTV, the same number of frames); at least 95 % of them are sized.
    @Test func sizesAgreeWithIdentify() throws {
        var sized = 0, total = 0
        var unsized: [String] = []
        for (entry, row) in Self.eligible where Self.knownDifference(entry, row) == nil {
            total += 1
            let p = try ImageSniffer.inspect(fileAt: entry.url.path).properties
            guard let w = p.width, let h = p.height else { unsized.append("\(entry.file) (\(row.coder))"); continue }
            sized += 1
            #expect(w == row.width && h == row.height, "\(entry.file): \(w)x\(h), identify \(row.width)x\(row.height) (\(row.coder))")
            if ["GIF", "WEBP", "MTV"].contains(row.coder) {
                #expect(p.frameCount == row.frames, "\(entry.file): \(p.frameCount.map(String.init) ?? "nil") frames, identify \(row.frames)")
            }
        }
        #expect(total > 200)
        #expect(sized * 100 >= total * 95, "sized \(sized) of \(total); not sized: \(unsized.joined(separator: ", "))")
    }

    /// When identify is installed, the record is what it says now (the record is not stale). Rows
    /// of coders this identify lacks (Debian's plain imagemagick package reads no OpenEXR, SVG,
    /// DjVu or WMF: it prints nothing) are passed over; most rows are compared.
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/identify")))
    func recordMatchesIdentify() throws {
        var compared = 0
        for row in IdentifyRow.rows.prefix(400) {
            let out = try toolOutput("/usr/bin/identify", ["-format", "%w %h %n %m\n", row.operand])
            guard let first = out.split(separator: "\n").first.map(String.init) else { continue }
            compared += 1
            #expect(first == "\(row.width) \(row.height) \(row.frames) \(row.coder)", "\(row.file): identify now says \(first)")
        }
        #expect(compared * 5 >= min(400, IdentifyRow.rows.count) * 4, "identify read \(compared) of the recorded files")
    }
}

/// JPEG XL against libjxl's jxlinfo (ImageMagick 6 has no JPEG XL coder): TestImages/jxlinfo.tsv,
/// written by record-identify.sh.
@Suite("JPEG XL properties against jxlinfo")
struct JPEGXLPropertiesTests {
    struct Row: Sendable, CustomStringConvertible {
        let file: String, width: Int, height: Int, bits: Int, animation: Bool
        /// jxlinfo's channels: RGB, RGBA, Grayscale, Grayscale+Alpha (and extra channels after).
        let channels: String
        var description: String { file }
    }

    static let rows: [Row] = {
        guard let text = try? String(contentsOf: Repository.testImages.appendingPathComponent("jxlinfo.tsv"), encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { line in
            guard !line.hasPrefix("#"), !line.hasPrefix("file\t") else { return nil }
            let c = line.split(separator: "\t").map(String.init)
            guard c.count == 6, let w = Int(c[1]), let h = Int(c[2]), let b = Int(c[3]) else { return nil }
            return Row(file: c[0], width: w, height: h, bits: b, animation: c[4] == "yes", channels: c[5])
        }
    }()

    /// Every JPEG XL test image is in the record (and the record names no other file).
    @Test func recordCoversEveryJPEGXLImage() throws {
        let images = Set(Manifest.entries.filter { $0.identifier == "public.jpeg-xl" }.map(\.file))
        #expect(images.count >= 10)
        #expect(Set(Self.rows.map(\.file)) == images, "TestImages/jxlinfo.tsv is stale: bash TestImages/record-identify.sh")
    }

    /// When jxlinfo is installed, the record is what it says now (the record is not stale).
    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: "/usr/bin/jxlinfo")))
    func recordMatchesJxlinfo() throws {
        for row in Self.rows {
            let out = try toolOutput("/usr/bin/jxlinfo", [row.file])
            let line = out.split(separator: "\n").first { $0.hasPrefix("JPEG XL image, ") || $0.hasPrefix("JPEG XL animation, ") }.map(String.init) ?? ""
            let expected = "JPEG XL \(row.animation ? "animation" : "image"), \(row.width)x\(row.height),"
            #expect(line.hasPrefix(expected) && line.contains(" \(row.bits)-bit \(row.channels)"), "\(row.file): jxlinfo now says \(line)")
        }
    }

    /// Size, bits per sample (read past the animation header when there is one), still or
    /// animated, grey or colour, and alpha (an extra channel of that type): the same as jxlinfo.
    @Test(arguments: rows)
    func agreesWithJxlinfo(_ row: Row) throws {
        let url = Repository.testImages.appendingPathComponent(row.file)
        let inspection = try ImageSniffer.inspect(fileAt: url.path)
        let p = inspection.properties
        #expect(p.width == row.width && p.height == row.height, "\(p.width.map(String.init) ?? "nil")x\(p.height.map(String.init) ?? "nil")")
        #expect(p.bitDepth == row.bits)
        #expect(p.colorModel == (row.channels.hasPrefix("Grayscale") ? .gray : .rgb), "\(row.channels): \(p)")
        #expect(p.hasAlpha == (row.channels.hasPrefix("RGBA") || row.channels.hasPrefix("Grayscale+Alpha")), "\(row.channels): \(p)")
        #expect(inspection.detection.isAnimated == row.animation)
        #expect(row.animation ? p.frameCount == nil : p.frameCount == 1, "frames: the header does not count an animation's frames")
    }
}

@Suite("Image properties of hostile and hand-built headers")
struct HostilePropertiesTests {
    /// A PNG signature and an IHDR chunk of the given size (CRC not checked by readers).
    static func png(width: UInt32, height: UInt32, colour: UInt8 = 6, depth: UInt8 = 8) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        bytes += [depth, colour, 0, 0, 0, 0, 0, 0, 0]  // compression, filter, interlace, CRC
        bytes += [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        return bytes
    }

    /// An ICC profile that cannot be used is not one: a PNG's iCCP whose data is no zlib stream
    /// (Pillow's icc_profile_none.png), a JPEG's first ICC_PROFILE chunk whose header lacks `acsp`
    /// (Pillow's icc-after-SOF.jpg). Both said true.
    @Test func unusableICCProfilesAreNotProfiles() {
        func png(iCCP zlibHeader: [UInt8]) -> [UInt8] {
            var b = Self.png(width: 2, height: 2)
            let payload = Array("ICC Profile".utf8) + [0, 0] + zlibHeader + [UInt8](repeating: 0x55, count: 20)
            var chunk = ByteBuilder()
            chunk.u32be(UInt32(payload.count)); chunk.ascii("iCCP"); chunk.bytes += payload; chunk.u32be(0)
            b.insert(contentsOf: chunk.bytes, at: 33)  // after IHDR
            return b
        }
        #expect(ImageSniffer.inspect(png(iCCP: [0x78, 0x9C])).properties.hasICCProfile == true)
        #expect(ImageSniffer.inspect(png(iCCP: [0x8D, 0x93])).properties.hasICCProfile == false)
        func jpeg(profile: [UInt8]) -> [UInt8] {
            var b = ByteBuilder()
            b.bytes += [0xFF, 0xD8, 0xFF, 0xE2]; b.u16be(UInt16(2 + 14 + profile.count))
            b.ascii("ICC_PROFILE\0"); b.bytes += [1, 1] + profile
            return b.bytes + Array(minimalJPEG.dropFirst(2))
        }
        var header = [UInt8](repeating: 0, count: 128)
        header.replaceSubrange(36..<40, with: Array("acsp".utf8))
        #expect(ImageSniffer.inspect(jpeg(profile: header)).properties.hasICCProfile == true)
        #expect(ImageSniffer.inspect(jpeg(profile: [UInt8](repeating: 0x0F, count: 128))).properties.hasICCProfile == false)
        #expect(ImageSniffer.inspect(minimalJPEG).properties.hasICCProfile == false)
    }

    @Test func decompressionBombIsSizedFromItsHeader() throws {
        let bomb = Self.png(width: 100_000, height: 100_000)
        let p = ImageSniffer.inspect(bomb).properties
        #expect(p.width == 100_000 && p.height == 100_000)
        #expect(p.pixelCount == 10_000_000_000)
        #expect(p.bitDepth == 8 && p.colorModel == .rgb && p.hasAlpha == true)
        // From a file: nothing is read past the first read (the header is in the first 4 KiB).
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-bomb-\(UUID().uuidString)")
        var file = bomb
        file += [UInt8](repeating: 0, count: 1 << 20)  // a large body that must not be read
        try Data(file).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let sniffer = FileSniffer()
        let inspection = try sniffer.inspect(fileAt: url.path)
        #expect(inspection.properties.width == 100_000)
        #expect(sniffer.lastBytesRead <= Limits.initialRead + Limits.tailLength)
    }

    /// PNG's integers stop at 2^31-1 (PNG 3rd edition, 7.1) and IHDR forbids 0 (11.2.1): past
    /// them the size is not stated.
    @Test(arguments: [UInt32(0), 1, 0x7FFF_FFFF, 0x8000_0000, 0xFFFF_FFFF])
    func extremeSizesNeverTrap(_ size: UInt32) {
        let p = ImageSniffer.inspect(Self.png(width: size, height: size)).properties
        let stated = size == 0 || size > 0x7FFF_FFFF ? nil : Int(size)
        #expect(p.width == stated && p.height == stated)
        #expect(p.pixelCount == stated.map { $0 * $0 })
    }

    /// A TIFF states its size as LONGs up to 2^32-1: the pixel count saturates, never overflows.
    @Test func pixelCountSaturates() {
        let tiff = makeTIFF(entries: [(256, 4, .long(0xFFFF_FFFF)), (257, 4, .long(0xFFFF_FFFF)), (258, 3, .short(8))])
        let p = ImageSniffer.inspect(tiff).properties
        #expect(p.width == 0xFFFF_FFFF && p.height == 0xFFFF_FFFF)
        #expect(p.pixelCount == Int.max, "saturates, never overflows")
    }

    /// A tag given twice: the first entry with a value counts, as libtiff reads it, whatever
    /// follows (gdk-pixbuf's damaged bug780269.tif has a second width of type 16384, which took
    /// the first one's place: the width was nil where libtiff and exiftool say 1073741824).
    @Test func aTIFFTagGivenTwiceKeepsItsFirstValue() {
        let tiff = makeTIFF(entries: [(256, 4, .long(640)), (256, 16384, .long(7)), (257, 3, .short(480)), (257, 3, .short(9)),
                                      (258, 3, .short(8))])
        let p = ImageSniffer.inspect(tiff).properties
        #expect(p.width == 640 && p.height == 480, "\(p)")
    }

    /// A width or height of 0 is forbidden by every format's spec: "not stated" (nil), never 0,
    /// whichever reader reads it (a validator that multiplies width by height must not see 0).
    @Test func zeroSizesAreNotStated() {
        func size(_ b: [UInt8]) -> [Int?] {
            let inspection = ImageSniffer.inspect(b)
            #expect(inspection.detection.type.isImage, "\(inspection.detection)")
            return [inspection.properties.width, inspection.properties.height]
        }
        #expect(size(Self.png(width: 0, height: 5)) == [nil, 5])
        #expect(size(Self.png(width: 5, height: 0)) == [5, nil])
        #expect(size(makeTIFF(entries: [(256, 4, .long(0)), (257, 4, .long(10)), (258, 3, .short(8))])) == [nil, 10])
        #expect(size(makeTIFF(entries: [(256, 3, .short(10)), (257, 3, .short(0)), (258, 3, .short(8))])) == [10, nil])
        // GIF: logical screen 0 x 3.
        #expect(size(Array("GIF89a".utf8) + [0, 0, 3, 0, 0, 0, 0, 0x3B]) == [nil, 3])
        // netpbm: P5 0 x 0.
        #expect(size(Array("P5\n0 0\n255\n".utf8)) == [nil, nil])
        #expect(size(Array("P6\n4 0\n255\n".utf8)) == [4, nil])
        // WebP, lossy: the VP8 key frame's 14-bit width 0.
        var webp = ByteBuilder()
        webp.ascii("RIFF"); webp.u32le(4 + 8 + 10); webp.ascii("WEBP"); webp.ascii("VP8 "); webp.u32le(10)
        webp.bytes += [0x10, 0x02, 0x00, 0x9D, 0x01, 0x2A]; webp.u16le(0); webp.u16le(7)
        #expect(size(webp.bytes) == [nil, 7])
        // JPEG 2000: a JP2 whose ihdr says 0 x 9.
        var jp2 = ByteBuilder()
        jp2.u32be(12); jp2.ascii("jP  "); jp2.u32be(0x0D0A_870A)
        jp2.u32be(20); jp2.ascii("ftyp"); jp2.ascii("jp2 "); jp2.u32be(0); jp2.ascii("jp2 ")
        jp2.u32be(8 + 22); jp2.ascii("jp2h"); jp2.u32be(22); jp2.ascii("ihdr"); jp2.u32be(9); jp2.u32be(0)
        jp2.u16be(1); jp2.bytes += [7, 7, 0, 0]
        #expect(size(jp2.bytes) == [nil, 9])
        // A JPEG 2000 codestream whose image area is empty (Xsiz = XOsiz).
        var j2k = ByteBuilder()
        j2k.bytes += [0xFF, 0x4F, 0xFF, 0x51]; j2k.u16be(41); j2k.u16be(0)
        j2k.u32be(16); j2k.u32be(16); j2k.u32be(16); j2k.u32be(0)
        j2k.u32be(16); j2k.u32be(16); j2k.u32be(0); j2k.u32be(0); j2k.u16be(1); j2k.bytes += [7, 1, 1]
        #expect(size(j2k.bytes) == [nil, nil])
    }

    /// JPEG 2000's SIZ (ISO/IEC 15444-1 A.5.1): the image area runs from (XOsiz, YOsiz) to
    /// (Xsiz, Ysiz), so the image is Xsiz - XOsiz by Ysiz - YOsiz (opj_compress -d writes such
    /// codestreams; so do the conformance suites).
    @Test func jpeg2000ImageAreaStartsAtItsOrigin() throws {
        let file = try #require(Manifest.entries.first { $0.file == "foreign/j2k-openjpeg-image-offset" }).bytes()
        let p = ImageSniffer.inspect(file).properties
        #expect(p.width == 32 && p.height == 32)
        var j2k = ByteBuilder()
        j2k.bytes += [0xFF, 0x4F, 0xFF, 0x51]; j2k.u16be(41); j2k.u16be(0)
        j2k.u32be(4336); j2k.u32be(1037); j2k.u32be(4080); j2k.u32be(888)
        j2k.u32be(256); j2k.u32be(149); j2k.u32be(0); j2k.u32be(0); j2k.u16be(1); j2k.bytes += [7, 1, 1]
        let q = ImageSniffer.inspect(j2k.bytes).properties
        #expect(q.width == 256 && q.height == 149)
    }

    /// Stray bytes between two marker segments (Pillow's junk_jpeg_header.jpg): libjpeg passes over
    /// them with a warning, and so does the segment walk, up to `JPEGSegments.junkLimit` bytes.
    /// Past that the walk stops: still a JPEG, its size not stated.
    @Test func jpegStrayBytesBetweenSegments() throws {
        let file = try #require(Manifest.entries.first { $0.file == "foreign/jpeg-junk-before-marker" }).bytes()
        let p = ImageSniffer.inspect(file).properties
        #expect(p.width == 32 && p.height == 32)
        let dqt = try #require((2..<file.count - 1).first { file[$0] == 0xFF && file[$0 + 1] == 0xDB })
        for (junk, sized) in [(JPEGSegments.junkLimit - 5, true), (JPEGSegments.junkLimit + 1, false)] {
            let longer = Array(file[..<dqt]) + [UInt8](repeating: 0x20, count: junk) + Array(file[dqt...])
            let i = ImageSniffer.inspect(longer)
            #expect(i.detection.type == .jpeg)
            #expect((i.properties.width == 32) == sized, "\(junk) stray bytes: \(i.properties)")
        }
        // A stuffed FF 00 between segments is no marker either.
        let stuffed = Array(file[..<dqt]) + [0xFF, 0x00] + Array(file[dqt...])
        #expect(ImageSniffer.inspect(stuffed).properties.width == 32)
    }

    /// A `meta` box larger than the least a far window reads, after an `mdat` that ends past the
    /// first bytes' cap (pillow-heif's 200MP.heic): read whole with its header, from a file, from
    /// memory and from a stream of unknown length alike.
    @Test func heifLargeMetaAfterMediaData() throws {
        let entry = try #require(Manifest.entries.first { $0.file == "far/heif-large-meta-after-mdat" })
        let file = try FileSniffer().inspect(fileAt: entry.url.path).properties
        #expect(file.width == 512 && file.height == 512 && file.hasICCProfile == true, "\(file)")
        let bytes = try entry.bytes()
        #expect(ImageSniffer.inspect(bytes).properties == file)
        var stream = IncrementalSniffer(readsProperties: true)
        var o = 0
        while o < bytes.count {
            stream.append(bytes[o..<min(o + 4096, bytes.count)])
            o += 4096
        }
        stream.finish()
        #expect(stream.propertyProgress.properties == file)
    }

    /// GIMP brushes and patterns state width, height and bytes a pixel in a header both share
    /// (identify has no coder for them: checked against what GIMP wrote, 16 x 16).
    @Test(arguments: [("longtail/gimp-gbr-v1-nomagic", ImageProperties.ColorModel.gray, false),
                      ("longtail/gimp-gbr-v2-gray", .gray, false), ("longtail/gimp-gbr-v2-rgba", .rgb, true),
                      ("longtail/gimp-pat", .rgb, false)])
    func gimpBrushesAndPatterns(_ file: String, _ model: ImageProperties.ColorModel, _ alpha: Bool) throws {
        let bytes = try #require(Manifest.entries.first { $0.file == file }).bytes()
        let p = ImageSniffer.inspect(bytes).properties
        #expect(p.width == 16 && p.height == 16 && p.colorModel == model && p.hasAlpha == alpha, "\(p)")
        // The size is the header's: another width there is another width here.
        var wider = bytes
        wider[11] = 40
        #expect(ImageSniffer.inspect(wider).properties.width == 40 || ImageSniffer.inspect(wider).detection.type != ImageSniffer.inspect(bytes).detection.type)
    }

    /// XWD: the colour model from the header's visual class (the field at 52: 3 is PseudoColor,
    /// 4 and 5 direct colour), not from bits per pixel (at 44, which made every 8-bit palette
    /// image RGB).
    @Test(arguments: [("x11/xwd-imagemagick-palette", ImageProperties.ColorModel.indexed, 8),
                      ("x11/xwd-imagemagick", .rgb, 8), ("x11/xwd-netpbm", .rgb, 8)])
    func xwdVisualClass(_ file: String, _ model: ImageProperties.ColorModel, _ depth: Int) throws {
        let bytes = try #require(Manifest.entries.first { $0.file == file }).bytes()
        let p = ImageSniffer.inspect(bytes).properties
        #expect(p.width == 32 && p.height == 32 && p.colorModel == model && p.bitDepth == depth, "\(p)")
        // Another visual class in the same header: StaticGray (0) is grey, TrueColor (4) RGB.
        for (visual, expected) in [(UInt8(0), ImageProperties.ColorModel.gray), (4, .rgb)] {
            var changed = bytes
            changed[55] = visual
            #expect(ImageSniffer.inspect(changed).properties.colorModel == expected, "visual class \(visual)")
        }
    }

    /// A GIMP image hose: its cells as frames (the count line says 2, cellwidth and cellheight 16)
    /// and the first cell's brush header; all 31 hoses of Debian's gimp-data agreed with their
    /// count lines by hand. They had no properties.
    @Test func gimpImageHose() throws {
        let bytes = try #require(Manifest.entries.first { $0.file == "longtail/gimp-gih-2brushes" }).bytes()
        let p = ImageSniffer.inspect(bytes).properties
        #expect(p.width == 16 && p.height == 16 && p.frameCount == 2 && p.colorModel == .gray, "\(p)")
        // The cell count is the count line's: a hose of 7 cells (as far as its line says) says 7.
        let line = try #require(bytes.firstIndex(of: 0x0A)) + 1
        #expect(bytes[line] == UInt8(ascii: "2"))
        var seven = bytes
        seven[line] = UInt8(ascii: "7")
        #expect(ImageSniffer.inspect(seven).properties.frameCount == 7)
    }

    /// ICO: a bitmap entry's size is its own header's (the height there counts the AND mask: twice
    /// the image), as readers decode it, whatever the directory entry says (Pillow's
    /// hopper_unexpected.ico says 32 for a 16-pixel height).
    @Test func icoSizeIsTheBitmapHeaders() throws {
        let file = try #require(Manifest.entries.first { $0.file == "foreign/ico-entry-height-doubled" }).bytes()
        #expect(file[7] == 64)
        let p = ImageSniffer.inspect(file).properties
        #expect(p.width == 32 && p.height == 32, "\(p)")
        let plain = try #require(Manifest.entries.first { $0.file == "ico/imagemagick" }).bytes()
        #expect(ImageSniffer.inspect(plain).properties == p, "the same image with a true directory")
    }

    /// ICO: a PNG entry's alpha, depth and colours are its IHDR's (and a tRNS chunk's), as its
    /// decoder reads them: Pillow's icons of an RGB image said they had alpha.
    @Test func icoPNGEntryAlphaIsThePNGs() throws {
        var file = try #require(Manifest.entries.first { $0.file == "ico/pillow-png-entries" }).bytes()
        let first = Int(file[18]) | Int(file[19]) << 8 | Int(file[20]) << 16 | Int(file[21]) << 24
        #expect(Array(file[(first + 12)..<(first + 16)]) == Array("IHDR".utf8) && file[first + 25] == 2, "an RGB PNG")
        var p = ImageSniffer.inspect(file).properties
        #expect(p.hasAlpha == false && p.bitDepth == 8 && p.colorModel == .rgb, "\(p)")
        file[first + 25] = 6  // RGBA
        p = ImageSniffer.inspect(file).properties
        #expect(p.hasAlpha == true && p.colorModel == .rgb, "\(p)")
        file[first + 25] = 0  // grey
        p = ImageSniffer.inspect(file).properties
        #expect(p.hasAlpha == false && p.colorModel == .gray, "\(p)")
        // A transparency chunk (tRNS) in place of the image data: alpha.
        let next = first + 8 + 25
        #expect(Array(file[(next + 4)..<(next + 8)]) == Array("IDAT".utf8))
        file.replaceSubrange((next + 4)..<(next + 8), with: Array("tRNS".utf8))
        #expect(ImageSniffer.inspect(file).properties.hasAlpha == true)
        // Cut before the chunk after IHDR is whole: not known.
        #expect(ImageSniffer.inspect(Array(file.prefix(next + 6))).properties.hasAlpha == nil)
    }

    /// PIL's IM: the size, mode and image count its header lines state (no properties before;
    /// `identify` cannot read it): the same size as Pillow's PNG of the same source.
    @Test func pillowIMHeaderLines() throws {
        func properties(_ file: String) throws -> ImageProperties {
            ImageSniffer.inspect(try #require(Manifest.entries.first { $0.file == file }).bytes()).properties
        }
        let png = try properties("png/pillow"), im = try properties("longtail/im-pillow"), gray = try properties("longtail/im-pillow-gray")
        #expect(im.width == png.width && im.height == png.height && im.width != nil, "\(im) \(png)")
        #expect(im.colorModel == .rgb && im.hasAlpha == false && im.frameCount == 1 && gray.colorModel == .gray)
        // Pillow's modes LA (`LA image`), YCbCr (`YCC image`, decoded to RGB) and I;16 (`L 16
        // image`): each said nothing but its size.
        let la = try properties("longtail/im-pillow-la"), ycc = try properties("longtail/im-pillow-ycbcr"), i16 = try properties("longtail/im-pillow-i16")
        #expect(la.colorModel == .gray && la.bitDepth == 8 && la.hasAlpha == true, "\(la)")
        #expect(ycc.colorModel == .rgb && ycc.bitDepth == 8 && ycc.hasAlpha == false, "\(ycc)")
        #expect(i16.colorModel == .gray && i16.bitDepth == 16 && i16.hasAlpha == false, "\(i16)")
        for p in [la, ycc, i16] {
            #expect(p.width == 32 && p.height == 32 && p.frameCount == 1, "\(p)")
        }
        // A palette (a `Lut:` line) and a cut header (no 0x1A within its 1 KiB: nothing said).
        let lines = "Image type: Greyscale image\r\nName: x\r\nImage size (x*y): 640*48\r\nFile size (no of images): 3\r\nLut: 1\r\n"
        let palette = ImageSniffer.inspect(Array(lines.utf8) + [0x1A] + [UInt8](repeating: 0, count: 600)).properties
        #expect(palette.width == 640 && palette.height == 48 && palette.colorModel == .indexed && palette.frameCount == 3, "\(palette)")
        #expect(ImageSniffer.inspect(Array(lines.utf8) + [UInt8](repeating: 0x20, count: 1200)).properties.width == nil)
    }

    /// DICOM written by pydicom: a sequence of undefined length (items of undefined length, one
    /// holding a nested sequence) before the image pixel module, and Explicit VR Big Endian with
    /// 3 frames, give the size of the plain file (16 x 16, 8 bits), through a file and a stream.
    @Test(arguments: [("dicom/pydicom-sequence-undefined", 1), ("dicom/pydicom-big-endian-3-frames", 3)])
    func dicomSequencesAndBigEndian(_ name: String, _ frames: Int) throws {
        let bytes = try #require(Manifest.entries.first { $0.file == name }).bytes()
        let plain = ImageSniffer.inspect(try #require(Manifest.entries.first { $0.file == "dicom/pydicom" }).bytes()).properties
        #expect(plain.width == 16 && plain.height == 16)
        var expected = plain
        expected.frameCount = frames
        #expect(ImageSniffer.inspect(bytes).properties == expected, "\(name)")
        let file = try FileSniffer().inspect(fileAt: try #require(Manifest.entries.first { $0.file == name }).url.path)
        #expect(file.properties == expected, "\(name) as a file")
    }

    /// FITS as observatories write it: an empty primary HDU, the image in the first extension
    /// (an IMAGE extension, or a tile-compressed BINTABLE with ZIMAGE = T): astropy's 24 x 10
    /// int16 image both ways, as astropy reads it back.
    @Test(arguments: ["fits/astropy-image-extension", "fits/astropy-tile-compressed"])
    func fitsImageInTheFirstExtension(_ name: String) throws {
        let entry = try #require(Manifest.entries.first { $0.file == name })
        let p = try ImageSniffer.inspect(fileAt: entry.url.path).properties
        #expect(p.width == 24 && p.height == 10 && p.bitDepth == 16, "\(name): \(p)")
        #expect(ImageSniffer.inspect(try entry.bytes()).properties == p, "\(name) in memory")
    }

    /// A FITS file that holds no image (an empty primary HDU, then a binary table, as astropy
    /// writes a catalogue) states nothing: not the primary header's BITPIX as a grey image's depth.
    @Test func fitsWithOnlyATableStatesNoImage() throws {
        let entry = try #require(Manifest.entries.first { $0.file == "fits/astropy-table" })
        let file = try ImageSniffer.inspect(fileAt: entry.url.path)
        #expect(file.detection.type.identifier == "gov.nasa.fits-image")
        #expect(file.properties == ImageProperties(), "\(file.properties)")
        #expect(ImageSniffer.inspect(try entry.bytes()).properties == file.properties, "in memory")
    }

    /// FITS whose image has an axis of length 0 holds no image: random groups (GROUPS = T,
    /// NAXIS1 = 0: astropy's group.fits) and astropy's zerowidth.fits (NAXIS2 = 0) said a height of
    /// 5 in RGB, and a width of 777,777,701.
    @Test(arguments: [["NAXIS   =                    3", "NAXIS1  =                    0", "NAXIS2  =                    5",
                       "NAXIS3  =                    3", "GROUPS  =                    T", "PCOUNT  =                    3",
                       "GCOUNT  =                   10"],
                      ["NAXIS   =                    2", "NAXIS1  =            777777701", "NAXIS2  =                    0"],
                      // an empty cube (numpy's shape (0, 4, 5)): a reviewer's find
                      ["NAXIS   =                    3", "NAXIS1  =                    5", "NAXIS2  =                    4",
                       "NAXIS3  =                    0"]])
    func fitsWithAnEmptyAxisStatesNoImage(_ axes: [String]) {
        let cards = ["SIMPLE  =                    T", "BITPIX  =                   16"] + axes + ["END"]
        let header = cards.map { $0.padding(toLength: 80, withPad: " ", startingAt: 0) }.joined().padding(toLength: 2880, withPad: " ", startingAt: 0)
        let inspection = ImageSniffer.inspect(Array(header.utf8))
        #expect(inspection.detection.type == .fits)
        #expect(inspection.properties == ImageProperties(), "\(inspection.properties)")
    }

    /// Empty IMAGE extensions (NAXIS = 0, astropy's `ImageHDU()`) hold no image: after an empty
    /// primary header, the first extension that has one is read (it said 16-bit grey of no size).
    @Test func fitsPassesOverEmptyImageExtensions() {
        func unit(_ cards: [String]) -> String {
            (cards + ["END"]).map { $0.padding(toLength: 80, withPad: " ", startingAt: 0) }.joined().padding(toLength: 2880, withPad: " ", startingAt: 0)
        }
        let primary = unit(["SIMPLE  =                    T", "BITPIX  =                   16", "NAXIS   =                    0", "EXTEND  =                    T"])
        let empty = unit(["XTENSION= 'IMAGE   '", "BITPIX  =                   16", "NAXIS   =                    0", "PCOUNT  =                    0",
                          "GCOUNT  =                    1"])
        let image = unit(["XTENSION= 'IMAGE   '", "BITPIX  =                  -32", "NAXIS   =                    2", "NAXIS1  =                    6",
                          "NAXIS2  =                    4", "PCOUNT  =                    0", "GCOUNT  =                    1"])
        let pixels = [UInt8](repeating: 0, count: 2880)
        let found = ImageSniffer.inspect(Array((primary + empty + image).utf8) + pixels).properties
        #expect(found.width == 6 && found.height == 4 && found.bitDepth == 32, "\(found)")
        #expect(ImageSniffer.inspect(Array((primary + empty).utf8)).properties == ImageProperties())
    }

    /// X11's xbitmaps put a 1.9 KB copyright comment before `#define xterm_width 48`: named an
    /// XBM, its size was not found (the definitions were looked for in the first 1 KiB).
    @Test func xbmAfterALongComment() throws {
        let plain = try #require(Manifest.entries.first { $0.file == "x11/xbm-netpbm" }).bytes()
        let expected = ImageSniffer.inspect(plain).properties
        #expect(expected.width != nil && expected.height != nil)
        let notice = "/" + String(repeating: "*", count: 77) + "\n" + String(repeating: "** Copyright notice, line after line of it.                                **\n", count: 24) + "*/\n\n"
        #expect(notice.utf8.count > 1900)
        let inspection = ImageSniffer.inspect(Array(notice.utf8) + plain)
        #expect(inspection.detection.type == .xbm)
        #expect(inspection.properties == expected, "\(inspection.properties)")
        // After a UTF-8 byte order mark too, as detection reads it (a reviewer's find).
        let marked = ImageSniffer.inspect([0xEF, 0xBB, 0xBF] + Array(notice.utf8) + plain)
        #expect(marked.detection.type == .xbm && marked.properties == expected, "\(marked.properties)")
    }

    /// APNG's acTL num_frames: 0 is not a valid value (APNG 1.0) and PNG's integers stop at
    /// 2^31-1: the frame count is then not stated.
    @Test(arguments: [(UInt32(3), 3), (0, nil), (0x7FFF_FFFF, 0x7FFF_FFFF), (0x8000_0001, nil), (0xFFFF_FFFF, nil)] as [(UInt32, Int?)])
    func apngFrameCountWithinPNGIntegers(_ frames: UInt32, _ stated: Int?) {
        var png = Array(Self.png(width: 2, height: 2).dropLast(12))
        var acTL = ByteBuilder()
        acTL.u32be(8); acTL.ascii("acTL"); acTL.u32be(frames); acTL.u32be(0); acTL.u32be(0)
        png += acTL.bytes + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
        let inspection = ImageSniffer.inspect(png)
        #expect(inspection.detection.isAnimated)
        #expect(inspection.properties.frameCount == stated)
    }

    @Test func bmpWithNegativeHeightIsTopDown() {
        var bmp = Array("BM".utf8) + [UInt8](repeating: 0, count: 12)
        var info = [UInt8](repeating: 0, count: 40)
        info[0] = 40
        info.replaceSubrange(4..<8, with: withUnsafeBytes(of: Int32(7).littleEndian) { Array($0) })
        info.replaceSubrange(8..<12, with: withUnsafeBytes(of: Int32(-5).littleEndian) { Array($0) })
        info[12] = 1; info[14] = 24
        bmp += info + [UInt8](repeating: 0, count: 7 * 5 * 3 + 20)
        bmp.replaceSubrange(10..<14, with: [54, 0, 0, 0])
        let p = ImageSniffer.inspect(bmp).properties
        #expect(p.width == 7 && p.height == 5)
        // Width zero or negative: no width.
        bmp.replaceSubrange(18..<22, with: withUnsafeBytes(of: Int32(-7).littleEndian) { Array($0) })
        #expect(ImageSniffer.inspect(bmp).properties.width == nil)
    }

    /// BI_BITFIELDS: the depth is the widest colour mask's (a stranger's 16-bit 4-4-4-4 and 2-3-1
    /// and 32-bit 11-11-10 BMPs from Pillow's suite were all 5 or 8); a BMP holding a JPEG or PNG
    /// (bits per pixel 0) states no depth or colour model (it said an 8-bit palette).
    @Test func bmpDepthFromItsColourMasks() {
        func bmp(bits: UInt16, compression: UInt32, masks: [UInt32], header: UInt32 = 40) -> [UInt8] {
            var b = ByteBuilder()
            b.ascii("BM"); b.u32le(0); b.u32le(0); b.u32le(14 + header + UInt32(4 * masks.count))
            b.u32le(header); b.u32le(4); b.u32le(2); b.u16le(1); b.u16le(bits); b.u32le(compression)
            b.zeros(Int(header) - 20)
            for m in masks { b.u32le(m) }
            b.zeros(64)
            return b.bytes
        }
        func depth(_ b: [UInt8]) -> (Int?, ImageProperties.ColorModel?) {
            let p = ImageSniffer.inspect(b).properties
            return (p.bitDepth, p.colorModel)
        }
        #expect(depth(bmp(bits: 16, compression: 3, masks: [0x0F00, 0x00F0, 0x000F])) == (4, .rgb))
        #expect(depth(bmp(bits: 16, compression: 3, masks: [0xF800, 0x07E0, 0x001F])) == (6, .rgb))
        #expect(depth(bmp(bits: 16, compression: 3, masks: [0x30, 0x0E, 0x01])) == (3, .rgb))
        #expect(depth(bmp(bits: 32, compression: 3, masks: [0xFFE0_0000, 0x001F_FC00, 0x0000_03FF])) == (11, .rgb))
        #expect(depth(bmp(bits: 32, compression: 3, masks: [0xFF_0000, 0xFF00, 0xFF])) == (8, .rgb))
        #expect(depth(bmp(bits: 16, compression: 0, masks: [])) == (5, .rgb), "BI_RGB at 16 bits: 5-5-5")
        #expect(depth(bmp(bits: 0, compression: 4, masks: [])) == (nil, nil), "BI_JPEG")
        #expect(depth(bmp(bits: 0, compression: 5, masks: [])) == (nil, nil), "BI_PNG")
        // An OS/2 2.x header (64 bytes): 4 is RLE24 and 3 Huffman 1D there, not BI_JPEG and
        // BI_BITFIELDS (bmpsuite's rgb24rle24.bmp).
        #expect(depth(bmp(bits: 24, compression: 4, masks: [], header: 64)) == (8, .rgb), "OS/2 RLE24")
        #expect(depth(bmp(bits: 24, compression: 3, masks: [], header: 64)) == (8, .rgb), "OS/2 Huffman 1D")
    }

    /// A BITMAPV5HEADER's colour space: "MBED" embeds an ICC profile, "LINK" names a profile's
    /// file (the BMP suite's rgb24lprof.bmp said it had a profile), sRGB has none.
    @Test func bmpProfileEmbeddedOrLinked() {
        func bmp(_ space: String, profile: [UInt8]) -> [UInt8] {
            var b = ByteBuilder()
            b.ascii("BM"); b.u32le(0); b.u32le(0); b.u32le(14 + 124)
            b.u32le(124); b.u32le(2); b.u32le(2); b.u16le(1); b.u16le(24); b.u32le(0)
            b.zeros(20)  // image size, resolution, colours used and important
            b.zeros(4 * 4)  // the colour masks
            b.ascii(String(space.reversed()))  // CSType, little-endian
            b.zeros(36 + 12 + 4)  // endpoints, gamma, intent
            b.u32le(UInt32(124 + 16)); b.u32le(UInt32(profile.count)); b.u32le(0)  // profile data, size
            b.zeros(16)  // the pixels: 2 rows of 6 bytes, padded to 8
            return b.bytes + profile
        }
        let linked = bmp("LINK", profile: Array("C:\\temp\\test.icc\0".utf8))
        let embedded = bmp("MBED", profile: [UInt8](repeating: 0, count: 128))
        #expect(ImageSniffer.inspect(linked).detection.type == .bmp)
        #expect(ImageSniffer.inspect(linked).properties.hasICCProfile == false)
        #expect(ImageSniffer.inspect(embedded).properties.hasICCProfile == true)
        #expect(ImageSniffer.inspect(bmp("sRGB", profile: [])).properties.hasICCProfile == false)
    }

    /// A GIF of 200,000 one-pixel frames (3 MB): counted by the frame walk within its budget of
    /// bytes passed over; past the budget the count is unknown rather than wrong, and a whole-file
    /// check (`verify`) walks to the end whatever its length.
    @Test func gifFrameFloodIsBounded() {
        var gif = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0]
        let frame: [UInt8] = [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 0x02, 0x02, 0x44, 0x01, 0x00]
        for _ in 0..<200_000 { gif += frame }
        gif.append(0x3B)
        let p = ImageSniffer.inspect(gif).properties
        #expect(p.width == 1 && p.height == 1)
        #expect(p.frameCount == 200_000)
        let short = ReadBudget(bytesSkipped: 1 << 20)
        #expect(ImageSniffer.inspect(gif, budget: short).properties.frameCount == nil, "the trailer lies past the walk's budget")
        var verifying = short
        verifying.verify = true
        #expect(ImageSniffer.inspect(gif, budget: verifying).properties.frameCount == 200_000)
        let small = Array(gif.prefix(13 + 20 * frame.count)) + [0x3B]
        #expect(ImageSniffer.inspect(small).properties.frameCount == 20)
    }

    /// The camera RAW formats built on TIFF's structure under another identifier than 42
    /// (Panasonic's `IIU\0`, Olympus's `IIRO`, `IIRS`, `MMOR`) are read as TIFF once detected:
    /// IFD0 states one image and whether it carries an ICC profile.
    @Test(arguments: ["raw/rw2", "raw/rwl", "raw/panasonic-raw", "raw/orf-iiro", "raw/orf-iirs", "raw/orf-mmor"])
    func tiffStructuredRawUnderAnotherIdentifier(_ file: String) throws {
        let bytes = try #require(Manifest.entries.first { $0.file == file }).bytes()
        #expect(bytes[2] != 42 && bytes[3] != 42, "\(file) marks its TIFF structure otherwise")
        let p = ImageSniffer.inspect(bytes).properties
        #expect(p.frameCount == 1, "\(file): \(p)")
        #expect(p.hasICCProfile != nil, "\(file): \(p)")
        if file.hasPrefix("raw/rw") || file == "raw/panasonic-raw" {
            // No ImageWidth: the sensor's borders (tags 4-7) bound the image; exiftool's
            // ImageSize for these files is 8x8.
            #expect(p.width == 8 && p.height == 8, "\(file): \(p)")
        }
    }

    /// A Canon CR2 whose IFD0 is a reduced preview (a 350D's, 1536 x 1024): its size is the
    /// sensor area the maker note's SensorInfo bounds (exiftool's 350D sample: 3456 x 2304).
    /// Built from the TIFF 6.0 and CR2 layouts: IFD0 at 16 after "CR" 2 0, its EXIF directory,
    /// the MakerNote's directory, and SensorInfo's 17 words.
    @Test func canonSensorArea() {
        var b = ByteBuilder()
        b.ascii("II"); b.u16le(42); b.u32le(16); b.ascii("CR"); b.u8(2); b.u8(0); b.u32le(0)
        func entry(_ tag: UInt16, _ type: UInt16, _ count: UInt32, _ value: UInt32) { b.u16le(tag); b.u16le(type); b.u32le(count); b.u32le(value) }
        // IFD0 at 16: width, height, the EXIF directory at 16 + 2 + 3 * 12 + 4 = 58.
        b.u16le(3); entry(256, 3, 1, 1536); entry(257, 3, 1, 1024); entry(34665, 4, 1, 58); b.u32le(0)
        // The EXIF directory at 58: the MakerNote (UNDEFINED, 40 bytes) at 58 + 18 = 76.
        b.u16le(1); entry(37500, 7, 40, 76); b.u32le(0)
        // The maker note at 76: SensorInfo's 17 SHORTs at 76 + 18 = 94.
        b.u16le(1); entry(0x00E0, 3, 17, 94); b.u32le(0)
        for word in [34, 3516, 2328, 0, 0, 52, 19, 3507, 2322, 0, 0, 0, 0, 0, 0, 0, 0] as [UInt16] { b.u16le(word) }
        let cr2 = b.bytes
        #expect(ImageSniffer.detect(cr2).type == .cr2)
        let p = ImageSniffer.inspect(cr2).properties
        #expect(p.width == 3456 && p.height == 2304, "\(p)")
        // Without the maker note, IFD0's size stands.
        var plain = cr2
        plain[58 + 2] = 0xFF  // the EXIF directory's one entry is now tag 0x92FF, not MakerNote (0x927C)
        #expect(ImageSniffer.inspect(plain).properties.width == 1536)
        cr2.withUnsafeBytes { bytes in
            for problem in DetectionInvariants.incrementalViolations(bytes, chunk: 7, lengthKnown: false, properties: true) { Issue.record("\(problem)") }
        }
    }

    /// A camera raw whose IFDs state only 1 x 1 placeholders (Phase One's IIQ keeps its size in
    /// its own directory): no size, rather than 1 x 1.
    @Test func placeholderSizesAreNoSize() throws {
        var iiq = try #require(Manifest.entries.first { $0.file == "raw/iiq" }).bytes()
        #expect(ImageSniffer.inspect(iiq).properties.width == 8)
        #expect(iiq[0] == UInt8(ascii: "I"), "little-endian")
        func u16(_ o: Int) -> Int { Int(iiq[o]) | Int(iiq[o + 1]) << 8 }
        func u32(_ o: Int) -> Int { u16(o) | u16(o + 2) << 16 }
        var ifd = u32(4), patched = 0
        while ifd != 0 && ifd + 2 <= iiq.count {
            for i in 0..<u16(ifd) {
                let e = ifd + 2 + 12 * i
                guard u16(e) == 256 || u16(e) == 257 else { continue }
                iiq.replaceSubrange(e + 8..<e + 12, with: [1, 0, 0, 0])
                patched += 1
            }
            ifd = u32(ifd + 2 + 12 * u16(ifd))
        }
        #expect(patched >= 2)
        let p = ImageSniffer.inspect(iiq).properties
        #expect(ImageSniffer.detect(iiq).type == .iiq && p.width == nil && p.height == nil, "\(p)")
    }

    /// Not an image: no properties.
    @Test func nonImagesHaveNoProperties() {
        #expect(ImageSniffer.inspect(Array("just some text, nothing more\n".utf8)).properties.isEmpty)
    }
}

@Suite("Properties from the first bytes of longer data")
struct PrefixPropertiesTests {
    /// Starting from the first 64 bytes and passing what `needsMoreData` asks for, every test
    /// image settles on the properties its whole bytes give; each request asks for more than it
    /// was given.
    @Test(arguments: Manifest.entries)
    func askingForMoreSettlesOnTheWhole(_ entry: ManifestEntry) throws {
        let data = try entry.bytes()
        let whole = ImageSniffer.inspect(data)
        var n = min(64, data.count)
        for _ in 0..<64 {
            let reading = data.withUnsafeBytes {
                ImageSniffer.properties(of: whole.detection, prefix: UnsafeRawBufferPointer(rebasing: $0.prefix(n)), totalLength: data.count)
            }
            switch reading {
            case .settled(let p):
                #expect(p == whole.properties, "\(entry.file) settled at \(n) bytes")
                return
            case .needsMoreData(let upTo, _):
                #expect(upTo > n && upTo <= data.count, "\(entry.file): at \(n) bytes asks for \(upTo)")
                guard upTo > n else { return }
                n = min(upTo, data.count)
            }
        }
        Issue.record("\(entry.file): not settled after 64 requests")
    }

    /// Passed a prefix as if it were the whole, the frame count of an animated GIF is unknown,
    /// not the frames seen so far.
    @Test func aPrefixTakenForTheWholeCountsNoFrames() throws {
        let gif = try #require(Manifest.entries.first { $0.file == "gif/animated-pillow" }).bytes()
        let detection = ImageSniffer.detect(gif)
        let half = Array(gif.prefix(gif.count / 2))
        let p = half.withUnsafeBytes { ImageSniffer.properties(of: detection, $0, length: half.count) }
        #expect(p.frameCount == nil)
        #expect(p.width == ImageSniffer.inspect(gif).properties.width)
    }
}

/// The size as displayed where a format's transforms are mandatory, the coded size beside it.
@Suite("Displayed and coded sizes")
struct DisplayedSizeTests {
    static func properties(_ file: String) throws -> ImageProperties {
        try FileSniffer().inspect(fileAt: Repository.testImages.appendingPathComponent(file).path).properties
    }

    /// pillow-heif writes a 64 x 32 image with EXIF orientation 6 as a 64 x 64 coded image, a
    /// 64 x 32 clean aperture and a quarter turn (irot): shown 32 x 64, as libheif and identify say.
    @Test func heifCleanApertureThenRotation() throws {
        let p = try Self.properties("heif/heic-irot-pillow-heif")
        #expect(p.width == 32 && p.height == 64 && p.orientation == 6)
        #expect(p.codedWidth == 64 && p.codedHeight == 64)
        #expect(p.pixelCount == 64 * 64, "a decoder allocates the coded image")
        // A clean aperture without rotation: 64 x 64 coded, 32 x 32 shown.
        let crop = try Self.properties("heif/heic-pillow-heif")
        #expect(crop.width == 32 && crop.height == 32 && crop.codedWidth == 64 && crop.codedHeight == 64)
        // Nothing to transform: no coded size.
        let plain = try Self.properties("heif/heic-heif-enc")
        #expect(plain.width != nil && plain.codedWidth == nil && plain.codedHeight == nil)
    }

    /// A collection of still images (`heif-enc a.png b.png`) counts each, as libheif's top-level
    /// images do (pillow_heif's and heif-info's count; it was 1): hidden items (a grid's tiles), a
    /// thumbnail (`thmb`) and an auxiliary image (`auxl`: alpha, depth, a gain map) are not
    /// images of their own, so every other still test image is one.
    @Test func heifCollectionsCountTheirImages() throws {
        #expect(try Self.properties("heif/heic-collection").frameCount == 2)
        let stills = Manifest.entries.filter { ["public.heic", "public.heif", "public.avif"].contains($0.identifier) && $0.file != "heif/heic-collection" }
        var seen: Set<String> = []
        for entry in stills {
            let bytes = try entry.bytes()
            for reference in ["thmb", "auxl"] where bytes.indices.dropLast(4).contains(where: { bytes[$0..<($0 + 4)].elementsEqual(reference.utf8) }) {
                seen.insert(reference)
            }
            #expect(ImageSniffer.inspect(bytes).properties.frameCount == 1, "\(entry.file)")
        }
        #expect(seen == ["thmb", "auxl"], "stills with a thumbnail and with an auxiliary image: \(seen)")
    }

    /// HEIF's rotations and mirrors, composed in the order listed, give the EXIF orientation that
    /// does the same (avifenc's --irot N: N quarter turns anticlockwise; --imir 0: top and bottom
    /// exchanged, 1: left and right): the orientations Pillow's AVIF tests expect of such files. A
    /// mirror alone was reported as no orientation; with a quarter turn, as the turn alone.
    @Test(arguments: [("avif-irot1", 8), ("avif-irot2", 3), ("avif-irot3", 6), ("avif-imir0", 4), ("avif-imir1", 2),
                      ("avif-irot1-imir0", 5), ("avif-irot1-imir1", 7), ("avif-irot3-imir0", 7), ("avif-irot3-imir1", 5)])
    func heifRotationsAndMirrors(file: String, orientation: Int) throws {
        let p = try Self.properties("orientation/" + file)
        #expect(p.orientation == orientation)
        let quarterTurn = file.contains("irot1") || file.contains("irot3")
        #expect(p.width == (quarterTurn ? 48 : 64) && p.height == (quarterTurn ? 64 : 48), "64 x 48, as displayed")
    }

    /// The transformative properties apply in the order the item lists them (ISO/IEC 23008-12
    /// 6.5.1): a clean aperture after a quarter turn crops the turned image. A clean aperture
    /// larger than the image crops nothing; a fractional one rounds to the nearest pixel.
    @Test func heifTransformsApplyInOrder() throws {
        var bytes = [UInt8](try Data(contentsOf: Repository.testImages.appendingPathComponent("heif/heic-irot-pillow-heif")))
        func find(_ s: String) -> Int? {
            let t = Array(s.utf8)
            return (0...(bytes.count - t.count)).first { bytes[$0..<$0 + t.count].elementsEqual(t) }
        }
        // pillow-heif's primary item lists hvcC, colr, ispe, pixi, clap (4), irot (6), the last
        // two essential: 84 86. Listed the other way round, the turn comes first and the clap
        // (64 x 32) crops the turned 64 x 64.
        let ipma = try #require(find("ipma"))
        let order = ipma + 19  // the type, version and flags, entry count, item ID, association count
        #expect(bytes[order] == 0x84 && bytes[order + 1] == 0x86)
        bytes.swapAt(order, order + 1)
        var p = ImageSniffer.inspect(bytes).properties
        #expect(p.width == 64 && p.height == 32 && p.codedWidth == 64 && p.codedHeight == 64, "\(p)")
        bytes.swapAt(order, order + 1)
        let clap = try #require(find("clap")) + 4
        func put(_ v: UInt32, at o: Int) { for i in 0..<4 { bytes[o + i] = UInt8(truncatingIfNeeded: v >> (24 - 8 * i)) } }
        put(100, at: clap)  // 100 x 32: wider than the coded 64, no crop; then turned
        p = ImageSniffer.inspect(bytes).properties
        #expect(p.width == 64 && p.height == 64 && p.codedWidth == nil, "\(p)")
        put(40, at: clap)  // 40 x 32, then turned: 32 x 40
        p = ImageSniffer.inspect(bytes).properties
        #expect(p.width == 32 && p.height == 40 && p.codedWidth == 64, "\(p)")
        put(81, at: clap); put(2, at: clap + 4)  // 81/2 = 40.5 rounds to 41, then turned: 32 x 41
        p = ImageSniffer.inspect(bytes).properties
        #expect(p.width == 32 && p.height == 41, "\(p)")
    }

    /// A grid codes nothing itself: the tiles' coding (their ICC profile, their hvcC's depth and
    /// chroma) is the image's, as libheif and exiftool read it (a stranger's iPhone 8 Plus and
    /// Galaxy S24 Ultra grids, whose profile is on the tiles alone, said they had none). Built by
    /// hand: a 512 x 256 grid of two 256 x 256 10-bit tiles; the grid's own profile or depth wins.
    @Test func heifGridTakesItsTilesCoding() throws {
        func u16(_ v: Int) -> [UInt8] { [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] { u16(v >> 16) + u16(v & 0xFFFF) }
        func box(_ type: String, _ payload: [UInt8]) -> [UInt8] { u32(8 + payload.count) + Array(type.utf8) + payload }
        func full(_ type: String, _ version: UInt8, _ payload: [UInt8]) -> [UInt8] { box(type, [version, 0, 0, 0] + payload) }
        func infe(_ id: Int, _ type: String) -> [UInt8] { full("infe", 2, u16(id) + u16(0) + Array(type.utf8) + [0]) }
        var hvcC = [UInt8](repeating: 0, count: 23)
        hvcC[0] = 1; hvcC[16] = 0xFC | 1; hvcC[17] = 0xF8 | 2  // 4:2:0, luma 8 + 2 bits
        func heif(gridProperties: [UInt8]) -> [UInt8] {
            let ipco = box("ipco", full("ispe", 0, u32(512) + u32(256)) + full("ispe", 0, u32(256) + u32(256))
                           + box("colr", Array("prof".utf8) + [UInt8](repeating: 0, count: 128)) + box("hvcC", hvcC)
                           + box("colr", Array("nclx".utf8) + [0, 1, 0, 13, 0, 1, 0x80]) + full("pixi", 0, [3, 8, 8, 8]))
            let ipma = full("ipma", 0, u32(3) + u16(1) + [UInt8(1 + gridProperties.count), 1] + gridProperties
                            + u16(2) + [3, 2, 3, 0x84] + u16(3) + [3, 2, 3, 0x84])
            let meta = full("meta", 0, full("hdlr", 0, u32(0) + Array("pict".utf8) + [UInt8](repeating: 0, count: 13))
                            + full("pitm", 0, u16(1)) + full("iinf", 0, u16(3) + infe(1, "grid") + infe(2, "hvc1") + infe(3, "hvc1"))
                            + full("iref", 0, box("dimg", u16(1) + u16(2) + u16(2) + u16(3)))
                            + box("iprp", ipco + ipma))
            return box("ftyp", Array("heic".utf8) + u32(0) + Array("mif1heic".utf8)) + meta + box("mdat", [UInt8](repeating: 0, count: 64))
        }
        let tiles = ImageSniffer.inspect(heif(gridProperties: []))
        #expect(tiles.detection.type == .heic)
        #expect(tiles.properties.width == 512 && tiles.properties.height == 256)
        #expect(tiles.properties.hasICCProfile == true && tiles.properties.bitDepth == 10 && tiles.properties.colorModel == .rgb)
        // The grid's own nclx colour and 8-bit pixi: the tiles' profile still counts, not their depth.
        let own = ImageSniffer.inspect(heif(gridProperties: [5, 6])).properties
        #expect(own.hasICCProfile == true && own.bitDepth == 8, "\(own)")
    }

    /// OpenEXR: the display window is the size; the data window, when it differs, the coded size.
    @Test func exrWindows() throws {
        let p = try Self.properties("exr/openexr-display-window")
        #expect(p.width == 32 && p.height == 24 && p.codedWidth == 16 && p.codedHeight == 16)
        #expect(p.pixelCount == 32 * 24)
        let same = try Self.properties("exr/openexr-zip")
        #expect(same.width == 16 && same.height == 16 && same.codedWidth == nil)
        // A data window far larger than the display window is what pixelCount weighs.
        var bytes = [UInt8](try Data(contentsOf: Repository.testImages.appendingPathComponent("exr/openexr-display-window")))
        let name = Array("dataWindow\0box2i\0".utf8)
        let at = try #require((0..<(bytes.count - name.count)).first { bytes[$0..<($0 + name.count)].elementsEqual(name) })
        let box = at + name.count + 4
        for (k, v) in [Int32(0), 0, 99_999, 99_999].enumerated() {
            withUnsafeBytes(of: v.littleEndian) { bytes.replaceSubrange((box + 4 * k)..<(box + 4 * k + 4), with: $0) }
        }
        let bomb = ImageSniffer.inspect(bytes).properties
        #expect(bomb.width == 32 && bomb.codedWidth == 100_000 && bomb.pixelCount == 100_000 * 100_000)
    }
}

/// The EXIF orientation of a WebP: its EXIF chunk holds a TIFF structure, which some writers
/// put after JPEG's `Exif\0\0` (Pillow's hopper_orientation_*.webp test images; exiftool and
/// ImageIO read both).
@Suite("WebP EXIF orientation")
struct WebPOrientationTests {
    /// cwebp's WebP with exiftool's EXIF chunk (VP8X, EXIF flag set) replaced by one holding
    /// IFD0 with Orientation = `orientation`, after `prefix`.
    static func webp(orientation: UInt8, prefix: [UInt8]) throws -> [UInt8] {
        var webp = try #require(Manifest.entries.first { $0.file == "webp/exif-vp8x" }).bytes()
        let name = Array("EXIF".utf8)
        let at = try #require((30..<(webp.count - 8)).first { webp[$0..<$0 + 4].elementsEqual(name) })
        let oldSize = Int(webp[at + 4]) | Int(webp[at + 5]) << 8 | Int(webp[at + 6]) << 16 | Int(webp[at + 7]) << 24
        // Big-endian TIFF: header, IFD0 at 8 with one entry (0x0112, SHORT, 1, value), no next IFD.
        let tiff: [UInt8] = Array("MM".utf8) + [0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, 0, 0, 0, 0]
        var data = prefix + tiff
        let size = data.count
        if size % 2 == 1 { data.append(0) }
        let chunk = name + [UInt8(size & 0xFF), UInt8(size >> 8 & 0xFF), 0, 0] + data
        webp.replaceSubrange(at..<(at + 8 + oldSize + oldSize % 2), with: chunk)
        let riff = webp.count - 8
        webp.replaceSubrange(4..<8, with: [UInt8(riff & 0xFF), UInt8(riff >> 8 & 0xFF), UInt8(riff >> 16 & 0xFF), 0])
        return webp
    }

    @Test(arguments: [[], Array("Exif\0\0".utf8)])
    func orientationWithAndWithoutExifHeader(prefix: [UInt8]) throws {
        for orientation: UInt8 in [1, 6, 8] {
            let bytes = try Self.webp(orientation: orientation, prefix: prefix)
            let inspection = ImageSniffer.inspect(bytes)
            #expect(inspection.detection.type == .webP)
            #expect(inspection.properties.orientation == Int(orientation), "orientation \(orientation), \(prefix.count)-byte prefix")
            #expect(inspection.properties.width == 32)
        }
    }
}

/// A HEIF or AVIF image whose `meta` box is cut short states nothing it would have read there:
/// no frame count, no "no gain map", no "no ICC profile" (a stranger's cut files said 1, false
/// and false); whole, it states them.
@Suite("HEIF properties of files cut inside their meta box")
struct HEIFCutMetaTests {
    static let images = Manifest.entries.filter { ["public.heic", "public.heif", "public.avif"].contains($0.identifier) }

    @Test(arguments: images)
    func cutInsideMeta(_ entry: ManifestEntry) throws {
        let data = try entry.bytes()
        // The top-level boxes: the meta's start and end.
        var o = 0, meta: Range<Int>?
        while o + 8 <= data.count {
            let size = data[o..<o + 4].reduce(0) { $0 << 8 | Int($1) }
            guard size >= 8 else { break }
            if data[o + 4..<o + 8].elementsEqual("meta".utf8) { meta = o..<(o + size) }
            o += size
        }
        guard let meta else { return }  // mif3's mini box: checked below
        let whole = ImageSniffer.inspect(data).properties
        #expect(whole.frameCount != nil && whole.hasGainMap != nil && whole.hasICCProfile != nil, "\(entry.file): \(whole)")
        for cut in [meta.lowerBound + 12, (meta.lowerBound + meta.upperBound) / 2, meta.upperBound - 1] {
            let p = ImageSniffer.inspect(Array(data.prefix(cut))).properties
            #expect(p.frameCount == nil && p.hasGainMap == nil && p.hasICCProfile == nil, "\(entry.file) cut at \(cut) inside meta \(meta): \(p)")
        }
    }

    /// A sequence cut before its `moov` (ffmpeg's come after the `mdat`), with no `meta`: no
    /// frame count, and no "no gain map" or "no ICC profile" either.
    @Test func sequenceCutBeforeItsMoov() throws {
        var tried = 0
        for entry in Manifest.entries where ["public.heics", "public.heifs", "public.avis"].contains(entry.identifier) {
            let data = try entry.bytes()
            var o = 0, types: [String] = [], moov: Int?
            while o + 8 <= data.count {
                let size = data[o..<o + 4].reduce(0) { $0 << 8 | Int($1) }
                guard size >= 8 else { break }
                let type = String(decoding: data[o + 4..<o + 8], as: UTF8.self)
                if type == "moov" { moov = o }
                types.append(type)
                o += size
            }
            guard let moov, !types.contains("meta") else { continue }
            tried += 1
            #expect(ImageSniffer.inspect(data).properties.hasGainMap == false, "\(entry.file) whole")
            let p = ImageSniffer.inspect(Array(data.prefix(moov))).properties
            #expect(p.frameCount == nil && p.hasGainMap == nil && p.hasICCProfile == nil, "\(entry.file) cut before its moov: \(p)")
        }
        #expect(tried >= 2)
    }

    @Test func aMiniBoxIsOneImage() throws {
        let mif3 = try #require(Manifest.entries.first { $0.file == "regress/heif-mif3-mini-libheif" }).bytes()
        #expect(ImageSniffer.inspect(mif3).properties.frameCount == 1)
    }
}
