import Testing
@testable import IMGSniffKit
@testable import ImageSniffScan

@Suite("JSON, base64, paths, tables")
struct TextTests {
    @Test func jsonRoundTrip() throws {
        let text = #"{"a":[1,-2.5e3,true,false,null],"b":"q\"\\\/\b\f\n\r\t\u00e9\ud83d\ude00","c":{}}"#
        let value = try JSONParser.parse(Array(text.utf8))
        #expect(value["a"]?.array?.count == 5)
        #expect(value["b"]?.string == "q\"\\/\u{8}\u{C}\n\r\té😀")
        var out: [UInt8] = []
        JSON.appendString(value["b"]!.string!, to: &out)
        #expect(try JSONParser.parse(out).string == value["b"]?.string)
        #expect(value["a"]?.array?.first?.uint64 == 1)
        #expect(try JSONParser.parse(Array("18446744073709551615".utf8)).uint64 == UInt64.max)
        for bad in ["{", "[1,]", "{\"a\" 1}", "\"\\ud800\"", "01x", "{\"a\":1} x", String(repeating: "[", count: 100)] {
            #expect(throws: JSONParser.Failure.self) { try JSONParser.parse(Array(bad.utf8)) }
        }
    }

    @Test func base64RoundTrip() {
        for n in 0..<20 {
            let bytes = (0..<n).map { UInt8(truncatingIfNeeded: $0 * 37 + 250) }
            #expect(Base64.decode(Base64.encodeToString(bytes)) == bytes)
        }
        #expect(Base64.encodeToString(Array("foobar".utf8)) == "Zm9vYmFy")
        #expect(Base64.decode("Zm9v!") == nil)
    }

    @Test func pathDisplayIsLossless() {
        #expect(Path.display(Array("plain/é".utf8)) == "plain/é")
        #expect(Path.display(Array("bad-".utf8) + [0xFF, 0xFE] + Array("%name".utf8)) == "bad-%FF%FE%25name")
        #expect(Path.fileExtension(Array("a/b.JPG".utf8)) == "JPG")
        #expect(Path.fileExtension(Array(".hidden".utf8)) == nil)
        #expect(Path.split(Array("/a".utf8)) == (Array("/".utf8), Array("a".utf8)))
    }

    /// The array's one-pass `fileExtension` against the generic one (on a slice), over every path
    /// of up to 5 bytes made of slashes, dots, letters and bytes past 0x7F (some not UTF-8): the
    /// same paths every run (a random sample of them named too few now and then).
    @Test func fileExtensionOfArraysAgreesWithTheGenericOne() {
        let alphabet: [UInt8] = [UInt8(ascii: "/"), UInt8(ascii: "."), UInt8(ascii: "a"), UInt8(ascii: "B"), 0xC3, 0xA9, 0xFF]
        var named = 0
        var paths: [[UInt8]] = [[]]
        var last: [[UInt8]] = [[]]
        for _ in 1...5 {
            last = last.flatMap { path in alphabet.map { path + [$0] } }
            paths += last
        }
        for path in paths {
            let fast = Path.fileExtension(path)
            #expect(fast == Path.fileExtension(path[...]), "\(path)")
            if fast != nil { named += 1 }
        }
        #expect(paths.count == 19_608 && named > 100, "\(named) of \(paths.count) named")
        for (path, ext) in [("x.tar.gz", "gz"), ("..", nil), ("/.x", nil), ("a/b.", nil), ("d.d/f", nil), ("d/", nil), ("é.é", "é")] as [(String, String?)] {
            #expect(Path.fileExtension(Array(path.utf8)) == ext, "\(path)")
        }
    }

    @Test func tableFitsTheWidth() {
        var table = TextTable(header: ["PATH", "TYPE"], flexibleColumn: 0)
        table.append([String(repeating: "p", count: 100), "PNG image"])
        let lines = table.render(width: 40).split(separator: "\n")
        #expect(lines.allSatisfy { $0.count <= 40 })
        #expect(lines[1].contains("…"))
        #expect(TextTable.truncatingMiddle("abcdefghij", to: 5) == "ab…ij")
    }

    /// Wide characters (CJK, kana, Hangul, emoji) take two terminal columns: the columns after a
    /// Japanese or Chinese name line up with those after a Latin one, and a cut name fits.
    @Test func wideCharactersTakeTwoColumns() {
        #expect(TextTable.columns("写真.jpg") == 8)
        #expect(TextTable.columns("사진") == 4)
        #expect(TextTable.columns("café") == 4 && TextTable.columns("cafe\u{301}") == 4, "a combining mark adds none")
        #expect(TextTable.columns("🙂") == 2 && TextTable.columns("❤️") == 2)
        #expect(TextTable.columns("🇯🇵") == 2, "a flag: a pair of regional indicators")
        var table = TextTable(header: ["PATH", "TYPE"], flexibleColumn: 0)
        for name in ["photo.jpg", "写真の名前.jpg", "사진.png", "📷.gif"] { table.append([name, "image"]) }
        let lines = table.render().split(separator: "\n").map(String.init)
        let typeColumn = lines.map { line in TextTable.columns(String(line[..<line.range(of: "  ", options: .backwards)!.lowerBound])) }
        #expect(Set(typeColumn).count == 1, "\(lines)")
        let cut = TextTable.truncatingMiddle("写真写真写真写真写真写真", to: 9)
        #expect(TextTable.columns(cut) <= 9 && cut.contains("…"), "\(cut)")
        var narrow = TextTable(header: ["PATH", "TYPE"], flexibleColumn: 0)
        narrow.append([String(repeating: "写", count: 60), "PNG image"])
        #expect(narrow.render(width: 40).split(separator: "\n").allSatisfy { TextTable.columns(String($0)) <= 40 })
    }

    /// Invisible characters that would make two names look alike are shown as `?`; joiners stay.
    @Test func zeroWidthCharactersAreShown() {
        #expect(Visible.text("photo\u{200B}.jpg") == "photo?.jpg")
        #expect(Visible.text("\u{FEFF}name") == "?name")
        #expect(Visible.text("👩\u{200D}💻") == "👩\u{200D}💻")
    }
}
