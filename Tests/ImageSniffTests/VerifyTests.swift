import Foundation
import ImageSniff
import Testing
import Synchronization
import TestSupport

/// Whole-file checks (`ReadBudget.verify`): every test image of a format that has one is whole
/// (but the one made cut in half), and the same image without its last tenth is truncated.
@Suite("Whole-file completeness")
struct VerifyTests {
    /// The formats with a whole-file check.
    static let checked: Set<ImageType> = Set<ImageType>([.jpeg, .mpo, .png, .gif, .webP, .heic, .heif, .avif, .avis, .heics, .tiff,
                                          .bmp, .qoi, .farbfeld, .pbm, .pgm, .ppm, .pam, .pfm, .phm,
                                          .mpeg4, .mpeg4Audio, .quickTime, .threeGPP, .cr3, .crm, .ico, .cur, .psd, .psb, .jpeg2000,
                                          .svg, .pdf, .mng, .jng])
                                          .union(tiffRaws).union(sized)

    /// Formats whose header places or sizes everything after it: ICNS (its length), SGI (verbatim
    /// channels, or run-length rows the tables place), Sun raster (rows, or run-length bytes
    /// decoded), XWD, DPX (its file size), OpenEXR (the chunk table and the last chunk), BLP
    /// (its mipmaps), Fujifilm RAF (preview, CFA header, CFA data), FITS (each header and the
    /// data its cards size), DDS (every face's mipmap levels), PCX (its lines, run-length
    /// decoded), Canon CRW (the table its heap's last bytes place), KTX and KTX2 (their levels),
    /// ASTC (its blocks), JPEG XR (its image and alpha plane) and Radiance (its scan lines,
    /// run-length decoded).
    static let sized: Set<ImageType> = [.icns, .sgi, .sunRaster, .xwd, .dpx, .openEXR, .blp, .raf, .fits, .dds, .pcx,
                                        .crw, .ktx, .ktx2, .astc, .jpegXR, .radianceHDR]

    /// JPEG XL containers (a bare codestream is not checked).
    static let jxlContainers = Set(Manifest.entries.filter { entry in
        entry.identifier == ImageType.jpegXL.identifier && (try? entry.bytes().prefix(4).elementsEqual([0, 0, 0, 12])) == true
    }.map(\.file))

    /// The camera raws checked as TIFFs: their IFDs, SubIFDs (a NEF's or DNG's raw image), JPEG
    /// thumbnails (a CR2's IFD1) and EXIF IFDs, whatever the header's identifier (ORF, RW2).
    static let tiffRaws: Set<ImageType> = [.dng, .dxoRaw, .cr2, .nef, .nrw, .arw, .sr2, .srf, .pef, .srw, .threeFR, .fff,
                                           .erf, .kodakRaw, .mos, .mef, .iiq, .sonyAXR, .leicaRaw, .orf, .rw2, .rwl, .panasonicRaw]

    static let entries = Manifest.entries.filter { entry in
        guard let type = ImageType(entry.identifier), checked.contains(type) || jxlContainers.contains(entry.file) else { return false }
        // Plain (ASCII) netpbm images and BMPs without a file header are not checked.
        guard let data = try? entry.bytes(), data.count > 2 else { return false }
        if [.pbm, .pgm, .ppm].contains(type) { return [UInt8(ascii: "4"), UInt8(ascii: "5"), UInt8(ascii: "6")].contains(data[1]) }
        if type == .bmp { return data[0] == UInt8(ascii: "B") && data[1] == UInt8(ascii: "M") && !notBMPWhenCut.contains(entry.file) }
        // UTF-16 text is not checked (SVGZ is: its gzip member).
        if type == .svg { return ![0x00, 0xFE, 0xFF].contains(data[0]) && data[1] != 0 }
        return true
    }

    /// BMPs named so only while their length is what the header says (planes 0): cut, they are
    /// data, and nothing is checked.
    static let notBMPWhenCut: Set<String> = ["realworld/bmp-planes-zero"]

    /// Images damaged before their end (noise where a block should be): the walk stops at the
    /// damage, which says nothing either way (`Verifier.step`), whole or cut.
    static let damaged: Set<String> = ["foreign/gif-noise-after-screen"]

    /// Records where a file, or a stream in `chunks` (its length known or not), says otherwise
    /// than the bytes in memory under the verifying budget.
    static func recordDisagreements(_ data: [UInt8], _ label: String, chunks: [Int] = [1460], lengthKnown: [Bool] = [false],
                                    properties: Bool = false) {
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-verify-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        data.withUnsafeBytes { bytes in
            for problem in DetectionInvariants.fileViolations(bytes, scratchPath: scratch, budget: .verifying) {
                Issue.record("\(label): \(problem)")
            }
            for chunk in chunks {
                for known in lengthKnown {
                    for problem in DetectionInvariants.incrementalViolations(bytes, chunk: chunk, lengthKnown: known, properties: properties, budget: .verifying) {
                        Issue.record("\(label), a stream in chunks of \(chunk), length known \(known): \(problem)")
                    }
                }
            }
        }
    }

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

    /// SVGZ is whole when its gzip member is: the stream decodes to the end of its final block
    /// and the trailer's length is what came out. A stranger's Inkscape `car.svgz` cut to 2,000
    /// bytes was complete. A cut so short that the stream ends within what is inflated to see
    /// the root element was named a gzip archive; it is an SVG, truncated, checked or not.
    @Test func svgzIsWholeWhenItsGzipMemberIs() throws {
        func detect(_ b: [UInt8], _ budget: ReadBudget = .verifying) -> Detection { ImageSniffer.inspect(b, budget: budget).detection }
        for name in ["svg/svgz-gzip", "svg/svgz-pamtosvg-gzip-1", "svg/svgz-python-dynamic"] {
            let data = try testImage(name)
            #expect(detect(data).completeness == .complete, "\(name)")
            // (Cut before the root element's start tag, it is a gzip archive's data: nothing shows SVG.)
            for cut in [1, 4, 8, 9, 20] {
                let d = detect(Array(data.dropLast(cut)))
                #expect(d.type == .svg && d.completeness == .truncated, "\(name) cut by \(cut): \(d)")
            }
            // The trailer's length (ISIZE) off by one: the stream is not the one written.
            var wrong = data
            wrong[wrong.count - 4] &+= 1
            #expect(detect(wrong).completeness == .truncated, "\(name) with a wrong ISIZE")
        }
        let small = try testImage("svg/svgz-gzip")
        let cut = detect(Array(small.dropLast(20)), .default)
        #expect(cut.type == .svg && cut.completeness == .truncated, "\(cut)")
        // Members one after the other (`cat a.gz b.gz`): whole when each is; a second member
        // cut, or only its first bytes, is not (gzip -t: unexpected end of file). Zeros after
        // the last member are padding.
        let other = try testImage("svg/svgz-pamtosvg-gzip-1")
        #expect(detect(small + other).completeness == .complete)
        #expect(detect(small + other + [0, 0, 0, 0]).completeness == .complete)
        for tail in [Array(other.dropLast(9)), Array(other.prefix(2)), Array(other.prefix(9))] {
            #expect(detect(small + tail).completeness == .truncated, "a second member of \(tail.count) bytes")
        }
        // A reviewer's: an extra field (FEXTRA) whose length the first 11 bytes of a stream do
        // not hold yet made the stream a gzip archive where the file is an SVG.
        #expect(small[3] == 0, "no flags: gzip -n")
        var extra = [UInt8](small[0..<10])
        extra[3] = 0x04
        extra += [7, 0] + Array("extra!!".utf8)
        extra += small[10...]
        #expect(detect(extra).type == .svg && detect(extra).completeness == .complete)
        Self.recordDisagreements(extra, "FEXTRA of 7", chunks: [11, 1460], lengthKnown: [false, true])
    }

    /// An MNG cut right after an embedded image's `IEND` (where a PNG would be whole) is
    /// truncated: it ends with `MEND`.
    @Test func mngCutAfterAnEmbeddedImage() throws {
        let data = try testImage("mng/imagemagick-frames")
        let iend = Array("IEND".utf8)
        let ends = (4..<(data.count - 8)).filter { Array(data[$0..<($0 + 4)]) == iend }.map { $0 + 8 }
        #expect(ends.count >= 2, "frames: \(ends)")
        for end in ends {
            let cut = ImageSniffer.inspect(Array(data.prefix(end)), budget: .verifying).detection
            #expect(cut.type == .mng && cut.completeness == .truncated, "cut at \(end) of \(data.count): \(cut)")
        }
        #expect(ImageSniffer.inspect(data, budget: .verifying).detection.completeness == .complete)
    }

    /// Cut inside its header (24 bytes left), a file whose header sizes the rest is truncated
    /// when it is still named (a stranger's Sun rasters and XWDs cut at 16 or 24 bytes were
    /// complete: the checks wanted header fields past the end and said nothing).
    @Test(arguments: entries.filter { sized.contains(ImageType($0.identifier)!) })
    func headerCut(_ entry: ManifestEntry) throws {
        let cut = Array(try entry.bytes().prefix(24))
        let detection = ImageSniffer.inspect(cut, budget: .verifying).detection
        #expect(detection.type != ImageType(entry.identifier) || detection.completeness == .truncated, "\(entry.file): \(detection)")
    }

    /// A DDS whose header states 6 mipmap levels (Pillow's 32 x 32 RGBA, 4 bytes a pixel): whole
    /// with all of them, and with the first level alone (writers state more levels than they
    /// write); cut inside a level, or where a later level ends (a stranger's BC6H without its last
    /// 1 x 1 level was whole), truncated. Stated as a cube map of six faces, one face's levels are
    /// not enough.
    @Test func ddsMipmapLevels() throws {
        var dds = try testImage("dds/pillow-rgba")
        try #require(dds.count == 128 + 32 * 32 * 4)
        dds[28] = 6  // dwMipMapCount
        let levels = [16 * 16, 8 * 8, 4 * 4, 2 * 2, 1].map { [UInt8](repeating: 9, count: 4 * $0) }
        func completeness(_ b: [UInt8]) -> Detection.Completeness { ImageSniffer.inspect(b, budget: .verifying).detection.completeness }
        #expect(completeness(dds) == .complete, "the first level alone")
        #expect(completeness(dds + levels[0]) == .truncated, "two levels of six")
        #expect(completeness(dds + levels.dropLast().joined()) == .truncated, "all but the last level")
        #expect(completeness(dds + levels[0] + levels[1].prefix(100)) == .truncated, "cut in the third level")
        let all = dds + levels.joined()
        #expect(completeness(all) == .complete)
        #expect(completeness(Array(all.dropLast())) == .truncated)
        var cube = all
        cube[113] = 0xFE  // dwCaps2: a cube map with all six faces
        #expect(completeness(cube) == .truncated)
        #expect(completeness(cube + [UInt8](repeating: 0, count: 5 * (all.count - 128))) == .complete)
    }

    /// A reviewer's cuts that were whole: a JPEG XR (built by hand) whose alpha plane, its byte
    /// count stated as the standard says, is longer than all before it, cut inside it (the count
    /// was taken for jxrlib's end); a CRW cut inside its table of records, whose last 4 bytes
    /// then place a table of no records inside the heap.
    @Test func alphaPlaneAndCIFFTableCuts() throws {
        func completeness(_ b: [UInt8]) -> Detection.Completeness { ImageSniffer.inspect(b, budget: .verifying).detection.completeness }
        var jxr = ByteBuilder()
        jxr.ascii("II"); jxr.u16le(0x01BC); jxr.u32le(8); jxr.u16le(4)
        for (tag, value) in [(0xBCC0, 100), (0xBCC1, 50), (0xBCC2, 150), (0xBCC3, 400)] as [(UInt16, UInt32)] {
            jxr.u16le(tag); jxr.u16le(4); jxr.u32le(1); jxr.u32le(value)
        }
        jxr.u32le(0)
        jxr.zeros(550 - jxr.bytes.count)
        #expect(ImageSniffer.inspect(jxr.bytes).detection.type == .jpegXR)
        #expect(completeness(jxr.bytes) == .complete)
        #expect(completeness(Array(jxr.bytes.prefix(450))) == .truncated)
        let crw = try testImage("raw/crw")
        #expect(completeness(crw) == .complete)
        for cut in 1...12 { #expect(completeness(Array(crw.dropLast(cut))) == .truncated, "\(cut) bytes short") }
    }

    /// Radiance: scan lines of 4 bytes a pixel as they are (under 8 pixels wide, or not marked
    /// `02 02`), or the four channels apart in run-length packets (a count over 128 repeats a
    /// byte; any other count is that many bytes). Built by hand: whole, and cut by a byte
    /// (inside a literal, a run, or a scan line's mark), truncated; also read as a stream.
    @Test func radianceScanLines() {
        func completeness(_ b: [UInt8]) -> Detection.Completeness { ImageSniffer.inspect(b, budget: .verifying).detection.completeness }
        func header(_ w: Int, _ h: Int) -> [UInt8] { Array("#?RADIANCE\nFORMAT=32-bit_rle_rgbe\n\n-Y \(h) +X \(w)\n".utf8) }
        let flat = header(5, 3) + [UInt8](repeating: 0x80, count: 5 * 4 * 3)
        #expect(completeness(flat) == .complete)
        #expect(completeness(Array(flat.dropLast())) == .truncated)
        // 8 x 2: each scan line `02 02 00 08`, then red as a run, green as a literal, blue as two
        // runs, exponent as a literal and a run.
        let line: [UInt8] = [2, 2, 0, 8, 0x88, 9] + [8] + Array(1...8) + [0x84, 7, 0x84, 6] + [3, 1, 2, 3, 0x85, 128]
        let rle = header(8, 2) + line + line
        #expect(ImageSniffer.inspect(rle).detection.type == .radianceHDR)
        #expect(completeness(rle) == .complete)
        for cut in [1, 2, 7, line.count - 1, line.count + 2] {
            #expect(completeness(Array(rle.dropLast(cut))) == .truncated, "\(cut) bytes short")
        }
        // A line marked `02 02` under 8 pixels wide is 4 bytes a pixel as they are.
        let narrow = header(5, 1) + [2, 2, 0, 5] + [UInt8](repeating: 0x80, count: 16)
        #expect(completeness(narrow) == .complete)
        Self.recordDisagreements(rle, "radiance by hand", chunks: [1, 7], lengthKnown: [false, true])
    }

    /// SVG: whole when the root's end tag ends it, before white space, comments and processing
    /// instructions; a namespace prefix is the root's too. Cut after another end tag, or inside
    /// one, truncated; gzip-compressed, not checked.
    @Test func svgEndTag() {
        func completeness(_ s: String) -> Detection.Completeness { ImageSniffer.inspect(Array(s.utf8), budget: .verifying).detection.completeness }
        let start = "<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"><g><rect width=\"4\" height=\"4\"/></g>"
        #expect(completeness(start + "</svg>") == .complete)
        #expect(completeness(start + "</svg >\r\n<!-- by hand -->\n<?pi x?>\n\n") == .complete)
        #expect(completeness(start) == .truncated, "after the group's end tag")
        #expect(completeness(start + "</sv") == .truncated)
        #expect(completeness(start + "</svg") == .truncated)
        #expect(completeness(start + "</svg><!-- cut") == .truncated)
        #expect(completeness(start + "</notsvg>") == .truncated)
        let prefixed = "<s:svg xmlns:s=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"><s:g/></s:svg>\n"
        #expect(ImageSniffer.inspect(Array(prefixed.utf8)).detection.type == .svg)
        #expect(completeness(prefixed) == .complete)
        #expect(completeness(String(prefixed.dropLast(2))) == .truncated)
    }

    /// PDF: whole with `%%EOF` in its last 1,024 bytes (a line end or a few bytes after it
    /// allowed); cut before it, truncated, also when the tail lies partly past the first bytes.
    @Test func pdfEndOfFileMarker() throws {
        let pdf = try testImage("document/pdf-pillow")
        func completeness(_ b: [UInt8]) -> Detection.Completeness { ImageSniffer.inspect(b, budget: .verifying).detection.completeness }
        #expect(completeness(pdf) == .complete)
        #expect(completeness(pdf + Array("\n\n".utf8)) == .complete)
        let marker = try #require((0..<pdf.count - 4).last { pdf[$0..<$0 + 5].elementsEqual("%%EOF".utf8) })
        #expect(completeness(Array(pdf.prefix(marker + 4))) == .truncated)
        #expect(completeness(Array(pdf.prefix(marker)) + [UInt8](repeating: 0x20, count: 1100) + Array("%%EOF".utf8)) == .complete)
        #expect(completeness(Array(pdf.prefix(marker + 5)) + [UInt8](repeating: 0x20, count: 1100)) == .truncated, "more than 1,024 bytes after it")
        // From a file: the first 4 KiB and the last 4 KiB are read apart; the last 1,024 bytes
        // straddle the two for a file of 4,600 bytes.
        var long = Array(pdf.prefix(marker)) + [UInt8](repeating: 0x20, count: max(0, 4600 - marker - 6)) + Array("%%EOF\n".utf8)
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-pdf-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        try Data(long).write(to: URL(fileURLWithPath: scratch))
        #expect(try FileSniffer(budget: .verifying).detect(fileAt: scratch).completeness == .complete)
        long.removeLast(6)
        try Data(long).write(to: URL(fileURLWithPath: scratch))
        #expect(try FileSniffer(budget: .verifying).detect(fileAt: scratch).completeness == .truncated)
    }

    /// An 8-bit run-length PCX (16 x 4, built from ZSoft's layout): its pixels, then the
    /// 256-colour palette (0x0C and 768 bytes). Whole with the palette or without one (grey
    /// images); cut in the palette, or in the pixels (a run's count without its byte), truncated.
    @Test func pcxPixelsAndPalette() {
        var b = ByteBuilder()
        b.u8(0x0A); b.u8(5); b.u8(1); b.u8(8)  // ZSoft, version 5, run-length, 8 bits
        b.u16le(0); b.u16le(0); b.u16le(15); b.u16le(3); b.u16le(72); b.u16le(72)  // window, dpi
        b.zeros(48); b.u8(0); b.u8(1); b.u16le(16); b.u16le(1)  // EGA palette, reserved, 1 plane, 16 bytes a line
        b.zeros(128 - b.bytes.count)
        for _ in 0..<8 { b.u8(0xC8); b.u8(5) }  // 4 lines of two runs of 8
        let pixels = b.bytes
        let palette = [0x0C] + [UInt8](repeating: 0x40, count: 768)
        func completeness(_ bytes: [UInt8]) -> Detection.Completeness { ImageSniffer.inspect(bytes, budget: .verifying).detection.completeness }
        #expect(ImageSniffer.inspect(pixels + palette).detection.type == .pcx)
        #expect(completeness(pixels + palette) == .complete)
        #expect(completeness(pixels) == .complete, "no palette")
        #expect(completeness(pixels + palette.prefix(400)) == .truncated, "cut in the palette")
        #expect(completeness(Array(pixels.dropLast())) == .truncated, "a run's count without its byte")
        #expect(completeness(Array(pixels.prefix(140))) == .truncated)
    }

    /// A stranger's find: ImageMagick (as GraphicsMagick and ffmpeg) pads a DPX's 8-bit rows to
    /// 32 bits (31 RGB pixels take 96 bytes, not 93) and states the unpadded file size, so a file
    /// cut by less than the padding's worth was complete. A length at the unpadded end is what a
    /// writer that does not pad leaves: complete.
    @Test func dpxRowsPaddedTo32Bits() throws {
        let whole = try #require(Manifest.entries.first { $0.file == "dpx/imagemagick-odd-width" }).bytes()
        func completeness(_ b: [UInt8]) -> Detection.Completeness { ImageSniffer.inspect(b, budget: .verifying).detection.completeness }
        #expect(whole.count == 8192 + 32 * 96)
        #expect(completeness(whole) == .complete)
        for cut in [1, 3, 50, 95] {
            #expect(completeness(Array(whole.dropLast(cut))) == .truncated, "cut by \(cut)")
        }
        #expect(completeness(Array(whole.dropLast(96))) == .complete, "rows of 93 bytes")
        #expect(completeness(Array(whole.dropLast(97))) == .truncated)
        // Unless the header's file size says the file is that long: a writer that does not pad
        // rows may round the file up (the DVS SDK, to 4 KiB; a reviewer's find).
        #expect(Array(whole[0..<4]) == Array("SDPX".utf8), "big-endian")
        var rounded = Array(whole.dropLast(50))
        let size = UInt32(rounded.count)
        rounded.replaceSubrange(16..<20, with: [UInt8(size >> 24), UInt8(size >> 16 & 0xFF), UInt8(size >> 8 & 0xFF), UInt8(size & 0xFF)])
        #expect(completeness(rounded) == .complete)
    }

    /// A reviewer's findings. A FITS primary header of random groups with one axis (NAXIS1 = 0)
    /// and a DDS whose faces, array and volume size its data near Int.max both trapped; a DX10
    /// cube map (texconv sets the DX10 cube flag and the caps2 faces both) was counted as 36
    /// faces, so a whole one was truncated; a JPEG XL container of more boxes than a box walk
    /// reads before its codestream was truncated.
    @Test func reviewersHeaders() {
        func completeness(_ b: [UInt8]) -> Detection.Completeness { ImageSniffer.inspect(b, budget: .verifying).detection.completeness }
        var fits = ["SIMPLE  =                    T", "BITPIX  =                    8", "NAXIS   =                    1",
                    "NAXIS1  =                    0", "GROUPS  =                    T", "END"]
            .map { $0.padding(toLength: 80, withPad: " ", startingAt: 0) }.joined()
        fits = fits.padding(toLength: 2880, withPad: " ", startingAt: 0)
        #expect(ImageSniffer.inspect(Array(fits.utf8), budget: .verifying).detection.type == .fits)

        func dds(height: UInt32, width: UInt32, depth: UInt32, caps2: UInt32, format: UInt32, array: UInt32, misc: UInt32) -> [UInt8] {
            var b = ByteBuilder()
            b.ascii("DDS "); b.u32le(124); b.u32le(0x1007); b.u32le(height); b.u32le(width); b.u32le(0); b.u32le(depth); b.u32le(1)
            b.zeros(44); b.u32le(32); b.u32le(0x4); b.ascii("DX10"); b.zeros(20)
            b.u32le(0x1000); b.u32le(caps2); b.zeros(12)
            b.u32le(format); b.u32le(3); b.u32le(misc); b.u32le(array); b.u32le(0)
            return b.bytes
        }
        let huge = dds(height: 64477, width: 64545, depth: 54161, caps2: 0x0020_7E00, format: 10, array: 1023, misc: 0)
        #expect(completeness(huge) == .truncated)
        // A BC7 cube map of 256 x 256 (one level): six faces of 64 x 64 blocks of 16 bytes.
        let cube = dds(height: 256, width: 256, depth: 0, caps2: 0xFE00, format: 98, array: 1, misc: 0x4)
        let faces = [UInt8](repeating: 0x55, count: 6 * 64 * 64 * 16)
        #expect(completeness(cube + faces) == .complete)
        #expect(completeness(cube + faces.dropLast(16)) == .truncated)

        var jxl = ByteBuilder()
        jxl.u32be(12); jxl.ascii("JXL "); jxl.u32be(0x0D0A_870A)
        jxl.u32be(20); jxl.ascii("ftyp"); jxl.ascii("jxl "); jxl.u32be(0); jxl.ascii("jxl ")
        for _ in 0..<5000 { jxl.u32be(8); jxl.ascii("free") }
        jxl.u32be(12); jxl.ascii("jxlc"); jxl.u16be(0xFF0A); jxl.u16be(0)
        #expect(ImageSniffer.inspect(jxl.bytes).detection.type == .jpegXL)
        #expect(completeness(jxl.bytes) == .complete, "more boxes than a box walk reads before the codestream")
    }

    /// cjxl's JPEG reconstruction container holds its codestream in two `jxlp` parts with the
    /// `jbrd` box between them: cut where a box begins, before the part flagged last (the index's
    /// high bit), it has whole boxes and is truncated; cut after the last part, it is whole.
    @Test func jpegXLCodestreamParts() throws {
        let jxl = try testImage("jxl/jpeg-reconstruction")
        var starts: [(type: String, at: Int)] = []
        var o = 0
        while o + 8 <= jxl.count {
            let size = jxl[o..<o + 4].reduce(0) { $0 << 8 | Int($1) }
            starts.append((String(decoding: jxl[o + 4..<o + 8], as: UTF8.self), o))
            guard size >= 8 else { break }
            o += size
        }
        let parts = starts.filter { $0.type == "jxlp" }
        try #require(parts.count == 2 && starts.contains { $0.type == "jbrd" }, "\(starts)")
        for cut in [parts[0].at + 12, starts.first { $0.type == "jbrd" }!.at, parts[1].at] where cut < jxl.count {
            let short = Array(jxl.prefix(cut))
            let d = ImageSniffer.inspect(short, budget: .verifying).detection
            #expect(d.type == .jpegXL && d.completeness == .truncated, "cut at \(cut): \(d)")
        }
        #expect(ImageSniffer.inspect(jxl, budget: .verifying).detection.completeness == .complete)
    }

    /// A raw, an icon, a Photoshop image or a JPEG 2000 cut by a tenth is truncated from a file and
    /// from streams (of known length or not) as it is in memory: a raw's SubIFDs and EXIF IFDs, an
    /// icon's directory, a PSD's sections and row counts and a codestream's tile-parts are asked
    /// for as a stream comes to them.
    @Test(arguments: entries.filter {
        tiffRaws.union(sized).union([.ico, .cur, .psd, .psb, .jpeg2000]).contains(ImageType($0.identifier)!) || jxlContainers.contains($0.file)
    })
    func cutAgrees(_ entry: ManifestEntry) throws {
        let data = try entry.bytes()
        Self.recordDisagreements(Array(data.prefix(data.count - max(1, data.count / 10))), entry.file,
                                 chunks: [7, 1460], lengthKnown: [false, true])
    }
}

/// Bytes between the images of an MPO (a byte of padding in Pillow's sugarshack.mpo, more in
/// Fujifilm's): the walk that checks the last image starts where the MPF index puts it, so a
/// file cut inside that image is truncated, as it is without padding.
@Suite("Whole-file completeness of MPO files with padding between their images")
struct MPOPaddingTests {
    /// A Pillow MPO with `pad` zero bytes inserted before its second image, the image's MP
    /// entry offset moved to match (exiftool's MPImageStart then says where it is).
    static func padded(_ pad: Int) throws -> (bytes: [UInt8], second: Int) {
        var mpo = try #require(Manifest.entries.first { $0.file == "jpeg/mpf-pillow-undefined" }).bytes()
        func find(_ needle: [UInt8], from: Int) -> Int? {
            (from...(mpo.count - needle.count)).first { mpo[$0..<$0 + needle.count].elementsEqual(needle) }
        }
        let tiff = try #require(find(Array("MPF\0".utf8), from: 0)) + 4
        let second = try #require(find([0xFF, 0xD8, 0xFF], from: 2))
        let bigEndian = mpo[tiff] == 0x4D
        func encoded(_ n: Int) -> [UInt8] {
            let b = [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: n >> $0) }
            return bigEndian ? b : b.reversed()
        }
        let entry = try #require(find(encoded(second - tiff), from: tiff), "the second image's MP entry offset")
        mpo.replaceSubrange(entry..<entry + 4, with: encoded(second - tiff + pad))
        mpo.insert(contentsOf: [UInt8](repeating: 0, count: pad), at: second)
        return (mpo, second + pad)
    }

    @Test(arguments: [1, 3, 100])
    func cutInsideTheSecondImage(pad: Int) throws {
        let (mpo, second) = try Self.padded(pad)
        let whole = ImageSniffer.inspect(mpo, budget: .verifying)
        #expect(whole.detection.type == .mpo && whole.detection.completeness == .complete && whole.properties.frameCount == 2)
        for cut in [second + 1, second + (mpo.count - second) / 2, mpo.count - 3] {
            let detection = ImageSniffer.inspect(Array(mpo.prefix(cut)), budget: .verifying).detection
            #expect(detection.completeness == .truncated, "padded by \(pad), cut at \(cut) of \(mpo.count)")
        }
        // From a file and from a stream alike.
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-mpo-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: scratch) }
        let cut = Array(mpo.prefix(second + (mpo.count - second) / 2))
        cut.withUnsafeBytes { bytes in
            for problem in DetectionInvariants.fileViolations(bytes, scratchPath: scratch, budget: .verifying) {
                Issue.record("padded by \(pad), cut: \(problem)")
            }
            for chunk in [7, 1460] {
                for problem in DetectionInvariants.incrementalViolations(bytes, chunk: chunk, lengthKnown: false, properties: true, budget: .verifying) {
                    Issue.record("padded by \(pad), cut, chunks of \(chunk): \(problem)")
                }
            }
        }
    }
}

/// `FileSniffer.cancellationCheck`: asked before each read, it stops a whole-file walk (a JPEG
/// without its end marker, followed by a gigabyte of holes) with `FileError.cancelled`; a
/// check that never says stop changes nothing.
@Suite("Cancelling a file's reads")
struct CancellationTests {
    @Test func aCheckThatSaysStopEndsTheWalk() throws {
        let jpeg = try #require(Manifest.entries.first { $0.file == "jpeg/baseline" }).bytes()
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-cancel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let cut = directory.appendingPathComponent("cut"), whole = directory.appendingPathComponent("whole")
        try Data(jpeg.dropLast(2)).write(to: cut)
        #expect(truncate(cut.path, 1 << 30) == 0)
        try Data(jpeg).write(to: whole)

        let sniffer = FileSniffer(budget: .verifying)
        let asked = Mutex(0)
        sniffer.cancellationCheck = { asked.withLock { $0 += 1; return $0 > 3 } }
        #expect(throws: FileError.cancelled) { try sniffer.detect(fileAt: cut.path) }
        #expect(asked.withLock { $0 } == 4, "asked before each read, and the walk stopped at the first yes")
        #expect(FileError.cancelled.isCancellation && !FileError(kind: .system, code: EIO).isCancellation)

        sniffer.cancellationCheck = { false }
        let d = try sniffer.detect(fileAt: whole.path)
        #expect(d.type == .jpeg && d.completeness == .complete)
    }
}

/// A file that holds only the box or chunk header that names its type, and not the header with
/// the image's size that must follow, is cut short, with or without `--verify`: an `ftyp` box
/// alone (HEIF, AVIF, JPEG 2000), the JPEG XL signature box alone or with its ftyp, a WebP's
/// RIFF header and first chunk header. A stranger's fragments of real files were "complete",
/// and `imgsniff rename` renamed them.
@Suite("Headers that name a type and end")
struct NamingHeaderAloneTests {
    static let types: Set<ImageType> = [.heic, .heif, .avif, .avis, .heics, .jpeg2000, .jpegXL, .webP]

    static let entries = Manifest.entries.filter { entry in
        ImageType(entry.identifier).map { types.contains($0) } ?? false
    }

    /// Where the naming header ends, for each layout; nil for a layout without one (a bare
    /// codestream).
    static func namingHeaderEnd(_ b: [UInt8]) -> Int? {
        func u32(_ o: Int) -> Int { Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3]) }
        guard b.count >= 32 else { return nil }
        if Array(b[4..<8]) == Array("ftyp".utf8) {
            // Past padding boxes after it (ffmpeg writes a `free` box there).
            var end = u32(0)
            while end + 8 <= b.count, ["free", "skip", "wide"].contains(String(decoding: b[(end + 4)..<(end + 8)], as: UTF8.self)) {
                end += max(8, u32(end))
            }
            return end
        }
        if Array(b[0..<4]) == Array("RIFF".utf8) { return 20 }
        if u32(0) == 12, Array(b[16..<20]) == Array("ftyp".utf8) { return 12 + u32(12) }
        if u32(0) == 12 { return 12 }
        return nil
    }

    @Test(arguments: entries)
    func cutAfterItsNamingHeader(_ entry: ManifestEntry) throws {
        let data = try entry.bytes()
        let type = try #require(ImageType(entry.identifier))
        guard let end = Self.namingHeaderEnd(data), end < data.count else { return }
        #expect(ImageSniffer.detect(data).completeness == .complete || entry.file.contains("cut"), "\(entry.file) whole")
        for cut in [end, end + 4] where cut < data.count {
            let d = ImageSniffer.detect(Array(data.prefix(cut)))
            // The type, or its family where what follows would have told the member (a HEIF
            // whose brands leave the codec to its items).
            #expect(d.type == type || (d.confidence == .family && type.belongs(toFamily: d.type)), "\(entry.file) cut at \(cut): \(d)")
            #expect(d.completeness == .truncated, "\(entry.file) cut at \(cut): \(d)")
        }
    }

    /// The test images hold each layout: ISO BMFF, RIFF, the JPEG 2000 and JPEG XL signature boxes.
    @Test func everyLayoutIsCovered() throws {
        var layouts: Set<String> = []
        for entry in Self.entries {
            let data = try entry.bytes()
            guard data.count >= 32, Self.namingHeaderEnd(data) != nil else { continue }
            if Array(data[4..<8]) == Array("ftyp".utf8) { layouts.insert("ISO BMFF") }
            else if Array(data[0..<4]) == Array("RIFF".utf8) { layouts.insert("RIFF") }
            else if Array(data[4..<8]) == Array("jP  ".utf8) { layouts.insert("JPEG 2000") }
            else if Array(data[4..<8]) == Array("JXL ".utf8) { layouts.insert("JPEG XL") }
        }
        #expect(layouts == ["ISO BMFF", "RIFF", "JPEG 2000", "JPEG XL"])
    }
}

/// A HEIF or AVIF cut where its `mdat` begins has whole top-level boxes; its items' data (the
/// `iloc` extents) lies past the end: `--verify` says truncated. (A stranger's AVIF of `ftyp`
/// and `meta` alone was complete.)
@Suite("HEIF items' data")
struct HEIFItemDataTests {
    static let entries = Manifest.entries.filter { entry in
        ImageType(entry.identifier).map { [.heic, .heif, .avif, .heics, .heifs, .avis].contains($0) } ?? false
    }

    /// Where the last top-level box begins, when it is one a file needs: `mdat` (the items'
    /// data), `meta` (after the mdat: the items), `moov` (after the mdat: a sequence's samples).
    static func lastNeededBox(_ b: [UInt8]) -> Int? {
        var o = 0, last: (type: String, start: Int)?
        while o + 8 <= b.count {
            let size = Int(b[o]) << 24 | Int(b[o + 1]) << 16 | Int(b[o + 2]) << 8 | Int(b[o + 3])
            guard size >= 8 else { return nil }
            last = (String(decoding: b[(o + 4)..<(o + 8)], as: UTF8.self), o)
            o += size
        }
        guard o == b.count, let last, ["mdat", "meta", "moov"].contains(last.type) else { return nil }
        return last.start
    }

    /// Cut where that box begins, every top-level box is whole, yet the file is not: `--verify`
    /// says truncated (a stranger's cuts: a HEIC whose `meta` follows its `mdat`, an ffmpeg
    /// HEICS without its `moov`).
    @Test func cutWhereItsLastNeededBoxBegins() throws {
        var checked = 0
        for entry in Self.entries {
            let data = try entry.bytes()
            guard let cut = Self.lastNeededBox(data), !entry.file.contains("cut") else { continue }
            #expect(ImageSniffer.inspect(data, budget: .verifying).detection.completeness == .complete, "\(entry.file)")
            let d = ImageSniffer.inspect(Array(data.prefix(cut)), budget: .verifying).detection
            #expect(d.completeness == .truncated, "\(entry.file) cut at \(cut): \(d)")
            #expect(ImageSniffer.inspect(Array(data.prefix(cut))).detection.completeness == .complete, "without verify: the header is whole")
            checked += 1
        }
        #expect(checked >= 10, "\(checked) files with mdat last")
    }

    static func box(_ type: String, _ payload: [UInt8]) -> [UInt8] {
        var b = ByteBuilder()
        b.u32be(UInt32(8 + payload.count)); b.ascii(type)
        return b.bytes + payload
    }

    /// A sequence (no top-level `meta`) whose last box is 8 bytes (a `free` box), in a file
    /// longer than the first read: the search for `meta` asked for 16 bytes at that box, past
    /// the end, which made the whole file truncated (a reviewer's case).
    @Test func aSequenceEndingInASmallBoxIsWhole() throws {
        let ftyp = Self.box("ftyp", Array("msf1".utf8) + [0, 0, 0, 0] + Array("msf1hevc".utf8))
        let file = ftyp + Self.box("moov", [UInt8](repeating: 0, count: 1_000)) + Self.box("mdat", [UInt8](repeating: 7, count: 10_000))
            + Self.box("free", [])
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-seq-\(UUID().uuidString)")
        try Data(file).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let d = try FileSniffer(budget: .verifying).detect(fileAt: url.path)
        #expect(d.type == .heics && d.completeness == .complete, "\(d)")
        #expect(ImageSniffer.inspect(file, budget: .verifying).detection.completeness == .complete)
    }

    /// An `iloc` of 65,535 items, each of 65,535 extents with no fields at all (every size 0):
    /// nothing to place, and not counted extent by extent (4 billion steps for one file).
    @Test func anILOCOfEmptyExtentsIsReadInOnePass() {
        var iloc = ByteBuilder()
        iloc.u8(0); iloc.bytes += [0, 0, 0]  // version 0, flags
        iloc.u16be(0)  // offset, length, base offset sizes 0
        iloc.u16be(0xFFFF)
        for id in 0..<0xFFFF { iloc.u16be(UInt16(id)); iloc.u16be(0); iloc.u16be(0xFFFF) }
        let meta = Self.box("meta", [0, 0, 0, 0] + Self.box("iloc", iloc.bytes))
        let file = Self.box("ftyp", Array("avif".utf8) + [0, 0, 0, 0] + Array("avifmif1".utf8)) + meta
        let d = ImageSniffer.inspect(file, budget: .verifying).detection
        #expect(d.type == .avif && d.completeness == .complete, "\(d)")
    }
}

/// Rasters whose size the header gives: a binary PBM (no test image holds one), and a BMP whose
/// last row lacks its padding (what a decoder needs is there: whole).
@Suite("Whole-file completeness of rasters sized by their header")
struct RasterSizeTests {
    @Test func binaryPBM() {
        let pbm = Array("P4\n# two rows\n10 2\n".utf8) + [0xFF, 0xC0, 0x00, 0x40]
        #expect(ImageSniffer.inspect(pbm, budget: .verifying).detection.completeness == .complete)
        #expect(ImageSniffer.inspect(Array(pbm.dropLast()), budget: .verifying).detection.completeness == .truncated)
    }

    @Test func bmpWithoutItsLastRowsPadding() {
        // 3 x 2 pixels, 24 bits: rows of 9 bytes padded to 12.
        var b = ByteBuilder()
        b.ascii("BM"); b.u32le(14 + 40 + 12 + 9); b.u32le(0); b.u32le(54)
        b.u32le(40); b.u32le(3); b.u32le(2); b.u16le(1); b.u16le(24); b.u32le(0); b.zeros(20)
        b.bytes += [UInt8](repeating: 0x80, count: 12 + 9)
        let bmp = b.bytes
        #expect(ImageSniffer.inspect(bmp, budget: .verifying).detection.completeness == .complete)
        #expect(ImageSniffer.inspect(bmp + [0, 0, 0], budget: .verifying).detection.completeness == .complete)
        #expect(ImageSniffer.inspect(Array(bmp.dropLast()), budget: .verifying).detection.completeness == .truncated)
    }
}

/// More stray bytes between two JPEG segments than a resync passes over (`JPEGSegments.junkLimit`):
/// the whole-file walk goes on to the next marker as libjpeg does, so a file whose header is
/// followed by zeros or junk to its end is truncated, and one whose segments go on after the
/// junk to EOI is whole.
@Suite("Whole-file completeness of JPEGs with stray bytes between segments")
struct JPEGStrayBytesTests {
    @Test(arguments: [UInt8(0x00), 0x11], [100, 5000, 70000])
    func strayBytesAfterTheFirstSegment(byte: UInt8, count: Int) throws {
        let jpeg = try #require(Manifest.entries.first { $0.file == "jpeg/baseline" }).bytes()
        let firstEnd = 4 + Int(jpeg[4]) << 8 + Int(jpeg[5])  // SOI, then the first segment
        let junk = [UInt8](repeating: byte, count: count)
        let strayThenRest = Array(jpeg[..<firstEnd]) + junk + Array(jpeg[firstEnd...])
        let strayToTheEnd = Array(jpeg[..<firstEnd]) + junk
        // It ends with EOI; a byte after it (below) makes the walk decide, as in the cut one.
        let last = strayThenRest.count - 1
        #expect(strayThenRest[last - 1] == 0xFF && strayThenRest[last] == 0xD9)
        let whole = ImageSniffer.inspect(strayThenRest + [0], budget: .verifying).detection
        #expect(whole.type == .jpeg && whole.completeness == .complete, "\(whole)")
        let cut = ImageSniffer.inspect(strayToTheEnd, budget: .verifying).detection
        #expect(cut.type == .jpeg && cut.completeness == .truncated, "\(cut)")
        for data in [strayThenRest + [0], strayToTheEnd] { VerifyTests.recordDisagreements(data, "\(count) bytes of \(byte)") }
    }
}

/// A movie whose `moov` follows its `mdat` (ffmpeg's default), cut where the `moov` begins: its
/// boxes are whole, but nothing places its samples.
@Suite("Whole-file completeness of movies cut before their moov")
struct MovieWithoutMoovTests {
    static let movies = Manifest.entries.filter { ["public.mpeg-4", "public.mpeg-4-audio", "com.apple.quicktime-movie", "public.3gpp"].contains($0.identifier) }

    /// The top-level boxes: (type, start, end).
    static func boxes(_ data: [UInt8]) -> [(String, Int, Int)] {
        var out: [(String, Int, Int)] = []
        var o = 0
        while o + 8 <= data.count {
            var size = data[o..<o + 4].reduce(0) { $0 << 8 | Int($1) }
            if size == 1 { size = data[o + 8..<o + 16].reduce(0) { $0 << 8 | Int($1) } } else if size == 0 { size = data.count - o }
            guard size >= 8 else { break }
            out.append((String(decoding: data[o + 4..<o + 8], as: UTF8.self), o, o + size))
            o += size
        }
        return out
    }

    @Test func cutWhereTheMoovBegins() throws {
        var tried = 0
        for entry in Self.movies {
            let data = try entry.bytes()
            let boxes = Self.boxes(data)
            guard let moov = boxes.first(where: { $0.0 == "moov" }), boxes.contains(where: { $0.0 == "mdat" && $0.2 <= moov.1 }) else { continue }
            tried += 1
            let cut = Array(data[..<moov.1])
            let detection = ImageSniffer.inspect(cut, budget: .verifying).detection
            #expect(detection.type == ImageType(entry.identifier) && detection.completeness == .truncated, "\(entry.file): \(detection)")
            #expect(ImageSniffer.inspect(cut).detection.completeness == .complete, "without --verify the header is whole")
            VerifyTests.recordDisagreements(cut, entry.file)
        }
        #expect(tried >= 3, "test images with their moov after the mdat: \(tried)")
    }

    /// A movie cut where its `mdat` begins after its `moov` (faststart): the boxes are whole but
    /// the chunks the `moov` places lie past the end; one whose `moov` comes last, cut a byte
    /// into it; and a fragment whose `moof` has lost its `mdat` (a stranger's cuts of ffmpeg's
    /// files were complete).
    @Test func cutWhereTheSamplesOrTheirPlacesBegin() throws {
        var moovFirst = 0, moovLast = 0
        for entry in Self.movies {
            let data = try entry.bytes()
            let boxes = Self.boxes(data)
            guard let moov = boxes.first(where: { $0.0 == "moov" }), let mdat = boxes.first(where: { $0.0 == "mdat" }) else { continue }
            let cut = moov.1 < mdat.1 ? Array(data[..<mdat.1]) : Array(data[...moov.1])
            if moov.1 < mdat.1 { moovFirst += 1 } else { moovLast += 1 }
            let d = ImageSniffer.inspect(cut, budget: .verifying).detection
            #expect(d.completeness == .truncated, "\(entry.file) cut at \(cut.count): \(d)")
            VerifyTests.recordDisagreements(cut, entry.file)
            // A fragment (a movie fragment box, then its media data) after the whole file.
            let moof: [UInt8] = [0, 0, 0, 24] + Array("moof".utf8) + [0, 0, 0, 16] + Array("mfhd".utf8) + [0, 0, 0, 0, 0, 0, 0, 1]
            let mdatBox: [UInt8] = [0, 0, 0, 12] + Array("mdat".utf8) + [1, 2, 3, 4]
            #expect(ImageSniffer.inspect(data + moof, budget: .verifying).detection.completeness == .truncated, "\(entry.file) + a moof alone")
            #expect(ImageSniffer.inspect(data + moof + [0], budget: .verifying).detection.completeness == .truncated, "\(entry.file) + a moof and a byte")
            #expect(ImageSniffer.inspect(data + moof + mdatBox, budget: .verifying).detection.completeness == .complete, "\(entry.file) + a fragment")
            for tail in [moof, moof + [0], moof + mdatBox] {
                VerifyTests.recordDisagreements(data + tail, "\(entry.file) + \(tail.count) bytes of fragment", chunks: [7, 1460], lengthKnown: [false, true])
            }
        }
        #expect(moovFirst >= 1 && moovLast >= 3, "moov first: \(moovFirst), last: \(moovLast)")
    }

    /// Bytes after the last box that cannot be a box cut short (fewer zeros than a header, or a
    /// type that is not four characters: junk a player passes over) say nothing; a header of
    /// a real type that runs past the end is a box cut short.
    @Test func trailingBytes() throws {
        for entry in Self.movies {
            let data = try entry.bytes()
            for tail in [[UInt8](repeating: 0, count: 4), [UInt8](repeating: 0, count: 7), [0, 0, 0, 0x20, 1, 2, 3, 4] + [UInt8](repeating: 9, count: 24)] {
                let d = ImageSniffer.inspect(data + tail, budget: .verifying).detection
                #expect(d.completeness == .complete, "\(entry.file) + \(tail.count) bytes: \(d)")
            }
            // Tags that audio taggers append: ID3v1 (128 bytes from TAG), APEv2 (from APETAGEX).
            let id3v1 = Array("TAGTitle".utf8) + [UInt8](repeating: 0x20, count: 120)
            let ape = Array("APETAGEX".utf8) + [0xD0, 0x07, 0, 0] + [UInt8](repeating: 0, count: 20)
            for tag in [id3v1, ape] {
                let d = ImageSniffer.inspect(data + tag, budget: .verifying).detection
                #expect(d.completeness == .complete, "\(entry.file) + an appended \(tag.count)-byte tag: \(d)")
                VerifyTests.recordDisagreements(data + tag, "\(entry.file) + a tag", chunks: [1460], lengthKnown: [false, true])
            }
            VerifyTests.recordDisagreements(data + [0, 0, 0, 0], "\(entry.file) + 4 zeros", chunks: [7], lengthKnown: [false, true])
            let cutBox: [UInt8] = [0, 0, 1, 0] + Array("free".utf8) + [0, 0]
            let d = ImageSniffer.inspect(data + cutBox, budget: .verifying).detection
            #expect(d.completeness == .truncated, "\(entry.file) + a free box cut short: \(d)")
        }
    }
}

/// Fewer bytes than a box header after the last box, or text (a "box" of a type no top-level box
/// has, whose size, read from the text, runs past the end), are a trailer, not a box cut short: a
/// stranger's HEIC, AVIF and JP2 with a line feed or "garbage!" appended were truncated, where
/// libheif, Pillow and OpenJPEG read them whole. A file cut within its last box's header (the
/// `mdat` or the codestream box other boxes depend on) is still truncated: what that box held is
/// missing.
@Suite("Whole-file completeness of boxed files with a short trailer")
struct ShortTrailerTests {
    static let boxedTypes: Set<String> = ["public.heic", "public.heics", "public.heif", "public.avif", "public.avis",
                                          "public.mpeg-4", "public.mpeg-4-audio", "com.apple.quicktime-movie", "public.3gpp"]
    static let entries = VerifyTests.entries.filter {
        (boxedTypes.contains($0.identifier) || VerifyTests.jxlContainers.contains($0.file)
            || ($0.identifier == "public.jpeg-2000" && (try? $0.bytes().prefix(4).elementsEqual([0, 0, 0, 12])) == true))
            && !$0.file.hasSuffix("-cut-half")
    }

    @Test(arguments: entries)
    func aLineFeedOrAShortTrailerIsNotACut(_ entry: ManifestEntry) throws {
        let data = try entry.bytes()
        for tail: [UInt8] in [[0x0A], [0x0D, 0x0A], [0x41, 0x42, 0x43, 0x44, 0x45, 0x46, 0x47], Array("garbage!".utf8),
                              Array("hello world\n".utf8), [0xFF, 0xFE, 0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06]] {
            let d = ImageSniffer.inspect(data + tail, budget: .verifying).detection
            #expect(d.completeness == .complete, "\(entry.file) + \(tail): \(d)")
        }
        VerifyTests.recordDisagreements(data + [0x0A], "\(entry.file) + a line feed", chunks: [7, 1460], lengthKnown: [false, true])
        // Cut a few bytes into the last box, when other boxes place what it holds (a JPX may
        // keep its codestream elsewhere, through a fragment table: its boxes are not checked).
        guard entry.file != "jpeg2000/jpx-brand" else { return }
        let boxes = MovieWithoutMoovTests.boxes(data)
        guard let last = boxes.last, last.2 == data.count, ["mdat", "jp2c", "jxlc", "jxlp"].contains(last.0),
              boxes.contains(where: { ["meta", "moov", "jp2h", "ftyp"].contains($0.0) }) else { return }
        for k in [1, 4, 7] {
            let d = ImageSniffer.inspect(Array(data.prefix(last.1 + k)), budget: .verifying).detection
            #expect(d.completeness == .truncated, "\(entry.file) cut \(k) bytes into its \(last.0): \(d)")
        }
    }
}

/// A file cut short and padded back to its length with zeros (a download or a recovery that
/// wrote the length it expected): the walks of JPEG, PNG and GIF find zeros where the structure
/// goes on, to the end, and call it truncated; noise there is damage, which says nothing.
@Suite("Whole-file completeness of files padded with zeros")
struct ZeroPaddedTests {
    static let walked: Set<ImageType> = [.jpeg, .png, .gif]
    static let entries = VerifyTests.entries.filter { walked.contains(ImageType($0.identifier)!) && !$0.file.hasSuffix("-cut-half") && !VerifyTests.damaged.contains($0.file) }

    @Test(arguments: entries)
    func cutAtHalfThenPadded(_ entry: ManifestEntry) throws {
        let data = try entry.bytes()
        let padded = Array(data.prefix(data.count / 2)) + [UInt8](repeating: 0, count: data.count - data.count / 2)
        let detection = ImageSniffer.inspect(padded, budget: .verifying).detection
        #expect(detection.type == ImageType(entry.identifier) && detection.completeness == .truncated, "\(entry.file): \(detection)")
        VerifyTests.recordDisagreements(padded, entry.file)
    }
}

/// A binary netpbm image cut inside its header: the data ends before the header's numbers (P4,
/// P5, P6: detection says so) or PAM's `ENDHDR` (the verifier does), so it is cut short.
@Suite("Whole-file completeness of netpbm images cut inside their header")
struct NetpbmHeaderCutTests {
    static let entries = VerifyTests.entries.filter { [.pbm, .pgm, .ppm, .pam].contains(ImageType($0.identifier)!) }

    /// Where the raster starts: after PAM's `ENDHDR` line, or one byte after the last number.
    static func rasterStart(_ data: [UInt8]) -> Int? {
        if data[1] == UInt8(ascii: "7") {
            let marker = Array("ENDHDR\n".utf8)
            return (0...(data.count - marker.count)).first { data[$0..<$0 + marker.count].elementsEqual(marker) }.map { $0 + marker.count }
        }
        var numbers = 0, o = 2
        while numbers < (data[1] == UInt8(ascii: "4") ? 2 : 3) {
            while o < data.count, !(UInt8(ascii: "0")...UInt8(ascii: "9")).contains(data[o]) {
                if data[o] == UInt8(ascii: "#") { while o < data.count, data[o] != 0x0A { o += 1 } } else { o += 1 }
            }
            while o < data.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(data[o]) { o += 1 }
            numbers += 1
        }
        return o + 1
    }

    @Test(arguments: entries)
    func cutInsideTheHeader(_ entry: ManifestEntry) throws {
        let data = try entry.bytes()
        let start = try #require(Self.rasterStart(data))
        var checked = 0
        for n in 3..<start {
            let cut = Array(data.prefix(n))
            let detection = ImageSniffer.inspect(cut, budget: .verifying).detection
            guard detection.type == ImageType(entry.identifier) else { continue }  // too little to name it
            checked += 1
            #expect(detection.completeness == .truncated, "\(entry.file) cut at \(n) of a \(start)-byte header: \(detection)")
            VerifyTests.recordDisagreements(cut, "\(entry.file) cut at \(n)", chunks: [7])
        }
        #expect(checked > 0, "\(entry.file): named at no cut inside its header")
    }
}

/// A JPEG whose frame header lies past the first bytes (600 KiB of ICC profile before it):
/// detection reads a far window, and the completeness walk starts early, from the first bytes
/// (`Verifier.startsEarly`), so that a file cut in its scans is truncated from a file, a stream
/// and memory alike. It was complete: no walk ran after a far window.
@Suite("Whole-file completeness of a JPEG with its frame header past the first bytes")
struct FarJPEGTests {
    @Test func cutInItsScans() throws {
        let jpeg = try #require(Manifest.entries.first { $0.file == "far/jpeg-pillow-icc-600k" }).bytes()
        #expect(jpeg.count > ReadBudget.default.prefixCap)
        let sos = try #require((ReadBudget.default.prefixCap..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xDA })
        let whole = ImageSniffer.inspect(jpeg, budget: .verifying).detection
        #expect(whole.type == .jpeg && whole.completeness == .complete)
        for cut in [sos + 20, (sos + jpeg.count) / 2, jpeg.count - 3] {
            let data = Array(jpeg.prefix(cut))
            let detection = ImageSniffer.inspect(data, budget: .verifying).detection
            #expect(detection.type == .jpeg && detection.completeness == .truncated, "cut at \(cut): \(detection)")
            VerifyTests.recordDisagreements(data, "cut at \(cut)", chunks: [1460, 65536], lengthKnown: [false, true], properties: true)
        }
    }
}

/// The bytes of a test image, by its path in TestImages.
private func testImage(_ file: String) throws -> [UInt8] {
    try #require(Manifest.entries.first { $0.file == file }).bytes()
}

/// Where a JP2's codestream box (`jp2c`) starts.
private func codestreamBox(_ jp2: [UInt8]) throws -> Int {
    try #require((0..<(jp2.count - 8)).first { jp2[$0 + 4..<$0 + 8].elementsEqual("jp2c".utf8) })
}

/// JPEG 2000 codestreams are followed tile-part by tile-part to EOC: bytes after EOC are a
/// trailer, and a JP2 whose `jp2c` box runs to the end (size 0) is whole when EOC ends it.
@Suite("Whole-file completeness of JPEG 2000")
struct JPEG2000VerifyTests {
    @Test(arguments: ["jpeg2000/j2k-openjpeg", "jpeg2000/htj2k-openjph", "jpeg2000/j2k-pillow"])
    func trailerAfterEOC(_ file: String) throws {
        let j2k = try testImage(file)
        let trailed = j2k + [UInt8](repeating: 0x41, count: 100)
        #expect(ImageSniffer.inspect(trailed, budget: .verifying).detection.completeness == .complete, "\(file) with a trailer")
        VerifyTests.recordDisagreements(trailed, "\(file) with a trailer", chunks: [7, 1460], lengthKnown: [false, true])
        // Cut inside its last tile-part, with the same trailer length after: the tile-part runs on.
        let cut = Array(j2k.prefix(j2k.count - 20)) + [UInt8](repeating: 0x41, count: 10)
        #expect(ImageSniffer.inspect(cut, budget: .verifying).detection.completeness == .truncated, "\(file) cut")
        VerifyTests.recordDisagreements(cut, "\(file) cut", chunks: [7, 1460], lengthKnown: [false, true])
    }

    /// A JP2 cut where its codestream box would begin has whole boxes, and no codestream.
    @Test(arguments: ["jpeg2000/jp2-openjpeg", "jpeg2000/jp2-pillow", "jpeg2000/jph-brand"])
    func cutBeforeTheCodestream(_ file: String) throws {
        let jp2 = try testImage(file)
        let jp2c = try codestreamBox(jp2)
        let cut = Array(jp2.prefix(jp2c))
        #expect(ImageSniffer.inspect(cut, budget: .verifying).detection.completeness == .truncated, "\(file) cut at \(jp2c)")
        VerifyTests.recordDisagreements(cut, "\(file) cut at \(jp2c)", chunks: [7, 1460], lengthKnown: [false, true])
    }

    @Test func codestreamBoxToTheEnd() throws {
        var jp2 = try testImage("jpeg2000/jp2-openjpeg")
        let jp2c = try codestreamBox(jp2)
        #expect(Array(jp2[jp2c..<jp2c + 4]) != [0, 0, 0, 0], "the test image states its codestream box's size")
        jp2.replaceSubrange(jp2c..<jp2c + 4, with: [0, 0, 0, 0])
        #expect(ImageSniffer.inspect(jp2, budget: .verifying).detection.completeness == .complete)
        for cut in [1, 50] {
            let short = Array(jp2.prefix(jp2.count - cut))
            #expect(ImageSniffer.inspect(short, budget: .verifying).detection.completeness == .truncated, "cut by \(cut)")
            VerifyTests.recordDisagreements(short, "cut by \(cut)", chunks: [7, 1460], lengthKnown: [false, true])
        }
    }
}

/// What a TIFF's EXIF and GPS directories may and may not say about its completeness: they are
/// read for their values, but the offset of the directory after them is garbage in many
/// cameras' files, and Pillow copies a stale EXIF offset into the pixels when it saves a TIFF
/// with another's tags.
@Suite("Whole-file completeness of TIFFs with metadata directories")
struct TIFFMetadataVerifyTests {
    /// The spec-built PEF (an EXIF directory after IFD0), and where IFD0's EXIF entry keeps the
    /// directory's offset.
    static func pef() throws -> (bytes: [UInt8], exifField: Int, bigEndian: Bool) {
        let pef = try #require(Manifest.entries.first { $0.file == "raw/pef" }).bytes()
        let big = pef[0] == 0x4D
        let ifd0 = read(pef, 4, 4, big)
        let field = try #require((0..<read(pef, ifd0, 2, big)).map { ifd0 + 2 + 12 * $0 }.first { read(pef, $0, 2, big) == 34665 }) + 8
        return (pef, field, big)
    }

    /// The `n`-byte number at `at`.
    static func read(_ bytes: [UInt8], _ at: Int, _ n: Int, _ bigEndian: Bool) -> Int {
        let b = bytes[at..<at + n]
        return (bigEndian ? Array(b) : b.reversed()).reduce(0) { $0 << 8 | Int($1) }
    }

    static func completeness(_ bytes: [UInt8]) -> Detection.Completeness {
        ImageSniffer.inspect(bytes, budget: .verifying).detection.completeness
    }

    @Test func garbageAfterTheEXIFDirectory() throws {
        var (pef, field, big) = try Self.pef()
        #expect(Self.completeness(pef) == .complete)
        let exif = Self.read(pef, field, 4, big)
        let next = exif + 2 + 12 * Self.read(pef, exif, 2, big)
        pef.replaceSubrange(next..<next + 4, with: [0xFF, 0xFF, 0xFF, 0xFF])
        #expect(Self.completeness(pef) == .complete, "the EXIF directory's next offset is not followed")
        VerifyTests.recordDisagreements(pef, "garbage next offset", chunks: [7, 1460], lengthKnown: [false, true])
    }

    @Test func staleEXIFOffset() throws {
        var (pef, field, big) = try Self.pef()
        // Bytes that do not read as a directory (a count of 40 entries, then bytes of field
        // type 0xFFFF) and run past the end: a stale offset, not a cut.
        let stale = pef.count
        pef += (big ? [0, 40] : [40, 0]) + [UInt8](repeating: 0xFF, count: 40)
        var offset = ByteBuilder()
        if big { offset.u32be(UInt32(stale)) } else { offset.u32le(UInt32(stale)) }
        pef.replaceSubrange(field..<field + 4, with: offset.bytes)
        #expect(Self.completeness(pef) == .complete)
        VerifyTests.recordDisagreements(pef, "stale EXIF offset", chunks: [7, 1460], lengthKnown: [false, true])
        // A directory of 5 entries whose first entry is there and the rest cut off: truncated.
        pef.removeLast(42)
        let entry: [UInt8] = big ? [0x82, 0x9A, 0, 3, 0, 0, 0, 1, 0, 1, 0, 0] : [0x9A, 0x82, 3, 0, 1, 0, 0, 0, 1, 0, 0, 0]
        pef += (big ? [0, 5] : [5, 0]) + entry
        #expect(Self.completeness(pef) == .truncated)
        VerifyTests.recordDisagreements(pef, "cut EXIF directory", chunks: [7, 1460], lengthKnown: [false, true])
    }
}

/// Checks whose bytes lie past what a stream keeps of its start (`Limits.maxPrefix`): they are
/// asked for in order, so that a stream keeps them as they pass and answers as a file does.
@Suite("Whole-file completeness past the first bytes")
struct FarVerifyTests {
    /// A run-length PSD whose layers section holds 1 MiB more (zeros at its end): its row byte
    /// counts lie past the first 512 KiB.
    @Test func largePSD() throws {
        var psd = try testImage("psd/imagemagick")
        func u32(_ at: Int) -> Int { psd[at..<at + 4].reduce(0) { $0 << 8 | Int($1) } }
        var at = 26
        at += 4 + u32(at)  // colour mode data
        at += 4 + u32(at)  // image resources
        let layers = u32(at), pad = 1 << 20
        var length = ByteBuilder()
        length.u32be(UInt32(layers + pad))
        psd.replaceSubrange(at..<at + 4, with: length.bytes)
        psd.insert(contentsOf: [UInt8](repeating: 0, count: pad), at: at + 4 + layers)
        #expect(psd[at + 4 + layers + pad + 1] == 1, "run-length rows")
        #expect(ImageSniffer.inspect(psd, budget: .verifying).detection.completeness == .complete)
        for cut in [psd.count - 1, psd.count - 100, at + 4 + layers + pad + 3] {
            let short = Array(psd.prefix(cut))
            #expect(ImageSniffer.inspect(short, budget: .verifying).detection.completeness == .truncated, "cut at \(cut)")
            VerifyTests.recordDisagreements(short, "cut at \(cut)", chunks: [1460, 65536], lengthKnown: [false, true])
        }
    }

    /// An OpenEXR whose chunks lie 1 MiB further on (zeros after its offset table, each offset
    /// moved to match; readers follow the offsets): the last chunk's header lies past the first
    /// bytes. A stream of unknown length said `complete` when cut, as a pipe of OpenEXR's
    /// 1.2 MB `comp_piz.exr` did (its check read the length before it asked for that header,
    /// so it never asked).
    @Test func farOpenEXRChunks() throws {
        var exr = try testImage("exr/openexr-zip")
        // The header's attributes (name, type, size, value) up to its NUL, then the table: the
        // first chunk follows it.
        func number(_ at: Int, _ size: Int) -> Int { exr[at..<at + size].reversed().reduce(0) { $0 << 8 | Int($1) } }
        var o = 8
        while exr[o] != 0 {
            let name = exr[o...].firstIndex(of: 0)!, type = exr[(name + 1)...].firstIndex(of: 0)!
            o = type + 5 + number(type + 1, 4)
        }
        let table = o + 1, pad = 1 << 20, chunks = (number(table, 8) - table) / 8
        #expect(chunks >= 1)
        for i in 0..<chunks {
            let offset = number(table + 8 * i, 8) + pad
            exr.replaceSubrange(table + 8 * i..<table + 8 * i + 8, with: (0..<8).map { UInt8(truncatingIfNeeded: offset >> (8 * $0)) })
        }
        exr.insert(contentsOf: [UInt8](repeating: 0, count: pad), at: table + 8 * chunks)
        // The last chunk (it ends the file) 8 KiB longer, so that its header lies before the
        // last bytes a stream keeps for the end.
        let last = number(table + 8 * (chunks - 1), 8), size = number(last + 4, 4)
        #expect(last + 8 + size == exr.count)
        exr.replaceSubrange(last + 4..<last + 8, with: (0..<4).map { UInt8(truncatingIfNeeded: (size + 8192) >> (8 * $0)) })
        exr += [UInt8](repeating: 0, count: 8192)
        #expect(ImageSniffer.inspect(exr, budget: .verifying).detection.completeness == .complete)
        for cut in [exr.count - 1, exr.count - 100] {
            let short = Array(exr.prefix(cut))
            #expect(ImageSniffer.inspect(short, budget: .verifying).detection.completeness == .truncated, "cut at \(cut)")
            VerifyTests.recordDisagreements(short, "cut at \(cut)", chunks: [1460, 65536], lengthKnown: [false, true])
        }
    }

    /// A FITS file of an empty primary unit and three 8-bit image extensions of 1000 x 400: the
    /// second and third extensions' headers lie past the first bytes, and are asked for where
    /// they lie, from a file and a stream alike.
    @Test func farFITSExtensions() {
        var b = ByteBuilder()
        func header(_ cards: [String]) {
            var text = cards.map { $0.padding(toLength: 80, withPad: " ", startingAt: 0) }.joined()
            text += "END".padding(toLength: 80, withPad: " ", startingAt: 0)
            b.ascii(text.padding(toLength: (text.count + 2879) / 2880 * 2880, withPad: " ", startingAt: 0))
        }
        header(["SIMPLE  =                    T", "BITPIX  =                    8", "NAXIS   =                    0", "EXTEND  =                    T"])
        var starts: [Int] = []
        for _ in 0..<3 {
            starts.append(b.bytes.count)
            header(["XTENSION= 'IMAGE   '", "BITPIX  =                    8", "NAXIS   =                    2",
                    "NAXIS1  =                 1000", "NAXIS2  =                  400", "PCOUNT  =                    0", "GCOUNT  =                    1"])
            b.bytes += [UInt8](repeating: 7, count: 400_000)
            b.zeros((2880 - 400_000 % 2880) % 2880)
        }
        let fits = b.bytes
        #expect(ImageSniffer.inspect(fits, budget: .verifying).detection.completeness == .complete)
        #expect(ImageSniffer.inspect(Array(fits.prefix(starts[2])), budget: .verifying).detection.completeness == .complete,
                "cut where a unit ends: whole units")
        for cut in [starts[2] + 40, starts[2] + 1000, starts[2] + 5760, fits.count - 3000] {
            let short = Array(fits.prefix(cut))
            #expect(ImageSniffer.inspect(short, budget: .verifying).detection.completeness == .truncated, "cut at \(cut)")
            VerifyTests.recordDisagreements(short, "cut at \(cut)", chunks: [1460, 65536], lengthKnown: [false, true])
        }
    }

    /// A run-length Sun raster of 1,000 x 3,000 one-bit pixels whose rows are written as escaped
    /// 0x80 bytes (`80 00`, 2 bytes for 1): 756 KB of data decode to 378 KB, read past the first
    /// bytes window by window.
    @Test func longSunRunLength() {
        var b = ByteBuilder()
        b.u32be(0x59A6_6A95); b.u32be(1000); b.u32be(3000); b.u32be(1)  // width, height, depth
        b.u32be(0); b.u32be(2); b.u32be(0); b.u32be(0)  // length, type 2 (run-length), no colour map
        let rowBytes = (1000 + 15) / 16 * 2
        for _ in 0..<(rowBytes * 3000 * 2) { b.u8(0x80); b.u8(0) }  // twice the rows
        let sun = Array(b.bytes.prefix(32 + 2 * rowBytes * 3000))
        let padded = b.bytes
        #expect(ImageSniffer.inspect(sun, budget: .verifying).detection.completeness == .complete)
        #expect(ImageSniffer.inspect(padded, budget: .verifying).detection.completeness == .complete, "more data than the rows")
        let short = Array(sun.prefix(sun.count - 2))
        #expect(ImageSniffer.inspect(short, budget: .verifying).detection.completeness == .truncated)
        VerifyTests.recordDisagreements(short, "cut", chunks: [1460, 65536], lengthKnown: [false, true])
    }

    /// A run-length PSD built from the format's layout (3 channels of 1,000 rows of one pixel,
    /// each row 2 bytes of PackBits) after 1 MiB of layers: its row byte counts (6,000 bytes) lie
    /// past the first 512 KiB and do not fit the window that holds the compression field.
    @Test func runLengthTableInTwoWindows() {
        let rows = 3 * 1000, layers = 1 << 20
        var b = ByteBuilder()
        b.ascii("8BPS"); b.u16be(1); b.zeros(6)
        b.u16be(3); b.u32be(1000); b.u32be(1); b.u16be(8); b.u16be(3)  // channels, rows, columns, depth, RGB
        b.u32be(0); b.u32be(0); b.u32be(UInt32(layers)); b.zeros(layers)  // colour mode data, resources, layers
        b.u16be(1)  // run-length
        for _ in 0..<rows { b.u16be(2) }
        for _ in 0..<rows { b.u8(0); b.u8(0x80) }
        let psd = b.bytes
        let whole = ImageSniffer.inspect(psd, budget: .verifying).detection
        #expect(whole.type == .psd && whole.completeness == .complete)
        let cut = Array(psd.prefix(psd.count - 1000))
        #expect(ImageSniffer.inspect(cut, budget: .verifying).detection.completeness == .truncated)
        // From a file (its read plan's far windows), and from streams.
        VerifyTests.recordDisagreements(cut, "cut in its rows", chunks: [1460, 65536], lengthKnown: [false, true])
    }

    /// A JP2 with 600 KiB of XML before a codestream box that runs to the end (its header past the
    /// first 512 KiB): cut, it is truncated from a file and from streams alike.
    @Test func jp2WithLargeMetadata() throws {
        var jp2 = try testImage("jpeg2000/jp2-openjpeg")
        let jp2c = try codestreamBox(jp2)
        jp2.replaceSubrange(jp2c..<jp2c + 4, with: [0, 0, 0, 0])
        let xml = 600 * 1024
        jp2.insert(contentsOf: [24, 16, 8, 0].map { UInt8(truncatingIfNeeded: xml >> $0) } + Array("xml ".utf8)
                   + [UInt8](repeating: 0x20, count: xml - 8), at: jp2c)
        #expect(ImageSniffer.inspect(jp2, budget: .verifying).detection.completeness == .complete)
        let cut = Array(jp2.prefix(jp2.count - 10))
        #expect(ImageSniffer.inspect(cut, budget: .verifying).detection.completeness == .truncated)
        VerifyTests.recordDisagreements(cut, "cut", chunks: [1460, 65536], lengthKnown: [false, true])
    }
}
