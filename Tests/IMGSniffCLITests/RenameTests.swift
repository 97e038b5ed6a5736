// End-to-end tests of `imgsniff rename`: they run the built binary on scratch directories.

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

// MARK: - Harness

/// Finds and runs the built `imgsniff`, builds fixtures, snapshots trees.
enum RenameHarness {
    static let packageRoot: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    /// The `imgsniff` next to the running test bundle (whatever the scratch path), else the most
    /// recently built `.build*/debug/imgsniff` under the package.
    static let binary: String? = {
        let fm = FileManager.default
        if let exe = try? fm.destinationOfSymbolicLink(atPath: "/proc/self/exe") {
            var dir = URL(fileURLWithPath: exe).deletingLastPathComponent()
            for _ in 0..<3 {
                let candidate = dir.appendingPathComponent("imgsniff").path
                if fm.isExecutableFile(atPath: candidate) { return candidate }
                dir = dir.deletingLastPathComponent()
            }
        }
        var best: (String, Date)?
        let children = (try? fm.contentsOfDirectory(atPath: packageRoot.path)) ?? []
        for child in children where child.hasPrefix(".build") {
            let candidate = packageRoot.appendingPathComponent(child).appendingPathComponent("debug/imgsniff").path
            guard fm.isExecutableFile(atPath: candidate),
                  let date = (try? fm.attributesOfItem(atPath: candidate))?[.modificationDate] as? Date else { continue }
            if best == nil || date > best!.1 { best = (candidate, date) }
        }
        return best?.0
    }()

    struct Run {
        var status: Int32
        var stdout: String
        var stderr: String

        /// The NDJSON rows of stdout.
        var rows: [[String: Any]] {
            stdout.split(separator: "\n").compactMap {
                try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
            }
        }
    }

    /// A fresh scratch directory (removed by the caller with `cleanUp`).
    static func scratch(_ label: String) throws -> URL {
        let url = FileManager.default.temporaryDirectory
            .appendingPathComponent("imgsniff-rename-\(label)-\(getpid())-\(UInt32.random(in: 0...UInt32.max))")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    static func cleanUp(_ url: URL) { try? FileManager.default.removeItem(at: url) }

    /// Starts the binary (stdout/stderr to files under `scratch`).
    static func start(_ arguments: [String], in scratch: URL, environment: [String: String] = [:]) throws -> (Process, URL, URL) {
        let binary = try #require(binary, "imgsniff binary not found: build the package first")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        var env = ProcessInfo.processInfo.environment
        env["XDG_STATE_HOME"] = scratch.appendingPathComponent("state").path  // never the user's
        for (k, v) in environment { env[k] = v }
        process.environment = env
        let id = UInt32.random(in: 0...UInt32.max)
        let out = scratch.appendingPathComponent("out-\(id)"), err = scratch.appendingPathComponent("err-\(id)")
        _ = FileManager.default.createFile(atPath: out.path, contents: nil)
        _ = FileManager.default.createFile(atPath: err.path, contents: nil)
        process.standardOutput = try FileHandle(forWritingTo: out)
        process.standardError = try FileHandle(forWritingTo: err)
        process.standardInput = FileHandle.nullDevice
        try process.run()
        return (process, out, err)
    }

    /// Runs the binary to completion.
    @discardableResult
    static func run(_ arguments: [String], in scratch: URL, environment: [String: String] = [:]) throws -> Run {
        let (process, out, err) = try start(arguments, in: scratch, environment: environment)
        process.waitUntilExit()
        defer {
            try? FileManager.default.removeItem(at: out)
            try? FileManager.default.removeItem(at: err)
        }
        return Run(status: process.terminationStatus,
                   stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "",
                   stderr: (try? String(contentsOf: err, encoding: .utf8)) ?? "")
    }

    /// Bytes of a real test image of this type (from TestImages/manifest.tsv), or nil.
    static func testImage(_ identifier: String) -> [UInt8]? {
        let images = packageRoot.appendingPathComponent("TestImages")
        guard let manifest = try? String(contentsOf: images.appendingPathComponent("manifest.tsv"), encoding: .utf8) else { return nil }
        for line in manifest.split(separator: "\n") {
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
            guard fields.count >= 2, fields[1] == identifier else { continue }
            if let data = FileManager.default.contents(atPath: images.appendingPathComponent(String(fields[0])).path) {
                return Array(data)
            }
        }
        return nil
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for b in bytes {
            crc ^= UInt32(b)
            for _ in 0..<8 { crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    static func be32(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 255), UInt8(v >> 8 & 255), UInt8(v & 255)] }

    /// A PNG (a real one when TestImages has it, else a minimal 1x1 one).
    static let png: [UInt8] = testImage("public.png") ?? {
        func chunk(_ type: String, _ data: [UInt8]) -> [UInt8] {
            let body = Array(type.utf8) + data
            return be32(UInt32(data.count)) + body + be32(crc32(body))
        }
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
            + chunk("IHDR", be32(1) + be32(1) + [8, 0, 0, 0, 0])
            + chunk("IDAT", [0x78, 0x9C, 0x63, 0x60, 0x00, 0x00, 0x00, 0x02, 0x00, 0x01])
            + chunk("IEND", [])
    }()

    /// A JPEG (real, or a minimal JFIF header through SOS).
    static let jpeg: [UInt8] = testImage("public.jpeg") ?? [
        0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10, 0x4A, 0x46, 0x49, 0x46, 0x00, 0x01, 0x01, 0x00, 0x00, 0x01,
        0x00, 0x01, 0x00, 0x00, 0xFF, 0xDB, 0x00, 0x43, 0x00] + [UInt8](repeating: 1, count: 64) + [
        0xFF, 0xC0, 0x00, 0x0B, 0x08, 0x00, 0x01, 0x00, 0x01, 0x01, 0x01, 0x11, 0x00,
        0xFF, 0xDA, 0x00, 0x08, 0x01, 0x01, 0x00, 0x00, 0x3F, 0x00, 0x00, 0xFF, 0xD9]

    /// A GIF (real, or a minimal GIF89a).
    static let gif: [UInt8] = testImage("com.compuserve.gif") ?? Array("GIF89a".utf8) + [
        1, 0, 1, 0, 0x80, 0, 0, 0, 0, 0, 255, 255, 255, 0x2C, 0, 0, 0, 0, 1, 0, 1, 0, 0, 2, 2, 0x44, 1, 0, 0x3B]

    /// A HEIC (real, or a minimal `ftyp` box with brand heic).
    static let heic: [UInt8] = testImage("public.heic") ?? (be32(24) + Array("ftypheic".utf8) + be32(0) + Array("mif1heic".utf8))

    /// Bytes that mean nothing (a fixed pseudo-random sequence).
    static let noise: [UInt8] = {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        return (0..<2048).map { _ in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return UInt8(truncatingIfNeeded: state >> 56)
        }
    }()

    /// Creates a file whose name is raw bytes.
    static func write(_ bytes: [UInt8], name: [UInt8], in dir: URL) throws {
        let path = Array(dir.path.utf8) + [UInt8(ascii: "/")] + name + [0]
        let fd = path.withUnsafeBufferPointer {
            $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_WRONLY | O_CREAT | O_EXCL, 0o644) }
        }
        guard fd >= 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        defer { close(fd) }
        let n = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
        guard n == bytes.count else { throw POSIXError(.EIO) }
    }

    static func write(_ bytes: [UInt8], _ name: String, in dir: URL) throws {
        try write(bytes, name: Array(name.utf8), in: dir)
    }

    /// Every entry of a directory (not recursive) by raw name, with its bytes.
    static func snapshot(_ dir: URL) -> [[UInt8]: [UInt8]] {
        var result: [[UInt8]: [UInt8]] = [:]
        guard let d = opendir(dir.path) else { return result }
        defer { closedir(d) }
        while let ent = readdir(d) {
            let name: [UInt8] = withUnsafePointer(to: &ent.pointee.d_name) { tuple in
                tuple.withMemoryRebound(to: CChar.self, capacity: 256) { Array(UnsafeRawBufferPointer(start: $0, count: strlen($0))) }
            }
            if name == [46] || name == [46, 46] { continue }
            let path = Array(dir.path.utf8) + [47] + name
            result[name] = contents(path) ?? []
        }
        return result
    }

    static func contents(_ path: [UInt8]) -> [UInt8]? {
        let fd = (path + [0]).withUnsafeBufferPointer { $0.withMemoryRebound(to: CChar.self) { open($0.baseAddress!, O_RDONLY) } }
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var out: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n <= 0 { break }
            out += buffer[..<n]
        }
        return out
    }

    static func names(_ snapshot: [[UInt8]: [UInt8]]) -> [String] {
        snapshot.keys.map { String(decoding: $0, as: UTF8.self) }.sorted()
    }

    /// Rows keyed by the last component of `path`.
    static func byName(_ rows: [[String: Any]]) -> [String: [String: Any]] {
        var result: [String: [String: Any]] = [:]
        for row in rows {
            if let path = row["path"] as? String { result[String(path.split(separator: "/").last ?? "")] = row }
        }
        return result
    }
}

// MARK: - The scenario of issue 6

@Suite("imgsniff rename", .serialized)
struct RenameCLITests {
    typealias H = RenameHarness

    @Test("plan, apply, fix, undo: names and bytes come back exactly")
    func planApplyFixUndo() throws {
        let root = try H.scratch("e2e")
        defer { H.cleanUp(root) }
        let dir = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try H.write(H.png, "a", in: dir)
        try H.write(H.jpeg, "b", in: dir)
        try H.write(H.heic, "c", in: dir)
        try H.write(H.png, "d", in: dir)                 // its target is taken:
        try H.write(H.png + [0x42], "d.png", in: dir)    // an existing (right-named) PNG
        try H.write(H.jpeg, "photo.tiff", in: dir)
        try H.write(H.jpeg, "ok.JPG", in: dir)
        try H.write(H.jpeg, "ok2.jpeg", in: dir)
        try H.write(H.noise, "random", in: dir)
        let original = H.snapshot(dir)

        // The dry run shows the plan and changes nothing.
        let plan = try H.run(["rename", "--format", "ndjson", dir.path], in: root)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(H.snapshot(dir) == original)
        let rows = H.byName(plan.rows)
        #expect(rows.count == 9)
        for (name, to, uti) in [("a", "a.png", "public.png"), ("b", "b.jpg", "public.jpeg"), ("c", "c.heic", "public.heic")] {
            #expect(rows[name]?["action"] as? String == "rename", "\(name): \(rows[name] ?? [:])")
            #expect((rows[name]?["to"] as? String)?.hasSuffix("/photos/" + to) == true)
            #expect(rows[name]?["uti"] as? String == uti)
            #expect((rows[name]?["reason"] as? String)?.contains("no extension") == true)
        }
        #expect(rows["d"]?["action"] as? String == "skip")
        #expect(rows["d"]?["conflict"] as? Bool == true)
        #expect((rows["d"]?["reason"] as? String)?.contains("already exists") == true)
        #expect(rows["photo.tiff"]?["action"] as? String == "keep")
        #expect((rows["photo.tiff"]?["reason"] as? String)?.contains("--fix") == true)
        for name in ["ok.JPG", "ok2.jpeg", "d.png", "random"] {
            #expect(rows[name]?["action"] as? String == "keep", "\(name): \(rows[name] ?? [:])")
        }
        #expect(rows["random"]?["uti"] as? String == "public.data")

        // The table is the default on a terminal; ask for it explicitly here.
        let table = try H.run(["rename", "--format", "table", dir.path], in: root)
        #expect(table.status == 0)
        #expect(table.stdout.contains("-> a.png"))
        #expect(table.stdout.contains("Nothing changed"))
        #expect(H.snapshot(dir) == original)

        // --apply.
        let journal1 = root.appendingPathComponent("j1.jsonl").path
        let apply = try H.run(["rename", "--apply", "--format", "ndjson", "--journal", journal1, dir.path], in: root)
        #expect(apply.status == 0, "\(apply.stderr)")
        #expect(apply.stderr.contains(journal1))
        var expected = original
        for (from, to) in [("a", "a.png"), ("b", "b.jpg"), ("c", "c.heic")] {
            expected[Array(to.utf8)] = expected.removeValue(forKey: Array(from.utf8))
        }
        let afterApply = H.snapshot(dir)
        #expect(H.names(afterApply) == H.names(expected))
        #expect(afterApply == expected)  // d, d.png, photo.tiff, ok.JPG, ok2.jpeg, random untouched

        // A second dry run has nothing left to do but the conflict and the mismatch.
        let again = H.byName(try H.run(["rename", "--format", "ndjson", dir.path], in: root).rows)
        #expect(again["a.png"]?["action"] as? String == "keep")
        #expect(again["d"]?["action"] as? String == "skip")

        // --apply --fix renames photo.tiff to photo.jpg.
        let journal2 = root.appendingPathComponent("j2.jsonl").path
        let fix = try H.run(["rename", "--apply", "--fix", "--format", "ndjson", "--journal", journal2, dir.path], in: root)
        #expect(fix.status == 0, "\(fix.stderr)")
        expected[Array("photo.jpg".utf8)] = expected.removeValue(forKey: Array("photo.tiff".utf8))
        #expect(H.snapshot(dir) == expected)
        #expect(H.byName(fix.rows)["photo.tiff"]?["applied"] as? Bool == true)

        // The journal: a header, then intents (with the file's identity) and done marks.
        let lines = try String(contentsOfFile: journal2, encoding: .utf8).split(separator: "\n")
        #expect(lines.count == 3)
        let header = try JSONSerialization.jsonObject(with: Data(lines[0].utf8)) as? [String: Any]
        #expect(header?["version"] as? Int == 1)
        #expect((header?["argv"] as? [String])?.contains("--fix") == true)
        let intent = try JSONSerialization.jsonObject(with: Data(lines[1].utf8)) as? [String: Any]
        #expect(intent?["from"] as? String == "photo.tiff")
        #expect(intent?["to"] as? String == "photo.jpg")
        #expect((intent?["dir"] as? String)?.hasPrefix("/") == true)
        for key in ["size", "mtime", "ino", "dev"] { #expect(intent?[key] != nil, "\(key)") }

        // Undo the second journal, then the first: the original tree, byte for byte.
        let undo2 = try H.run(["rename", "--undo", journal2, "--format", "ndjson"], in: root)
        #expect(undo2.status == 0, "\(undo2.stdout)\(undo2.stderr)")
        let undo1 = try H.run(["rename", "--undo", journal1, "--format", "ndjson"], in: root)
        #expect(undo1.status == 0, "\(undo1.stdout)\(undo1.stderr)")
        #expect(undo1.rows.allSatisfy { $0["action"] as? String == "undo" })
        #expect(H.names(H.snapshot(dir)) == H.names(original))
        #expect(H.snapshot(dir) == original)

        // Undo is safe to re-run: everything is already undone, nothing changes.
        let rerun = try H.run(["rename", "--undo", journal1, "--format", "ndjson"], in: root)
        #expect(rerun.status == 0)
        #expect(rerun.rows.count == 3)
        #expect(rerun.rows.allSatisfy { $0["action"] as? String == "already-undone" })
        #expect(H.snapshot(dir) == original)
    }

    @Test("suffix on conflict, unknown extensions, upper case, shared targets")
    func conflictsAndNames() throws {
        let root = try H.scratch("names")
        defer { H.cleanUp(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try H.write(H.png, "x", in: dir)
        try H.write(H.png + [1], "x.png", in: dir)
        try H.write(H.png + [2], "x-1.png", in: dir)
        try H.write(H.jpeg, "report.2024", in: dir)
        try H.write(H.jpeg, "y", in: dir)            // y -> y.jpg ...
        try H.write(H.jpeg + [1], "y.tiff", in: dir)  // ... and, with --fix, y.tiff -> y.jpg too
        try H.write(H.gif, "g", in: dir)
        let original = H.snapshot(dir)

        // Shared target without suffix: both skipped.
        let skip = H.byName(try H.run(["rename", "--fix", "--format", "ndjson", dir.path], in: root).rows)
        #expect(skip["y"]?["action"] as? String == "skip")
        #expect(skip["y.tiff"]?["action"] as? String == "skip")
        #expect((skip["y"]?["reason"] as? String)?.contains("2 files would be named 'y.jpg'") == true)
        #expect((skip["report.2024"]?["to"] as? String)?.hasSuffix("/report.2024.jpg") == true)

        let journal = root.appendingPathComponent("j.jsonl").path
        let run = try H.run(["rename", "--apply", "--fix", "--on-conflict", "suffix", "--extension-case", "upper",
                             "--format", "ndjson", "--journal", journal, dir.path], in: root)
        #expect(run.status == 0, "\(run.stderr)")
        let names = Set(H.names(H.snapshot(dir)))
        // x.png and x-1.png exist: x becomes x-2.PNG; x.png stays (extension check ignores case).
        #expect(names == ["x-2.PNG", "x.png", "x-1.png", "report.2024.JPG", "y-1.JPG", "y-2.JPG", "g.GIF"])
        #expect(try H.run(["rename", "--undo", journal], in: root).status == 0)
        #expect(H.snapshot(dir) == original)
    }

    @Test("undo refuses changed files and taken names, per file")
    func undoRefuses() throws {
        let root = try H.scratch("refuse")
        defer { H.cleanUp(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try H.write(H.png, "changed", in: dir)
        try H.write(H.png, "retaken", in: dir)
        try H.write(H.png, "gone", in: dir)
        try H.write(H.png, "fine", in: dir)
        let journal = root.appendingPathComponent("j.jsonl").path
        #expect(try H.run(["rename", "--apply", "--journal", journal, dir.path], in: root).status == 0)
        // Change one renamed file, take one old name again, delete one.
        let changed = try FileHandle(forWritingTo: dir.appendingPathComponent("changed.png"))
        changed.seekToEndOfFile()
        changed.write(Data([0]))
        try changed.close()
        try H.write([1, 2, 3], "retaken", in: dir)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("gone.png"))

        let undo = try H.run(["rename", "--undo", journal, "--format", "ndjson"], in: root)
        #expect(undo.status == 1)
        let rows = H.byName(undo.rows)
        #expect(rows["fine.png"]?["action"] as? String == "undo")
        #expect(rows["changed.png"]?["action"] as? String == "refuse")
        #expect((rows["changed.png"]?["reason"] as? String)?.contains("changed") == true)
        #expect(rows["retaken.png"]?["action"] as? String == "refuse")
        #expect((rows["retaken.png"]?["reason"] as? String)?.contains("exists") == true)
        #expect(rows["gone.png"]?["action"] as? String == "refuse")
        #expect((rows["gone.png"]?["reason"] as? String)?.contains("gone") == true)
        #expect(Set(H.names(H.snapshot(dir))) == ["fine", "changed.png", "retaken", "retaken.png"])
    }

    @Test("a target that appears between the plan and the rename is not clobbered")
    func appearsAfterPlan() throws {
        let root = try H.scratch("race")
        defer { H.cleanUp(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try H.write(H.png, "a", in: dir)
        let journal = root.appendingPathComponent("j.jsonl")
        // The test hook holds each rename 1.5 s after its journal entry is on disk.
        let (process, out, _) = try H.start(["rename", "--apply", "--format", "ndjson", "--journal", journal.path, dir.path],
                                            in: root, environment: ["IMGSNIFF_RENAME_DELAY_US": "1500000"])
        let deadline = Date().addingTimeInterval(20)
        while Date() < deadline {
            let text = (try? String(contentsOf: journal, encoding: .utf8)) ?? ""
            if text.contains("\"from\":\"a\"") { break }
            usleep(1000)
        }
        try H.write([7, 7, 7], "a.png", in: dir)   // appears after the intent, before the rename
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        let row = H.byName(H.Run(status: 0, stdout: (try? String(contentsOf: out, encoding: .utf8)) ?? "", stderr: "").rows)["a"]
        #expect(row?["action"] as? String == "skip")
        #expect(row?["conflict"] as? Bool == true)
        #expect(H.snapshot(dir) == [Array("a".utf8): H.png, Array("a.png".utf8): [7, 7, 7]])
        // Undo: the rename never happened; nothing to do, nothing touched.
        let undo = try H.run(["rename", "--undo", journal.path, "--format", "ndjson"], in: root)
        #expect(undo.status == 0)
        #expect(undo.rows.first?["action"] as? String == "nothing-to-do")
        #expect(H.snapshot(dir) == [Array("a".utf8): H.png, Array("a.png".utf8): [7, 7, 7]])
    }

    @Test("names that are not UTF-8 round-trip through the journal")
    func nonUTF8Names() throws {
        let root = try H.scratch("bytes")
        defer { H.cleanUp(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try H.write(H.jpeg, name: [0x70, 0xE9, 0x2D, 0xFF, 0x25], in: dir)  // "p\xE9-\xFF%"
        let original = H.snapshot(dir)
        let journal = root.appendingPathComponent("j.jsonl").path
        let run = try H.run(["rename", "--apply", "--format", "ndjson", "--journal", journal, dir.path], in: root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(H.snapshot(dir).keys.first == [0x70, 0xE9, 0x2D, 0xFF, 0x25, 0x2E, 0x6A, 0x70, 0x67])
        #expect(run.rows.first?["pathBytes"] != nil)
        #expect(try String(contentsOfFile: journal, encoding: .utf8).contains("\"fromBytes\""))
        #expect(try H.run(["rename", "--undo", journal], in: root).status == 0)
        #expect(H.snapshot(dir) == original)
    }

    @Test("usage errors exit 64")
    func usage() throws {
        let root = try H.scratch("usage")
        defer { H.cleanUp(root) }
        #expect(try H.run(["rename"], in: root).status == 64)
        #expect(try H.run(["rename", "--undo", "j", "."], in: root).status == 64)
        #expect(try H.run(["rename", "--on-conflict", "clobber", "."], in: root).status == 64)
        let help = try H.run(["rename", "--help"], in: root)
        #expect(help.status == 0)
        #expect(help.stdout.contains("--undo"))
        #expect(help.stdout.contains("Examples"))
    }
}

// MARK: - kill -9

@Suite("imgsniff rename: kill -9", .serialized)
struct RenameCrashTests {
    typealias H = RenameHarness

    /// 300 extension-less images with distinct contents.
    static func makeTree(_ dir: URL) throws -> [[UInt8]: [UInt8]] {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let sources = [H.png, H.jpeg, H.gif]
        for i in 0..<300 {
            let name = "f" + String(repeating: "0", count: 3 - String(i).count) + String(i)
            try H.write(sources[i % 3] + Array("#\(i)".utf8), name, in: dir)
        }
        return H.snapshot(dir)
    }

    /// Every original file is present exactly once, under its old name or its new one; with the
    /// link fallback, both names may be links to the same inode.
    static func checkInvariant(_ dir: URL, _ original: [[UInt8]: [UInt8]], allowLinks: Bool) -> (renamed: Int, ok: Bool) {
        let now = H.snapshot(dir)
        var seen = 0
        var renamed = 0
        var ok = true
        for (name, bytes) in original {
            let candidates = [name] + ["png", "jpg", "gif"].map { name + Array(".\($0)".utf8) }
            let present = candidates.filter { now[$0] != nil }
            if present.count == 2 && allowLinks {
                // Both names: must be the same inode (an interrupted link + unlink).
                var a = stat(), b = stat()
                stat(dir.path + "/" + String(decoding: present[0], as: UTF8.self), &a)
                stat(dir.path + "/" + String(decoding: present[1], as: UTF8.self), &b)
                if a.st_ino != b.st_ino { ok = false }
            } else if present.count != 1 {
                ok = false
                continue
            }
            for p in present where now[p] != bytes { ok = false }
            seen += present.count
            if present.last != name { renamed += 1 }
        }
        if now.count != seen { ok = false }
        return (renamed, ok)
    }

    @Test("a rename killed at any point leaves old or new names, and undo restores the tree")
    func killNine() throws {
        let root = try H.scratch("kill")
        defer { H.cleanUp(root) }
        var landedMidRun = 0
        // (delay per rename in µs, kill when the journal has this many lines (nil: after a random
        // time), force the link + unlink fallback)
        let plans: [(UInt32, Int?, Bool)] = [
            (2000, Int.random(in: 2...60), false), (1000, Int.random(in: 100...250), false),
            (0, Int.random(in: 20...200), false), (500, nil, false), (2000, Int.random(in: 2...150), true),
            // Held 0.3 s after the third intent: the kill lands between journal write and rename.
            (300_000, 6, false),
        ]
        for (iteration, (delay, lines, forceLink)) in plans.enumerated() {
            let dir = root.appendingPathComponent("tree\(iteration)")
            let original = try Self.makeTree(dir)
            let journal = root.appendingPathComponent("j\(iteration).jsonl")
            var env = ["IMGSNIFF_RENAME_DELAY_US": String(delay)]
            if forceLink { env["IMGSNIFF_RENAME_FORCE_LINK"] = "1" }
            let (process, _, _) = try H.start(["rename", "--apply", "--format", "ndjson", "--journal", journal.path, dir.path],
                                              in: root, environment: env)
            if let lines {
                // Wait for the journal to hold `lines` lines, then a few more microseconds.
                let deadline = Date().addingTimeInterval(20)
                while process.isRunning && Date() < deadline {
                    let text = (try? Data(contentsOf: journal)) ?? Data()
                    if text.reduce(0, { $0 + ($1 == 10 ? 1 : 0) }) >= lines { break }
                    usleep(200)
                }
                usleep(UInt32.random(in: 0...3000))
            } else {
                usleep(UInt32.random(in: 20_000...400_000))
            }
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()

            let (renamed, ok) = Self.checkInvariant(dir, original, allowLinks: forceLink)
            #expect(ok, "iteration \(iteration): a file is missing, doubled or changed after kill -9")
            if renamed > 0 && renamed < original.count { landedMidRun += 1 }
            let journalLines = ((try? String(contentsOf: journal, encoding: .utf8)) ?? "").split(separator: "\n").count
            print("kill -9 iteration \(iteration): \(renamed)/\(original.count) renamed, \(journalLines) journal lines"
                  + (forceLink ? " (link fallback)" : ""))

            if FileManager.default.fileExists(atPath: journal.path) {
                let undo = try H.run(["rename", "--undo", journal.path, "--format", "ndjson"], in: root, environment: env)
                #expect(undo.status == 0, "iteration \(iteration): \(undo.stderr)")
                if delay == 300_000 {
                    // Entry 3 was journalled but never renamed: nothing to do for it.
                    #expect(undo.rows.first?["action"] as? String == "nothing-to-do", "\(undo.stdout)")
                    #expect(undo.rows.count == 3)
                }
                // Undo again: still fine, nothing changes.
                #expect(try H.run(["rename", "--undo", journal.path], in: root).status == 0)
            } else {
                #expect(renamed == 0, "renames without a journal")
            }
            #expect(H.names(H.snapshot(dir)) == H.names(original), "iteration \(iteration)")
            #expect(H.snapshot(dir) == original, "iteration \(iteration)")
        }
        #expect(landedMidRun >= 1, "no kill landed in the middle of the renames")
    }
}
