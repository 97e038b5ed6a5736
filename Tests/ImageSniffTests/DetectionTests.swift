import Foundation
import Testing
@testable import ImageSniff

/// A minimal baseline JPEG: SOI, APP0 JFIF, SOF0, SOS.
let minimalJPEG: [UInt8] = {
    var b = ByteBuilder()
    b.bytes += [0xFF, 0xD8, 0xFF, 0xE0]; b.u16be(16); b.ascii("JFIF\0"); b.bytes += [1, 1, 0, 0, 1, 0, 1, 0, 0]
    b.bytes += [0xFF, 0xC0]; b.u16be(11); b.bytes += [8, 0, 1, 0, 1, 1, 1, 0x11, 0]
    b.bytes += [0xFF, 0xDA]; b.u16be(8); b.bytes += [1, 1, 0, 0, 0x3F, 0]
    b.bytes += [0x00, 0x00, 0xFF, 0xD9]
    return b.bytes
}()

let minimalPNG: [UInt8] = {
    var b = ByteBuilder()
    b.bytes += [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
    b.u32be(13); b.ascii("IHDR"); b.u32be(1); b.u32be(1); b.bytes += [8, 2, 0, 0, 0]; b.u32be(0)
    b.u32be(0); b.ascii("IDAT"); b.u32be(0)
    b.u32be(0); b.ascii("IEND"); b.u32be(0)
    return b.bytes
}()

@Suite("Detection of hand-built structures")
struct DetectionTests {
    @Test func jpegAndItsRelatives() {
        #expect(sniff(minimalJPEG).type == .jpeg)
        #expect(sniff(minimalJPEG).confidence == .conclusive)
        // An APP2 MPF segment: MPO only when an MP entry is a multi-frame image (CIPA DC-007).
        func withMPF(_ types: [UInt32], bigEndian: Bool = false) -> [UInt8] {
            var mpf = ByteBuilder()
            func u16(_ v: UInt16) { bigEndian ? mpf.u16be(v) : mpf.u16le(v) }
            func u32(_ v: UInt32) { bigEndian ? mpf.u32be(v) : mpf.u32le(v) }
            mpf.ascii(bigEndian ? "MM\0*" : "II*\0"); u32(8)
            u16(2)  // MP Index IFD: version and MP entries
            u16(0xB000); u16(7); u32(4); mpf.ascii("0100")
            u16(0xB002); u16(7); u32(UInt32(16 * types.count)); u32(8 + 2 + 24 + 4)
            u32(0)  // next IFD
            for type in types { u32(type); u32(1000); u32(0); u16(0); u16(0) }
            var jpeg = Array(minimalJPEG[0..<20])
            jpeg += [0xFF, 0xE2] + [UInt8((mpf.bytes.count + 6) >> 8), UInt8((mpf.bytes.count + 6) & 0xFF)] + bytes("MPF\0") + mpf.bytes
            return jpeg + Array(minimalJPEG[20...])
        }
        #expect(sniff(withMPF([0x2002_0002, 0x0002_0002])).type == .mpo, "stereo pair (disparity)")
        #expect(sniff(withMPF([0x2002_0001, 0x0002_0001, 0x0002_0001], bigEndian: true)).type == .mpo, "panorama")
        #expect(sniff(withMPF([0x2003_0000, 0x0000_0000])).type == .jpeg, "primary and gain map (undefined)")
        #expect(sniff(withMPF([0x2003_0000, 0x0001_0001])).type == .jpeg, "primary and a large thumbnail")
        #expect(sniff(withMPF([])).type == .jpeg, "no entries")
        // JPEG-LS: SOF55 right after SOI.
        let ls: [UInt8] = [0xFF, 0xD8, 0xFF, 0xF7, 0x00, 0x0B, 8, 0, 1, 0, 1, 1, 1, 0x11, 0, 0xFF, 0xDA, 0, 8, 1, 1, 0, 0, 0, 0]
        #expect(sniff(ls).type == .jpegLS)
    }

    @Test func apngIsPNGAndAnimated() {
        var apng = Array(minimalPNG[0..<33])
        apng += [0, 0, 0, 8] + bytes("acTL") + [0, 0, 0, 2, 0, 0, 0, 0] + [0, 0, 0, 0]
        apng += Array(minimalPNG[33...])
        let d = sniff(apng)
        #expect(d.type == .png && d.isAnimated)
        #expect(!sniff(minimalPNG).isAnimated)
    }

    /// Text that only looks like magic is text (issue 3).
    @Test(arguments: ["GIF8 is the start of a GIF file.\n", "GIF89a is a version of GIF, see below.\n",
                      "GIF89a «déjà vu» — the café's sign\n",
                      "P1 means priority one\n", "P6 is the binary pixmap\n", "8BPS notes for the meeting\n",
                      "%!PS in a sentence is not PostScript\n", "BM is a text\n",
                      "the ftyp box comes first in an MP4 file\n", "FORM is a word\n", "II* not a tiff\n",
                      "MM* no\n", "RIFF is a container\n", "SIMPLE  = not really a FITS card\n"])
    func textThatLooksLikeMagic(text: String) {
        let d = sniff(bytes(text))
        #expect(d.type == .plainText, "\(text.debugDescription) -> \(d)")
        #expect(!d.type.isImage)
    }

    /// "GIF89a" then Latin-1 prose (one high byte) is text; "GIF89a" then noise is a damaged GIF.
    @Test func gifSignatureThenTextOrNoise() {
        // Byte 10 (0xE9) announces a colour table: the prose ends inside it, or runs past it.
        let latin1 = bytes("GIF89a caf") + [0xE9] + bytes(" au lait, see the notes below\n")
        #expect(sniff(latin1).type == .plainText)
        let longer = latin1 + bytes(String(repeating: "More words on the same line of notes. ", count: 4) + "\n")
        #expect(sniff(longer).type == .plainText)
        var noise = bytes("GIF89a") + [0xEA, 0xF5, 0xB7, 0x6A, 0x36, 0xBC, 0x72, 0x5B]
        var x: UInt32 = 12345
        for _ in 0..<200 { x = x &* 1_103_515_245 &+ 12345; noise.append(UInt8(truncatingIfNeeded: x >> 16)) }
        #expect(sniff(noise).type == .gif)
    }

    @Test func markupAndData() {
        #expect(sniff(bytes("<?xml version=\"1.0\"?>\n<!-- c -->\n<svg xmlns=\"http://www.w3.org/2000/svg\"/>")).type == .svg)
        #expect(sniff(bytes("<svg width=\"1\" height=\"1\"></svg>")).type == .svg)
        #expect(sniff(bytes("<!DOCTYPE html><html><body>x</body></html>")).type == .html)
        #expect(sniff(bytes("<?xml version=\"1.0\"?><root><a/></root>")).type == .xml)
        #expect(sniff(bytes("<root><a>1</a></root>\n")).type == .xml)
        // Prose that begins with angle brackets is not markup.
        #expect(sniff(bytes("<https://www.gnu.org/software/gettext/manual/>\nMore text.\n")).type == .plainText)
        #expect(sniff(bytes("<DRAFT!>\nThis is a draft.\n")).type == .plainText)
        #expect(sniff(bytes("<!-- comment -->\n# A Markdown title\n\nText.\n")).type == .plainText)
        #expect(sniff(bytes("{\"a\": [1, 2]}\n")).type == .json)
        #expect(sniff(bytes("[1, 2, 3]")).type == .json)
        #expect(sniff(bytes("#define x_width 8\n#define x_height 8\nstatic char x_bits[] = {0};\n")).type == .xbm)
        #expect(sniff(bytes("#define i_width 8\n#define i_height 8\n#define i_x_hot 1\n#define i_y_hot 2\nstatic unsigned char i_bits[] = {0};\n")).type == .xbm)
        // X11 reads only the array's `_bits` suffix: Ghostscript's icons name it apart.
        #expect(sniff(bytes("#define gs_m.xbm_width 32\n#define gs_m.xbm_height 32\nstatic unsigned char gs.m.bm_bits[] = {0};\n")).type == .xbm)
        // C source that defines a width is not a bitmap: the definitions must be a bitmap's.
        #expect(sniff(bytes("#define x_width 10\n#define x_height 20\nint main(void) { return x_width * x_height; }\n")).type != .xbm)
        #expect(sniff(bytes("#define x_width 10\n#define y_height 20\nstatic char x_bits[] = {0};\n")).type != .xbm)
        #expect(sniff(bytes("#define BUF_width 10 /* bytes */\n#define MAX 3\n")).type != .xbm)
        #expect(sniff([]).type == .data)
        #expect(sniff([0, 1, 2, 3, 4, 5, 6, 7, 200, 201, 3, 9]).type == .data)
    }

    /// SVGZ: gzip whose inflated prefix is an SVG document; other gzip stays gzip.
    /// PKM: the padded size is the image's rounded up to whole 4x4 blocks, computed without
    /// overflow for the largest 16-bit sizes.
    @Test func pkmSizes() {
        func pkm(_ version: String, type: UInt16, padded: (UInt16, UInt16), size: (UInt16, UInt16)) -> [UInt8] {
            func be(_ x: UInt16) -> [UInt8] { [UInt8(x >> 8), UInt8(x & 0xFF)] }
            return Array("PKM \(version)".utf8) + be(type) + be(padded.0) + be(padded.1) + be(size.0) + be(size.1) + [UInt8](repeating: 0, count: 8)
        }
        #expect(sniff(pkm("10", type: 0, padded: (32, 8), size: (30, 5))).type == .pkm)
        #expect(sniff(pkm("20", type: 11, padded: (4, 4), size: (1, 1))).type == .pkm)
        #expect(sniff(pkm("10", type: 1, padded: (4, 4), size: (4, 4))).type != .pkm, "ETC2 types need version 2")
        #expect(sniff(pkm("10", type: 0, padded: (0, 4), size: (0xFFFF, 1))).type != .pkm, "65535 pads to 65536, which 16 bits cannot state")
        #expect(sniff(pkm("10", type: 0, padded: (8, 4), size: (4, 4))).type != .pkm)
    }

    @Test func gzipHoldingSVG() {
        func storedGzip(_ payload: [UInt8]) -> [UInt8] {
            var b = ByteBuilder()
            b.bytes += [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 3]
            b.u8(1); b.u16le(UInt16(payload.count)); b.u16le(~UInt16(payload.count))
            b.bytes += payload
            b.u32le(0); b.u32le(UInt32(payload.count))
            return b.bytes
        }
        #expect(sniff(storedGzip(bytes("<svg xmlns=\"http://www.w3.org/2000/svg\"/>"))).type == .svg)
        #expect(sniff(storedGzip(bytes("just some text, compressed"))).type == .gzip)
        // The first bytes decide that a stream holds no markup; a byte order mark and white
        // space before the root, however long, do not.
        let svg = bytes("<svg xmlns=\"http://www.w3.org/2000/svg\"/>")
        #expect(sniff(storedGzip([0xEF, 0xBB, 0xBF] + svg)).type == .svg)
        #expect(sniff(storedGzip(bytes(String(repeating: " ", count: 100)) + svg)).type == .svg)
        #expect(sniff(storedGzip([0xEF, 0xBB, 0xBF] + bytes(String(repeating: "\n", count: 70)) + svg)).type == .svg)
        #expect(sniff(storedGzip(bytes(".TH LS 1\n") + svg)).type == .gzip)
        #expect(sniff(storedGzip([0, 1, 2, 3, 4, 5])).type == .gzip)
        // A damaged stream is still gzip, never an error or a trap.
        var broken = storedGzip(bytes("<svg/>"))
        broken[11] ^= 0xFF
        #expect(sniff(broken).type == .gzip)
    }

    @Test func netpbmHeadersParse() {
        #expect(sniff(bytes("P1\n# c\n2 2\n0 1\n1 0\n")).type == .pbm)
        #expect(sniff(bytes("P5 2 2 255\n") + [0, 1, 2, 3]).type == .pgm)
        #expect(sniff(bytes("P6\n2 2\n255\n") + [UInt8](repeating: 7, count: 12)).type == .ppm)
        #expect(sniff(bytes("P7\nWIDTH 1\nHEIGHT 1\nDEPTH 1\nMAXVAL 255\nTUPLTYPE GRAYSCALE\nENDHDR\n") + [0]).type == .pam)
        #expect(sniff(bytes("PF\n1 1\n-1.0\n") + [0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0]).type == .pfm)
        #expect(sniff(bytes("Ph\n1 1\n-1.0\n") + [0, 0]).type == .phm)
    }

    @Test func isoBMFFBrandsMajorAndCompatible() {
        func ftyp(_ major: String, _ compatible: [String]) -> [UInt8] {
            var b = ByteBuilder()
            b.u32be(UInt32(16 + 4 * compatible.count)); b.ascii("ftyp"); b.ascii(major); b.u32be(0)
            for c in compatible { b.ascii(c) }
            b.u32be(8); b.ascii("free")
            return b.bytes
        }
        #expect(sniff(ftyp("heic", ["mif1", "heic"])).type == .heic)
        #expect(sniff(ftyp("mif1", ["mif1", "avif", "miaf"])).type == .avif, "a mif1 AVIF is AVIF, not HEIF")
        #expect(sniff(ftyp("mif1", ["mif1", "heic"])).type == .heic)
        #expect(sniff(ftyp("avis", ["avif", "msf1"])).isAnimated)
        #expect(sniff(ftyp("msf1", ["msf1", "hevc"])).type == .heics)
        #expect(sniff(ftyp("avci", ["mif1"])).type == .avci)
        #expect(sniff(ftyp("avcs", ["msf1"])).type == .avcs)
        #expect(sniff(ftyp("isom", ["isom", "mp41", "mif1"])).type == .mpeg4, "video stays video")
        #expect(sniff(ftyp("qt  ", ["qt  "])).type == .quickTime)
        #expect(sniff(ftyp("M4A ", ["M4A ", "isom"])).type == .mpeg4Audio)
        #expect(sniff(ftyp("3gp5", ["3gp5"])).type == .threeGPP)
        let bareHEIF = sniff(ftyp("mif1", ["mif1"]))
        #expect(bareHEIF.type == .heif && bareHEIF.confidence == .family)
        #expect(sniff(ftyp("mif1", ["mif1"]), hint: "heic").type == .heic)
        #expect(sniff(ftyp("mif1", ["mif1"]), hint: "heic").confidence == .hinted)
    }

    /// The hint rules (HowHintsWork).
    @Test func hintRules() {
        // Rule 1: conclusive content wins, the mislabelled JPEG is a JPEG.
        #expect(sniff(minimalJPEG, hint: "public.tiff").type == .jpeg)
        #expect(sniff(minimalJPEG, hint: "aMislabeledJPEGImage.tiff".split(separator: ".").last.map(String.init)).type == .jpeg)
        #expect(sniff(minimalPNG, hint: "public.jpeg").type == .png)
        // Rule 2: a family answer takes a hint naming a member.
        let nikonTIFF = makeTIFF(entries: [(0x010F, 2, .ascii("NIKON CORPORATION")), (0x0100, 3, .short(1)), (0x0101, 3, .short(1))])
        let family = sniff(nikonTIFF)
        #expect(family.type == .tiff && family.confidence == .family)
        let hinted = sniff(nikonTIFF, hint: "nef")
        #expect(hinted.type == .nef && hinted.confidence == .hinted)
        #expect(sniff(nikonTIFF, hint: "public.jpeg").type == .tiff, "a hint outside the family is ignored")
        // Rule 4: hints that name nothing are ignored.
        #expect(sniff(nikonTIFF, hint: "no-such-thing").type == .tiff)
    }

    @Test func tgaWithoutFooterNeedsTheHint() {
        var b = ByteBuilder()
        b.bytes += [0, 0, 10, 0, 0, 0, 0, 0]; b.u16le(0); b.u16le(0); b.u16le(2); b.u16le(2); b.bytes += [24, 0]
        b.bytes += [0x83, 1, 2, 3]  // one RLE packet: four pixels
        // Packets that decode to exactly width × height pixels and end the file are evidence.
        #expect(sniff(b.bytes).type == .tga && sniff(b.bytes).confidence == .likely)
        // Bytes after the image data (as in a TGA with a developer area but no footer): only the hint decides.
        b.bytes += [UInt8](repeating: 0x55, count: 40)
        #expect(sniff(b.bytes).type == .data)
        let hinted = sniff(b.bytes, hint: "tga")
        #expect(hinted.type == .tga && hinted.confidence == .hinted)
        // With a TGA 2.0 footer the bytes decide.
        var footer = b.bytes
        footer += [0, 0, 0, 0, 0, 0, 0, 0] + bytes("TRUEVISION-XFILE.\0")
        #expect(sniff(footer).type == .tga && sniff(footer).confidence == .conclusive)
    }

    @Test func prefixCallersAreToldWhatIsMissing() {
        let d = ImageSniffer.detect(prefix: Array(minimalJPEG[0..<8]), totalLength: 100_000)
        guard case .needsMoreData(let n) = d.completeness else {
            Issue.record("expected needsMoreData, got \(d)")
            return
        }
        #expect(n > 8)
        let cut = sniff(Array(minimalPNG[0..<10]))
        #expect(cut.type == .png && cut.completeness == .truncated)
        #expect(sniff([0x89, 0x50]).type == .data)
    }
}

@Suite("Camera RAW headers built from the published structures")
struct RawStructureTests {
    @Test func dngVersionWinsOverMake() {
        let dng = makeTIFF(entries: [(0x010F, 2, .ascii("NIKON CORPORATION")), (0xC612, 1, .undefined(4)), (0x0103, 3, .short(34713))])
        #expect(sniff(dng).type == .dng)
    }

    @Test func vendorCompressionDecides() {
        #expect(sniff(makeTIFF(entries: [(0x010F, 2, .ascii("NIKON CORPORATION")), (0x0103, 3, .short(34713))])).type == .nef)
        #expect(sniff(makeTIFF(entries: [(0x010F, 2, .ascii("NIKON")), (0x0103, 3, .short(6)), (0x0106, 3, .short(32803))])).type == .nrw)
        #expect(sniff(makeTIFF(entries: [(0x010F, 2, .ascii("SONY")), (0x7000, 3, .short(0))])).type == .arw)
        #expect(sniff(makeTIFF(entries: [(0x010F, 2, .ascii("SONY")), (0x0110, 2, .ascii("DSC-R1")), (0xC634, 1, .undefined(4))])).type == .sr2)
        #expect(sniff(makeTIFF(entries: [(0x010F, 2, .ascii("PENTAX Corporation")), (0x0103, 3, .short(65535))])).type == .pef)
        #expect(sniff(makeTIFF(entries: [(0x010F, 2, .ascii("SAMSUNG")), (0x0103, 3, .short(32770))])).type == .srw)
        #expect(sniff(makeTIFF(entries: [(0x010F, 2, .ascii("Kodak")), (0x0103, 3, .short(65000))])).type == .kodakRaw)
        #expect(sniff(makeTIFF(entries: [(0x010F, 2, .ascii("Leaf")), (0x8606, 1, .undefined(4))])).type == .mos)
    }

    @Test func aCameraMakersPlainTIFFStaysTIFF() {
        let scan = makeTIFF(entries: [(0x010F, 2, .ascii("NIKON")), (0x0103, 3, .short(5)), (0x0106, 3, .short(2))])
        let d = sniff(scan)
        #expect(d.type == .tiff)
        let plain = makeTIFF(entries: [(0x0103, 3, .short(1)), (0x0106, 3, .short(2))])
        #expect(sniff(plain).type == .tiff && sniff(plain).confidence == .conclusive)
    }

    @Test func rawWithTheirOwnMagic() {
        var cr2 = ByteBuilder(); cr2.ascii("II"); cr2.u16le(42); cr2.u32le(16); cr2.ascii("CR"); cr2.bytes += [2, 0]; cr2.zeros(40)
        #expect(sniff(cr2.bytes).type == .cr2)
        #expect(sniff(bytes("II\u{1A}\0\0\0HEAPCCDR") + [UInt8](repeating: 0, count: 20)).type == .crw)
        #expect(sniff(bytes("IIRO") + [8, 0, 0, 0, 0, 0]).type == .orf)
        #expect(sniff(bytes("MMOR") + [0, 0, 0, 8, 0, 0]).type == .orf)
        #expect(sniff(bytes("FUJIFILMCCD-RAW 0201FF383501")).type == .raf)
        #expect(sniff(bytes("FOVb") + [0, 0, 3, 0] + [UInt8](repeating: 0, count: 20)).type == .x3f)
        #expect(sniff([0] + bytes("MRM") + [0, 0, 0, 8]).type == .mrw)
        #expect(sniff([0] + bytes("MRI") + [8, 0, 0, 0, 0] + bytes("PRD") + [24, 0, 0, 0]).type == .mrw, "little-endian MRW")
        #expect(sniff([0] + bytes("MRI") + [8, 0, 0, 0, 0] + bytes("XYZ") + [24, 0, 0, 0]).type == .data, "MRI needs a known block")
        #expect(sniff(bytes("rawzor") + [0, 1, 2]).type == .rwz)
        var rw2 = ByteBuilder(); rw2.ascii("IIU\0"); rw2.u32le(24); rw2.bytes += [0x88, 0xE7, 0x74, 0xD8]; rw2.zeros(12)
        rw2.u16le(1); rw2.u16le(0x010F); rw2.u16le(2); rw2.u32le(6); rw2.u32le(42); rw2.u32le(0); rw2.ascii("LEICA\0")
        #expect(sniff(rw2.bytes).type == .rwl)
    }

    @Test func cr3AndCRMByTheirCompressorVersion() {
        func canon(_ version: String) -> [UInt8] {
            var b = ByteBuilder()
            b.u32be(24); b.ascii("ftypcrx "); b.u32be(1); b.ascii("crx isom")
            b.u32be(8 + 8 + 16 + 8 + 30); b.ascii("moov")
            b.u32be(8 + 16 + 8 + 30); b.ascii("uuid"); b.bytes += [0x85, 0xC0, 0xB6, 0x87, 0x82, 0x0F, 0x11, 0xE0, 0x81, 0x11, 0xF4, 0xCE, 0x46, 0x2B, 0x6A, 0x48]
            b.u32be(8 + 30); b.ascii("CNCV"); b.ascii(version)
            return b.bytes
        }
        #expect(sniff(canon("CanonCR3_001/01.09.00/00.00.00")).type == .cr3)
        #expect(sniff(canon("CanonCRM0001/02.09.00/00.00.00")).type == .crm)
        #expect(!sniff(canon("CanonCRM0001/02.09.00/00.00.00")).type.isImage)
        // Cut before the CNCV string: the crx family node, which a hint settles (rule 2) and a
        // hint outside the family does not.
        let cut = Array(canon("CanonCR3_001/01.09.00/00.00.00").prefix(40))
        #expect(sniff(cut).type == .cr3 && sniff(cut).confidence == .family)
        #expect(sniff(cut, hint: "crm").type == .crm && sniff(cut, hint: "crm").confidence == .hinted)
        #expect(sniff(cut, hint: "cr3").type == .cr3 && sniff(cut, hint: "cr3").confidence == .hinted)
        #expect(sniff(cut, hint: "heic").confidence == .family, "a hint outside the family is ignored")
    }
}

@Suite("Tolerant headers, chunk order and old versions, as other projects' test files hold them")
struct ForeignTestFilesTests {
    /// An uncompressed 2 x 2, 24-bit TGA (type 2) without a colour map, its colour-map entry
    /// size byte set to `entrySize`.
    static func tga(entrySize: UInt8, mapLength: UInt16 = 0) -> [UInt8] {
        var b = ByteBuilder()
        b.bytes += [0, 0, 2, 0, 0]; b.u16le(mapLength); b.u8(entrySize)
        b.u16le(0); b.u16le(0); b.u16le(2); b.u16le(2); b.bytes += [24, 0]
        b.zeros(2 * 2 * 3)
        return b.bytes
    }

    /// TGA 2.0, field 4: without a colour map the specification "should be set to zero", and
    /// readers skip it; an entry size left set is still a TGA, a map length is not.
    @Test func tgaWithAnEntrySizeButNoColourMap() throws {
        #expect(sniff(Self.tga(entrySize: 0)).type == .tga)
        for size: UInt8 in [15, 16, 24, 32] {
            let d = sniff(Self.tga(entrySize: size))
            #expect(d.type == .tga && d.confidence == .likely, "entry size \(size): \(d)")
        }
        #expect(sniff(Self.tga(entrySize: 7)).type == .data, "not an entry size")
        #expect(sniff(Self.tga(entrySize: 24, mapLength: 2)).type == .data, "a map of two entries and no colour-map type")
        let file = Manifest.entries.first { $0.file == "foreign/tga-entry-size-without-map" }
        #expect(try sniff(#require(file).bytes()).type == .tga)
    }

    /// TGA without a footer, as gdk-pixbuf's reference images have them: up to
    /// `Magicless.tgaTrailer` bytes after an uncompressed image's pixels, or a run-length packet
    /// that runs past the image (readers clip it), under a strongly valid header. Likely.
    @Test func tgaTrailerAndClippedRun() throws {
        for file in ["foreign/tga-trailing-bytes", "foreign/tga-rle-run-past-image"] {
            let d = sniff(try #require(Manifest.entries.first { $0.file == file }).bytes())
            #expect(d.type == .tga && d.confidence == .likely, "\(file): \(d)")
        }
        let pixels = Self.tga(entrySize: 0)
        #expect(sniff(pixels + [UInt8](repeating: 0, count: Magicless.tgaTrailer)).type == .tga)
        #expect(sniff(pixels + [UInt8](repeating: 0, count: Magicless.tgaTrailer + 1)).type == .data, "more than a trailer")
        // A weak header (alpha bits a 24-bit image cannot have) is held to the exact length.
        var weak = pixels
        weak[17] = 4
        #expect(sniff(weak).type == .tga)
        #expect(sniff(weak + [0, 0, 0, 0]).type == .data)
        var run = try #require(Manifest.entries.first { $0.file == "foreign/tga-rle-run-past-image" }).bytes()
        run[17] = 4
        #expect(sniff(run).type == .data, "a run past the image under a weak header")
    }

    /// PCX: the reserved byte at 64 "should be zero" (ZSoft's reference); readers ignore it.
    @Test func pcxWithANonZeroReservedByte() throws {
        var pcx = try #require(Manifest.entries.first { $0.file == "pcx/imagemagick" }).bytes()
        #expect(sniff(pcx).type == .pcx && sniff(pcx).confidence == .conclusive)
        pcx[64] = 1
        #expect(sniff(pcx).type == .pcx && sniff(pcx).confidence == .likely)
        let file = try #require(Manifest.entries.first { $0.file == "foreign/pcx-reserved-nonzero" }).bytes()
        #expect(sniff(file).type == .pcx)
        #expect(ImageSniffer.inspect(file).properties.width == 32)
    }

    /// An icon or cursor cut before its later images begin (a stranger's partial download of a
    /// five-size favicon was data): named, and truncated, as long as its first image's header is
    /// there; cut before that, not named.
    @Test(arguments: ["ico/imagemagick", "ico/cursor"])
    func iconCutBeforeItsLaterImages(_ file: String) throws {
        let icon = try #require(Manifest.entries.first { $0.file == file }).bytes()
        let type = sniff(icon).type
        let second = Int(icon[34]) | Int(icon[35]) << 8 | Int(icon[36]) << 16 | Int(icon[37]) << 24
        let directoryEnd = 6 + 16 * Int(icon[4])
        try #require(icon[4] >= 2 && second > directoryEnd + 8 && second < icon.count)
        for n in [second - 1, (directoryEnd + second) / 2, directoryEnd + 8] {
            let d = sniff(Array(icon.prefix(n)))
            #expect(d.type == type && d.completeness == .truncated, "\(file) cut to \(n): \(d)")
        }
        #expect(sniff(Array(icon.prefix(directoryEnd))).type == .data, "cut where its first image begins")
    }

    /// PGX: a whole 1 x 1 8-bit file is 15 bytes; its header is read as far as it goes.
    @Test func pgxOfOnePixel() throws {
        let one = Array("PG ML + 8 1 1\n".utf8) + [0x7F]
        let d = sniff(one)
        #expect(d.type == .pgx && d.completeness == .complete, "\(d)")
        #expect(ImageSniffer.inspect(one).properties.width == 1)
        // Cut inside the header: not named, and more is asked for.
        for n in 1..<14 { #expect(sniff(Array(one.prefix(n))).type != .pgx, "\(n) bytes") }
        let file = try #require(Manifest.entries.first { $0.file == "foreign/pgx-openjpeg-1x1" }).bytes()
        #expect(file.count == 15 && sniff(file).type == .pgx && sniff(file).completeness == .complete)
    }

    /// Text in UTF-16 after its byte order mark, each code unit in either byte order.
    static func utf16(_ text: String, bigEndian: Bool) -> [UInt8] {
        var b: [UInt8] = bigEndian ? [0xFE, 0xFF] : [0xFF, 0xFE]
        for unit in text.utf16 { b += bigEndian ? [UInt8(unit >> 8), UInt8(unit & 0xFF)] : [UInt8(unit & 0xFF), UInt8(unit >> 8)] }
        return b
    }

    /// XML in UTF-16 (XML 1.0, 4.3.3: UTF-16 with its byte order mark): markup judged by its code
    /// units as UTF-8 markup is by its bytes.
    @Test(arguments: [false, true])
    func markupInUTF16(_ bigEndian: Bool) throws {
        let xml = Self.utf16("<?xml version=\"1.0\" encoding=\"UTF-16\"?>\n<catalog><item name=\"rosé\"/></catalog>\n", bigEndian: bigEndian)
        #expect(sniff(xml).type == .xml)
        let svg = Self.utf16("<?xml version=\"1.0\"?>\n<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"4\" height=\"4\"/>\n", bigEndian: bigEndian)
        #expect(sniff(svg).type == .svg)
        let html = Self.utf16("<!DOCTYPE html>\n<html><body>é</body></html>\n", bigEndian: bigEndian)
        #expect(sniff(html).type == .html)
        let prose = Self.utf16("<https://example.com> is where the notes are kept.\n", bigEndian: bigEndian)
        #expect(sniff(prose).type == .plainText)
        #expect(sniff(Self.utf16("Plain words, nothing more.\n", bigEndian: bigEndian)).type == .plainText)
        let file = try #require(Manifest.entries.first { $0.file == (bigEndian ? "foreign/xml-utf16be-iconv" : "foreign/xml-utf16le-xmllint") })
        #expect(try sniff(file.bytes()).type == .xml)
    }

    /// FITS: a SIMPLE card in free format (FITS 4.0 4.2.1 wants the mandatory keywords fixed,
    /// T in column 30; astropy and ImageMagick read it anyway) over binary data is FITS, likely,
    /// never plain text; a text line that starts like it is not.
    @Test func fitsWithAFreeFormatSimpleCard() throws {
        func fits(_ simple: String, data: [UInt8] = [0x00, 0x80, 0xFF, 0x01]) -> [UInt8] {
            var header = simple.padding(toLength: 80, withPad: " ", startingAt: 0)
            header += "BITPIX  =                    8".padding(toLength: 80, withPad: " ", startingAt: 0)
            header += "NAXIS   =                    0".padding(toLength: 80, withPad: " ", startingAt: 0)
            header += "END".padding(toLength: 2880 - 240, withPad: " ", startingAt: 0)
            return Array(header.utf8) + data
        }
        let fixed = sniff(fits("SIMPLE  =                    T"))
        #expect(fixed.type == .fits && fixed.confidence == .conclusive)
        for card in ["SIMPLE  = T", "SIMPLE  =     T / conforms", "SIMPLE  = F"] {
            let d = sniff(fits(card))
            #expect(d.type == .fits && d.confidence == .likely, "\(card): \(d)")
        }
        #expect(sniff(fits("SIMPLE  = True")).type != .fits)
        #expect(sniff(Array("SIMPLE  = Tuesday's notes, kept as text\n".utf8)).type == .plainText)
        let file = try #require(Manifest.entries.first { $0.file == "foreign/fits-free-format-simple" }).bytes()
        #expect(sniff(file).type == .fits)
        #expect(ImageSniffer.inspect(file).properties.width == 32)
    }

    /// EA IFF 85: property chunks in any order before BODY. An ILBM whose BMHD follows an ANNO
    /// (or a `(c) ` chunk) is an ILBM and states its size; one with no BMHD before BODY is not.
    @Test func ilbmWithItsHeaderAfterOtherChunks() throws {
        func ilbm(_ chunks: [(String, [UInt8])]) -> [UInt8] {
            var body: [UInt8] = Array("ILBM".utf8)
            for (id, data) in chunks {
                var b = ByteBuilder()
                b.ascii(id); b.u32be(UInt32(data.count)); b.bytes += data
                if data.count % 2 == 1 { b.u8(0) }
                body += b.bytes
            }
            var form = ByteBuilder()
            form.ascii("FORM"); form.u32be(UInt32(body.count))
            return form.bytes + body
        }
        var bmhd = ByteBuilder()
        bmhd.u16be(7); bmhd.u16be(5); bmhd.zeros(4); bmhd.bytes += [1, 0, 0, 0]; bmhd.zeros(8)
        let anno = ("ANNO", Array("made by hand".utf8) + [0x21])
        let copyright = ("(c) ", Array("1989".utf8))
        let file = ilbm([anno, copyright, ("CMAP", [0, 0, 0, 255, 255, 255]), ("BMHD", bmhd.bytes), ("BODY", [0xFF, 0xFF])])
        #expect(sniff(file).type == .ilbm)
        let p = ImageSniffer.inspect(file).properties
        #expect(p.width == 7 && p.height == 5)
        #expect(sniff(ilbm([anno, ("BODY", [0xFF, 0xFF]), ("BMHD", bmhd.bytes)])).type == .data, "BMHD after BODY")
        #expect(sniff(ilbm([("AN\u{1}O", [1, 2]), ("BMHD", bmhd.bytes)])).type == .data, "not a chunk ID")
        let real = try #require(Manifest.entries.first { $0.file == "foreign/ilbm-anno-before-bmhd" }).bytes()
        #expect(sniff(real).type == .ilbm)
        #expect(ImageSniffer.inspect(real).properties.width == 32)
    }

    /// PICT version 1 (Inside Macintosh: Imaging With QuickDraw, A-2): the opcode `11 01`, a
    /// picture size that is the data's and EndOfPicture (`FF`) at its end; with or without the
    /// 512-byte header. Without the size or the end it stays unknown (two bytes of magic).
    @Test func pictVersion1() throws {
        let file = try #require(Manifest.entries.first { $0.file == "foreign/pict-v1-bitsrect" }).bytes()
        let d = sniff(file)
        #expect(d.type == .pict && d.confidence == .likely)
        let p = ImageSniffer.inspect(file).properties
        #expect(p.width == 8 && p.height == 8)
        let headerless = Array(file.dropFirst(512))
        #expect(sniff(headerless).type == .pict)
        #expect(sniff(headerless + [0]).type == .pict, "a pad byte")
        #expect(sniff(headerless + [0, 0]).type == .data, "picSize is not the data's")
        var noEnd = headerless
        noEnd[noEnd.count - 1] = 0
        #expect(sniff(noEnd).type == .data, "no EndOfPicture")
        #expect(sniff(noEnd, hint: "pict").type == .pict, "a hint still names it")
    }

    /// OS/2 Presentation Manager bitmap files: arrays (`BA`), icons (`IC`, `CI`) and pointers
    /// (`PT`, `CP`), with their sizes (an icon's mask bitmap is twice its height); Emacs's
    /// BABYL mail files, which also start with `BA`, are not arrays.
    @Test func os2BitmapFiles() throws {
        let expected: [(String, ImageType, Int, Int)] = [
            ("foreign/os2-bitmap-array", .os2BitmapArray, 32, 32), ("foreign/os2-color-icon", .os2Icon, 32, 32),
            ("foreign/os2-pointer", .os2Pointer, 32, 32),
        ]
        for (file, type, w, h) in expected {
            let bytes = try #require(Manifest.entries.first { $0.file == file }).bytes()
            let inspection = ImageSniffer.inspect(bytes)
            #expect(inspection.detection.type == type && inspection.detection.confidence == .conclusive, "\(file)")
            #expect(inspection.properties.width == w && inspection.properties.height == h, "\(file): \(inspection.properties)")
        }
        // A colour pointer is an icon's layout under CP; a monochrome icon a pointer's under IC.
        var pointer = try #require(Manifest.entries.first { $0.file == "foreign/os2-color-icon" }).bytes()
        pointer[0] = UInt8(ascii: "C"); pointer[1] = UInt8(ascii: "P")
        #expect(sniff(pointer).type == .os2Pointer)
        var icon = try #require(Manifest.entries.first { $0.file == "foreign/os2-pointer" }).bytes()
        icon[0] = UInt8(ascii: "I"); icon[1] = UInt8(ascii: "C")
        #expect(sniff(icon).type == .os2Icon)
        #expect(sniff(Array("BABYL OPTIONS: -*- rmail -*-\nVersion: 5\nLabels:\nNote:   This is the header of an rmail file.\n\u{1F}\n".utf8)).type != .os2BitmapArray)
        #expect(sniff(Array("ICONS and pictures, a list kept as text for the catalogue of the collection.\n".utf8)).type == .plainText)
    }

    /// BigTIFF's IFD0 is walked as a classic TIFF's: a BigTIFF DNG (tifffile, DNGVersion in
    /// IFD0) is a DNG, a plain BigTIFF stays a conclusive TIFF, and one whose IFD0 offset is
    /// out of reason is the TIFF family node (not proven plain), which a hint refines.
    @Test func bigTIFFIsWalked() throws {
        let dng = try #require(Manifest.entries.first { $0.file == "foreign/dng-bigtiff-tifffile" }).bytes()
        #expect(sniff(dng).type == .dng && sniff(dng).confidence == .conclusive)
        let plain = try #require(Manifest.entries.first { $0.file == "tiff/bigtiff-le" }).bytes()
        #expect(sniff(plain).type == .tiff && sniff(plain).confidence == .conclusive)
        var unread = Array(plain.prefix(64))
        for i in 8..<16 { unread[i] = 0xFF }
        #expect(sniff(unread).type == .tiff && sniff(unread).confidence == .family)
        #expect(sniff(unread, hint: "dng").type == .dng)
    }

    /// The formats issue 29 found unnamed, each with its size, and a near miss of each refused:
    /// a check takes what real writers produce and refuses what no reader would open.
    @Test func formatsNamedForIssue29() throws {
        let expected: [(String, ImageType, Detection.Confidence, Int?, Int?)] = [
            ("foreign/rla-oiiotool", .rla, .likely, 32, 32), ("foreign/cgm-plotutils", .cgm, .conclusive, nil, nil),
            ("foreign/analyze-nibabel", .analyze, .likely, 6, 5), ("foreign/analyze-nibabel-be", .analyze, .likely, 6, 5),
            ("foreign/basis-uastc", .basis, .conclusive, 8, 8), ("foreign/nie-bgra", .nie, .conclusive, 8, 6),
            ("foreign/nia-two-frames", .nia, .conclusive, 8, 6), ("foreign/iff-rgb8", .iffRGB8, .conclusive, 16, 16),
            ("foreign/iff-deep", .iffDEEP, .conclusive, 16, 12), ("foreign/iff-tvpp", .tvpaintTVPP, .conclusive, 16, 12),
        ]
        func bytes(_ file: String) throws -> [UInt8] { try #require(Manifest.entries.first { $0.file == file }).bytes() }
        for (file, type, confidence, w, h) in expected {
            let inspection = ImageSniffer.inspect(try bytes(file))
            #expect(inspection.detection.type == type && inspection.detection.confidence == confidence, "\(file): \(inspection.detection)")
            #expect(inspection.properties.width == w && inspection.properties.height == h, "\(file): \(inspection.properties)")
        }
        #expect(sniff(try bytes("foreign/nia-two-frames")).isAnimated)
        func changed(_ file: String, _ edits: [(Int, UInt8)]) throws -> [UInt8] {
            var b = try bytes(file)
            for (o, value) in edits { b[o] = value }
            return b
        }
        // RLA: another revision; a scanline offset inside the header and table.
        #expect(sniff(try changed("foreign/rla-oiiotool", [(27, 0xFF)])).type != .rla)
        #expect(sniff(try changed("foreign/rla-oiiotool", [(740, 0), (741, 0), (742, 0), (743, 16)])).type != .rla)
        // CGM: METAFILE VERSION must follow BEGIN METAFILE; its string must fill the parameters.
        #expect(sniff(try changed("foreign/cgm-plotutils", [(12, 0x10), (13, 0x42)])).type != .cgm)
        #expect(sniff(try changed("foreign/cgm-plotutils", [(2, 7)])).type != .cgm)
        // Analyze: NIfTI-1's magic makes it NIfTI; a data type whose bits disagree is nothing.
        #expect(sniff(try changed("foreign/analyze-nibabel", [(344, 0x6E), (345, 0x69), (346, 0x31), (347, 0)])).type == .nifti)
        #expect(sniff(try changed("foreign/analyze-nibabel", [(72, 8)])).type != .analyze)
        // Basis: another header size; more images than slices.
        #expect(sniff(try changed("foreign/basis-uastc", [(4, 78)])).type != .basis)
        #expect(sniff(try changed("foreign/basis-uastc", [(17, 2)])).type != .basis)
        // NIE: a version byte other than FF; a third configuration byte other than n or p.
        #expect(sniff(try changed("foreign/nie-bgra", [(4, 0xFE)])).type != .nie)
        #expect(sniff(try changed("foreign/nie-bgra", [(6, UInt8(ascii: "x"))])).type != .nie)
        // NIA: the first frame's NIE must repeat the animation's configuration and size.
        #expect(sniff(try changed("foreign/nia-two-frames", [(32, 9)])).type != .nia)
        // DEEP: a DGBL of another length is not DEEP's header.
        #expect(sniff(try changed("foreign/iff-deep", [(19, 10)])).type != .iffDEEP)
    }
}

/// `Text.isText` reads eight bytes at a time while they are printable ASCII and hands the first
/// other byte to its byte rules: it must answer as those rules alone do, wherever in a word the
/// other byte lies (a line feed, DEL, a control byte, a UTF-8 sequence, or one cut short).
struct TextWindowTests {
    /// The rules one byte at a time: white space and a few controls pass, other controls and DEL
    /// do not; UTF-8 sequences must be whole (unless the window, not the data, cuts the last
    /// one); without valid UTF-8, at most one byte in eight may be high.
    static func reference(_ bytes: [UInt8], dataEnds: Bool) -> Bool {
        var utf8 = true, high = 0, i = 0
        while i < bytes.count {
            let b = bytes[i]
            if b < 0x80 {
                if b == 0x7F || (b < 0x20 && ![0x08, 0x09, 0x0A, 0x0C, 0x0D, 0x1B].contains(b)) { return false }
                i += 1
                continue
            }
            high += 1
            let length = (0xC2...0xDF).contains(b) ? 2 : (0xE0...0xEF).contains(b) ? 3 : (0xF0...0xF4).contains(b) ? 4 : 0
            if utf8 && length > 0 {
                let tail = bytes[(i + 1)..<min(bytes.count, i + length)]
                if tail.allSatisfy({ $0 & 0xC0 == 0x80 }) && (tail.count == length - 1 || !dataEnds) {
                    i += length
                    continue
                }
            }
            utf8 = false
            i += 1
        }
        return utf8 || high * 8 <= bytes.count
    }

    @Test func wordsAnswerAsBytes() {
        let alphabet: [UInt8] = [0x41, 0x20, 0x7E, 0x0A, 0x09, 0x00, 0x1F, 0x7F, 0x80, 0xC3, 0xA9, 0xE2, 0x82, 0xAC, 0xF0, 0x9F, 0xFF]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(truncatingIfNeeded: state >> 33)
        }
        var checked = 0
        for _ in 0..<20_000 {
            let count = next() % 40
            // Mostly printable, so that words pass and the odd byte lands anywhere in one.
            let bytes = (0..<count).map { _ in next() % 4 == 0 ? alphabet[next() % alphabet.count] : UInt8(0x21 + next() % 94) }
            for dataEnds in [false, true] {
                let got = bytes.withUnsafeBytes { Text.isText(ByteView(base: $0), upTo: bytes.count, dataEndsAtView: dataEnds) }
                #expect(got == Self.reference(bytes, dataEnds: dataEnds), "\(bytes) dataEnds: \(dataEnds)")
                checked += 1
            }
        }
        #expect(checked == 40_000)
    }
}

/// The inflater gives what gzip compressed, byte for byte, for streams gzip, Python's zlib and
/// fixed codes wrote (the test images' gzip and SVGZ files, whose sources are test images too), and
/// a prefix of it when the stream is cut.
struct InflateTests {
    /// A compressed block and then a stored one (as zlib writes after a flush): the stored block
    /// starts at the byte boundary after the compressed one's last bit, wherever the decoder's
    /// bits stood. Made by Python's zlib (`compressobj(6, 8, 31)`, the first 10 bytes then
    /// `Z_SYNC_FLUSH`, then the rest and `flush()`); a stranger's report, where the SVG inside was
    /// called gzip.
    @Test func storedBlockAfterACompressedOne() throws {
        let gz: [UInt8] = [
            0x1F, 0x8B, 0x08, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0xB2, 0x29, 0x2E, 0x4B, 0x57, 0xA8,
            0xC8, 0xCD, 0xC9, 0x2B, 0xB6, 0x55, 0xCA, 0x28, 0x29, 0x29, 0xB0, 0xD2, 0xD7, 0x2F, 0x2F, 0x2F,
            0xD7, 0x2B, 0x37, 0xD6, 0xCB, 0x2F, 0x4A, 0xD7, 0x37, 0x32, 0x30, 0x30, 0xD0, 0x2F, 0x2E, 0x4B,
            0x57, 0x52, 0x28, 0xCF, 0x4C, 0x29, 0xC9, 0xB0, 0x55, 0x32, 0x34, 0x50, 0x02, 0x04, 0x30, 0x00,
            0xCF, 0xFF, 0x20, 0x68, 0x65, 0x69, 0x67, 0x68, 0x74, 0x3D, 0x22, 0x31, 0x30, 0x22, 0x3E, 0x3C,
            0x72, 0x65, 0x63, 0x74, 0x20, 0x77, 0x69, 0x64, 0x74, 0x68, 0x3D, 0x22, 0x35, 0x22, 0x20, 0x68,
            0x65, 0x69, 0x67, 0x68, 0x74, 0x3D, 0x22, 0x35, 0x22, 0x2F, 0x3E, 0x3C, 0x2F, 0x73, 0x76, 0x67,
            0x3E, 0x0A, 0x53, 0xFA, 0xD0, 0xC5, 0x62, 0x00, 0x00, 0x00,
        ]
        let svg = Array("<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect width=\"5\" height=\"5\"/></svg>\n".utf8)
        let (output, outcome) = try #require(gz.withUnsafeBytes { Inflate.gunzipPrefix(ByteView(base: $0), limit: 1024) })
        #expect(outcome == .complete)
        #expect(output == svg)
        #expect(ImageSniffer.detect(gz).type == .svg)
    }

    /// Codes as zlib takes them: over-subscribed never; leaving part of the code space unused
    /// only for a literal or distance code of one one-bit code, or of none (a stranger's stream
    /// whose literal code left one 15-bit code unused was inflated, and called SVG, where zlib
    /// says "invalid literal/lengths set").
    @Test func incompleteCodesAsZlibTakesThem() {
        func H(lengths: [UInt8], unused: Inflate.Huffman.UnusedCodes = .oneOneBitCode) -> Inflate.Huffman? {
            Inflate.Huffman(lengths: lengths.span, unused: unused)
        }
        #expect(H(lengths: [1, 1]) != nil)
        #expect(H(lengths: [1, 2, 2]) != nil)
        #expect(H(lengths: [1, 1, 1]) == nil, "over-subscribed")
        #expect(H(lengths: [1, 2]) == nil, "a two-bit code unused")
        #expect(H(lengths: [1]) != nil, "one one-bit code: a distance code of one distance")
        #expect(H(lengths: [0, 1, 0]) != nil)
        #expect(H(lengths: [1], unused: .refused) == nil, "a code-length code must be complete")
        #expect(H(lengths: [UInt8](repeating: 5, count: 30), unused: .allowed) != nil, "the fixed distance code")
        #expect(H(lengths: [0, 0]) != nil, "no code at all: a block of literals only has no distances")
        #expect(H(lengths: [2, 2, 2]) == nil)
    }

    @Test(arguments: [
        ("archive/gzip", "netpbm/p3-plain-ppm", 1),
        ("svg/svgz-gzip", "svg/xml-prolog", 1),
        ("svg/svgz-pamtosvg-gzip-1", "svg/netpbm-pamtosvg", 1),
        ("svg/svgz-python-dynamic", "svg/doctype-and-comments", 20),
    ])
    func inflatesWhatWasCompressed(compressed: String, original: String, repeats: Int) throws {
        let gz = try #require(Manifest.entries.first { $0.file == compressed }).bytes()
        let once = try #require(Manifest.entries.first { $0.file == original }).bytes()
        let source = Array([[UInt8]](repeating: once, count: repeats).joined())
        for limit in [1, 64, 1024, 4096] {
            let (output, outcome) = try #require(gz.withUnsafeBytes { Inflate.gunzipPrefix(ByteView(base: $0), limit: limit) })
            #expect(outcome == .complete, "\(compressed), limit \(limit)")
            #expect(output == Array(source.prefix(limit)), "\(compressed), limit \(limit)")
        }
        // Cut anywhere, the output is a prefix of the source, and the input ran out.
        for cut in stride(from: 11, to: min(gz.count - 8, 600), by: 7) {
            let (output, outcome) = try #require(gz.prefix(cut).withUnsafeBytes { Inflate.gunzipPrefix(ByteView(base: $0), limit: 1 << 20) })
            #expect(source.starts(with: output), "\(compressed) cut at \(cut)")
            #expect(outcome == .ranOut, "\(compressed) cut at \(cut)")
        }
    }

    /// The system's gzip at every level over data of every kind a block type comes from (words:
    /// dynamic codes; a few bytes: fixed codes; random bytes: stored blocks; long runs: matches
    /// of distance 1 and length 258; a mix, large enough for many blocks): the inflater gives
    /// back the data, whole and in prefixes of every limit, and a cut stream gives a prefix.
    @Test func inflatesWhatTheSystemsGzipWrote() throws {
        var random = SplitMix(seed: 0x1F8B)
        let words = ["<svg", " width=\"", "10\"", "/>", "\n", ".TH ", "man", " page ", "\\fB", "the ", "a", "of ", "é", "\t"]
        func text(_ n: Int) -> [UInt8] {
            var out: [UInt8] = []
            while out.count < n { out += Array(words[Int(random.next() % UInt64(words.count))].utf8) }
            return Array(out.prefix(n))
        }
        func noise(_ n: Int) -> [UInt8] { (0..<n).map { _ in UInt8(truncatingIfNeeded: random.next()) } }
        var inputs: [(String, [UInt8])] = [("empty", []), ("one byte", [0x3C]), ("short text", text(12))]
        for n in [300, 5_000, 70_000] { inputs.append(("text \(n)", text(n))) }
        for n in [40, 3_000, 70_000] { inputs.append(("noise \(n)", noise(n))) }
        inputs.append(("runs", Array(repeating: 0x41, count: 1_000) + Array(repeating: 0x20, count: 40_000) + text(100)))
        inputs.append(("mix", (0..<40).flatMap { i in i % 3 == 0 ? noise(2_000) : text(6_000) }))
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("inflate-\(getpid())")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        for (name, data) in inputs {
            let file = directory.appendingPathComponent("data")
            try Data(data).write(to: file)
            for level in [1, 6, 9] {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: "/bin/gzip")
                process.arguments = ["-c", "-\(level)", file.path]
                let pipe = Pipe()
                process.standardOutput = pipe
                try process.run()
                let gz = [UInt8](pipe.fileHandleForReading.readDataToEndOfFile())
                process.waitUntilExit()
                try #require(process.terminationStatus == 0 && gz.count > 18)
                for limit in [1, 8, 1024, 1 << 20] {
                    let (output, outcome) = try #require(gz.withUnsafeBytes { Inflate.gunzipPrefix(ByteView(base: $0), limit: limit) })
                    #expect(outcome == .complete, "\(name), gzip -\(level), limit \(limit)")
                    #expect(output == Array(data.prefix(limit)), "\(name), gzip -\(level), limit \(limit)")
                }
                for cut in [11, 12, 20, gz.count / 3, gz.count / 2, gz.count - 9] where cut > 10 && cut < gz.count - 8 {
                    let (output, outcome) = try #require(gz.prefix(cut).withUnsafeBytes { Inflate.gunzipPrefix(ByteView(base: $0), limit: 1 << 20) })
                    #expect(data.starts(with: output), "\(name), gzip -\(level), cut at \(cut)")
                    #expect(outcome == .ranOut, "\(name), gzip -\(level), cut at \(cut)")
                }
            }
        }
    }
}

/// A seeded generator, so that a failing case can be run again.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// `ByteView.find` (memchr for the first byte, then the rest) against a byte-at-a-time search,
/// over buffers dense in first bytes and near misses, ranges that run past either end, and a far
/// window searched on its own.
@Suite("Byte search")
struct ByteSearchTests {
    static func reference(_ bytes: [UInt8], _ needle: [UInt8], _ range: Range<Int>) -> Int? {
        let lower = max(range.lowerBound, 0), upper = min(range.upperBound, bytes.count) - needle.count
        guard lower <= upper else { return nil }
        return (lower...upper).first { Array(bytes[$0..<($0 + needle.count)]) == needle }
    }

    @Test func findAgreesWithAByteAtATimeSearch() {
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("<svg\n\0 ab".utf8)
        let needles: [(StaticString, [UInt8])] = [("\n", [10]), ("<svg", Array("<svg".utf8)), ("\0\0", [0, 0]),
                                                  ("ab", Array("ab".utf8)), ("svg\n", Array("svg\n".utf8))]
        for _ in 0..<3000 {
            let count = Int.random(in: 0...300, using: &generator)
            let bytes = (0..<count).map { _ in alphabet.randomElement(using: &generator)! }
            let lower = Int.random(in: -4...(count + 4), using: &generator)
            let range = lower..<max(lower, Int.random(in: (lower - 2)...(count + 8), using: &generator))
            for (needle, expected) in needles {
                let found = bytes.withUnsafeBytes { ByteView(base: $0).find(needle, in: range) }
                #expect(found == ByteSearchTests.reference(bytes, expected, range), "\(bytes) \(range) \(expected)")
            }
        }
    }

    @Test func findSearchesEveryHeldRunARangeReaches() {
        let prefix = Array("abc\n".utf8), far = Array("xx<svg yy\n".utf8)
        prefix.withUnsafeBytes { base in far.withUnsafeBytes { farBytes in
            let windows = [FarWindow(offset: 1000, bytes: farBytes)]
            windows.withUnsafeBufferPointer { windows in
                let v = ByteView(base: base, windows: windows)
                #expect(v.find("<svg", in: 1000..<1010) == 1002)
                #expect(v.find("\n", in: 1003..<2000) == 1009)
                #expect(v.find("\n", in: 0..<2000) == 3, "from the first bytes: their own line feed")
                #expect(v.find("<svg", in: 1003..<1010) == nil)
                #expect(v.find("\n", in: 500..<2000) == 1009, "a start in no window finds the window the range reaches")
                #expect(v.find("<svg", in: 0..<2000) == 1002, "a range from the first bytes runs on into the window")
                #expect(v.find("<svg", in: 0..<1005) == nil, "nor past the range's end")
                #expect(v.find("ab", in: 0..<2000) == 0)
            }
        } }
    }
}
