import Foundation
import Testing
@testable import ImageSniff

@Suite("Hostile input: truncation, mutation, bounded work")
struct HostileInputTests {
    /// Every test image cut at every length up to 64 and at every power of two below its size:
    /// never a trap, never a format the whole file is not.
    @Test(arguments: Manifest.entries)
    func truncationSweep(_ entry: ManifestEntry) throws {
        let data = [UInt8](try Data(contentsOf: entry.url))
        let whole = ImageSniffer.detect(data).type
        var lengths = Array(0...min(64, data.count))
        var p = 128
        while p < data.count { lengths.append(p); p *= 2 }
        for n in lengths {
            data.withUnsafeBytes { all in
                let bytes = UnsafeRawBufferPointer(rebasing: all[0..<n])
                let cut = ImageSniffer.detect(bytes)
                // A file without magic is only its size and a few fields in range, which a cut of
                // another file can be by chance (a DEGAS picture cut at 37 bytes is a 5×33 WBMP
                // to the byte): such an answer may differ, but is never more than likely.
                let chance = cut.type.acceptsHintWithoutMagic && cut.confidence == .likely
                // DICOM's 128-byte preamble may be a TIFF header in its own right (PS3.10): cut
                // before DICM, it is one.
                let preamble = whole == .dicom && n < 132 && cut.type.belongs(toFamily: .tiff)
                let acceptable = chance || preamble || DetectionInvariants.isAcceptablePrefixAnswer(cut.type, whole: whole, prefix: bytes)
                #expect(acceptable, "\(entry.file) cut at \(n): \(cut) (whole: \(whole))")
                // A prefix handed over as a prefix of the real length never claims more than the whole.
                let prefix = ImageSniffer.detect(prefix: bytes, totalLength: data.count)
                #expect(DetectionInvariants.isAcceptablePrefixAnswer(prefix.type, whole: whole, prefix: bytes),
                        "\(entry.file) prefix \(n): \(prefix)")
            }
        }
    }

    /// Every byte of the first 64 (and a spread of later ones) flipped: never a trap, and the
    /// answer is always a real catalog type with a consistent confidence.
    @Test(arguments: Manifest.entries)
    func byteFlipSweep(_ entry: ManifestEntry) throws {
        var data = [UInt8](try Data(contentsOf: entry.url))
        guard !data.isEmpty else { return }
        var positions = Array(0..<min(64, data.count))
        var p = 64
        while p < data.count { positions.append(p); p = p * 3 / 2 + 1 }
        for i in positions {
            for mask: UInt8 in [0xFF, 0x01, 0x80] {
                data[i] ^= mask
                let d = ImageSniffer.detect(data)
                #expect((d.type == .data) == (d.confidence == .unknown), "\(entry.file) flip \(i): \(d)")
                data[i] ^= mask
            }
        }
    }

    /// The detector's invariants (the fuzz target's) on every test image: whole, as prefixes of
    /// several lengths, and with every hint of the fuzzer's list.
    @Test(arguments: Manifest.entries)
    func invariantsHold(_ entry: ManifestEntry) throws {
        let data = try entry.bytes()
        let cuts = Set([0, 1, 2, 3, 8, 16, 64, 300, data.count / 3, data.count / 2, data.count - 1, data.count])
        for (i, cut) in cuts.sorted().enumerated() where cut >= 0 && cut <= data.count {
            let hint = DetectionInvariants.hints[i % DetectionInvariants.hints.count]
            let problems = data.withUnsafeBytes { DetectionInvariants.violations($0, prefixLength: cut, hint: hint) }
            #expect(problems.isEmpty, "\(entry.file): \(problems)")
        }
        for hint in DetectionInvariants.hints {
            let problems = data.withUnsafeBytes { DetectionInvariants.violations($0, prefixLength: data.count / 2, hint: hint) }
            #expect(problems.isEmpty, "\(entry.file): \(problems)")
        }
    }

    @Test func randomBytesNeverTrap() {
        var generator = SystemRandomNumberGenerator()
        var images = 0
        for length in [1, 2, 3, 4, 7, 8, 12, 16, 31, 64, 200, 1000, 5000] {
            for _ in 0..<200 {
                let data = (0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }
                let d = ImageSniffer.detect(data)
                if d.type.isImage && d.confidence == .conclusive { images += 1 }
            }
        }
        // A conclusive image answer on random bytes needs a signature by chance: rare.
        #expect(images < 20)
    }

    // MARK: Bounded work on hostile structures, measured through the file reader

    private func withTemporaryFile(_ bytes: [UInt8], _ body: (String) throws -> Void) throws {
        let path = NSTemporaryDirectory() + "imgsniff-hostile-\(UUID().uuidString)"
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        try body(path)
    }

    /// Hostile files padded to 4 MiB so that a reader that followed their lies would read far.
    private func padded(_ head: [UInt8], to size: Int = 4 << 20, fill: UInt8 = 0) -> [UInt8] {
        head + [UInt8](repeating: fill, count: max(0, size - head.count))
    }

    private func expectBounded(_ bytes: [UInt8], _ label: String) throws -> Detection {
        var result = Detection(type: .data, confidence: .unknown)
        try withTemporaryFile(bytes) { path in
            let sniffer = FileSniffer()
            result = try sniffer.detect(fileAt: path)
            #expect(sniffer.lastBytesRead <= Limits.maxPrefix + Limits.tailLength, "\(label): read \(sniffer.lastBytesRead)")
            #expect(sniffer.lastReadCount <= 12, "\(label): \(sniffer.lastReadCount) reads")
        }
        return result
    }

    @Test func tiffIFDsThatLoopOrLie() throws {
        // IFD0 pointing at itself through next-IFD and SubIFDs.
        var loop = ByteBuilder()
        loop.ascii("II"); loop.u16le(42); loop.u32le(8)
        loop.u16le(2)
        loop.u16le(0x010F); loop.u16le(2); loop.u32le(4); loop.ascii("SONY")
        loop.u16le(0x014A); loop.u16le(4); loop.u32le(1); loop.u32le(8)
        loop.u32le(8)
        let d = try expectBounded(padded(loop.bytes), "self-referencing IFD")
        #expect(d.type == .tiff)

        // IFD0 far past the end of the file, and one just before the read cap.
        for offset: UInt32 in [0xFFFF_FFF0, UInt32(Limits.maxPrefix - 10), 3 << 20] {
            var far = ByteBuilder()
            far.ascii("MM"); far.u16be(42); far.u32be(offset)
            let r = try expectBounded(padded(far.bytes), "IFD at \(offset)")
            #expect(r.type == .tiff)
        }

        // A 65,535-entry IFD.
        var huge = ByteBuilder()
        huge.ascii("II"); huge.u16le(42); huge.u32le(8); huge.u16le(0xFFFF)
        _ = try expectBounded(padded(huge.bytes, fill: 0x41), "65535-entry IFD")
    }

    @Test func isoBoxesOfEverySize() throws {
        for size: UInt32 in [0, 1, 7, 0xFFFF_FFFF] {
            var b = ByteBuilder()
            b.u32be(24); b.ascii("ftyp"); b.ascii("mif1"); b.u32be(0); b.ascii("mif1"); b.ascii("miaf")
            b.u32be(size); b.ascii("meta")
            if size == 1 { b.u32be(0xFFFF_FFFF); b.u32be(0xFFFF_FFFF) }
            let d = try expectBounded(padded(b.bytes), "meta box of size \(size)")
            #expect(d.type == .heif)
        }
    }

    @Test func jpegOfThousandsOfTinySegments() throws {
        var b = ByteBuilder()
        b.bytes += [0xFF, 0xD8]
        for _ in 0..<100_000 { b.bytes += [0xFF, 0xE5, 0x00, 0x02] }
        let d = try expectBounded(b.bytes, "tiny JPEG segments")
        #expect(d.type == .jpeg)
    }

    @Test func pngChunksWithAbsurdLengths() throws {
        var b = ByteBuilder()
        b.bytes += Array(minimalPNG[0..<33])
        b.u32be(0x7FFF_FFF0); b.ascii("tEXt")
        let d = try expectBounded(padded(b.bytes), "absurd PNG chunk")
        #expect(d.type == .png)
        var many = ByteBuilder()
        many.bytes += Array(minimalPNG[0..<33])
        for _ in 0..<50_000 { many.u32be(0); many.ascii("tEXt"); many.u32be(0) }
        _ = try expectBounded(many.bytes, "many empty PNG chunks")
    }

    @Test func riffSizesThatLie() throws {
        var b = ByteBuilder()
        b.ascii("RIFF"); b.u32le(0xFFFF_FFFF); b.ascii("WEBPVP8X"); b.u32le(0xFFFF_FFFF); b.u8(0x02)
        let d = try expectBounded(padded(b.bytes), "lying RIFF")
        #expect(d.type == .webP && d.isAnimated)
    }

    @Test func gifWithEndlessSubBlocks() throws {
        var b = ByteBuilder()
        b.ascii("GIF89a"); b.u16le(1); b.u16le(1); b.bytes += [0, 0, 0]
        b.bytes += [0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 8]
        for _ in 0..<200_000 { b.bytes += [1, 0] }
        let d = try expectBounded(b.bytes, "GIF sub-blocks")
        #expect(d.type == .gif)
    }
}
