// File-system edge cases end to end (issue 8): each is reported, never fatal, never a hang.

import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

@Suite("imgsniff scan on hostile file systems")
struct HostileTreeTests {
    /// A Unix socket bound inside the tree is listed as not a regular file and never opened.
    @Test func socketInsideATreeAndGivenExplicitly() throws {
        let tree = try ScratchTree()
        try tree.file("ok.png", pngBytes)
        let socketPath = tree.root.appendingPathComponent("sock").path
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        #expect(fd >= 0)
        defer { close(fd) }
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (i, b) in socketPath.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)

        let walk = try IMGSniffBinary.run(["scan", "--format", "ndjson", "."], in: tree.root, timeout: 20)
        #expect(!walk.timedOut)
        let records = byPath(try parseNDJSON(walk))
        #expect(records["./sock"]?["description"] as? String == "socket", "\(records)")
        #expect(records["./ok.png"]?["uti"] as? String == "public.png")
        #expect(walk.status == 0, "a special file met inside a tree is not a failure")

        let named = try IMGSniffBinary.run(["scan", "--format", "ndjson", "sock"], in: tree.root, timeout: 20)
        #expect(!named.timedOut)
        #expect(named.status == 2, "a special file named explicitly could not be read")
    }

    /// Device nodes named explicitly: reported, not read (reading /dev/zero would never end).
    @Test func deviceNodesGivenExplicitly() throws {
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "/dev/zero", "/dev/null", "/dev/urandom"], timeout: 20)
        #expect(!r.timedOut)
        #expect(r.status == 2)
        let records = try parseNDJSON(r)
        #expect(records.count == 3)
        for record in records {
            #expect(record["description"] as? String == "character special", "\(record)")
        }
    }

    /// `/dev/stdin` from a terminal (here: a pseudo-terminal): a character device, not read.
    @Test func devStdinFromATerminal() throws {
        var master: Int32 = -1, slave: Int32 = -1
        try #require(openpty(&master, &slave, nil, nil, nil) == 0)
        defer { close(master) }
        let slaveName = String(cString: ttyname(slave))
        close(slave)
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "/dev/stdin"], stdin: URL(fileURLWithPath: slaveName), timeout: 20)
        #expect(!r.timedOut, "reading a terminal must not wait for input")
        let records = try parseNDJSON(r)
        #expect(records.count == 1)
        #expect(records.first?["error"] is [String: Any], "\(records)")
    }

    /// A path in --files-from that is gone by the time it is read, and one truncated to nothing.
    @Test func filesThatVanishOrShrinkAfterListing() throws {
        let tree = try ScratchTree()
        try tree.file("kept.png", pngBytes)
        try tree.file("shrunk", pngBytes)
        let list = tree.root.appendingPathComponent("list")
        try Data("kept.png\nvanished.png\nshrunk\n".utf8).write(to: list)
        // Truncate after listing (the list was written before).
        try Data().write(to: tree.root.appendingPathComponent("shrunk"))
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "--files-from", "list"], in: tree.root, timeout: 20)
        #expect(!r.timedOut)
        let records = byPath(try parseNDJSON(r))
        #expect(records["kept.png"]?["uti"] as? String == "public.png")
        #expect(records["vanished.png"]?["error"] is [String: Any] || r.stderr.contains("vanished.png"), "\(records) \(r.stderr)")
        #expect(records["shrunk"]?["uti"] as? String == "public.data")
        #expect(records["shrunk"]?["description"] as? String == "empty")
        #expect(r.status != 0)
    }

    /// A directory of 100,000 entries: every one gets a record, in order, without running out of anything.
    @Test func aDirectoryOfOneHundredThousandEntries() throws {
        let tree = try ScratchTree()
        let dir = tree.root.appendingPathComponent("many")
        try FileManager.default.createDirectory(at: dir, withIntermediateDirectories: true)
        for i in 0..<100_000 {
            let fd = open(dir.appendingPathComponent(String(format: "%06d", i)).path, O_CREAT | O_WRONLY, 0o644)
            if i % 1000 == 0 { _ = pngBytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) } }
            close(fd)
        }
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "many"], in: tree.root, timeout: 120)
        #expect(!r.timedOut)
        #expect(r.status == 0)
        let lines = r.lines
        #expect(lines.count == 100_000)
        #expect(lines.first?.contains("many/000000") == true)
        #expect(lines.last?.contains("many/099999") == true)
        #expect(lines.filter { $0.contains("public.png") }.count == 100)
    }

    /// A path longer than PATH_MAX (4096) is reached through directory-relative access.
    @Test func aPathLongerThanPathMax() throws {
        let tree = try ScratchTree()
        let component = String(repeating: "d", count: 200)
        try Trees.chain(in: tree.root, component: component, levels: 25, leaf: "deep.png", bytes: pngBytes)
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "."], in: tree.root, timeout: 30)
        #expect(!r.timedOut)
        let records = try parseNDJSON(r)
        let deep = records.first { ($0["path"] as? String)?.hasSuffix("/deep.png") == true }
        #expect(((deep?["path"] as? String)?.utf8.count ?? 0) > 4096)
        #expect(deep?["uti"] as? String == "public.png", "\(String(describing: deep))")
        // Clean up the deep chain (FileManager cannot remove paths this long in one call).
        Trees.removeDeep(tree.root.path)
    }

    /// Names with newlines, tabs and quotes survive NDJSON and CSV.
    @Test func namesWithNewlinesAndQuotes() throws {
        let tree = try ScratchTree()
        try tree.file("line\nbreak.png", pngBytes)
        try tree.file("tab\tand \"quotes\".png", pngBytes)
        let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", "."], in: tree.root, timeout: 20)
        let records = byPath(try parseNDJSON(r))
        #expect(records["./line\nbreak.png"]?["uti"] as? String == "public.png", "\(records.keys)")
        #expect(records["./tab\tand \"quotes\".png"]?["uti"] as? String == "public.png")
        let csv = try IMGSniffBinary.run(["scan", "--format", "csv", "."], in: tree.root, timeout: 20)
        let rows = try parseCSV(csv.text)
        #expect(rows.contains { $0.first == "./line\nbreak.png" })
    }
}

