// End-to-end tests of `imgsniff scan` and `imgsniff types`: they run the built binary on scratch
// trees made in a temporary directory.

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Running the binary

struct RunResult {
    let status: Int32
    let stdout: Data
    let stderr: String
    let timedOut: Bool
    var text: String { String(decoding: stdout, as: UTF8.self) }
    var lines: [String] { text.split(separator: "\n").map(String.init) }
}

enum IMGSniffBinary {
    /// The built `imgsniff`: `IMGSNIFF_BINARY` if set, else next to the test bundle (the products
    /// directory), else the newest `.build*/*/imgsniff` under the package root.
    static let url: URL? = {
        let fm = FileManager.default
        func ok(_ u: URL) -> Bool { fm.isExecutableFile(atPath: u.path) }
        if let env = ProcessInfo.processInfo.environment["IMGSNIFF_BINARY"] { return URL(fileURLWithPath: env) }
        var candidates: [URL] = []
        let bundle = Bundle.main.bundleURL
        candidates += [bundle.appendingPathComponent("imgsniff"), bundle.deletingLastPathComponent().appendingPathComponent("imgsniff")]
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent("imgsniff"))
            dir = dir.deletingLastPathComponent()
        }
        if let found = candidates.first(where: ok) { return found }
        // From the source file: <root>/Tests/IMGSniffCLITests/ScanTests.swift.
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        var best: (URL, Date)?
        for build in (try? fm.contentsOfDirectory(atPath: root.path)) ?? [] where build.hasPrefix(".build") {
            for sub in ["debug", "release"] {
                let u = root.appendingPathComponent(build).appendingPathComponent(sub).appendingPathComponent("imgsniff")
                guard ok(u), let date = (try? fm.attributesOfItem(atPath: u.path))?[.modificationDate] as? Date else { continue }
                if best == nil || date > best!.1 { best = (u, date) }
            }
        }
        return best?.0
    }()

    /// Runs `imgsniff` with `arguments` in `directory`, stdin from `stdin` (a file) or /dev/null;
    /// kills it after `timeout` seconds.
    static func run(_ arguments: [String], in directory: URL? = nil, stdin: URL? = nil,
                    environment: [String: String] = [:], timeout: Double = 30) throws -> RunResult {
        guard let url else { throw CLIError("imgsniff binary not found (set IMGSNIFF_BINARY)") }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: scratch) }
        let outURL = scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
        FileManager.default.createFile(atPath: outURL.path, contents: nil)
        FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let process = Process()
        process.executableURL = url
        process.arguments = arguments
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let outHandle = try FileHandle(forWritingTo: outURL), errHandle = try FileHandle(forWritingTo: errURL)
        process.standardOutput = outHandle
        process.standardError = errHandle
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        let done = DispatchSemaphore(value: 0)
        process.terminationHandler = { _ in done.signal() }
        try process.run()
        var timedOut = false
        if done.wait(timeout: .now() + timeout) == .timedOut {
            timedOut = true
            process.terminate()
            kill(process.processIdentifier, SIGKILL)
            done.wait()
        }
        try outHandle.close()
        try errHandle.close()
        return RunResult(status: process.terminationStatus, stdout: try Data(contentsOf: outURL),
                         stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self), timedOut: timedOut)
    }
}

struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ d: String) { description = d }
}

// MARK: - Scratch trees

/// A minimal JFIF JPEG: SOI, APP0, SOS, EOI.
let jpegBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array("JFIF".utf8) +
    [0x00, 0x01, 0x01, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00,
     0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x12, 0x34, 0xFF, 0xD9]

/// A PNG signature and IHDR (enough for the detector).
let pngBytes: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13] + Array("IHDR".utf8) +
    [0, 0, 0, 1, 0, 0, 0, 1, 8, 2, 0, 0, 0, 0x90, 0x77, 0x53, 0xDE, 0, 0, 0, 0] + Array("IEND".utf8) + [0xAE, 0x42, 0x60, 0x82]

/// A TGA without the 2.0 footer: RLE true-colour (type 10), 2x2, 24 bpp, one run packet, then
/// bytes the image data does not account for (so that only the hint can name it).
let tgaBytes: [UInt8] = [0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 2, 0, 2, 0, 24, 0] + [0x83, 0x10, 0x20, 0x30]
    + [UInt8](repeating: 0x55, count: 40)

/// A name that is not valid UTF-8 (raw bytes), with a '%' to check the escaping.
let invalidName: [UInt8] = Array("bad-".utf8) + [0xFF, 0xFE] + Array("%name.png".utf8)

final class ScratchTree {
    let root: URL

    init() throws {
        root = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-tree-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
    }

    deinit { try? FileManager.default.removeItem(at: root) }

    func file(_ path: String, _ bytes: [UInt8]) throws {
        let url = root.appendingPathComponent(path)
        try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(bytes).write(to: url)
    }

    /// Creates a file whose name is raw bytes (Foundation cannot spell them).
    func rawFile(in dir: String, name: [UInt8], _ bytes: [UInt8]) throws {
        var path = Array(root.appendingPathComponent(dir).path.utf8) + [UInt8(ascii: "/")] + name
        path.append(0)
        let fd = path.withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_TRUNC, 0o644) } }
        guard fd >= 0 else { throw CLIError("open failed: \(errno)") }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
    }

    func fifo(_ path: String) throws {
        guard mkfifo(root.appendingPathComponent(path).path, 0o644) == 0 else { throw CLIError("mkfifo failed: \(errno)") }
    }

    func symlink(_ path: String, to target: String) throws {
        try FileManager.default.createSymbolicLink(atPath: root.appendingPathComponent(path).path, withDestinationPath: target)
    }

    /// nested folders, a FIFO, a symlink loop, an empty file, a non-UTF-8 name, a JPEG named
    /// photo.tiff, a PNG, a hidden file.
    static func hostile() throws -> ScratchTree {
        let t = try ScratchTree()
        try t.file("a/b/c/deep.png", pngBytes)
        try t.file("a/photo.tiff", jpegBytes)
        try t.file("a/right.jpg", jpegBytes)
        try t.file("empty", [])
        try t.file("notes.txt", Array("hello, world\n".utf8))
        try t.file(".hidden/secret.png", pngBytes)
        try t.rawFile(in: "a", name: invalidName, pngBytes)
        try t.fifo("a/pipe")
        try t.symlink("a/b/loop", to: "../..")
        try t.symlink("a/link.png", to: "../a/b/c/deep.png")
        return t
    }
}

func parseNDJSON(_ r: RunResult) throws -> [[String: Any]] {
    try r.lines.map { line in
        guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
            throw CLIError("not a JSON object: \(line)")
        }
        return object
    }
}

func byPath(_ records: [[String: Any]]) -> [String: [String: Any]] {
    var map: [String: [String: Any]] = [:]
    for r in records { map[r["path"] as? String ?? ""] = r }
    return map
}

/// RFC 4180 parser (quoted fields, doubled quotes, CRLF).
func parseCSV(_ text: String) throws -> [[String]] {
    var rows: [[String]] = [], row: [String] = [], field = ""
    var quoted = false, i = text.unicodeScalars.startIndex
    let s = text.unicodeScalars
    while i != s.endIndex {
        let c = s[i]
        if quoted {
            if c == "\"" {
                let n = s.index(after: i)
                if n != s.endIndex && s[n] == "\"" { field += "\""; i = n } else { quoted = false }
            } else { field.unicodeScalars.append(c) }
        } else if c == "\"" {
            guard field.isEmpty else { throw CLIError("quote inside unquoted field") }
            quoted = true
        } else if c == "," {
            row.append(field); field = ""
        } else if c == "\r" {
            let n = s.index(after: i)
            guard n != s.endIndex, s[n] == "\n" else { throw CLIError("bare CR") }
            row.append(field); rows.append(row); row = []; field = ""; i = n
        } else if c == "\n" {
            throw CLIError("bare LF line ending")
        } else { field.unicodeScalars.append(c) }
        i = s.index(after: i)
    }
    if quoted { throw CLIError("unterminated quote") }
    if !field.isEmpty || !row.isEmpty { row.append(field); rows.append(row) }
    return rows
}

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
        #expect(records["./empty"]?["error"] is NSNull)
        let pipe = try #require(records["./a/pipe"])
        #expect((pipe["error"] as? String)?.contains("FIFO") == true)
        #expect(pipe["uti"] is NSNull)
        let bad = try #require(records["./" + badDisplay])
        #expect(bad["uti"] as? String == "public.png")
        let raw = try #require(Data(base64Encoded: bad["pathBytes"] as? String ?? ""))
        #expect(Array(raw) == Array("./a/".utf8) + invalidName)
        // Exactly the documented field names (plus pathBytes for non-UTF-8 names).
        for (path, record) in records where path != "./" + badDisplay {
            #expect(Set(record.keys) == ["path", "uti", "mime", "extension", "isImage", "confidence", "animated", "error"])
        }
        // Deterministic: walk order, sorted bytewise.
        let order = try parseNDJSON(r).map { $0["path"] as? String ?? "" }
        #expect(order == ["./a/b/c/deep.png", "./" + badDisplay, "./a/photo.tiff", "./a/pipe", "./a/right.jpg", "./empty", "./notes.txt"])
    }

    @Test("--follow-symlinks survives a symlink loop; --hidden includes dot files")
    func followSymlinksAndHidden() throws {
        let tree = try ScratchTree.hostile()
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "--follow-symlinks", "--hidden", "--jobs", "3", "."], in: tree.root, timeout: 30)
        #expect(!r.timedOut)
        let records = byPath(try parseNDJSON(r))
        #expect(records["./a/link.png"]?["uti"] as? String == "public.png")
        #expect(records["./.hidden/secret.png"]?["uti"] as? String == "public.png")
        let loop = try #require(records["./a/b/loop"])
        #expect((loop["error"] as? String)?.contains("loop") == true)
        #expect(r.status == 1)  // the loop is reported as a failure, like find -L
    }

    @Test("--mismatches lists photo.tiff and nothing else")
    func mismatches() throws {
        let tree = try ScratchTree.hostile()
        let r = try IMGSniffBinary.run(["scan", "--mismatches", "--format", "ndjson", "a"], in: tree.root)
        #expect(!r.timedOut)
        let paths = try parseNDJSON(r).map { $0["path"] as? String ?? "" }
        #expect(paths == ["a/photo.tiff"])
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
        #expect(header.prefix(9) == ["path", "uti", "mime", "extension", "isImage", "confidence", "animated", "completeness", "error"])
        #expect(rows.count == 9)
        #expect(rows.allSatisfy { $0.count == header.count })
        #expect(rows.contains { $0[0] == "./comma, \"quoted\".jpg" && $0[1] == "public.jpeg" })
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

    @Test("Exit codes: bad flag 64, missing path 2, explicit FIFO 1 without hanging")
    func exitCodes() throws {
        let tree = try ScratchTree.hostile()
        let badFlag = try IMGSniffBinary.run(["scan", "--no-such-flag"], in: tree.root)
        #expect(badFlag.status == 64)
        let badValue = try IMGSniffBinary.run(["scan", "--format", "yaml", "."], in: tree.root)
        #expect(badValue.status == 64)
        let missing = try IMGSniffBinary.run(["scan", "does-not-exist", "a/right.jpg"], in: tree.root)
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("imgsniff: does-not-exist: no such file or directory"))
        #expect(try parseNDJSON(missing).count == 1)
        let fifo = try IMGSniffBinary.run(["scan", "a/pipe"], in: tree.root, timeout: 15)
        #expect(!fifo.timedOut)
        #expect(fifo.status == 1)
        #expect((try parseNDJSON(fifo).first?["error"] as? String)?.contains("FIFO") == true)
        let ok = try IMGSniffBinary.run(["scan", "a/right.jpg"], in: tree.root)
        #expect(ok.status == 0)
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

    @Test("--files-from with -0 takes NUL-separated paths, lossless")
    func filesFromNull() throws {
        let tree = try ScratchTree.hostile()
        var list = Array("a/right.jpg".utf8) + [0] + Array("a/".utf8) + invalidName + [0] + Array("a/b".utf8) + [0]
        list += Array("notes.txt".utf8) + [0]
        try tree.file("list", list)
        let r = try IMGSniffBinary.run(["scan", "--files-from", "-", "-0"], in: tree.root, stdin: tree.root.appendingPathComponent("list"))
        let paths = try parseNDJSON(r).map { $0["path"] as? String ?? "" }
        // Directories in the list are not descended.
        #expect(paths == ["a/right.jpg", "a/bad-%FF%FE%25name.png", "notes.txt"])
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
        #expect(v.text == "0.1.0\n")
        let help = try IMGSniffBinary.run(["scan", "--help"])
        #expect(help.status == 0)
        #expect(help.text.contains("%25"))
        #expect(help.text.contains("Examples"))
    }
}
