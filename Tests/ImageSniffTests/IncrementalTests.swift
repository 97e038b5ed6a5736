import Foundation
import Testing
@testable import ImageSniff

@Suite("Incremental detection")
struct IncrementalTests {
    /// Every test image in chunks of 1, 7, 64, 1460 and 16,384 bytes, its length known and not:
    /// the same final answer as the whole file, and no decision taken back on the way.
    @Test(arguments: Manifest.entries)
    func chunkedEqualsWhole(_ entry: ManifestEntry) throws {
        let data = try entry.bytes()
        data.withUnsafeBytes { bytes in
            for chunk in [1, 7, 64, 1460, 16_384] {
                for known in [true, false] {
                    for problem in DetectionInvariants.incrementalViolations(bytes, chunk: chunk, lengthKnown: known) {
                        Issue.record("\(entry.file): \(problem)")
                    }
                }
            }
        }
    }

    @Test func manifestIsLoaded() {
        #expect(Manifest.entries.count > 300)
    }

    /// A PNG signature and IHDR, then noise: decided within the read cap (the chunk walk that
    /// looks for APNG's `acTL` stops there), and nothing past it is kept.
    @Test func noiseAfterASignatureIsBounded() throws {
        let png = try #require(Manifest.first("public.png")).bytes()
        var sniffer = IncrementalSniffer()
        sniffer.append(png.prefix(33))
        var noise = SystemRandomNumberGenerator()
        var chunks = 0
        while sniffer.wantsMoreData && chunks < 800 {
            sniffer.append((0..<65_536).map { _ in UInt8.random(in: 0...255, using: &noise) })
            chunks += 1
        }
        // Whether noise that long is a truncated PNG depends on where the stream ends: the answer
        // is provisional, and a reader stops at the cap.
        #expect(!sniffer.wantsMoreData)
        #expect(sniffer.bytesSeen <= Limits.maxPrefix + 65_536)
        #expect(sniffer.detection?.type == .png)
        // More bytes after the decision change nothing.
        let decided = sniffer.status
        sniffer.append([UInt8](repeating: 0, count: 1 << 20))
        #expect(sniffer.status == decided)
    }

    /// Endless text: provisional (text could be followed by anything), and a reader stops at the cap.
    @Test func endlessTextStopsAtTheCap() {
        var sniffer = IncrementalSniffer()
        let line = Array("y\n".utf8)
        var chunks = 0
        while sniffer.wantsMoreData && chunks < 1_000_000 {
            sniffer.append(line)
            chunks += 1
        }
        #expect(sniffer.detection?.type == .plainText)
        #expect(sniffer.bytesSeen == Limits.maxPrefix)
        #expect(sniffer.status == .provisional(sniffer.detection!, awaiting: .end))
    }

    /// A TGA whose footer says TGA 2.0: with the length known the header alone gives a
    /// provisional answer awaiting the tail, and the tail offered settles it without the body.
    @Test func tgaFooterIsOfferedNotStreamed() throws {
        let tga = try #require(Manifest.entries.first { $0.file == "tga/pillow-footer" }).bytes()
        // The file's body as the start of a 10 MB upload.
        var sniffer = IncrementalSniffer(expectedLength: 10_000_000)
        sniffer.append(tga.dropLast(26))
        guard case .provisional(_, awaiting: .tail) = sniffer.status else {
            Issue.record("expected a provisional answer awaiting the tail: \(sniffer.status)")
            return
        }
        sniffer.offerTail(tga.suffix(26))
        #expect(sniffer.status == .decided(ImageSniffer.detect(prefix: tga.dropLast(26), totalLength: 10_000_000, tail: Array(tga.suffix(26)))))
        #expect(sniffer.detection?.type == .tga)
    }

    /// Unknown length and a format whose answer depends on the length (WBMP is its size): the
    /// answer stays provisional until the end, then is decided.
    @Test func lengthDependentAnswersWaitForTheEnd() throws {
        let wbmp = try #require(Manifest.first("org.openmobilealliance.wbmp-image")).bytes()
        var sniffer = IncrementalSniffer()
        sniffer.append(wbmp)
        #expect(!sniffer.isDecided)
        sniffer.finish()
        #expect(sniffer.status == .decided(ImageSniffer.detect(wbmp)))
    }

    /// A small animated GIF whose second frame starts past the first 4 KiB read is animated
    /// through the file API (the walk gets the whole file, which fits under the cap).
    @Test func smallAnimatedGIFThroughTheFileAPI() throws {
        let entry = try #require(Manifest.entries.first { $0.file == "regress/gif-noise-2frames-noloop" })
        let size = try entry.bytes().count
        #expect(size > Limits.initialRead)
        let d = try ImageSniffer.detect(fileAt: entry.url.path)
        #expect(d.type == .gif && d.isAnimated && d.completeness == .complete)
    }

    /// The bytes API looks at the first `Limits.maxPrefix` bytes and the last few, whatever the
    /// buffer: a buffer of several megabytes answers as its bounded view does.
    @Test func bytesAPIIsBounded() {
        var big = [UInt8](repeating: 0x20, count: 4 << 20)
        big.replaceSubrange(0..<5, with: Array("hello".utf8))
        let answer = ImageSniffer.detect(big)
        let bounded = ImageSniffer.detect(prefix: big.prefix(Limits.maxPrefix), totalLength: big.count, tail: Array(big.suffix(26)))
        #expect(answer == bounded)
        // Not contiguous: a lazy collection is copied only as far as the cap.
        let lazy = big.lazy.map { $0 }
        #expect(ImageSniffer.detect(lazy) == answer)
    }
}

@Suite("Detection from an asynchronous stream")
struct StreamDetectionTests {
    /// Chunks of a file followed by an endless supply: the answer comes without reading on, the
    /// bytes read come back in order, and the iterator goes on where detection stopped.
    @Test func stopsWhenDecidedAndHandsBackTheBytes() async throws {
        let jpeg = try #require(Manifest.first("public.jpeg")).bytes()
        let chunks = AsyncStream<[UInt8]> { continuation in
            var offset = 0
            while offset < jpeg.count {
                continuation.yield(Array(jpeg[offset..<min(offset + 100, jpeg.count)]))
                offset += 100
            }
            continuation.finish()
        }
        var iterator = chunks.makeAsyncIterator()
        let sniffed = try await ImageSniffer.detect(from: &iterator, expectedLength: jpeg.count)
        #expect(sniffed.status == .decided(ImageSniffer.detect(jpeg)))
        #expect(!sniffed.reachedEnd)
        #expect(sniffed.bytesRead == Array(jpeg.prefix(sniffed.bytesRead.count)))
        var rest: [UInt8] = []
        while let chunk = await iterator.next() { rest += chunk }
        #expect(sniffed.bytesRead + rest == jpeg)
    }

    /// A stream that ends before anything is decided is answered at its end.
    @Test func answersAtTheEnd() async throws {
        let text = Array("a short note\n".utf8)
        let sniffed = try await ImageSniffer.detect(streaming: AsyncStream<ArraySlice<UInt8>> { c in
            c.yield(text[0..<5]); c.yield(text[5...]); c.finish()
        })
        #expect(sniffed.reachedEnd)
        #expect(sniffed.status == .decided(ImageSniffer.detect(text)))
        #expect(sniffed.bytesRead == text)
    }

    /// A caller on the main actor (a UI app, a test) can hand over its iterator.
    @MainActor @Test func callableFromTheMainActor() async throws {
        let png = try #require(Manifest.first("public.png")).bytes()
        var iterator = AsyncStream<[UInt8]> { c in c.yield(png); c.finish() }.makeAsyncIterator()
        let sniffed = try await ImageSniffer.detect(from: &iterator)
        #expect(sniffed.detection.type == .png)
    }
}

@Suite("Sniffing a stream as it passes")
struct SniffingSequenceTests {
    static func chunks(_ bytes: [UInt8], size: Int) -> AsyncStream<ArraySlice<UInt8>> {
        AsyncStream { continuation in
            var offset = 0
            while offset < bytes.count {
                continuation.yield(bytes[offset..<min(offset + size, bytes.count)])
                offset += size
            }
            continuation.finish()
        }
    }

    /// Every chunk comes through unchanged, and at the end the answer (detection and properties)
    /// is the one for the whole bytes, length announced or not.
    @Test(arguments: ["public.jpeg", "public.png", "com.compuserve.gif", "public.tiff", "public.heic", "org.webmproject.webp"])
    func forwardsEveryByteAndAnswersAsTheWhole(_ identifier: String) async throws {
        let bytes = try #require(Manifest.first(identifier)).bytes()
        let whole = ImageSniffer.inspect(bytes)
        for known in [true, false] {
            let body = SniffingSequenceTests.chunks(bytes, size: 333).sniffing(expectedLength: known ? bytes.count : nil, readsProperties: true)
            var forwarded: [UInt8] = []
            for try await chunk in body { forwarded += chunk }
            #expect(forwarded == bytes)
            #expect(body.isFinished)
            #expect(body.bytesSeen == bytes.count)
            #expect(body.detection == whole.detection)
            #expect(body.propertyProgress.isSettled)
            #expect(body.propertyProgress.properties == whole.properties)
        }
    }

    /// An image's size is stated as soon as its header has passed: a server refuses a
    /// decompression bomb before the rest of the body arrives.
    @Test func sizeIsStatedBeforeTheEnd() async throws {
        let jpeg = try #require(Manifest.first("public.jpeg")).bytes()
        let body = SniffingSequenceTests.chunks(jpeg, size: 64).sniffing(readsProperties: true)
        var statedAt: Int?
        var before: PropertyState<Int>?
        for try await _ in body {
            if before == nil { before = body.propertyProgress.pixelCount }
            if statedAt == nil, case .stated = body.propertyProgress.pixelCount { statedAt = body.bytesSeen }
        }
        #expect(before == .notYet, "nothing is stated from the first 64 bytes")
        let at = try #require(statedAt)
        #expect(at < jpeg.count, "stated after \(at) of \(jpeg.count) bytes")
        #expect(body.propertyProgress.pixelCount == .stated(ImageSniffer.inspect(jpeg).properties.pixelCount!))
    }

    /// Text has no properties: settled as soon as the type is decided, nothing stated.
    @Test func nonImagesSettleWithNothingStated() async throws {
        let text = Array(String(repeating: "plain words ", count: 400).utf8)
        let body = SniffingSequenceTests.chunks(text, size: 1000).sniffing(readsProperties: true)
        for try await _ in body {}
        #expect(body.propertyProgress.isSettled)
        #expect(body.propertyProgress.state(\.width) == .notStated)
    }
}
