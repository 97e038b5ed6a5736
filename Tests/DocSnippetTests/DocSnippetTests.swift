// Every Swift snippet in the README, docs/ and the DocC articles is compiled: Snippets.swift holds
// each one as the body of a function of its own (generated from the documents by this file's
// `generate()`; `make snippets` or IMAGESNIFF_WRITE_SNIPPETS=1 writes it), so a snippet that no
// longer compiles breaks the test build. Declarations snippets take for granted (a request body,
// its length, error types) are in Prelude.swift. A snippet that is not user code is marked on the
// line before its fence: `<!-- snippet: excerpt -->` (a piece of the library's source, checked to
// be there word for word) or `<!-- snippet: manifest -->` (Package.swift lines, checked against
// the manifest's products and this release's version).

import Foundation
import ImageSniff
import Testing
import TestSupport

/// A snippet the tests run: where it is, what it prints, and the function it became.
struct RunnableSnippet: Sendable, CustomStringConvertible {
    let place: String
    let expected: [String]
    let run: @Sendable () async throws -> Void
    var description: String { place }
}

@Suite("Documentation snippets")
struct DocSnippetTests {
    enum Kind: String { case compile, excerpt, manifest }

    struct Snippet {
        let file: String
        let line: Int
        let kind: Kind
        let code: String
    }

    /// The documents whose snippets are checked.
    static func documents() throws -> [String] {
        let fm = FileManager.default
        let docs = try fm.contentsOfDirectory(atPath: Repository.url("docs").path).filter { $0.hasSuffix(".md") }.sorted().map { "docs/" + $0 }
        let docc = "Sources/ImageSniff/ImageSniff.docc"
        let articles = try fm.contentsOfDirectory(atPath: Repository.url(docc).path).filter { $0.hasSuffix(".md") }.sorted().map { docc + "/" + $0 }
        return ["README.md"] + docs + articles
    }

    static func snippets() throws -> [Snippet] {
        var found: [Snippet] = []
        for file in try documents() {
            let lines = try Repository.text(file).components(separatedBy: "\n")
            var i = 0
            while i < lines.count {
                guard lines[i] == "```swift" else { i += 1; continue }
                var kind = Kind.compile
                var before = i - 1
                while before >= 0 && lines[before].trimmingCharacters(in: .whitespaces).isEmpty { before -= 1 }
                if before >= 0, lines[before].hasPrefix("<!-- snippet: "), lines[before].hasSuffix(" -->") {
                    let name = lines[before].dropFirst("<!-- snippet: ".count).dropLast(" -->".count)
                    kind = Kind(rawValue: String(name)) ?? .compile
                }
                let start = i + 1
                var end = start
                while end < lines.count && lines[end] != "```" { end += 1 }
                found.append(Snippet(file: file, line: i + 1, kind: kind, code: lines[start..<end].joined(separator: "\n")))
                i = end + 1
            }
        }
        return found
    }

    /// Snippets.swift as the documents make it now.
    static func generate() throws -> String {
        var out = """
        // Generated from the Swift snippets of README.md, docs/ and the DocC articles by
        // DocSnippetTests.generate() (`make snippets`): do not edit. Each snippet is the body of a
        // function of its own, so that it compiles with the tests; Prelude.swift declares what
        // snippets take for granted.

        import Foundation
        import ImageSniff
        import ImageSniffScan

        """
        var runnable: [String] = []
        for s in try snippets() where s.kind == .compile {
            let name = "snippet_" + String(s.file.map { $0.isLetter || $0.isNumber ? $0 : "_" }) + "_\(s.line)"
            out += "\n// \(s.file):\(s.line)\n"
            out += "@Sendable func \(name)() async throws {\n"
            for line in s.code.components(separatedBy: "\n") where !line.hasPrefix("import ") {
                out += line.isEmpty ? "\n" : "    " + line + "\n"
            }
            out += "}\n"
            if let expected = expectedOutput(s.code) {
                let quoted = expected.map { "\"" + $0.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "\"", with: "\\\"") + "\"" }
                runnable.append("    RunnableSnippet(place: \"\(s.file):\(s.line)\", expected: [\(quoted.joined(separator: ", "))], run: \(name)),\n")
            }
        }
        out += "\n/// The snippets that print, each line with what it prints in a comment: run by the tests.\n"
        out += "let runnableSnippets: [RunnableSnippet] = [\n" + runnable.joined() + "]\n"
        return out
    }

    /// What a snippet prints, from the comments of its `print` lines (`print(x)   // value`); nil
    /// when it prints nothing, or a print line has no such comment (it is compiled, not run).
    static func expectedOutput(_ code: String) -> [String]? {
        var expected: [String] = []
        for line in code.components(separatedBy: "\n") where line.trimmingCharacters(in: .whitespaces).hasPrefix("print(") {
            guard let comment = line.range(of: "// ", options: .backwards) else { return nil }
            expected.append(String(line[comment.upperBound...]).trimmingCharacters(in: .whitespaces))
        }
        return expected.isEmpty ? nil : expected
    }

    /// Every snippet that prints runs (from the repository's root, where its paths lead) and prints
    /// what its comments say.
    @Test(arguments: runnableSnippets)
    func snippetPrintsWhatItSays(_ snippet: RunnableSnippet) async throws {
        #expect(FileManager.default.changeCurrentDirectoryPath(Repository.root.path))
        let printed = PrintedLines()
        try await PrintedLines.$current.withValue(printed) { try await snippet.run() }
        #expect(printed.lines == snippet.expected, "\(snippet.place)")
    }

    @Test func snippetsFileIsCurrent() throws {
        let url = Repository.url("Tests/DocSnippetTests/Snippets.swift")
        let expected = try Self.generate()
        if ProcessInfo.processInfo.environment["IMAGESNIFF_WRITE_SNIPPETS"] == "1" {
            try expected.write(to: url, atomically: true, encoding: .utf8)
            return
        }
        let committed = try String(contentsOf: url, encoding: .utf8)
        #expect(committed == expected, "Tests/DocSnippetTests/Snippets.swift is stale: make snippets")
        #expect(try Self.snippets().filter { $0.kind == .compile }.count >= 20)
        #expect(runnableSnippets.count >= 2)
    }

    /// Excerpts of the library's source are there, line for line (indentation aside).
    @Test func excerptsAreTheSource() throws {
        var source = ""
        let sources = Repository.url("Sources/ImageSniff")
        let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            if url.pathExtension == "swift" { source += try String(contentsOf: url, encoding: .utf8) + "\n" }
        }
        let normalized = "\n" + source.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.joined(separator: "\n") + "\n"
        let excerpts = try Self.snippets().filter { $0.kind == .excerpt }
        #expect(!excerpts.isEmpty)
        for e in excerpts {
            let lines = e.code.components(separatedBy: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(normalized.contains("\n" + lines.joined(separator: "\n") + "\n"), "\(e.file):\(e.line): the excerpt is not in Sources/ImageSniff any more")
        }
    }

    /// Package.swift lines name products the manifest declares, and this release.
    @Test func manifestLinesAreTheManifests() throws {
        let manifest = try Repository.text("Package.swift")
        let manifests = try Self.snippets().filter { $0.kind == .manifest }
        #expect(!manifests.isEmpty)
        for m in manifests {
            for match in m.code.matches(of: /\.product\(name: "([A-Za-z]+)", package: "ImageSniff"\)/) {
                #expect(manifest.contains(".library(name: \"\(match.1)\""), "\(m.file):\(m.line): no product \(match.1)")
            }
            for match in m.code.matches(of: /from: "([0-9.]+)"/) {
                #expect(String(match.1) == ImageSniffer.version, "\(m.file):\(m.line): from \(match.1), the release is \(ImageSniffer.version)")
            }
        }
    }
}

/// The README's and docs/'s relative links lead to files that exist, and their anchors to headings.
@Suite("Documentation links")
struct DocLinkTests {
    /// GitHub's anchor for a heading: lower case, spaces to hyphens, punctuation dropped.
    static func anchor(_ heading: String) -> String {
        String(heading.lowercased().compactMap { c -> Character? in
            if c == " " { return "-" }
            return c.isLetter || c.isNumber || c == "-" || c == "_" ? c : nil
        })
    }

    @Test func relativeLinksResolve() throws {
        let docs = try FileManager.default.contentsOfDirectory(atPath: Repository.url("docs").path).filter { $0.hasSuffix(".md") }.map { "docs/" + $0 }
        var checked = 0
        for file in ["README.md", "CONTRIBUTING.md"] + docs.sorted() {
            let text = try Repository.text(file)
            let base = URL(fileURLWithPath: file).deletingLastPathComponent().relativePath
            for match in text.matches(of: /\]\(([^)\s]+)\)/) {
                let target = String(match.1)
                if target.hasPrefix("http") || target.hasPrefix("mailto:") { continue }
                let parts = target.split(separator: "#", maxSplits: 1, omittingEmptySubsequences: false)
                let path = String(parts[0])
                let resolved = path.isEmpty ? file : (base == "." ? path : base + "/" + path)
                let url = Repository.url(resolved).standardized
                #expect(FileManager.default.fileExists(atPath: url.path), "\(file): \(target) leads nowhere")
                if parts.count == 2, resolved.hasSuffix(".md"), let linked = try? String(contentsOf: url, encoding: .utf8) {
                    let anchors = linked.components(separatedBy: "\n").filter { $0.hasPrefix("#") }
                        .map { Self.anchor($0.drop { $0 == "#" }.trimmingCharacters(in: .whitespaces)) }
                    #expect(anchors.contains(String(parts[1])), "\(file): \(target): no such heading")
                }
                checked += 1
            }
        }
        #expect(checked > 10)
    }
}
