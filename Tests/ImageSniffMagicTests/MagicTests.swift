import Foundation
import ImageSniff
import Testing
@testable import ImageSniffMagic

@Suite("libmagic wrapper")
struct MagicWrapperTests {
    static let png: [UInt8] = [
        0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52,
        0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE,
    ]

    @Test func versionIsFiveSomething() {
        #expect(Magic.version >= 500)
    }

    @Test func identifiesBytes() throws {
        let magic = try Magic()
        let r = try magic.identify(Self.png, extensions: true)
        #expect(r.mimeType == "image/png")
        #expect(r.description.hasPrefix("PNG image data, 1 x 1"))
        #expect(r.extensions == ["png"])
        // The same handle switches flags back and forth.
        #expect(try magic.mimeType(of: Array("hello world\n".utf8)) == "text/plain")
        #expect(try magic.identify(Self.png).extensions == nil)
    }

    /// A JPEG of more than 50 small segments meets one of libmagic's limits while it describes
    /// it (`file` prints "ERROR: JPEG image data name use count (50) exceeded"), after it found
    /// the MIME type: the answer keeps that type, with the error as its description (the whole
    /// lookup failed, and a stranger's JPEG with 2.6 MB of Photoshop data had no verdict).
    @Test func aLimitMetWhileDescribingKeepsTheMIMEType() throws {
        let segment: [UInt8] = [0xFF, 0xE1, 0, 10] + [UInt8](repeating: 0, count: 8)
        let jpeg: [UInt8] = [0xFF, 0xD8] + Array([[UInt8]](repeating: segment, count: 60).joined())
            + [0xFF, 0xDB, 0, 67, 0] + [UInt8](repeating: 1, count: 64) + [0xFF, 0xD9]
        let r = try Magic().identify(jpeg)
        #expect(r.mimeType == "image/jpeg")
        #expect(r.description.hasPrefix("ERROR: ") && r.description.contains("JPEG"), "\(r.description)")
        #expect(CrossCheckResult(ours: .jpeg, libmagic: r).verdict == .agree)
    }

    @Test func emptyAndUnknownBytes() throws {
        let magic = try Magic()
        #expect(try magic.identify([UInt8]()).mimeType == "application/x-empty")
        let noise: [UInt8] = (0..<256).map { UInt8(truncatingIfNeeded: $0 &* 167 &+ 13) }
        #expect(try magic.identify(noise).mimeType == "application/octet-stream")
        // Non-contiguous collections are copied.
        #expect(try magic.identify(Self.png.lazy.map { $0 }).mimeType == "image/png")
    }

    @Test func identifiesFilesAndDescriptors() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("magic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let path = dir.appendingPathComponent("image").path
        try Data(Self.png).write(to: URL(fileURLWithPath: path))
        let magic = try Magic()
        #expect(try magic.identify(fileAt: path).mimeType == "image/png")

        // A descriptor whose offset is not at 0: libmagic still sees the start, and the offset
        // is put back.
        let fd = open(path, O_RDONLY)
        #expect(fd >= 0)
        defer { close(fd) }
        lseek(fd, 5, SEEK_SET)
        #expect(try magic.identify(fileDescriptor: fd).mimeType == "image/png")
        #expect(lseek(fd, 0, SEEK_CUR) == 5)

        // Empty file.
        let empty = dir.appendingPathComponent("empty").path
        #expect(FileManager.default.createFile(atPath: empty, contents: Data()))
        #expect(try magic.identify(fileAt: empty).mimeType == "application/x-empty")
    }

    @Test func refusesNonRegularFiles() throws {
        let dir = FileManager.default.temporaryDirectory.appendingPathComponent("magic-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: dir) }
        let fifo = dir.appendingPathComponent("fifo").path
        #expect(mkfifo(fifo, 0o600) == 0)
        let magic = try Magic()
        // Would block forever if opened without O_NONBLOCK and read; must be refused at once.
        #expect(throws: MagicError.self) { try magic.identify(fileAt: fifo) }
        #expect(throws: MagicError.self) { try magic.identify(fileAt: dir.path) }
        do {
            _ = try magic.identify(fileAt: dir.appendingPathComponent("missing").path)
            Issue.record("expected an error")
        } catch {
            #expect(error.code == ENOENT)
        }
    }

    @Test func missingDatabaseThrowsWithLibmagicText() {
        do {
            _ = try Magic(databasePath: "/nonexistent/magic.mgc")
            Issue.record("expected an error")
        } catch {
            #expect(error.message.contains("libmagic"))
            #expect(error.message.contains("/nonexistent/magic.mgc"))
        }
    }

    @Test func onePerThread() async throws {
        // Each concurrent task uses its own thread's handle; same thread, same handle.
        let a = try Magic.forCurrentThread()
        let b = try Magic.forCurrentThread()
        #expect(a === b)
        try await withThrowingTaskGroup(of: String.self) { group in
            for _ in 0..<8 {
                group.addTask { try Magic.forCurrentThread().identify(Self.png).mimeType }
            }
            for try await mime in group { #expect(mime == "image/png") }
        }
    }
}

@Suite("MIME mapping")
struct MagicMappingTests {
    @Test(arguments: [
        ("image/x-canon-cr2", "", "com.canon.cr2-raw-image"),
        ("image/x-portable-greymap", "", "net.sourceforge.netpbm.pgm"),
        ("image/x-portable-graymap", "", "net.sourceforge.netpbm.pgm"),
        ("image/x-xcf", "", "org.gimp.xcf"),
        ("video/mp4", "", "public.mpeg-4"),
        ("text/plain", "ASCII text", "public.plain-text"),
        ("image/jpeg; charset=binary", "", "public.jpeg"),
        ("IMAGE/PNG", "", "public.png"),
        ("image/vnd.adobe.photoshop", "Adobe Photoshop Image, 32 x 32", "com.adobe.photoshop-image"),
        ("image/vnd.adobe.photoshop", "Adobe Photoshop Image (PSB), 32 x 32", "com.adobe.photoshop-large-image"),
        ("image/heif", "ISO Media, HEIF Image L-HEVC", "public.heic"),
        ("image/heif", "ISO Media, HEIF Image AVC", "public.avci"),
        ("image/heif", "ISO Media, HEIF Image", "public.heif"),
        ("image/heif-sequence", "ISO Media, HEIF Image Sequence AVC", "public.avcs"),
        ("application/postscript", "PostScript document text conforming DSC level 3.0, type EPS", "com.adobe.encapsulated-postscript"),
        ("application/postscript", "PostScript document text", "com.adobe.postscript"),
        ("application/octet-stream", "SGI image data, RLE, 3-D, 32 x 32, 3 channels", "com.sgi.sgi-image"),
        ("text/plain", "xbm image (32x32), ASCII text", "public.xbitmap-image"),
        ("image/x-win-bitmap", "MS Windows cursor resource", "com.microsoft.cur"),
        // Not in the table: the catalog's own MIME types answer.
        ("image/x-adobe-dng", "", "com.adobe.raw-image"),
    ])
    func maps(mime: String, description: String, identifier: String) {
        #expect(MagicMapping.type(mimeType: mime, description: description)?.identifier == identifier)
    }

    @Test func unknownAndUnmapped() {
        #expect(MagicMapping.meaning(mimeType: "application/octet-stream", description: "data") == .unknown)
        #expect(MagicMapping.meaning(mimeType: "inode/x-empty", description: "empty") == .unknown)
        #expect(MagicMapping.meaning(mimeType: "application/x-empty", description: "empty") == .unknown)
        #expect(MagicMapping.meaning(mimeType: "image/x-award-bioslogo") == .unmapped)
        #expect(MagicMapping.meaning(mimeType: "application/x-no-such-thing") == .unmapped)
    }

    @Test func everyIdentifierInTheTablesExists() {
        for (mime, identifier) in MagicMapping.table {
            if let identifier { #expect(ImageType(identifier) != nil, "\(mime) -> \(identifier)") }
        }
        for row in MagicMapping.refinements { #expect(ImageType(row.identifier) != nil, "\(row)") }
        for row in MagicMapping.describedOnly { #expect(ImageType(row.identifier) != nil, "\(row)") }
    }

    /// Every `image/*` MIME type the installed compiled database can print has a row, so that
    /// a new libmagic with new image types fails here until the table says what they are.
    @Test func everyImageMIMETypeOfTheDatabaseHasARow() throws {
        let candidates = [ProcessInfo.processInfo.environment["MAGIC"], "/usr/share/misc/magic.mgc",
                          "/usr/share/file/magic.mgc", "/opt/homebrew/share/misc/magic.mgc",
                          "/usr/local/share/misc/magic.mgc"].compactMap { $0 }
        guard let path = candidates.first(where: { FileManager.default.isReadableFile(atPath: $0) }),
              let data = FileManager.default.contents(atPath: path) else {
            print("no compiled magic database found in \(candidates); table completeness not checked")
            return
        }
        var missing: Set<String> = []
        var current: [UInt8] = []
        func flush() {
            if current.count >= 8, let s = String(bytes: current, encoding: .ascii), s.hasPrefix("image/"),
               s.allSatisfy({ $0.isLetter || $0.isNumber || "/.+-_".contains($0) }),
               MagicMapping.table[s] == nil, ImageType.types(mimeType: s).isEmpty {
                missing.insert(s)
            }
            current.removeAll(keepingCapacity: true)
        }
        for byte in data {
            if byte >= 0x20 && byte < 0x7F { current.append(byte) } else { flush() }
        }
        flush()
        #expect(missing.isEmpty, "image MIME types without a row in MagicMapping.table: \(missing.sorted())")
    }
}

@Suite("verdicts")
struct VerdictTests {
    func verdict(_ ours: ImageType, _ mime: String, _ description: String = "") -> Verdict {
        CrossCheck.verdict(ours: ours, libmagic: MagicMapping.meaning(mimeType: mime, description: description))
    }

    @Test func rules() {
        #expect(verdict(.jpeg, "image/jpeg") == .agree)
        #expect(verdict(.data, "application/octet-stream") == .agree)
        #expect(verdict(.data, "inode/x-empty") == .agree)
        // Conformance: an MPO is a JPEG, a PGM is a PBM-family file, an EPS is PostScript.
        #expect(verdict(.mpo, "image/jpeg") == .oursMoreSpecific)
        #expect(verdict(.pgm, "image/x-portable-bitmap") == .oursMoreSpecific)
        #expect(verdict(.eps, "application/postscript") == .oursMoreSpecific)
        // Detection family: a NEF is a TIFF to anyone who cannot read the Make; AVIF in `mif1`.
        #expect(verdict(.nef, "image/tiff") == .oursMoreSpecific)
        #expect(verdict(.avif, "image/heif", "ISO Media, HEIF Image") == .oursMoreSpecific)
        // Siblings.
        #expect(verdict(.avis, "image/avif") == .oursMoreSpecific)
        #expect(verdict(.psb, "image/vnd.adobe.photoshop") == .oursMoreSpecific)
        // The reverse.
        #expect(verdict(.jpeg, "image/mpo") == .libmagicMoreSpecific)
        #expect(verdict(.tiff, "image/x-canon-cr2") == .libmagicMoreSpecific)
        #expect(verdict(.avif, "image/avif-sequence") == .libmagicMoreSpecific)
        // Unknowns.
        #expect(verdict(.rw2, "application/octet-stream", "data") == .libmagicUnknown)
        #expect(verdict(.data, "text/plain") == .oursUnknown)
        #expect(verdict(.data, "image/x-award-bioslogo") == .oursUnknown)
        // Kinds of text.
        #expect(verdict(.plainText, "text/x-c") == .libmagicMoreSpecific)
        #expect(verdict(.plainText, "application/javascript") == .libmagicMoreSpecific)
        #expect(verdict(.json, "text/x-c") == .disagree)
        #expect(verdict(.xml, "text/plain") == .oursMoreSpecific)
        #expect(verdict(.svg, "text/plain") == .oursMoreSpecific)
        #expect(verdict(.plainText, "text/xml") == .libmagicMoreSpecific)
        #expect(verdict(.png, "text/plain") == .disagree)
        // Unrelated.
        #expect(verdict(.plainText, "image/gif") == .disagree)
        #expect(verdict(.png, "image/x-award-bioslogo") == .disagree)
        #expect(verdict(.cr3, "video/mp4") == .disagree)
        #expect(verdict(.heic, "image/avif") == .disagree)
    }

    @Test func summary() {
        var s = CrossCheckSummary()
        let tiff = MagicResult(mimeType: "image/tiff", description: "TIFF image data")
        s.add(CrossCheckResult(ours: .nef, libmagic: tiff))
        s.add(CrossCheckResult(ours: .nef, libmagic: tiff))
        s.add(CrossCheckResult(ours: .tiff, libmagic: tiff))
        var t = CrossCheckSummary()
        t.add(CrossCheckResult(ours: .pgm, libmagic: MagicResult(mimeType: "text/plain", description: "ASCII text")))
        t.addError()
        s.merge(t)
        #expect(s.total == 4 && s.errors == 1)
        #expect(s.counts[.agree] == 1 && s.counts[.oursMoreSpecific] == 2 && s.counts[.disagree] == 1)
        let top = s.topPairs()
        #expect(top.first?.pair.ours == "com.nikon.raw-image" && top.first?.count == 2)
        #expect(s.report().contains("oursMoreSpecific"))
    }
}
