// imgsniff as a Unix tool (issue 19): pipelines, completion, colour, filters and errors as file(1)
// would say them, end to end.

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("imgsniff in pipelines and shells")
struct UnixToolTests {
    /// `scan --only-images --print0 DIR | xargs -0 ls`: names with invalid UTF-8 and newlines arrive
    /// whole; only images are listed.
    @Test func print0FeedsXargs() throws {
        let tree = try ScratchTree()
        try tree.file("d/notes", Array("plain words\n".utf8))
        try tree.rawFile(in: "d", name: invalidName, pngBytes)
        try tree.file("d/two\nlines.jpg", jpegBytes)
        // The pipeline, with the binary's path as $0.
        let binary = try #require(IMGSniffBinary.url)
        let pipeline = try IMGSniffBinary.run(["-c", #""$0" scan --only-images --print0 d | xargs -0 ls -1 --quoting-style=escape"#, binary.path],
                                              in: tree.root, program: URL(fileURLWithPath: "/bin/bash"))
        #expect(pipeline.status == 0, "\(pipeline.stderr)")
        let listed = Set(pipeline.lines)
        #expect(listed == ["d/bad-\\377\\376%name.png", "d/two\\nlines.jpg"], "\(listed)")
        // The raw bytes, NUL-terminated.
        let raw = try IMGSniffBinary.run(["scan", "--only-images", "--print0", "d"], in: tree.root)
        let names = raw.stdout.split(separator: 0, omittingEmptySubsequences: false)
        #expect(names.count == 3 && names.last?.isEmpty == true, "each name NUL-terminated")
        #expect(names.contains { Array($0) == Array("d/".utf8) + invalidName })
    }

    /// Bash completion from the generated script: a path prefix completes to the directory, and
    /// --type to catalog identifiers.
    @Test func bashCompletesPathsAndTypes() throws {
        let binary = try #require(IMGSniffBinary.url)
        let tree = try ScratchTree()
        try tree.file("photos/one.png", pngBytes)
        func complete(_ words: [String]) throws -> [String] {
            let line = words.joined(separator: " ")
            let quoted = words.map { "'\($0)'" }.joined(separator: " ")
            let script = """
                source <("$0" --generate-completion-script bash)
                COMP_WORDS=(\(quoted)); COMP_CWORD=\(words.count - 1); COMP_LINE='\(line)'; COMP_POINT=${#COMP_LINE}
                _imgsniff imgsniff '\(words.last!)' '\(words[words.count - 2])'
                printf '%s\\n' "${COMPREPLY[@]}"
                """
            return try IMGSniffBinary.run(["-c", script, binary.path], in: tree.root, program: URL(fileURLWithPath: "/bin/bash")).lines
        }
        #expect(try complete(["imgsniff", "scan", "pho"]) == ["photos"])
        #expect(try complete(["imgsniff", "rename", "pho"]) == ["photos"])
        #expect(try complete(["imgsniff", "scan", "--files-from", "pho"]) == ["photos"])
        #expect(try complete(["imgsniff", "scan", "--type", "public.ti"]) == ["public.tiff"])
        #expect(try complete(["imgsniff", "scan", "--type", "unkn"]) == ["unknown"])
    }

    /// zsh and fish completion scripts: zsh parses the script; fish completes a subcommand, a
    /// value list and catalog identifiers from it (CI installs both shells).
    @Test func zshAndFishScripts() throws {
        let binary = try #require(IMGSniffBinary.url)
        for shell in ["zsh", "fish"] where !FileManager.default.isExecutableFile(atPath: "/usr/bin/\(shell)") {
            Issue.record("\(shell) is not installed (.ci/run installs it)")
            return
        }
        let zsh = try IMGSniffBinary.run(["-c", #""$0" --generate-completion-script zsh > "$TMPDIR/_imgsniff" && zsh -n "$TMPDIR/_imgsniff" && echo ok"#, binary.path],
                                         environment: ["TMPDIR": NSTemporaryDirectory()], program: URL(fileURLWithPath: "/bin/bash"))
        #expect(zsh.text == "ok\n", "\(zsh.stderr)")
        func fish(_ line: String) throws -> [String] {
            let script = #"source ("$argv[1]" --generate-completion-script fish | psub); complete -C "$argv[2]""#
            return try IMGSniffBinary.run(["-c", script, binary.path, line], program: URL(fileURLWithPath: "/usr/bin/fish")).lines
                .map { String($0.prefix { $0 != "\t" }) }
        }
        #expect(try fish("imgsniff sc") == ["scan"])
        #expect(try fish("imgsniff scan --format ") == ["csv", "json", "ndjson", "table"])
        #expect(try fish("imgsniff scan --type public.ti") == ["public.tiff"])
        #expect(try fish("imgsniff rename --on-conflict ").sorted() == ["skip", "suffix"])
    }

    /// Colour: never in a pipe unless asked; --color always and CLICOLOR_FORCE force it (even for
    /// TERM=dumb: "no matter what"); NO_COLOR turns auto off; --color never wins.
    @Test func colourFollowsTheConventions() throws {
        let base = ["scan", "--format", "table", "png/alpha"]
        func escapes(_ arguments: [String], _ environment: [String: String] = [:]) throws -> Bool {
            try IMGSniffBinary.run(arguments, in: Repository.testImages, environment: environment, unsetting: ["NO_COLOR", "CLICOLOR_FORCE"])
                .text.contains("\u{1B}[")
        }
        #expect(try !escapes(base))
        #expect(try escapes(base + ["--color", "always"]))
        #expect(try escapes(base, ["CLICOLOR_FORCE": "1"]))
        #expect(try !escapes(base, ["CLICOLOR_FORCE": "0"]))
        #expect(try !escapes(base + ["--color", "never"], ["CLICOLOR_FORCE": "1"]))
        #expect(try !escapes(base, ["CLICOLOR_FORCE": "1", "NO_COLOR": "1"]))
        #expect(try escapes(base, ["CLICOLOR_FORCE": "1", "TERM": "dumb"]))
        #expect(try !escapes(base + ["--color", "auto"], ["TERM": "dumb"]))
    }

    /// Tables fit the terminal's width: long paths lose their middle.
    @Test func tablesFitTheWidth() throws {
        let tree = try ScratchTree()
        let long = "very-" + String(repeating: "long-", count: 30) + "name.png"
        try tree.file(long, pngBytes)
        let r = try IMGSniffBinary.run(["scan", "--format", "table", "--no-summary", "."], in: tree.root, environment: ["COLUMNS": "60"])
        for line in r.lines { #expect(line.count <= 60, "\(line.count) columns: \(line)") }
        #expect(r.text.contains("…"))
    }

    /// --summary: counts per type, exact (a missing operand is a record of its own: scanned, listed
    /// and counted as an error), JSON with --format json.
    @Test func summaryCountsExactly() throws {
        let tree = try ScratchTree()
        try tree.file("a.png", pngBytes)
        try tree.file("b.png", pngBytes)
        try tree.file("c.jpg", jpegBytes)
        let r = try IMGSniffBinary.run(["scan", "--summary", "--format", "json", "a.png", "b.png", "c.jpg", "missing"], in: tree.root)
        #expect(r.status == 2, "a missing operand is an error")
        #expect(r.stdout.last == UInt8(ascii: "\n"), "the JSON ends its line")
        let summary = try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [String: Any])
        #expect(summary["scanned"] as? Int == 4, "\(summary)")
        #expect(summary["listed"] as? Int == 4)
        #expect(summary["errors"] as? Int == 1)
        #expect((summary["types"] as? [String: Any])?["public.png"] as? Int == 2, "\(summary)")
    }

    /// A FIFO met inside a directory is listed as not read, not as an error: the summary, the
    /// table and the exit status agree; --print0 gives only files that were read (a FIFO's path
    /// would hang `xargs -0 cat`); an interrupted scan's summary says so.
    @Test func specialFilesAreNotReadNotErrors() throws {
        let tree = try ScratchTree()
        try tree.file("d/a.png", pngBytes)
        try tree.fifo("d/pipe")
        let summary = try IMGSniffBinary.run(["scan", "--summary", "--format", "json", "d"], in: tree.root)
        #expect(summary.status == 0, "\(summary.stderr)")
        let counts = try #require(try JSONSerialization.jsonObject(with: summary.stdout) as? [String: Any])
        #expect(counts["errors"] as? Int == 0 && counts["notRead"] as? Int == 1 && counts["interrupted"] as? Bool == false, "\(counts)")
        #expect(Array(summary.stdout.suffix(2)) != [0x0A, 0x0A], "one line, no blank line after it")
        let table = try IMGSniffBinary.run(["scan", "--format", "table", "d"], in: tree.root)
        #expect(table.status == 0 && table.text.contains("not read: fifo") && !table.text.contains("error"), "\(table.text)")
        let print0 = try IMGSniffBinary.run(["scan", "--print0", "d"], in: tree.root)
        #expect(Array(print0.stdout) == Array("d/a.png".utf8) + [0], "\(print0.text)")
        // Named explicitly, a FIFO is an error (file(1) and grep say so too).
        #expect(try IMGSniffBinary.run(["scan", "d/pipe"], in: tree.root).status == 2)
    }

    /// A file that cannot be read is said on standard error when the output does not show it
    /// (`--summary`, `--print0`), and only there when it does (the table); CSV gives its code.
    @Test func errorsReachStandardErrorWhateverTheOutput() throws {
        let tree = try ScratchTree()
        try tree.file("a.png", pngBytes)
        try tree.fifo("pipe")
        for mode in [["--summary"], ["--print0"], ["--format", "table"], ["--format", "ndjson"]] {
            let r = try IMGSniffBinary.run(["scan"] + mode + ["a.png", "pipe"], in: tree.root)
            #expect(r.status == 2)
            let said = r.stderr.components(separatedBy: "pipe: fifo (named pipe)").count - 1
            #expect(said == (mode == ["--format", "table"] ? 0 : 1), "\(mode): \(r.stderr)")
        }
        let csv = try IMGSniffBinary.run(["scan", "--format", "csv", "pipe"], in: tree.root)
        #expect(csv.text.contains(",notRegular: fifo (named pipe),"), "\(csv.text)")
    }

    /// Diagnostics never pass a name's control characters to the terminal (an escape sequence
    /// that retitles it, a carriage return from a Windows list).
    @Test func diagnosticsShowControlCharactersAsQuestionMarks() throws {
        let tree = try ScratchTree()
        let r = try IMGSniffBinary.run(["scan", "nope\u{1B}]0;pwned\u{07}", "x\r"], in: tree.root)
        #expect(r.status == 2)
        let err = r.stderr
        #expect(err.contains("nope?]0;pwned?: no such file") && err.contains("x?: no such file"), "\(err)")
        #expect(!err.unicodeScalars.contains { [0x1B, 0x0D, 0x07].contains($0.value) })
    }

    /// Errors as file(1) says them: a broken symbolic link named explicitly, an empty file, a
    /// directory in a list.
    @Test func errorsAsFileSaysThem() throws {
        let tree = try ScratchTree()
        try tree.symlink("dangling", to: "nowhere.png")
        try tree.file("empty", [])
        try tree.file("dir/x.png", pngBytes)
        try tree.file("list", Array("dir\n".utf8))
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "dangling", "empty"], in: tree.root)
        let records = byPath(try parseNDJSON(r))
        #expect((records["dangling"]?["description"] as? String)?.contains("broken symbolic link to nowhere.png") == true, "\(records)")
        #expect(records["empty"]?["description"] as? String == "empty")
        let listed = try IMGSniffBinary.run(["scan", "--format", "ndjson", "--files-from", "list"], in: tree.root)
        #expect(try parseNDJSON(listed).first?["description"] as? String == "directory")
    }

    /// -x: a file system mounted inside the tree is not entered (a private mount namespace with a
    /// tmpfs, as root).
    @Test(.enabled(if: getuid() == 0 && FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare")))
    func oneFileSystemStaysOnIt() throws {
        let binary = try #require(IMGSniffBinary.url)
        let tree = try ScratchTree()
        try tree.file("here/a.png", pngBytes)
        try FileManager.default.createDirectory(at: tree.root.appendingPathComponent("here/mnt"), withIntermediateDirectories: true)
        let script = #"mount -t tmpfs none here/mnt && cp here/a.png here/mnt/b.png && "$0" scan -x --format ndjson here && echo --- && "$0" scan --format ndjson here"#
        let r = try IMGSniffBinary.run(["-m", "bash", "-c", script, binary.path], in: tree.root, program: URL(fileURLWithPath: "/usr/bin/unshare"))
        #expect(r.status == 0, "\(r.stderr)")
        let parts = r.text.components(separatedBy: "---\n")
        #expect(parts.count == 2)
        #expect(!parts[0].contains("mnt/b.png") && parts[0].contains("here/a.png"))
        #expect(parts[1].contains("here/mnt/b.png"))
    }

    /// --exclude and --max-depth, end to end.
    @Test func excludeAndMaxDepth() throws {
        let tree = try ScratchTree()
        try tree.file("top.png", pngBytes)
        try tree.file("cache/skip.png", pngBytes)
        try tree.file("deep/er/bottom.png", pngBytes)
        let excluded = try IMGSniffBinary.run(["scan", "--format", "ndjson", "--exclude", "cache", "."], in: tree.root)
        #expect(Set(try parseNDJSON(excluded).compactMap { $0["path"] as? String }) == ["./top.png", "./deep/er/bottom.png"])
        let shallow = try IMGSniffBinary.run(["scan", "--format", "ndjson", "--max-depth", "1", "."], in: tree.root)
        #expect(try parseNDJSON(shallow).compactMap { $0["path"] as? String } == ["./top.png"])
    }

    /// Short options bundle as getopt's do: -j4, -qj2, -0xj4; the split never touches a value
    /// (an --exclude pattern that looks like a bundle).
    @Test func shortOptionsBundle() throws {
        let tree = try ScratchTree()
        try tree.file("a.png", pngBytes)
        try tree.file("-qj2", pngBytes)
        let plain = try IMGSniffBinary.run(["scan", "--format", "ndjson", "a.png"], in: tree.root)
        #expect(try IMGSniffBinary.run(["scan", "-j4", "--format", "ndjson", "a.png"], in: tree.root).stdout == plain.stdout)
        let quiet = try IMGSniffBinary.run(["scan", "-qj2", "a.png"], in: tree.root)
        #expect(quiet.status == 0 && quiet.stdout.isEmpty, "\(quiet.stderr)")
        let list = tree.root.appendingPathComponent("list")
        try Data("a.png\0".utf8).write(to: list)
        let bundled = try IMGSniffBinary.run(["scan", "-0xj4", "--files-from", list.path, "--format", "ndjson"], in: tree.root)
        #expect(bundled.status == 0, "\(bundled.stderr)")
        #expect(try parseNDJSON(bundled).count == 1)
        let excluded = try IMGSniffBinary.run(["scan", "--exclude=-qj2", "--format", "ndjson", "."], in: tree.root)
        let paths = try parseNDJSON(excluded).compactMap { $0["path"] as? String }
        #expect(paths.contains("./a.png") && !paths.contains("./-qj2"), "the pattern stays a pattern: \(paths)")
        #expect(try IMGSniffBinary.run(["scan", "-qz", "a.png"], in: tree.root).status == 64, "an unknown letter is a usage error")
    }

    /// --hint: what the bytes cannot settle (a TGA without a footer, a TIFF whose maker cannot be
    /// told), for standard input and named files; never over what the bytes say; checked.
    @Test func hintOption() throws {
        let tree = try ScratchTree()
        try tree.file("t", tgaBytes)
        try tree.file("raw", Samples.tiffFamily)
        try tree.file("p", pngBytes)
        let tga = try parseNDJSON(try IMGSniffBinary.run(["scan", "--hint", "image/x-tga", "--format", "ndjson", "t"], in: tree.root))
        #expect(tga.first?["uti"] as? String == "com.truevision.tga-image")
        #expect(tga.first?["confidence"] as? String == "hinted")
        let stdin = try IMGSniffBinary.run(["scan", "--hint", "nef", "--format", "ndjson", "-"], in: tree.root,
                                           stdin: tree.root.appendingPathComponent("raw"))
        #expect(try parseNDJSON(stdin).first?["uti"] as? String == "com.nikon.raw-image")
        let png = try parseNDJSON(try IMGSniffBinary.run(["scan", "--hint", "nef", "--format", "ndjson", "p"], in: tree.root))
        #expect(png.first?["uti"] as? String == "public.png", "a hint never overrides the bytes")
        let bad = try IMGSniffBinary.run(["scan", "--hint", "no-such-type", "p"], in: tree.root)
        #expect(bad.status == 64 && bad.stderr.contains("--hint"))
    }
}
