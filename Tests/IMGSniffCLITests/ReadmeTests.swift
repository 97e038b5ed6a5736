// The README stays true: its formats table is what `imgsniff types --format markdown` prints,
// its library quick start is the code of Examples/QuickStart (which ExamplesTests runs), and
// the version it and the CHANGELOG name is the one `imgsniff --version` prints.

import Foundation
import Testing

@Suite struct ReadmeTests {
    static let begin = "<!-- formats:begin -->"
    static let end = "<!-- formats:end -->"

    @Test func formatsTableMatchesTheCatalog() throws {
        let readme = try Repository.text("README.md")
        let lines = readme.components(separatedBy: "\n")
        let start = try #require(lines.firstIndex(of: Self.begin), "README.md lacks \(Self.begin)")
        let stop = try #require(lines.firstIndex(of: Self.end), "README.md lacks \(Self.end)")
        try #require(start < stop)
        let table = lines[(start + 1)..<stop].map { $0 + "\n" }.joined()

        let result = try IMGSniffBinary.run(["types", "--format", "markdown"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(!result.text.isEmpty)
        #expect(table == result.text, "README.md's formats table is stale: run `make readme-formats`")
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
