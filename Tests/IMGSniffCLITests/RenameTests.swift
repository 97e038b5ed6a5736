// End-to-end tests of `imgsniff rename`: the built binary on scratch directories, ordinary ones
// and attacked ones.

import Foundation
@testable import IMGSniffKit
@testable import ImageSniffScan
import Testing
#if canImport(Glibc)
import Glibc
#endif

private typealias T = Trees

private func rename(_ arguments: [String], in root: URL, environment: [String: String] = [:],
                    launcher: [String] = [], stdout: URL? = nil) throws -> RunResult {
    try IMGSniffBinary.run(["rename"] + arguments, in: root, stdout: stdout, environment: environment, launcher: launcher)
}

private func rows(_ r: RunResult) -> [String: [String: Any]] { rowsByName((try? parseNDJSON(r)) ?? []) }

private func journalLines(_ path: String) -> [[String: Any]] {
    ((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").split(separator: "\n").compactMap {
        try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any]
    }
}

/// Writes a journal signed as imgsniff signs them, with the key the runs of this test process
/// use (mode 0600 unless told otherwise).
private func writeJournal(_ path: String, roots: [String], entries: [JournalEntry], mode: mode_t = 0o600, end: Bool = true) throws {
    let state = IMGSniffBinary.stateHome.appendingPathComponent("imgsniff")
    try FileManager.default.createDirectory(at: state, withIntermediateDirectories: true)
    let key = try JournalKey.loadOrCreate(in: Array(state.path.utf8))
    let writer = try JournalWriter(path: Array(path.utf8), header: JournalHeader(roots: roots.map { Array($0.utf8) }, argv: ["imgsniff"]), key: key)
    try writer.append(entries.map { $0.encoded() }, sync: true)
    if end { try writer.end(intents: entries.count) }
    chmod(path, mode)
}

/// Writes an unsigned journal by hand, as imgsniff 0.2 wrote them (version 2).
private func writeUnsignedJournal(_ path: String, version: Int = 2, roots: [String], entries: [JournalEntry]) throws {
    var text = String(decoding: try JSONSerialization.data(withJSONObject: ["imgsniff": "rename-journal", "version": version, "roots": roots,
                                                                            "argv": ["imgsniff"], "uid": Int(geteuid())]), as: UTF8.self) + "\n"
    for e in entries { text += String(decoding: e.encoded(), as: UTF8.self) + "\n" }
    try text.write(toFile: path, atomically: false, encoding: .utf8)
    chmod(path, 0o600)
}

/// The journal entry for a file as it is now (renamed `from` -> `to` in `dir`).
private func entry(_ n: Int, dir: URL, from: String, to: String, deviceOffset: UInt64 = 0) throws -> JournalEntry {
    let status = try FileDescriptor.currentDirectory.status(of: Array(dir.appendingPathComponent(to).path.utf8), followSymlink: false)
    var e = JournalEntry(n: n, directory: Array(dir.resolvingSymlinksInPath().path.utf8), from: Array(from.utf8), to: Array(to.utf8), file: status)
    e.device += deviceOffset
    return e
}

@Suite("imgsniff rename", .serialized)
struct RenameCLITests {
    @Test("plan, apply, fix, undo: names and bytes come back exactly")
    func planApplyFixUndo() throws {
        let root = try T.scratch("e2e")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("photos")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try T.write(Samples.png, "a", in: dir)
        try T.write(Samples.jpeg, "b", in: dir)
        try T.write(Samples.heic, "c", in: dir)
        try T.write(Samples.png, "d", in: dir)                 // its new name is taken:
        try T.write(Samples.png + [0x42], "d.png", in: dir)    // an existing (right-named) PNG
        try T.write(Samples.jpeg, "photo.tiff", in: dir)
        try T.write(Samples.jpeg, "ok.JPG", in: dir)
        try T.write(Samples.jpeg, "ok2.jpeg", in: dir)
        try T.write(Samples.noise, "random", in: dir)
        let original = T.snapshot(dir)

        // The dry run shows the plan and changes nothing.
        let plan = try rename(["--format", "ndjson", dir.path], in: root)
        #expect(plan.status == 0, "\(plan.stderr)")
        #expect(T.snapshot(dir) == original)
        let planned = rows(plan)
        #expect(planned.count == 9)
        for (name, to, uti) in [("a", "a.png", "public.png"), ("b", "b.jpg", "public.jpeg"), ("c", "c.heic", "public.heic")] {
            #expect(planned[name]?["action"] as? String == "rename", "\(name): \(planned[name] ?? [:])")
            #expect((planned[name]?["to"] as? String)?.hasSuffix("/photos/" + to) == true)
            #expect(planned[name]?["uti"] as? String == uti)
            #expect((planned[name]?["reason"] as? String)?.contains("no extension") == true)
            #expect(planned[name]?["error"] is NSNull)
        }
        #expect(planned["d"]?["action"] as? String == "skip")
        #expect((planned["d"]?["reason"] as? String)?.contains("already exists") == true)
        #expect(planned["photo.tiff"]?["action"] as? String == "keep")
        #expect((planned["photo.tiff"]?["reason"] as? String)?.contains("--fix") == true)
        for name in ["ok.JPG", "ok2.jpeg", "d.png", "random"] {
            #expect(planned[name]?["action"] as? String == "keep", "\(name): \(planned[name] ?? [:])")
        }

        let table = try rename(["--format", "table", dir.path], in: root)
        #expect(table.status == 0)
        #expect(table.text.contains("-> a.png"))
        #expect(table.text.contains("Nothing changed"))
        #expect(T.snapshot(dir) == original)

        // --apply: the journal's path is printed before the first rename.
        let journal1 = root.appendingPathComponent("j1.jsonl").path
        let apply = try rename(["--apply", "--format", "ndjson", "--journal", journal1, dir.path], in: root)
        #expect(apply.status == 0, "\(apply.stderr)")
        #expect(apply.stderr.contains("journal \(journal1)"))
        #expect(rows(apply)["a"]?["action"] as? String == "renamed")
        var expected = original
        for (from, to) in [("a", "a.png"), ("b", "b.jpg"), ("c", "c.heic")] {
            expected[Array(to.utf8)] = expected.removeValue(forKey: Array(from.utf8))
        }
        #expect(T.snapshot(dir) == expected)

        // --apply --fix renames photo.tiff to photo.jpg.
        let journal2 = root.appendingPathComponent("j2.jsonl").path
        let fix = try rename(["--apply", "--fix", "--format", "ndjson", "--journal", journal2, dir.path], in: root)
        #expect(fix.status == 0, "\(fix.stderr)")
        expected[Array("photo.jpg".utf8)] = expected.removeValue(forKey: Array("photo.tiff".utf8))
        #expect(T.snapshot(dir) == expected)

        // The journal: a header (version, roots), an intent with the file's identity, a done mark.
        let lines = journalLines(journal2)
        #expect(lines.count == 4, "header, intent, done, end")
        #expect(lines[0]["version"] as? Int == 3)
        #expect(lines.allSatisfy { ($0["mac"] as? String)?.count == 64 }, "every line signed")
        #expect(lines[3]["end"] as? Bool == true && lines[3]["intents"] as? Int == 1)
        #expect((lines[0]["roots"] as? [String]) == [dir.resolvingSymlinksInPath().path])
        #expect((lines[0]["argv"] as? [String])?.contains("--fix") == true)
        #expect(lines[1]["from"] as? String == "photo.tiff")
        #expect(lines[1]["to"] as? String == "photo.jpg")
        for key in ["size", "mtime", "mtimeNsec", "ino", "dev"] { #expect(lines[1][key] != nil, "\(key)") }
        #expect(lines[2]["done"] as? Int == 1)
        var mode = stat()
        stat(journal2, &mode)
        #expect(mode.st_mode & 0o077 == 0, "a journal is private")

        // Undo the second journal, then the first: the original tree, byte for byte.
        #expect(try rename(["--undo", journal2, "--format", "ndjson"], in: root).status == 0)
        let undo1 = try rename(["--undo", journal1, "--format", "ndjson"], in: root)
        #expect(undo1.status == 0, "\(undo1.text)\(undo1.stderr)")
        #expect(try parseNDJSON(undo1).allSatisfy { $0["action"] as? String == "undo" })
        #expect(T.snapshot(dir) == original)

        // Undo is safe to re-run: nothing changes.
        let rerun = try rename(["--undo", journal1, "--format", "ndjson"], in: root)
        #expect(rerun.status == 0)
        #expect(try parseNDJSON(rerun).allSatisfy { $0["action"] as? String == "already-undone" })
        #expect(T.snapshot(dir) == original)
    }

    @Test("an ordinary directory: only the images without an extension get one")
    func ordinaryDirectory() throws {
        let root = try T.scratch("home")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("home")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for (name, text) in [("notes.md", "# Notes\n\nSome text.\n"), ("script.sh", "#!/bin/sh\necho hi\n"),
                             ("Makefile", "all:\n\techo hi\n"), ("LICENSE", "Permission is hereby granted, free of charge.\n"),
                             ("README", "Read me.\n"), ("data.json", "{\"a\": 1}\n")] {
            try T.write(Array(text.utf8), name, in: dir)
        }
        let zip = Samples.bytes("public.zip-archive"), gzip = Samples.bytes("org.gnu.gnu-zip-archive")
        try T.write(zip, "doc.docx", in: dir)
        try T.write(zip, "app.jar", in: dir)
        try T.write(gzip, "backup.tgz", in: dir)
        try T.write(gzip, "backup.tar.gz", in: dir)
        try T.write(Samples.png, "screenshot", in: dir)
        try T.write(Samples.jpeg, "IMG_0001", in: dir)
        try T.write(Samples.jpeg, "holiday.JPG", in: dir)
        try T.write(Samples.jpeg, "report.2024", in: dir)
        try T.write(Samples.bytes("public.mp3"), "song", in: dir)
        try T.write(Samples.png, "picture.backup", in: dir)
        let before = T.snapshot(dir)

        let journal = root.appendingPathComponent("j.jsonl").path
        let run = try rename(["--apply", "--format", "ndjson", "--journal", journal, "."], in: dir)
        #expect(run.status == 0, "\(run.stderr)")
        let names = Set(T.names(T.snapshot(dir)))
        #expect(names == ["notes.md", "script.sh", "Makefile", "LICENSE", "README", "data.json", "doc.docx", "app.jar",
                          "backup.tgz", "backup.tar.gz", "screenshot.png", "IMG_0001.jpg", "holiday.JPG",
                          "report.2024.jpg", "song", "picture.backup"], "\(names)")
        let planned = rows(run)
        #expect((planned["picture.backup"]?["reason"] as? String)?.contains("never given a second extension") == true)
        #expect((planned["song"]?["reason"] as? String)?.contains("--all-types") == true)

        // --fix replaces an image's unknown extension, still nothing else's.
        let fix = try rename(["--apply", "--fix", "--format", "ndjson", "--journal", journal + "2", "."], in: dir)
        #expect(fix.status == 0)
        #expect(Set(T.names(T.snapshot(dir))).contains("picture.png"))
        #expect(Set(T.names(T.snapshot(dir))).isSuperset(of: ["doc.docx", "app.jar", "backup.tgz", "notes.md"]))

        // --all-types names the rest; unknown extensions still never get a second one.
        let all = try rows(rename(["--all-types", "--format", "ndjson", "."], in: dir))
        #expect((all["song"]?["to"] as? String)?.hasSuffix("song.mp3") == true)
        #expect(all["Makefile"]?["action"] as? String == "keep", "text is only likely")
        #expect(all["notes.md"]?["action"] as? String == "keep")

        #expect(try rename(["--undo", journal + "2"], in: root).status == 0)
        #expect(try rename(["--undo", journal], in: root).status == 0)
        #expect(T.snapshot(dir) == before)
    }

    @Test("suffix on conflict, upper case, shared names, a rename that frees another's name")
    func conflictsAndNames() throws {
        let root = try T.scratch("names")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try T.write(Samples.png, "x", in: dir)
        try T.write(Samples.png + [1], "x.png", in: dir)
        try T.write(Samples.png + [2], "x-1.png", in: dir)
        try T.write(Samples.jpeg, "y", in: dir)             // y -> y.jpg ...
        try T.write(Samples.jpeg + [1], "y.tiff", in: dir)  // ... and, with --fix, y.tiff -> y.jpg too
        try T.write(Samples.png, "z.jpg", in: dir)          // with --fix, z.jpg -> z.png, which frees z.jpg for:
        try T.write(Samples.jpeg + [2], "z", in: dir)
        try T.write(Samples.gif, "g", in: dir)
        let original = T.snapshot(dir)

        let skip = rows(try rename(["--fix", "--format", "ndjson", dir.path], in: root))
        #expect(skip["y"]?["action"] as? String == "skip")
        #expect(skip["y.tiff"]?["action"] as? String == "skip")
        #expect((skip["y"]?["reason"] as? String)?.contains("2 files would be named 'y.jpg'") == true)
        #expect((skip["x"]?["reason"] as? String)?.contains("'x.png' already exists") == true)
        #expect(skip["z"]?["action"] as? String == "rename", "z.jpg is freed by the plan itself: \(skip["z"] ?? [:])")

        let journal = root.appendingPathComponent("j.jsonl").path
        let run = try rename(["--apply", "--fix", "--on-conflict", "suffix", "--extension-case", "upper",
                              "--format", "ndjson", "--journal", journal, dir.path], in: root)
        #expect(run.status == 0, "\(run.stderr)")
        let names = Set(T.names(T.snapshot(dir)))
        // y and y.tiff share y.jpg, which no file has: y keeps it, y.tiff is suffixed.
        #expect(names == ["x-2.PNG", "x.png", "x-1.png", "y.JPG", "y-1.JPG", "z.PNG", "z.JPG", "g.GIF"], "\(names)")
        #expect(try rename(["--undo", journal], in: root).status == 0)
        #expect(T.snapshot(dir) == original)
    }

    @Test("--apply does what the dry run showed when one rename takes the name another frees")
    func chainedRenamesInOneBatch() throws {
        let root = try T.scratch("chain")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for stem in ["b", "e", "k"] {
            try T.write(Samples.jpeg + Array(stem.utf8), stem, in: dir)        // b -> b.jpg, once ...
            try T.write(Samples.png + Array(stem.utf8), stem + ".jpg", in: dir) // ... b.jpg -> b.png frees it
        }
        let original = T.snapshot(dir)
        let plan = rows(try rename(["--fix", "--format", "ndjson", dir.path], in: root))
        #expect(plan.count == 6 && plan.values.allSatisfy { $0["action"] as? String == "rename" }, "\(plan)")
        let journal = root.appendingPathComponent("j.jsonl").path
        let run = try rename(["--apply", "--fix", "--format", "ndjson", "--journal", journal, dir.path], in: root)
        #expect(run.status == 0, "\(run.stderr)")
        let applied = rows(run)
        for (name, row) in plan {
            #expect(applied[name]?["action"] as? String == "renamed", "\(name): \(applied[name] ?? [:])")
            #expect(applied[name]?["to"] as? String == row["to"] as? String)
        }
        #expect(Set(T.names(T.snapshot(dir))) == ["b.jpg", "b.png", "e.jpg", "e.png", "k.jpg", "k.png"])
        #expect(try rename(["--undo", journal], in: root).status == 0)
        #expect(T.snapshot(dir) == original)
        // A chain whose last step is blocked (q.png is a directory): the plan says so along the
        // whole chain, and --apply does what the plan says.
        try FileManager.default.createDirectory(at: dir.appendingPathComponent("q.png"), withIntermediateDirectories: true)
        try T.write(Samples.jpeg, "q", in: dir)
        try T.write(Samples.png, "q.jpg", in: dir)
        let blocked = rows(try rename(["--fix", "--format", "ndjson", dir.path], in: root))
        #expect(blocked["q.jpg"]?["action"] as? String == "skip" && blocked["q"]?["action"] as? String == "skip", "\(blocked)")
        #expect((blocked["q"]?["reason"] as? String)?.contains("does not happen") == true)
    }

    @Test("hard links are names of their own; version-control directories are never entered; --all-types leaves Makefile and scripts alone")
    func namesOfTheirOwn() throws {
        let root = try T.scratch("names-own")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir.appendingPathComponent(".git/objects/ab"), withIntermediateDirectories: true)
        try T.write(Samples.png, "one", in: dir)
        #expect(link(dir.appendingPathComponent("one").path, dir.appendingPathComponent("two").path) == 0)
        try T.write(Samples.png, "cdef01", in: dir.appendingPathComponent(".git/objects/ab"))
        try T.write(Array("all:\n\techo hi\n".utf8), "Makefile", in: dir)
        try T.write(Array("#!/bin/sh\necho hi\n".utf8), "build", in: dir)
        chmod(dir.appendingPathComponent("build").path, 0o755)
        try T.write(Array("just some words here\n".utf8), "notes", in: dir)
        let plan = rows(try rename(["--hidden", "--all-types", "--min-confidence", "likely", "--format", "ndjson", dir.path], in: root))
        #expect(plan["one"]?["action"] as? String == "rename" && plan["two"]?["action"] as? String == "rename", "\(plan)")
        #expect(plan["cdef01"]?["action"] as? String == "skip")
        #expect((plan["cdef01"]?["reason"] as? String)?.contains("version-control directory (.git)") == true)
        #expect(plan["Makefile"]?["action"] as? String == "keep" && plan["build"]?["action"] as? String == "keep", "\(plan)")
        #expect(plan["notes"]?["action"] as? String == "rename", "other text still gets .txt with --all-types")
        // Inside the repository by another path: from within it, relative, and through a link.
        let inside = rows(try rename(["--format", "ndjson", "objects"], in: dir.appendingPathComponent(".git")))
        #expect(inside["cdef01"]?["action"] as? String == "skip", "\(inside)")
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("gitlink"), withDestinationURL: dir.appendingPathComponent(".git"))
        let linked = rows(try rename(["--format", "ndjson", "gitlink"], in: root))
        #expect(linked["cdef01"]?["action"] as? String == "skip", "\(linked)")
        let journal = root.appendingPathComponent("j.jsonl").path
        #expect(try rename(["--apply", "--journal", journal, dir.path], in: root).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("one.png").path))
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("two.png").path))
        #expect(try rename(["--undo", journal], in: root).status == 0)
        #expect(FileManager.default.fileExists(atPath: dir.appendingPathComponent("two").path))
    }

    @Test("names that work are kept, and scan flags none of them; a truncated detection renames nothing by default")
    func workingNamesAndTruncation() throws {
        let root = try T.scratch("working")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try T.write(Samples.png, "favicon.ico", in: dir)
        try T.write(Samples.tiffFamily, "camera.dng", in: dir)
        try T.write(Samples.tiffFamily, "slide.svs", in: dir)
        try T.write(Samples.tiffFamily, "texture.tx", in: dir)
        try T.write(Samples.heic, "burst.heic", in: dir)
        try T.write(Array("II*\0 is how a TIFF starts, but this is a note".utf8).prefix(33).map { $0 }, "note", in: dir)
        let plan = try rename(["--fix", "--format", "ndjson", dir.path], in: root)
        let byName = rows(plan)
        for name in ["favicon.ico", "camera.dng", "slide.svs", "texture.tx", "burst.heic"] {
            #expect(byName[name]?["action"] as? String == "keep", "\(name): \(byName[name]?["reason"] ?? "")")
        }
        #expect(byName["note"]?["action"] as? String == "keep", "\(byName["note"]?["reason"] ?? "")")
        // Even taking family answers, a detection of data that ends before the checks were done
        // keeps its name.
        let family = rows(try rename(["--min-confidence", "family", "--format", "ndjson", dir.path], in: root))
        #expect(family["note"]?["action"] as? String == "keep")
        #expect((family["note"]?["reason"] as? String)?.contains("--include-truncated") == true)
        let lies = try IMGSniffBinary.run(["scan", "--mismatches", "--format", "ndjson", dir.path], in: root)
        #expect(try parseNDJSON(lies).isEmpty, "\(lies.text)")
    }

    @Test("a conflict names the existing file as it is written on disk")
    func conflictNamesTheExistingFile() throws {
        let root = try T.scratch("conflict-case")
        defer { T.remove(root) }
        try T.write(Samples.png, "w", in: root)
        try T.write(Samples.png + [1], "w.PNG", in: root)
        let plan = rows(try rename(["--format", "ndjson", root.path], in: root))
        #expect((plan["w"]?["reason"] as? String)?.contains("'w.PNG' already exists") == true, "\(plan)")
    }

    @Test("compressed SVG gets .svgz, plain SVG .svg; an .svgz name fits")
    func compressedSVG() throws {
        let root = try T.scratch("svgz")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let svgz = try #require(FileManager.default.contents(atPath: Repository.testImages.appendingPathComponent("svg/svgz-gzip").path))
        let svg = try #require(FileManager.default.contents(atPath: Repository.testImages.appendingPathComponent("svg/bare-svg").path))
        try T.write(Array(svgz), "drawing", in: dir)
        try T.write(Array(svgz), "kept.svgz", in: dir)
        try T.write(Array(svg), "plain", in: dir)
        let plan = rows(try rename(["--format", "ndjson", dir.path], in: root))
        #expect((plan["drawing"]?["to"] as? String)?.hasSuffix("/drawing.svgz") == true, "\(plan)")
        #expect(plan["kept.svgz"]?["action"] as? String == "keep")
        #expect((plan["plain"]?["to"] as? String)?.hasSuffix("/plain.svg") == true)
    }

    @Test("undo refuses changed files and taken names, and says what differs")
    func undoRefuses() throws {
        let root = try T.scratch("refuse")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for name in ["changed", "retaken", "gone", "fine"] { try T.write(Samples.png + Array(name.utf8), name, in: dir) }
        let journal = root.appendingPathComponent("j.jsonl").path
        #expect(try rename(["--apply", "--journal", journal, dir.path], in: root).status == 0)
        let changed = try FileHandle(forWritingTo: dir.appendingPathComponent("changed.png"))
        changed.seekToEndOfFile()
        changed.write(Data([0]))
        try changed.close()
        try T.write([1, 2, 3], "retaken", in: dir)
        try FileManager.default.removeItem(at: dir.appendingPathComponent("gone.png"))

        let undo = try rename(["--undo", journal, "--format", "ndjson"], in: root)
        #expect(undo.status == 1)
        let outcome = rows(undo)
        #expect(outcome["fine.png"]?["action"] as? String == "undo")
        #expect(outcome["changed.png"]?["action"] as? String == "refuse")
        #expect((outcome["changed.png"]?["reason"] as? String)?.contains("size") == true)
        // Edited in place: the same file, changed since, not "not the file that was renamed"
        // (a stranger's `touch` was called another file).
        #expect((outcome["changed.png"]?["reason"] as? String)?.contains("was changed since it was renamed") == true,
                "\(outcome["changed.png"] ?? [:])")
        #expect((outcome["changed.png"]?["error"] as? [String: Any])?["code"] as? String == "refused")
        #expect((outcome["retaken.png"]?["reason"] as? String)?.contains("exists") == true)
        #expect((outcome["gone.png"]?["reason"] as? String)?.contains("gone") == true)
        #expect(Set(T.names(T.snapshot(dir))) == ["fine", "changed.png", "retaken", "retaken.png"])
    }

    @Test("a name that appears between the plan and the rename is not clobbered")
    func appearsAfterPlan() throws {
        let root = try T.scratch("race")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try T.write(Samples.png, "a", in: dir)
        let journal = root.appendingPathComponent("j.jsonl")
        // The test hook holds each rename 1.5 s after the batch's intents are on disk.
        let running = try IMGSniffBinary.start(["rename", "--apply", "--format", "ndjson", "--journal", journal.path, dir.path],
                                               in: root, environment: ["IMGSNIFF_RENAME_DELAY_US": "1500000"])
        try waitFor { ((try? String(contentsOf: journal, encoding: .utf8)) ?? "").contains("\"from\":\"a\"") }
        try T.write([7, 7, 7], "a.png", in: dir)
        let r = try running.finish()
        #expect(r.status == 0)
        #expect(rows(r)["a"]?["action"] as? String == "skip")
        #expect((rows(r)["a"]?["reason"] as? String)?.contains("appeared after the plan") == true)
        #expect(T.snapshot(dir) == [Array("a".utf8): Samples.png, Array("a.png".utf8): [7, 7, 7]])
        let undo = try rename(["--undo", journal.path, "--format", "ndjson"], in: root)
        #expect(undo.status == 0)
        #expect(try parseNDJSON(undo).first?["action"] as? String == "nothing-to-do")
    }

    @Test("a file swapped for another between the check and the rename is put back")
    func swappedFile() throws {
        let root = try T.scratch("swap")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try T.write(Samples.png, "a", in: dir)
        let journal = root.appendingPathComponent("j.jsonl")
        let running = try IMGSniffBinary.start(["rename", "--apply", "--format", "ndjson", "--journal", journal.path, dir.path],
                                               in: root, environment: ["IMGSNIFF_RENAME_DELAY_US": "1500000"])
        try waitFor { ((try? String(contentsOf: journal, encoding: .utf8)) ?? "").contains("\"from\":\"a\"") }
        // Replace the planned file by another one under the same name.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("a"))
        try T.write(Array("not the planned file".utf8), "a", in: dir)
        let r = try running.finish()
        #expect(r.status == 1)
        #expect((rows(r)["a"]?["error"] as? [String: Any])?["code"] as? String == "replaced", "\(r.text)")
        #expect(T.snapshot(dir) == [Array("a".utf8): Array("not the planned file".utf8)], "renamed back")
    }

    @Test("names that are not UTF-8 round-trip through the journal")
    func nonUTF8Names() throws {
        let root = try T.scratch("bytes")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try T.write(Samples.jpeg, name: [0x70, 0xE9, 0x2D, 0xFF, 0x25], in: dir)  // "p\xE9-\xFF%"
        let original = T.snapshot(dir)
        let journal = root.appendingPathComponent("j.jsonl").path
        let run = try rename(["--apply", "--format", "ndjson", "--journal", journal, dir.path], in: root)
        #expect(run.status == 0, "\(run.stderr)")
        #expect(T.snapshot(dir).keys.first == [0x70, 0xE9, 0x2D, 0xFF, 0x25, 0x2E, 0x6A, 0x70, 0x67])
        #expect(try parseNDJSON(run).first?["pathBytes"] != nil)
        #expect(try String(contentsOfFile: journal, encoding: .utf8).contains("\"fromBytes\""))
        #expect(try rename(["--undo", journal], in: root).status == 0)
        #expect(T.snapshot(dir) == original)
    }

    @Test("usage errors exit 64; -L is refused")
    func usage() throws {
        let root = try T.scratch("usage")
        defer { T.remove(root) }
        #expect(try rename([], in: root).status == 64)
        #expect(try rename(["--undo", "j", "."], in: root).status == 64)
        #expect(try rename(["--on-conflict", "clobber", "."], in: root).status == 64)
        let follow = try rename(["--follow-symlinks", "."], in: root)
        #expect(follow.status == 64)
        #expect(follow.stderr.contains("symbolic links"))
        let stdin = try rename(["-"], in: root)
        #expect(stdin.status == 64 && stdin.stderr.contains("Standard input"))
        try T.write([1], "taken.jsonl", in: root)
        let taken = try rename(["--apply", "--journal", root.appendingPathComponent("taken.jsonl").path, "."], in: root)
        #expect(taken.status == 64 && taken.stderr.contains("the file exists"), "refused before the walk: \(taken.stderr)")
        let help = try rename(["--help"], in: root)
        #expect(help.status == 0)
        #expect(help.text.contains("--undo"))
    }

    @Test("a symbolic link to a directory elsewhere is never renamed through")
    func symlinkedDirectory() throws {
        let root = try T.scratch("symdir")
        defer { T.remove(root) }
        let outside = root.appendingPathComponent("outside")
        let inside = root.appendingPathComponent("inside")
        try FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: inside, withIntermediateDirectories: true)
        try T.write(Samples.png, "victim", in: outside)
        try FileManager.default.createSymbolicLink(at: inside.appendingPathComponent("planted"), withDestinationURL: outside)
        let r = try rename(["--apply", "--format", "ndjson", "--journal", root.appendingPathComponent("j").path, "inside"], in: root)
        #expect(r.status == 0)
        #expect(T.names(T.snapshot(outside)) == ["victim"])
    }

    /// A run killed between creating its journal and writing the header renamed nothing: undo
    /// says so and succeeds; a journal with anything else in it that is not a header still fails.
    @Test("an empty journal (a run killed at its start) is nothing to undo")
    func undoEmptyJournal() throws {
        let root = try T.scratch("empty-journal")
        defer { T.remove(root) }
        let journal = root.appendingPathComponent("j.jsonl")
        #expect(FileManager.default.createFile(atPath: journal.path, contents: Data(), attributes: [.posixPermissions: 0o600]))
        let state = ["XDG_STATE_HOME": root.appendingPathComponent("state").path]
        let undo = try rename(["--undo", journal.path], in: root, environment: state)
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stderr.contains("renamed nothing"))
        try Data("garbage\n".utf8).write(to: journal)
        let garbage = try rename(["--undo", journal.path], in: root, environment: state)
        #expect(garbage.status == 2 && garbage.stderr.contains("not an imgsniff rename journal"), "\(garbage.stderr)")
    }

    @Test("--undo last takes the journal written last")
    func undoLast() throws {
        let root = try T.scratch("last")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try T.write(Samples.png, "a", in: dir)
        let state = ["XDG_STATE_HOME": root.appendingPathComponent("state").path]
        let apply = try rename(["--apply", dir.path], in: root, environment: state)
        #expect(apply.status == 0)
        #expect(T.names(T.snapshot(dir)) == ["a.png"])
        let undo = try rename(["--undo", "last"], in: root, environment: state)
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(undo.stderr.contains("undoing"))
        #expect(T.names(T.snapshot(dir)) == ["a"])
        // The newest is the journal written last, whatever its name says: a stranger's runs
        // across a change of time zone (the name's time is local), or of process ids 9991 and
        // 10011 in one second (ids sort as text), undid the older run. Here the older journal
        // is renamed to a name that sorts last.
        try T.write(Samples.jpeg, "b", in: dir)
        let journals = root.appendingPathComponent("state/imgsniff")
        let first = try #require(try FileManager.default.contentsOfDirectory(atPath: journals.path).first { $0.hasPrefix("rename-") })
        try FileManager.default.moveItem(at: journals.appendingPathComponent(first),
                                         to: journals.appendingPathComponent("rename-29991231-235959-99999.jsonl"))
        usleep(20_000)
        #expect(try rename(["--apply", dir.path], in: root, environment: state).status == 0)
        #expect(T.names(T.snapshot(dir)) == ["a.png", "b.jpg"])
        let newest = try rename(["--undo", "last"], in: root, environment: state)
        #expect(newest.status == 0 && !newest.stderr.contains("29991231"), "\(newest.stderr)")
        #expect(T.names(T.snapshot(dir)) == ["a", "b"], "the older journal, already undone, would leave both")
    }

    @Test("output that cannot be written fails clearly; the renames stay undoable")
    func outputToAFullDisk() throws {
        let root = try T.scratch("full")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try T.write(Samples.png, "a", in: dir)
        let journal = root.appendingPathComponent("j.jsonl").path
        let r = try rename(["--apply", "--format", "ndjson", "--journal", journal, dir.path], in: root,
                           stdout: URL(fileURLWithPath: "/dev/full"))
        #expect(r.status == 2)
        #expect(r.stderr.contains("cannot write standard output"))
        #expect(r.stderr.contains(journal))
        #expect(try rename(["--undo", journal], in: root).status == 0)
        #expect(T.names(T.snapshot(dir)) == ["a"])
    }

    @Test("a journal write that fails stops the run: nothing renamed without its intent on disk")
    func journalWriteFails() throws {
        let root = try T.scratch("fsize")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for i in 0..<2000 { try T.write(Samples.png + Array("\(i)".utf8), String(format: "f%04d", i), in: dir) }
        let journal = root.appendingPathComponent("j.jsonl").path
        // Files may not grow past 150 kB: the first batch of intents (512 lines of about 170
        // bytes) fits, the second does not.
        let r = try rename(["--apply", "--format", "ndjson", "--journal", journal, dir.path], in: root,
                           launcher: ["prlimit", "--fsize=150000"])
        #expect(r.status == 2, "\(r.stderr)")
        #expect(r.stderr.contains("cannot write journal"))
        let renamed = T.names(T.snapshot(dir)).filter { $0.hasSuffix(".png") }
        #expect(!renamed.isEmpty && renamed.count < 2000)
        // Every renamed file has its intent in the journal, and undo restores them all (the run
        // could not close its record: undo says so, with status 1).
        let intents = Set(journalLines(journal).compactMap { $0["to"] as? String })
        #expect(Set(renamed).isSubset(of: intents))
        let undo = try rename(["--undo", journal], in: root)
        #expect(undo.status == 1 && undo.stderr.contains("no end record"), "\(undo.stderr)")
        #expect(T.names(T.snapshot(dir)).allSatisfy { !$0.hasSuffix(".png") })
    }

    @Test("Ctrl-C stops between renames, says what was done and how to undo it")
    func interrupted() throws {
        let root = try T.scratch("sigint")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for i in 0..<200 { try T.write(Samples.png + Array("\(i)".utf8), String(format: "f%03d", i), in: dir) }
        let journal = root.appendingPathComponent("j.jsonl")
        let running = try IMGSniffBinary.start(["rename", "--apply", "--format", "table", "--journal", journal.path, dir.path],
                                               in: root, environment: ["IMGSNIFF_RENAME_DELAY_US": "5000"])
        try waitFor { T.names(T.snapshot(dir)).contains { $0.hasSuffix(".png") } }
        kill(running.process.processIdentifier, SIGINT)
        let r = try running.finish()
        #expect(r.status == 130)
        #expect(r.text.contains("Interrupted"))
        #expect(r.text.contains("Undo with: imgsniff rename --undo"))
        let renamed = T.names(T.snapshot(dir)).filter { $0.hasSuffix(".png") }.count
        #expect(renamed > 0 && renamed < 200)
        // Ctrl-C during the undo: what is not reached yet is to do, not lost in damaged lines (a
        // stranger saw "the record of 2552 rename(s) was in damaged lines" from an intact journal).
        let undoing = try IMGSniffBinary.start(["rename", "--undo", journal.path, "--format", "table"],
                                               in: root, environment: ["IMGSNIFF_RENAME_DELAY_US": "20000"])
        try waitFor { T.names(T.snapshot(dir)).filter { $0.hasSuffix(".png") }.count < renamed }
        kill(undoing.process.processIdentifier, SIGINT)
        let stopped = try undoing.finish()
        #expect(stopped.status == 130)
        #expect(stopped.stderr.contains("run the same --undo again") && !stopped.stderr.contains("damaged"), "\(stopped.stderr)")
        #expect(stopped.text.contains("Interrupted") && !stopped.text.contains("lost"), "\(stopped.text)")
        #expect(try rename(["--undo", journal.path], in: root).status == 0)
        #expect(T.names(T.snapshot(dir)).allSatisfy { !$0.hasSuffix(".png") })
    }

    @Test("more directories in one batch than are held open: every file renamed, undo restores")
    func manyDirectories() throws {
        // 150 directories of 2 files: 300 renames, one journal batch (512), more directories than
        // the 64 held open at once. A batch must not close directories its intents still use.
        let root = try T.scratch("dirs")
        defer { T.remove(root) }
        var dirs: [URL] = []
        for d in 0..<150 {
            let dir = root.appendingPathComponent(String(format: "d%03d", d))
            try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
            try T.write(Samples.png + Array("\(d)".utf8), "a", in: dir)
            try T.write(Samples.jpeg + Array("\(d)".utf8), "b", in: dir)
            dirs.append(dir)
        }
        let before = dirs.map(T.snapshot)
        let journal = root.appendingPathComponent("j.jsonl").path
        let r = try rename(["--apply", "--format", "ndjson", "--journal", journal] + dirs.map(\.path), in: root)
        #expect(r.status == 0, "\(r.stderr)")
        let actions = try parseNDJSON(r).map { $0["action"] as? String ?? "" }
        #expect(actions.count == 300 && actions.allSatisfy { $0 == "renamed" }, "\(Set(actions)) \(r.stderr.prefix(300))")
        for dir in dirs { #expect(T.names(T.snapshot(dir)) == ["a.png", "b.jpg"], "\(dir.lastPathComponent)") }
        #expect(journalLines(journal).filter { $0["done"] != nil }.count == 300)
        let undo = try rename(["--undo", journal, "--format", "ndjson"], in: root)
        #expect(undo.status == 0, "\(undo.stderr)")
        #expect(dirs.map(T.snapshot) == before)
    }
}

@Suite("imgsniff rename --undo on journals made to hurt", .serialized)
struct JournalAttackTests {
    /// A directory with one renamed file `a.png` (was `a`) and a hand-written journal for it.
    private func setUp(_ label: String) throws -> (root: URL, dir: URL, journal: String) {
        let root = try T.scratch(label)
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        try T.write(Samples.png, "a.png", in: dir)
        return (root, dir, root.appendingPathComponent("j.jsonl").path)
    }

    @Test("an entry naming one file on both sides is refused, and the file stays")
    func equalNames() throws {
        let (root, dir, journal) = try setUp("equal")
        defer { T.remove(root) }
        let real = dir.resolvingSymlinksInPath().path
        var same = try entry(1, dir: dir, from: "a.png", to: "a.png")
        try writeJournal(journal, roots: [real], entries: [same])
        let r = try rename(["--undo", journal, "--format", "ndjson"], in: root)
        #expect(r.status == 1)
        #expect((try parseNDJSON(r).first?["reason"] as? String)?.contains("same file name") == true)
        #expect(T.names(T.snapshot(dir)) == ["a.png"])
        same.from = Array("A.PNG".utf8)
        try FileManager.default.removeItem(atPath: journal)
        try writeJournal(journal, roots: [real], entries: [same])
        #expect(try rename(["--undo", journal], in: root).status == 1, "equal but for case")
        #expect(T.names(T.snapshot(dir)) == ["a.png"])
    }

    @Test("a leftover second link is reported, never removed: undo removes no name")
    func hardLinks() throws {
        let (root, dir, journal) = try setUp("links")
        defer { T.remove(root) }
        let real = dir.resolvingSymlinksInPath().path
        // A real leftover: a and a.png are links to one file.
        try #require(link(dir.appendingPathComponent("a.png").path, dir.appendingPathComponent("a").path) == 0)
        try writeJournal(journal, roots: [real], entries: [try entry(1, dir: dir, from: "a", to: "a.png")])
        let r = try rename(["--undo", journal, "--format", "ndjson"], in: root)
        #expect(r.status == 1, "\(r.text)")
        #expect(try parseNDJSON(r).first?["action"] as? String == "leftover-link")
        #expect(T.names(T.snapshot(dir)) == ["a", "a.png"], "both names stay")
        // Two different files under the names: nothing is touched either.
        try FileManager.default.removeItem(at: dir.appendingPathComponent("a.png"))
        try T.write(Samples.png, "a.png", in: dir)
        try FileManager.default.removeItem(atPath: journal)
        try writeJournal(journal, roots: [real], entries: [try entry(1, dir: dir, from: "a", to: "a.png")])
        #expect(try rename(["--undo", journal], in: root).status == 1)
        #expect(T.names(T.snapshot(dir)) == ["a", "a.png"])
    }

    @Test("a journal written by hand (unsigned, or signed under another key) renames nothing; --accept-unsigned takes a 0.2 journal, inside its roots only")
    func unsignedAndForeign() throws {
        let (root, dir, journal) = try setUp("unsigned")
        defer { T.remove(root) }
        let real = dir.resolvingSymlinksInPath().path
        // Crafted as 0.2 wrote them, with roots it declares itself.
        try writeUnsignedJournal(journal, roots: ["/"], entries: [try entry(1, dir: dir, from: "a", to: "a.png")])
        let crafted = try rename(["--undo", journal], in: root)
        #expect(crafted.status == 2)
        #expect(crafted.stderr.contains("no signature"), "\(crafted.stderr)")
        #expect(T.names(T.snapshot(dir)) == ["a.png"])
        // Accepted as unsigned, it still acts only inside its roots (version 1 has none at all).
        try FileManager.default.removeItem(atPath: journal)
        try writeUnsignedJournal(journal, version: 1, roots: [], entries: [try entry(1, dir: dir, from: "a", to: "a.png")])
        let v1 = try rename(["--undo", journal, "--accept-unsigned", "--format", "ndjson"], in: root)
        #expect(v1.status == 1)
        #expect((try parseNDJSON(v1).first?["reason"] as? String)?.contains("outside the journal's roots") == true)
        #expect(T.names(T.snapshot(dir)) == ["a.png"])
        try FileManager.default.removeItem(atPath: journal)
        try writeUnsignedJournal(journal, roots: [real], entries: [try entry(1, dir: dir, from: "a", to: "a.png")])
        let v2 = try rename(["--undo", journal, "--accept-unsigned"], in: root)
        #expect(T.names(T.snapshot(dir)) == ["a"], "\(v2.stderr)")
        // Signed under another key (another user's state directory): refused.
        try T.write(Samples.png, "b.png", in: dir)
        try FileManager.default.removeItem(atPath: journal)
        try writeJournal(journal, roots: [real], entries: [try entry(1, dir: dir, from: "b", to: "b.png")])
        let otherState = root.appendingPathComponent("other-state")
        let foreign = try rename(["--undo", journal], in: root, environment: ["XDG_STATE_HOME": otherState.path])
        #expect(foreign.status == 2)
        // It names the key it looked for (a stranger's undo from cron said only "no journal key").
        let otherKey = otherState.appendingPathComponent("imgsniff/journal.key").path
        #expect(foreign.stderr.contains(otherKey) && foreign.stderr.contains("state directory"), "\(foreign.stderr)")
        #expect(T.names(T.snapshot(dir)) == ["a", "b.png"])
        // A key there, but another one: refused, naming the key it was checked with.
        _ = try JournalKey.loadOrCreate(in: Array(otherState.appendingPathComponent("imgsniff").path.utf8))
        let other = try rename(["--undo", journal], in: root, environment: ["XDG_STATE_HOME": otherState.path])
        #expect(other.status == 2 && other.stderr.contains("signature does not hold under the journal key \(otherKey)"), "\(other.stderr)")
        #expect(T.names(T.snapshot(dir)) == ["a", "b.png"])
    }

    @Test("a journal writable by others, or someone else's, is refused")
    func permissions() throws {
        let (root, dir, journal) = try setUp("perms")
        defer { T.remove(root) }
        let real = dir.resolvingSymlinksInPath().path
        try writeJournal(journal, roots: [real], entries: [try entry(1, dir: dir, from: "a", to: "a.png")], mode: 0o666)
        let writable = try rename(["--undo", journal], in: root)
        #expect(writable.status == 2)
        #expect(writable.stderr.contains("writable by others"))
        #expect(T.names(T.snapshot(dir)) == ["a.png"])
        chmod(journal, 0o600)
        if geteuid() == 0 {
            try #require(chown(journal, 65534, 65534) == 0)
            let foreign = try rename(["--undo", journal], in: root)
            #expect(foreign.status == 2)
            #expect(foreign.stderr.contains("not to you"))
            #expect(T.names(T.snapshot(dir)) == ["a.png"])
        }
    }

    @Test("entries outside the journal's roots, and a directory path that leads elsewhere, are refused")
    func roots() throws {
        let (root, dir, journal) = try setUp("roots")
        defer { T.remove(root) }
        let elsewhere = root.appendingPathComponent("elsewhere").path
        try writeJournal(journal, roots: [elsewhere], entries: [try entry(1, dir: dir, from: "a", to: "a.png")])
        let r = try rename(["--undo", journal, "--format", "ndjson"], in: root)
        #expect(r.status == 1)
        #expect((try parseNDJSON(r).first?["reason"] as? String)?.contains("outside the journal's roots") == true)
        #expect(T.names(T.snapshot(dir)) == ["a.png"])
    }

    @Test("a device number that changed (a remount) does not stop undo; identity is inode, size and time")
    func deviceNumberChanged() throws {
        let (root, dir, journal) = try setUp("dev")
        defer { T.remove(root) }
        try writeJournal(journal, roots: [dir.resolvingSymlinksInPath().path],
                         entries: [try entry(1, dir: dir, from: "a", to: "a.png", deviceOffset: 7)])
        let r = try rename(["--undo", journal, "--format", "ndjson"], in: root)
        #expect(r.status == 0, "\(r.text)")
        #expect((try parseNDJSON(r).first?["reason"] as? String)?.contains("device number changed") == true)
        #expect(T.names(T.snapshot(dir)) == ["a"])
    }

    @Test("a torn line does not swallow the entry after it")
    func tornLine() throws {
        let (root, dir, journal) = try setUp("torn")
        defer { T.remove(root) }
        try T.write(Samples.jpeg, "b.jpg", in: dir)
        try writeJournal(journal, roots: [dir.resolvingSymlinksInPath().path], entries: [], end: false)
        let key = try JournalKey.load(in: Array(IMGSniffBinary.stateHome.appendingPathComponent("imgsniff").path.utf8))
        let id = try JournalReader(path: Array(journal.utf8), key: key).header.id
        let first = key.sign(try entry(1, dir: dir, from: "a", to: "a.png").encoded(), scope: id)
        let second = key.sign(try entry(2, dir: dir, from: "b", to: "b.jpg").encoded(), scope: id)
        let handle = try #require(FileHandle(forWritingAtPath: journal))
        handle.seekToEndOfFile()
        handle.write(Data(first.prefix(first.count / 2)))  // cut short, no newline
        handle.write(Data(second) + Data("\n".utf8))       // then a whole record glued to it
        try handle.close()
        let r = try rename(["--undo", journal, "--format", "ndjson"], in: root)
        #expect(r.stderr.contains("damaged journal line"))
        #expect(r.status == 1, "entry 1 is lost and the journal has no end record")
        #expect(r.stderr.contains("#1") && r.stderr.contains("no end record"), "\(r.stderr)")
        #expect(T.names(T.snapshot(dir)) == ["a.png", "b"], "the glued entry was recovered and undone")
    }

    @Test("a journal cut short or with a gigabyte of damage: what it records is undone, exit 1 says the rest may not be")
    func cutAndHugeJournals() throws {
        let root = try T.scratch("cut")
        defer { T.remove(root) }
        let dir = root.appendingPathComponent("d")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for i in 0..<20 { try T.write(Samples.png + [UInt8(i)], "f\(i)", in: dir) }
        let before = T.snapshot(dir)
        let journal = root.appendingPathComponent("j.jsonl").path
        #expect(try rename(["--apply", "--journal", journal, dir.path], in: root).status == 0)
        // Cut: the end record and the last lines gone, as when a copy stopped early.
        var lines = try String(contentsOfFile: journal, encoding: .utf8).split(separator: "\n")
        #expect(lines.last?.contains("\"end\":true") == true)
        lines.removeLast(3)
        try (lines.joined(separator: "\n") + "\n").write(toFile: journal, atomically: false, encoding: .utf8)
        let cut = try rename(["--undo", journal], in: root)
        #expect(cut.status == 1)
        #expect(cut.stderr.contains("no end record"), "\(cut.stderr)")
        // A journal past 1 GiB (a sparse run of NULs between its header and its entries): read from
        // its end, a block at a time.
        try FileManager.default.removeItem(atPath: journal)
        #expect(try rename(["--apply", "--journal", journal, dir.path], in: root).status == 0)
        let text = try Data(contentsOf: URL(fileURLWithPath: journal))
        let headerEnd = try #require(text.firstIndex(of: 0x0A))
        let huge = root.appendingPathComponent("huge.jsonl").path
        let fd = open(huge, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        try #require(fd >= 0)
        _ = text[...headerEnd].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        try #require(ftruncate(fd, off_t(headerEnd + 1 + (1 << 30) + 4096)) == 0)
        lseek(fd, 0, SEEK_END)
        _ = write(fd, "\n", 1)
        _ = text[(headerEnd + 1)...].withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        close(fd)
        let big = try IMGSniffBinary.run(["rename", "--undo", huge, "--format", "ndjson"], in: root, timeout: 300)
        #expect(big.status == 1, "the gigabyte of NULs is one damaged line: \(big.stderr.prefix(300))")
        #expect(big.stderr.contains("damaged journal line"))
        #expect(T.snapshot(dir) == before, "every recorded rename undone: \(T.names(T.snapshot(dir)))")
        try? FileManager.default.removeItem(atPath: huge)
    }
}

@Suite("imgsniff rename: kill -9", .serialized)
struct RenameCrashTests {
    /// 300 extension-less images with distinct contents.
    static func makeTree(_ dir: URL) throws -> [[UInt8]: [UInt8]] {
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        let sources = [Samples.png, Samples.jpeg, Samples.gif]
        for i in 0..<300 { try T.write(sources[i % 3] + Array("#\(i)".utf8), String(format: "f%03d", i), in: dir) }
        return T.snapshot(dir)
    }

    /// Every original file is present exactly once, under its old name or its new one; with the
    /// link fallback, both names may be links to the same inode.
    static func invariant(_ dir: URL, _ original: [[UInt8]: [UInt8]], allowLinks: Bool) -> (renamed: Int, ok: Bool) {
        let now = T.snapshot(dir)
        var seen = 0, renamed = 0, ok = true
        for (name, bytes) in original {
            let candidates = [name] + ["png", "jpg", "gif"].map { name + Array(".\($0)".utf8) }
            let present = candidates.filter { now[$0] != nil }
            if present.count == 2 && allowLinks {
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

    @Test("30 kills at random points: old or new names, and undo restores the tree exactly")
    func killNine() throws {
        let root = try T.scratch("kill")
        defer { T.remove(root) }
        var landedMidRun = 0
        for iteration in 0..<30 {
            let dir = root.appendingPathComponent("tree\(iteration)")
            let original = try Self.makeTree(dir)
            let journal = root.appendingPathComponent("j\(iteration).jsonl")
            let forceLink = iteration % 5 == 4
            var env = ["IMGSNIFF_RENAME_DELAY_US": String([0, 200, 1000, 3000][iteration % 4])]
            if forceLink { env["IMGSNIFF_RENAME_FORCE_LINK"] = "1" }
            let running = try IMGSniffBinary.start(["rename", "--apply", "--format", "ndjson", "--journal", journal.path, dir.path],
                                                   in: root, environment: env)
            // Kill after the journal reaches a random size (mid-batch), or after a random time.
            if iteration % 3 == 0 {
                usleep(UInt32.random(in: 5_000...400_000))
            } else {
                let bytes = Int.random(in: 200...30_000)
                try? waitFor(timeout: 20) { ((try? Data(contentsOf: journal))?.count ?? 0) >= bytes || !running.process.isRunning }
                usleep(UInt32.random(in: 0...3000))
            }
            kill(running.process.processIdentifier, SIGKILL)
            _ = try running.finish()

            let (renamed, ok) = Self.invariant(dir, original, allowLinks: forceLink)
            #expect(ok, "iteration \(iteration): a file is missing, doubled or changed after kill -9")
            if renamed > 0 && renamed < original.count { landedMidRun += 1 }
            if FileManager.default.fileExists(atPath: journal.path) {
                let undo = try rename(["--undo", journal.path, "--format", "ndjson"], in: root, environment: env)
                // A killed run's journal has no end record: said, with status 1, after undoing
                // everything it records. A rename by link cut short leaves a second name, reported.
                let killedMidRun = undo.stderr.contains("no end record")
                let leftovers = try parseNDJSON(undo).filter { $0["action"] as? String == "leftover-link" }
                #expect(undo.status == 0 || (undo.status == 1 && (killedMidRun || !leftovers.isEmpty)), "iteration \(iteration): \(undo.stderr)")
                #expect(!undo.text.contains("\"refuse\""), "iteration \(iteration): \(undo.text.prefix(500))")
                for row in leftovers {
                    // The user's part: remove the second name undo reports.
                    try FileManager.default.removeItem(atPath: try #require(row["path"] as? String))
                }
                let again = try rename(["--undo", journal.path], in: root)
                #expect(again.status == undo.status || again.status == 0, "again")
            } else {
                #expect(renamed == 0, "renames without a journal")
            }
            #expect(T.snapshot(dir) == original, "iteration \(iteration)")
        }
        #expect(landedMidRun >= 3, "too few kills landed in the middle of the renames")
    }
}

/// Waits until `condition` holds (polling), or throws after `timeout` seconds.
func waitFor(timeout: Double = 20, _ condition: () -> Bool) throws {
    let deadline = Date().addingTimeInterval(timeout)
    while !condition() {
        if Date() > deadline { throw CLIError("timed out waiting") }
        usleep(500)
    }
}
