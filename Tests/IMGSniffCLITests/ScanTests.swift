// End-to-end tests of `imgsniff scan` and `imgsniff types`: they run the built binary on scratch
// trees made in a temporary directory.

import Foundation
import ImageSniff
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Tests

@Suite("imgsniff scan")
struct ScanTests {
    @Test("NDJSON over a hostile tree: a record per regular file, FIFO refused, no hang")
    func ndjsonHostileTree() throws {
        let tree = try ScratchTree.hostile()
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "."], in: tree.root)
        #expect(!r.timedOut)
        #expect(r.status == 0, "stderr: \(r.stderr)")  // a FIFO inside a tree is not a failure
        let records = byPath(try parseNDJSON(r))
        let badDisplay = "a/bad-%FF%FE%25name.png"
        #expect(Set(records.keys) == ["./a/b/c/deep.png", "./a/photo.tiff", "./a/right.jpg", "./empty",
                                      "./notes.txt", "./a/pipe", "./" + badDisplay])
        #expect(records["./a/b/c/deep.png"]?["uti"] as? String == "public.png")
        #expect(records["./a/photo.tiff"]?["uti"] as? String == "public.jpeg")
        #expect(records["./a/photo.tiff"]?["isImage"] as? Bool == true)
        #expect(records["./empty"]?["uti"] as? String == "public.data")
        #expect(records["./empty"]?["description"] as? String == "empty", "file(1) says empty")
        #expect(records["./empty"]?["error"] is NSNull)
        let pipe = try #require(records["./a/pipe"])
        let pipeError = pipe["error"] as? [String: Any]
        #expect(pipeError?["code"] as? String == "notRegular")
        #expect((pipeError?["message"] as? String)?.contains("fifo") == true, "\(pipe)")
        #expect(pipe["description"] as? String == "fifo (named pipe)")
        #expect(pipe["uti"] is NSNull)
        let bad = try #require(records["./" + badDisplay])
        #expect(bad["uti"] as? String == "public.png")
        let raw = try #require(Data(base64Encoded: bad["pathBytes"] as? String ?? ""))
        #expect(Array(raw) == Array("./a/".utf8) + invalidName)
        // Exactly the documented field names (plus pathBytes for non-UTF-8 names).
        let fields: Set<String> = ["schemaVersion", "path", "uti", "description", "mime", "preferredExtension", "extension",
                                   "isImage", "confidence", "animated", "completeness", "extensionMatches", "error"]
        for (path, record) in records where path != "./" + badDisplay {
            #expect(Set(record.keys) == fields, "\(path)")
            #expect(record["schemaVersion"] as? Int == 2)
        }
        #expect(Set(bad.keys) == fields.union(["pathBytes"]))
        #expect(records["./a/photo.tiff"]?["extensionMatches"] as? Bool == false)
        #expect(records["./a/right.jpg"]?["extensionMatches"] as? Bool == true)
        #expect(records["./a/b/c/deep.png"]?["extensionMatches"] as? Bool == true)
        #expect(records["./empty"]?["extensionMatches"] is NSNull, "no extension: null")
        #expect(records["./a/photo.tiff"]?["preferredExtension"] as? String == "jpg")
        // Deterministic: walk order, sorted bytewise.
        let order = try parseNDJSON(r).map { $0["path"] as? String ?? "" }
        #expect(order == ["./a/b/c/deep.png", "./" + badDisplay, "./a/photo.tiff", "./a/pipe", "./a/right.jpg", "./empty", "./notes.txt"])
    }

    @Test("--follow-symlinks survives a symlink loop; --hidden includes dot files")
    func followSymlinksAndHidden() throws {
        let tree = try ScratchTree.hostile()
        for flag in ["--follow-symlinks", "-L"] {
            let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", flag, "--hidden", "--jobs", "3", "."], in: tree.root, timeout: 30)
            #expect(!r.timedOut)
            let records = byPath(try parseNDJSON(r))
            #expect(records["./a/link.png"]?["uti"] as? String == "public.png")
            #expect(records["./.hidden/secret.png"]?["uti"] as? String == "public.png")
            let loop = try #require(records["./a/b/loop"])
            #expect((loop["error"] as? [String: Any])?["code"] as? String == "loop")
            #expect(r.status == 2)  // the loop is reported as an error, like find -L
        }
    }

    @Test("--mismatches lists photo.tiff and nothing else")
    func mismatches() throws {
        let tree = try ScratchTree.hostile()
        let r = try IMGSniffBinary.run(["scan", "--mismatches", "--format", "ndjson", "a"], in: tree.root)
        #expect(!r.timedOut)
        let paths = try parseNDJSON(r).map { $0["path"] as? String ?? "" }
        #expect(paths == ["a/photo.tiff"])
    }

    @Test("--mismatches lists noise named .jpg or .png, not an empty .jpg, a .raw dump or a .tga")
    func mismatchesOfUnknownContent() throws {
        let tree = try ScratchTree.hostile()
        let noise = (0..<3000).map { UInt8(truncatingIfNeeded: $0 &* 7919 &+ $0 >> 3) }
        for name in ["noise.jpg", "noise.png", "dump.raw", "maybe.tga", "notes.docx"] { try tree.file("u/\(name)", noise) }
        try tree.file("u/empty.jpg", [])
        let r = try IMGSniffBinary.run(["scan", "--mismatches", "--format", "ndjson", "u"], in: tree.root)
        let records = try parseNDJSON(r)
        #expect(records.map { $0["path"] as? String ?? "" }.sorted() == ["u/noise.jpg", "u/noise.png"])
        #expect(records.allSatisfy { $0["uti"] as? String == "public.data" && $0["extensionMatches"] as? Bool == false })
    }

    @Test("--format json is one valid array")
    func jsonFormat() throws {
        let tree = try ScratchTree.hostile()
        let r = try IMGSniffBinary.run(["scan", "--format", "json", "."], in: tree.root)
        let array = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]])
        #expect(array.count == 7)
        let empty = try IMGSniffBinary.run(["scan", "--format", "json", "--only-images", "notes.txt"], in: tree.root)
        #expect((try JSONSerialization.jsonObject(with: empty.stdout) as? [Any])?.isEmpty == true)
    }

    @Test("--format csv is RFC 4180 with a header")
    func csvFormat() throws {
        let tree = try ScratchTree.hostile()
        try tree.file("comma, \"quoted\".jpg", jpegBytes)
        let r = try IMGSniffBinary.run(["scan", "--format", "csv", "."], in: tree.root)
        let rows = try parseCSV(r.text)
        let header = try #require(rows.first)
        #expect(header == ["path", "uti", "description", "mime", "preferredExtension", "extension", "isImage", "confidence",
                           "animated", "completeness", "extensionMatches", "error", "pathBytes"])
        #expect(rows.count == 9)
        #expect(rows.allSatisfy { $0.count == header.count })
        #expect(rows.contains { $0[0] == "./comma, \"quoted\".jpg" && $0[1] == "public.jpeg" && $0[10] == "true" })
        #expect(rows.contains { $0[0] == "./a/pipe" && $0[11] == "notRegular: fifo (named pipe)" })
    }

    /// A file name's line feed is shown as `?` in a message on standard error (a stranger's run:
    /// a name could start a line of its own that reads as another message); the record keeps it.
    @Test func aNameCannotForgeAMessageLine() throws {
        let tree = try ScratchTree()
        try tree.file("ok.png", pngBytes)
        let name = "nope\nimgsniff: forged\u{1B}[31m"
        for format in ["ndjson", "csv"] {
            let r = try IMGSniffBinary.run(["scan", "--format", format, "ok.png", name], in: tree.root)
            let lines = r.stderr.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
            #expect(lines == ["imgsniff: nope?imgsniff: forged?[31m: no such file or directory"], "\(format): \(r.stderr)")
            #expect(r.status == 2)
            if format == "ndjson" {
                #expect(try parseNDJSON(r).map { $0["path"] as? String } == ["ok.png", name])
            }
        }
    }

    /// A right-to-left override in a name would show `photo\u{202E}gpj.exe` as `photoexe.jpg`
    /// in the table and in messages (a stranger's report: it was printed as it is): direction
    /// controls are shown as `?` there, as control characters are; the record keeps the name.
    @Test func directionControlsAreShownAsQuestionMarks() throws {
        let tree = try ScratchTree()
        let spoof = "photo\u{202E}gpj.exe", isolate = "a\u{2067}b\u{2069}.png", separator = "line\u{2028}break.png"
        try tree.file(spoof, pngBytes)
        try tree.file(isolate, pngBytes)
        try tree.file(separator, pngBytes)
        let table = try IMGSniffBinary.run(["scan", "--format", "table", spoof, isolate, separator, "gone\u{202E}x"], in: tree.root)
        let shown = String(decoding: table.stdout, as: UTF8.self)
        #expect(shown.contains("photo?gpj.exe") && shown.contains("a?b?.png") && shown.contains("line?break.png"), "\(shown)")
        #expect(!shown.unicodeScalars.contains { (0x202A...0x202E).contains($0.value) || (0x2066...0x2069).contains($0.value) })
        #expect(shown.contains("gone?x"), "the row of a missing file: \(shown)")
        let message = try IMGSniffBinary.run(["scan", "--format", "csv", "gone\u{202E}x"], in: tree.root)
        #expect(message.stderr.contains("gone?x"), "\(message.stderr)")
        let records = try parseNDJSON(try IMGSniffBinary.run(["scan", spoof], in: tree.root))
        #expect(records.first?["path"] as? String == spoof)
    }

    @Test("TGA without footer: TGA only with --hint-from-extension")
    func tgaHint() throws {
        let tree = try ScratchTree()
        try tree.file("x.tga", tgaBytes)
        let plain = try parseNDJSON(try IMGSniffBinary.run(["scan", "x.tga"], in: tree.root))
        #expect(plain.count == 1)
        #expect(plain.first?["uti"] as? String != "com.truevision.tga-image")
        let hinted = try parseNDJSON(try IMGSniffBinary.run(["scan", "--hint-from-extension", "x.tga"], in: tree.root))
        #expect(hinted.first?["uti"] as? String == "com.truevision.tga-image")
        #expect(hinted.first?["confidence"] as? String == "hinted")
    }

    @Test("--type filters by conformance; accepts identifier, extension or MIME")
    func typeFilter() throws {
        let tree = try ScratchTree.hostile()
        for type in ["public.jpeg", "jpg", "image/jpeg"] {
            let paths = try parseNDJSON(try IMGSniffBinary.run(["scan", "--type", type, "a"], in: tree.root)).map { $0["path"] as? String ?? "" }
            #expect(paths == ["a/photo.tiff", "a/right.jpg"], "--type \(type)")
        }
        let images = try parseNDJSON(try IMGSniffBinary.run(["scan", "--type", "public.image", "."], in: tree.root))
        #expect(images.count == 4)
        let onlyImages = try parseNDJSON(try IMGSniffBinary.run(["scan", "--only-images", "."], in: tree.root))
        #expect(onlyImages.count == 4)
        let bad = try IMGSniffBinary.run(["scan", "--type", "no.such.type", "."], in: tree.root)
        #expect(bad.status == 64)
    }

    @Test("Exit codes: bad flag 64, missing path 2, explicit FIFO 2 without hanging, nothing listed 1")
    func exitCodes() throws {
        let tree = try ScratchTree.hostile()
        let badFlag = try IMGSniffBinary.run(["scan", "--no-such-flag"], in: tree.root)
        #expect(badFlag.status == 64)
        let badValue = try IMGSniffBinary.run(["scan", "--format", "yaml", "."], in: tree.root)
        #expect(badValue.status == 64)
        let missing = try IMGSniffBinary.run(["scan", "does-not-exist", "a/right.jpg"], in: tree.root)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("imgsniff: does-not-exist: no such file or directory"))
        // The missing operand is a record of its own, in its place.
        let records = try parseNDJSON(missing)
        #expect(records.count == 2)
        #expect(records.first?["path"] as? String == "does-not-exist")
        #expect((records.first?["error"] as? [String: Any])?["code"] as? String == "ENOENT")
        let fifo = try IMGSniffBinary.run(["scan", "a/pipe"], in: tree.root, timeout: 15)
        #expect(!fifo.timedOut)
        #expect(fifo.status == 2)
        #expect(((try parseNDJSON(fifo).first?["error"] as? [String: Any])?["message"] as? String)?.contains("fifo") == true)
        let ok = try IMGSniffBinary.run(["scan", "a/right.jpg"], in: tree.root)
        #expect(ok.status == 0)
        let none = try IMGSniffBinary.run(["scan", "--only-images", "notes.txt"], in: tree.root)
        #expect(none.status == 1, "nothing listed")
        #expect(none.text.isEmpty)
    }

    @Test("Standard input: '-' reads the bytes")
    func standardInput() throws {
        let tree = try ScratchTree()
        try tree.file("in.bin", jpegBytes)
        let r = try IMGSniffBinary.run(["scan", "-"], in: tree.root, stdin: tree.root.appendingPathComponent("in.bin"))
        let records = try parseNDJSON(r)
        #expect(records.first?["path"] as? String == "-")
        #expect(records.first?["uti"] as? String == "public.jpeg")
    }

    /// A file of /proc says its size is 0 and has bytes: on standard input it is read as a stream
    /// (as `file -` reads it); an empty file is still empty, with its length.
    @Test func standardInputThatSaysItIsEmpty() throws {
        let tree = try ScratchTree()
        try tree.file("empty", [])
        let proc = try parseNDJSON(try IMGSniffBinary.run(["scan", "-"], stdin: URL(fileURLWithPath: "/proc/self/status")))
        #expect(proc.first?["uti"] as? String == "public.plain-text", "\(proc)")
        let empty = try parseNDJSON(try IMGSniffBinary.run(["scan", "-"], stdin: tree.root.appendingPathComponent("empty")))
        #expect(empty.first?["description"] as? String == "empty")
        #expect(empty.first?["error"] is NSNull)
    }

    @Test("--files-from with -0 takes NUL-separated paths, lossless")
    func filesFromNull() throws {
        let tree = try ScratchTree.hostile()
        var list = Array("a/right.jpg".utf8) + [0] + Array("a/".utf8) + invalidName + [0] + Array("a/b".utf8) + [0]
        list += Array("notes.txt".utf8) + [0]
        try tree.file("list", list)
        let r = try IMGSniffBinary.run(["scan", "--files-from", "-", "-0"], in: tree.root, stdin: tree.root.appendingPathComponent("list"))
        let records = try parseNDJSON(r)
        // Directories in the list are not descended: reported, as file(1) does, "directory".
        #expect(records.map { $0["path"] as? String ?? "" } == ["a/right.jpg", "a/bad-%FF%FE%25name.png", "a/b", "notes.txt"])
        #expect(records[2]["description"] as? String == "directory")
        #expect(r.status == 0, "a directory in a list is reported, not an error")
    }

    @Test("Table output: aligned with a summary; NO_COLOR and pipes give no escapes")
    func table() throws {
        let tree = try ScratchTree.hostile()
        let r = try IMGSniffBinary.run(["scan", "--format", "table", "a"], in: tree.root, environment: ["NO_COLOR": "1"])
        #expect(r.lines.first?.hasPrefix("PATH") == true)
        #expect(!r.text.contains("\u{1B}"))
        #expect(r.text.contains("mismatch(.tiff)"))
        #expect(r.text.contains("public.jpeg"))
        #expect(r.text.contains("5 files"))
        #expect(r.lines.contains { $0.split(separator: " ").joined(separator: " ") == "1 extension mismatch" })
    }

    @Test("Many files with several jobs come out in walk order")
    func manyFilesOrdered() throws {
        let tree = try ScratchTree()
        for i in 0..<600 { try tree.file(String(format: "d%02d/f%04d.%@", i % 7, i, i % 2 == 0 ? "png" : "jpg"), i % 2 == 0 ? pngBytes : jpegBytes) }
        let r = try IMGSniffBinary.run(["scan", "--jobs", "4", "."], in: tree.root)
        let paths = try parseNDJSON(r).map { $0["path"] as? String ?? "" }
        #expect(paths.count == 600)
        #expect(paths == paths.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    }
}

@Suite("imgsniff types")
struct TypesTests {
    @Test("JSON: every type with the documented fields")
    func json() throws {
        let r = try IMGSniffBinary.run(["types", "--format", "json"])
        let array = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]])
        #expect(array.count > 50)
        for object in array {
            for key in ["identifier", "parents", "extensions", "mimeTypes", "description", "isImage"] {
                #expect(object[key] != nil, "\(key) missing")
            }
        }
        let jpeg = try #require(array.first { $0["identifier"] as? String == "public.jpeg" })
        #expect(jpeg["extensions"] as? [String] == ["jpg", "jpeg", "jpe", "jfif"])
        #expect(jpeg["isImage"] as? Bool == true)
    }

    /// A name that is no type's own extension but one `rename` keeps (.jpc for a JPEG 2000
    /// codestream) names the types it fits, saying why; a name that fits nothing is still no type.
    @Test("A conventional name is looked up as rename sees it")
    func conventionalName() throws {
        let r = try IMGSniffBinary.run(["types", "jpc"])
        #expect(r.status == 0)
        #expect(r.text.hasPrefix("public.jpeg-2000"))
        #expect(r.stderr.contains("codestream"), "says why: \(r.stderr)")
        let json = try IMGSniffBinary.run(["types", ".JPC", "--format", "json"])
        let array = try #require(try JSONSerialization.jsonObject(with: json.stdout) as? [[String: Any]])
        #expect(array.map { $0["identifier"] as? String } == ["public.jpeg-2000"])
        let none = try IMGSniffBinary.run(["types", "nosuchext"])
        #expect(none.status == 1 && none.stdout.isEmpty)
    }

    @Test("Markdown: a deterministic table with the README columns")
    func markdown() throws {
        let a = try IMGSniffBinary.run(["types", "--format", "markdown"])
        let b = try IMGSniffBinary.run(["types", "--format", "markdown"])
        #expect(a.stdout == b.stdout)
        #expect(a.lines.first == "| Identifier | Description | Extensions | MIME types | Parents |")
        #expect(a.lines.contains { $0.hasPrefix("| `public.png` |") })
    }

    @Test("--version and --help")
    func versionAndHelp() throws {
        let v = try IMGSniffBinary.run(["--version"])
        #expect(v.text == ImageSniffer.version + "\n")
        let help = try IMGSniffBinary.run(["scan", "--help"])
        #expect(help.status == 0)
        #expect(help.text.contains("%25"))
        #expect(help.text.contains("Examples"))
    }
}

@Suite("imgsniff scan --properties and --min-pixels")
struct ScanPropertiesTests {
    /// A PNG header stating a size (and nothing after IHDR but IEND).
    static func png(width: UInt32, height: UInt32) -> [UInt8] {
        var bytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8)
        for value in [width, height] { bytes += withUnsafeBytes(of: value.bigEndian) { Array($0) } }
        return bytes + [8, 2, 0, 0, 0, 0, 0, 0, 0] + [0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]
    }

    @Test("records carry the header's properties; non-images carry null")
    func ndjsonProperties() throws {
        let tree = try ScratchTree()
        try tree.file("small", Self.png(width: 640, height: 480))
        try tree.file("notes", Array("plain words\n".utf8))
        let r = try IMGSniffBinary.run(["scan", "--properties", "--format", "ndjson", "small", "notes"], in: tree.root)
        #expect(r.status == 0, "\(r.stderr)")
        let records = byPath(try parseNDJSON(r))
        let p = try #require(records["small"]?["properties"] as? [String: Any])
        #expect(p["width"] as? Int == 640 && p["height"] as? Int == 480)
        #expect(p["bitDepth"] as? Int == 8 && p["colorModel"] as? String == "rgb" && p["hasAlpha"] as? Bool == false)
        #expect(p.keys.count == 11, "every field present, null when not stated: \(p)")
        #expect(p["codedWidth"] is NSNull && p["codedHeight"] is NSNull, "a PNG has no other coded size")
        #expect(records["notes"]?["properties"] is NSNull)
        // Without --properties, no such field.
        let plain = try IMGSniffBinary.run(["scan", "--format", "ndjson", "small"], in: tree.root)
        #expect(try parseNDJSON(plain).first?["properties"] == nil)
    }

    @Test("--min-pixels lists only images at least that large, by their header")
    func minPixelsFindsBombs() throws {
        let tree = try ScratchTree()
        try tree.file("bomb", Self.png(width: 100_000, height: 100_000))
        try tree.file("photo", Self.png(width: 4000, height: 3000))
        try tree.file("icon", Self.png(width: 16, height: 16))
        try tree.file("notes", Array("plain words\n".utf8))
        let r = try IMGSniffBinary.run(["scan", "--min-pixels", "100M", "--format", "ndjson", "."], in: tree.root)
        #expect(r.status == 0)
        #expect(try parseNDJSON(r).map { $0["path"] as? String } == ["./bomb"])
        let twelve = try IMGSniffBinary.run(["scan", "--min-pixels", "12000000", "--format", "csv", "--properties", "."], in: tree.root)
        let rows = try parseCSV(twelve.text)
        #expect(rows.count == 3, "a header and two rows: \(rows)")
        #expect(rows.first?.contains("width") == true)
        let none = try IMGSniffBinary.run(["scan", "--min-pixels", "20G", "."], in: tree.root)
        #expect(none.status == 1, "nothing listed")
        let bad = try IMGSniffBinary.run(["scan", "--min-pixels", "lots", "."], in: tree.root)
        #expect(bad.status == 64)
        #expect(bad.stderr.contains("--min-pixels"))
    }

    @Test("the table shows WxH")
    func tableSize() throws {
        let tree = try ScratchTree()
        try tree.file("photo", Self.png(width: 4000, height: 3000))
        let r = try IMGSniffBinary.run(["scan", "--properties", "--format", "table", "--color", "never", "photo"], in: tree.root)
        #expect(r.lines.first?.contains("SIZE") == true)
        #expect(r.text.contains("4000x3000"))
    }
}

@Suite("Command-line parsing")
struct ParsingTests {
    /// The spellings getopt and getopt_long accept for the same options give the same output:
    /// `--opt=value` and `--opt value`, `-jN` and `-j N`, bundles, `--` before an operand that
    /// starts with a dash.
    @Test(arguments: [
        (["scan", "--format=csv", "--jobs=2", "png"], ["scan", "--format", "csv", "--jobs", "2", "png"]),
        (["scan", "-j1", "--format", "json", "png"], ["scan", "-j", "1", "--format", "json", "png"]),
        (["scan", "-xj1", "--format", "ndjson", "png"], ["scan", "-x", "-j", "1", "--format", "ndjson", "png"]),
        (["scan", "--format", "ndjson", "--", "png"], ["scan", "--format", "ndjson", "png"]),
        (["scan", "--type", "png", "--type=gif", "--format", "ndjson", "png", "gif"], ["scan", "--type=png", "--type", "gif", "--format", "ndjson", "png", "gif"]),
    ])
    func spellingsAgree(_ pair: ([String], [String])) throws {
        let a = try IMGSniffBinary.run(pair.0, in: Repository.testImages)
        let b = try IMGSniffBinary.run(pair.1, in: Repository.testImages)
        #expect(a.status == 0 && a.status == b.status, "\(pair.0): \(a.stderr)")
        #expect(!a.stdout.isEmpty && a.stdout == b.stdout, "\(pair.0)")
    }

    /// What does not parse is a usage error (64) whose message names the problem, on standard
    /// error, with nothing on standard output.
    @Test(arguments: [
        (["scan", "--bogus"], "Unknown option '--bogus'"), (["scan", "--format"], "Missing value for '--format <format>'"),
        (["scan", "--format", "yaml", "png"], "The value 'yaml' is invalid for '--format <format>'"),
        (["scan", "-jx", "png"], "not a whole number"), (["scan", "--hidden=yes", "png"], "'--hidden' takes no value"),
        (["scan", "-Z", "png"], "Unknown option '-Z'"), (["scna", "png"], "Did you mean 'scan'?"),
        (["scan", "--propertes", "png"], "Did you mean '--properties'?"), (["types", "nef", "png"], "Unexpected argument 'png'"),
        (["scan", "-", "-"], "can be given only once"),
    ])
    func usageErrors(_ case: ([String], String)) throws {
        let r = try IMGSniffBinary.run(`case`.0, in: Repository.testImages)
        #expect(r.status == 64, "\(`case`.0)")
        #expect(r.stdout.isEmpty)
        #expect(r.stderr.contains(`case`.1), "\(`case`.0): \(r.stderr)")
    }

    /// `help scan` is `scan --help`; `--version` anywhere before `--` prints the version.
    @Test func helpAndVersion() throws {
        let a = try IMGSniffBinary.run(["help", "scan"], environment: ["COLUMNS": "90"])
        let b = try IMGSniffBinary.run(["scan", "--help"], environment: ["COLUMNS": "90"])
        #expect(a.status == 0 && a.stdout == b.stdout && a.text.contains("USAGE: imgsniff scan"))
        let v = try IMGSniffBinary.run(["scan", "--version"])
        #expect(v.status == 0 && v.text == ImageSniffer.version + "\n")
    }
}
