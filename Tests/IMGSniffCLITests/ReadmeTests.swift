// The README stays true: its formats table is what `imgsniff types --format markdown` prints,
// its library quick start is the code of Examples/QuickStart (which ExamplesTests runs), and
// the version it and the CHANGELOG name is the one `imgsniff --version` prints.

import Foundation
import Testing

@Suite struct ReadmeTests {
    static let begin = "<!-- formats:begin -->"
    static let end = "<!-- formats:end -->"

    @Test func formatsTableMatchesTheCatalog() throws {
        let readme = try Repository.text("docs/supported-formats.md")
        let lines = readme.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: Self.begin), "docs/supported-formats.md lacks \(Self.begin)")
        let stop = try #require(lines.firstIndex(of: Self.end), "docs/supported-formats.md lacks \(Self.end)")
        try #require(start < stop)
        let table = lines[(start + 1)..<stop].map { $0 + "\n" }.joined()

        let result = try IMGSniffBinary.run(["types", "--format", "markdown"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.text.isEmpty)
        #expect(table == result.text, "docs/supported-formats.md's table is stale: run `make readme-formats`")
    }

    @Test func quickStartIsTheExampleWordForWord() throws {
        let readme = try Repository.text("README.md")
        let example = try Repository.text("Examples/QuickStart/main.swift")
        let section = try #require(readme.range(of: "## Library quick start"), "README.md lacks its quick start")
        let rest = readme[section.upperBound...]
        let open = try #require(rest.range(of: "```swift\n"))
        let close = try #require(rest[open.upperBound...].range(of: "```\n"))
        let block = String(rest[open.upperBound..<close.lowerBound])
        #expect(block == example, "README.md's quick start differs from Examples/QuickStart/main.swift")
    }

    /// The streaming handler shown in the README and in the DocC article is the one
    /// Examples/StreamingUpload compiles and the examples' tests run.
    @Test func streamingHandlerIsTheExamples() throws {
        let example = try Repository.text("Examples/StreamingUpload/main.swift")
        for (file, heading) in [("README.md", "## Streaming"), ("Sources/ImageSniff/ImageSniff.docc/Streaming.md", "### A complete upload handler")] {
            let text = try Repository.text(file)
            let section = try #require(text.range(of: heading), "\(file) lacks \(heading)")
            let rest = text[section.upperBound...]
            let open = try #require(rest.range(of: "```swift\nimport ImageSniff\n\n"))
            let close = try #require(rest[open.upperBound...].range(of: "```\n"))
            let handler = String(rest[open.upperBound..<close.lowerBound])
            #expect(handler.contains("func acceptImage"))
            #expect(example.contains(handler), "\(file)'s streaming handler differs from Examples/StreamingUpload/main.swift")
        }
    }

    @Test func versionIsTheChangelogsLatest() throws {
        let result = try IMGSniffBinary.run(["--version"])
        #expect(result.status == 0)
        let version = result.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let changelog = try Repository.text("CHANGELOG.md")
        let firstRelease = changelog.components(separatedBy: "\n").first { $0.hasPrefix("## [") && !$0.hasPrefix("## [Unreleased]") }
        #expect(firstRelease?.hasPrefix("## [\(version)]") == true,
                "imgsniff --version says \(version); CHANGELOG.md's latest release is \(firstRelease ?? "missing")")
    }
}

/// Recipes and references in the README that the suite runs or checks.
@Suite struct ReadmeRecipeTests {
    /// The sharding recipe, run as written over a copy of TestImages (as `photos`), with the built
    /// imgsniff on PATH: the merged NDJSON holds exactly the records of one scan; run again in the
    /// same directory, it gives the same (it writes nothing in the tree or beside it).
    @Test func shardingRecipeMergesToOneScan() throws {
        let readme = try Repository.text("docs/integrations.md")
        let begin = try #require(readme.range(of: "<!-- shard:begin -->\n```sh\n"))
        let end = try #require(readme[begin.upperBound...].range(of: "```\n<!-- shard:end -->"))
        let recipe = String(readme[begin.upperBound..<end.lowerBound])
        let binary = try #require(IMGSniffBinary.url)
        let work = try Trees.scratch("shard")
        defer { Trees.remove(work) }
        let copy = Process()
        copy.executableURL = URL(fileURLWithPath: "/bin/cp")
        copy.arguments = ["-R", Repository.testImages.path, work.appendingPathComponent("photos").path]
        try copy.run()
        copy.waitUntilExit()
        let script = work.appendingPathComponent("recipe.sh")
        try recipe.write(to: script, atomically: true, encoding: .utf8)
        var results: [[String]] = []
        for _ in 0..<2 {
            let run = try IMGSniffBinary.run([script.path], in: work, environment: ["PATH": binary.deletingLastPathComponent().path + ":/usr/bin:/bin"],
                                             program: URL(fileURLWithPath: "/bin/bash"), timeout: 120)
            #expect(run.status == 0, "\(run.stderr)")
            let output = try #require(run.lines.last)
            defer { Trees.remove(URL(fileURLWithPath: output).deletingLastPathComponent()) }
            results.append(try String(contentsOf: URL(fileURLWithPath: output), encoding: .utf8).split(separator: "\n").map(String.init))
        }
        #expect(results[0] == results[1], "a second run gives the same records")
        let merged = results[0]
        let single = try IMGSniffBinary.run(["scan", "--format", "ndjson", "photos"], in: work).lines
        #expect(merged.count == single.count && merged.count > 400)
        #expect(Set(merged) == Set(single), "the shards' records are one scan's")
        #expect(merged == merged.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) })
    }
}

/// docs/cli.md, `--help` and the man page say the same.
@Suite struct ReferenceTests {
    static let commands: [[String]] = [[], ["scan"], ["rename"], ["types"]]

    /// The long options a command's `--help` lists.
    static func options(in help: String) -> Set<String> {
        var found = Set<String>()
        for line in help.split(separator: "\n") where line.hasPrefix("  -") && !line.hasPrefix("  - ") {
            // The option column: up to the first run of two spaces.
            let column = line.dropFirst(2).components(separatedBy: "  ").first ?? ""
            for word in column.split(separator: " ") where word.hasPrefix("--") {
                found.insert(String(word.prefix { $0 != "," && $0 != "=" }))
            }
        }
        return found
    }

    @Test func readmeReferenceIsEachCommandsHelp() throws {
        let readme = try Repository.text("docs/cli.md")
        let begin = try #require(readme.range(of: "<!-- help:begin -->\n"))
        let end = try #require(readme[begin.upperBound...].range(of: "<!-- help:end -->"))
        let section = String(readme[begin.upperBound..<end.lowerBound])
        for command in Self.commands {
            let help = try IMGSniffBinary.run(command + ["--help"], environment: ["COLUMNS": "100"])
            #expect(help.status == 0)
            let current = section.contains(help.text)
            #expect(current, "docs/cli.md's reference for `imgsniff \(command.joined()) --help` is stale: make readme-help")
        }
    }

    @Test func manPageListsEveryOption() throws {
        let man = try Repository.text("docs/imgsniff.1")
        // mdoc lists an option as ".It Fl -option" or, with a short name, ".It Fl q , -quiet".
        let items = man.split(separator: "\n").filter { $0.hasPrefix(".It Fl ") }.map { " " + $0 + " " }
        for command in Self.commands {
            let help = try IMGSniffBinary.run(command + ["--help"]).text
            let options = Self.options(in: help)
            #expect(!options.isEmpty)
            for option in options {
                let listed = items.contains { $0.contains(" -" + option.dropFirst(2) + " ") }
                #expect(listed, "docs/imgsniff.1 lacks \(option) of `imgsniff \(command.joined())`: make man")
            }
        }
    }

    @Test func manPageExamplesAreTheHelps() throws {
        let man = try Repository.text("docs/imgsniff.1")
        for command in Self.commands.dropFirst() {
            let help = try IMGSniffBinary.run(command + ["--help"], environment: ["COLUMNS": "1000"]).text
            guard let examples = help.range(of: "Examples:\n") else { continue }
            for line in help[examples.upperBound...].split(separator: "\n").prefix(while: { $0.hasPrefix("  ") }) {
                let listed = man.contains(String(line))
                #expect(listed, "docs/imgsniff.1 lacks the example \(line): make man")
            }
        }
    }

    /// `-h` is short: usage, the main options and examples, under 40 lines; `--help` examples fit
    /// 80 columns.
    @Test func shortHelpIsShortAndExamplesFit() throws {
        for command in Self.commands {
            let short = try IMGSniffBinary.run(command + ["-h"])
            #expect(short.status == 0)
            #expect(short.lines.count < 40, "`imgsniff \(command.joined()) -h` has \(short.lines.count) lines")
            #expect(short.text.contains("USAGE") || short.text.contains("Usage") || short.text.contains("usage"))
            let help = try IMGSniffBinary.run(command + ["--help"], environment: ["COLUMNS": "80"]).text
            if let examples = help.range(of: "Examples:\n") {
                for line in help[examples.upperBound...].split(separator: "\n").prefix(while: { $0.hasPrefix("  ") }) {
                    #expect(line.count <= 80, "example wider than 80 columns: \(line)")
                }
            }
        }
    }
}
