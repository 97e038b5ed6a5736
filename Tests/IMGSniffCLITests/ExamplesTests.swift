// The programs in Examples/ build (they are targets of the package) and do what they say: each
// is run from the products directory next to `imgsniff` on files from TestImages.

import Foundation
import Testing

enum ExampleBinary {
    static func run(_ name: String, _ arguments: [String], in directory: URL = Repository.root, stdin: URL? = nil) throws -> RunResult {
        try IMGSniffBinary.run(arguments, in: directory, stdin: stdin, program: try IMGSniffBinary.sibling(name))
    }
}

@Suite struct ExamplesTests {
    func testImage(_ path: String) -> URL { Repository.root.appendingPathComponent("TestImages").appendingPathComponent(path) }

    @Test func uploadValidatorAcceptsImages() throws {
        let png = try ExampleBinary.run("upload-validator", [testImage("png/rgb8").path])
        #expect(png.status == 0)
        #expect(png.text == "accepted: public.png (PNG image, .png)\n")

        let nef = try ExampleBinary.run("upload-validator", ["--allow", "public.camera-raw-image", testImage("raw/nef").path])
        #expect(nef.status == 0)
        #expect(nef.text == "accepted: com.nikon.raw-image (Nikon NEF raw image, .nef)\n")

        // Standard input, with a TGA that has no magic (its footer is read from the stream's end).
        let tga = try ExampleBinary.run("upload-validator", ["-"], stdin: testImage("tga/pillow-footer"))
        #expect(tga.status == 0)
        #expect(tga.text.hasPrefix("accepted: com.truevision.tga-image"))
    }

    @Test func uploadValidatorRejectsTheRest() throws {
        let pdf = try ExampleBinary.run("upload-validator", ["-"], stdin: testImage("document/pdf-pillow"))
        #expect(pdf.status == 1)
        #expect(pdf.text == "rejected: com.adobe.pdf (PDF document) is not an image\n")

        let notAllowed = try ExampleBinary.run("upload-validator", ["--allow", "jpg", "--allow", "image/heic", testImage("png/rgb8").path])
        #expect(notAllowed.status == 1)
        #expect(notAllowed.text == "rejected: public.png (PNG image) is not one of public.jpeg, public.heic\n")

        let text = try ExampleBinary.run("upload-validator", [testImage("text/plain").path])
        #expect(text.status == 1)
        #expect(text.text.hasPrefix("rejected: public.plain-text"))

        let missing = try ExampleBinary.run("upload-validator", ["/nonexistent/upload"])
        #expect(missing.status == 2)

        let usage = try ExampleBinary.run("upload-validator", [])
        #expect(usage.status == 64)
    }

    @Test func sortByTypePlansThenMoves() throws {
        let tree = try ScratchTree()
        let fm = FileManager.default
        for (name, source) in [("a", "jpeg/baseline"), ("b", "png/rgb8"), ("c", "jpeg/progressive"), ("d", "text/json")] {
            try fm.copyItem(at: testImage(source), to: tree.root.appendingPathComponent(name))
        }
        let dir = tree.root.path

        let plan = try ExampleBinary.run("sort-by-type", [dir])
        #expect(plan.status == 0, "\(plan.text)")
        #expect(plan.lines == [
            "mkdir -p '\(dir)/jpg'",
            "mv -n '\(dir)/a' '\(dir)/jpg/a'",
            "mv -n '\(dir)/c' '\(dir)/jpg/c'",
            "mkdir -p '\(dir)/json'",
            "mv -n '\(dir)/d' '\(dir)/json/d'",
            "mkdir -p '\(dir)/png'",
            "mv -n '\(dir)/b' '\(dir)/png/b'",
        ])
        #expect(try fm.contentsOfDirectory(atPath: dir).sorted() == ["a", "b", "c", "d"], "a dry run moves nothing")

        let applied = try ExampleBinary.run("sort-by-type", ["--apply", dir])
        #expect(applied.status == 0, "\(applied.text)")
        #expect(applied.lines == plan.lines)
        #expect(try fm.contentsOfDirectory(atPath: dir).sorted() == ["jpg", "json", "png"])
        #expect(try fm.contentsOfDirectory(atPath: dir + "/jpg").sorted() == ["a", "c"])
        #expect(try fm.contentsOfDirectory(atPath: dir + "/png") == ["b"])
    }

    /// Every `print(...)  // value` line of the quick start prints `value`.
    @Test func quickStartPrintsWhatItsCommentsSay() throws {
        let source = try Repository.text("Examples/QuickStart/main.swift")
        let expected = source.components(separatedBy: "\n").compactMap { line -> String? in
            guard line.hasPrefix("print("), let comment = line.range(of: "// ") else { return nil }
            return String(line[comment.upperBound...])
        }
        #expect(expected.count >= 10)
        let result = try ExampleBinary.run("quick-start", [])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.lines == expected)
    }

    @Test func streamUploadStoresImagesWhole() throws {
        let dir = try ScratchTree()
        let dest = dir.root.appendingPathComponent("stored")
        let r = try ExampleBinary.run("stream-upload", [dest.path], stdin: testImage("png/alpha"))
        #expect(r.status == 0)
        #expect(r.text.hasPrefix("stored: public.png"))
        #expect(try Data(contentsOf: dest) == Data(contentsOf: testImage("png/alpha")))
    }

    @Test func streamUploadRefusesEarly() throws {
        // A PDF followed by an endless body: refused from its first bytes, nothing stored.
        let dir = try ScratchTree()
        let dest = dir.root.appendingPathComponent("stored")
        let pdf = testImage("document/pdf-pillow").path
        let r = try IMGSniffBinary.run([dest.path], launcher: ["bash", "-c", #"{ cat "$0"; cat /dev/zero; } | "$@""#, pdf],
                                       program: try IMGSniffBinary.sibling("stream-upload"), timeout: 20)
        #expect(!r.timedOut)
        #expect(r.status == 1)
        #expect(r.text == "refused: com.adobe.pdf is not an image\n")
        #expect(!FileManager.default.fileExists(atPath: dest.path))
    }

    @Test func uploadValidatorRefusesDecompressionBombs() throws {
        let dir = try ScratchTree()
        let bomb = ScanPropertiesTests.png(width: 100_000, height: 100_000)
        try dir.file("bomb", bomb)
        let refused = try ExampleBinary.run("upload-validator", ["--max-pixels", "50000000", dir.root.appendingPathComponent("bomb").path])
        #expect(refused.status == 1)
        #expect(refused.text == "rejected: public.png (PNG image) is 100000x100000, more than 50000000 pixels\n")
        let piped = try ExampleBinary.run("upload-validator", ["--max-pixels", "50000000", "-"], stdin: dir.root.appendingPathComponent("bomb"))
        #expect(piped.status == 1)
        let fine = try ExampleBinary.run("upload-validator", ["--max-pixels", "50000000", testImage("png/rgb8").path])
        #expect(fine.status == 0)
    }
}
