import Foundation
import Testing
import TestSupport
#if canImport(Glibc)
import Glibc
#endif

/// Every path printed carries the answer `imgsniff scan PATH` gives for that path alone, and the
/// paths are the ones the walk should visit, in its order: for random operand lists (missing,
/// FIFO, socket, links, files, directories, duplicates, a proc mount inside the tree when the
/// test runs as root) and every output mode, with 1, 2 and 16 jobs.
@Suite("Every record on its own file", .serialized)
struct AttributionTests {
    /// One path's answer, as a scan of it alone gives it.
    struct Answer: Equatable {
        var uti: String?
        var error: String?
        var isImage: Bool
        var extensionMatches: Bool?
        /// Whether the file was read (not a FIFO, device, failure).
        var read: Bool { uti != nil }
    }

    final class Fixture: @unchecked Sendable {
        let tree: ScratchTree
        let root: String
        /// Whether a proc file system is mounted at `proc/` inside the tree for each run.
        let procMounted: Bool
        var singles: [String: Answer] = [:]

        init() throws {
            tree = try ScratchTree()
            root = tree.root.path
            try tree.file("d1/a", Samples.png)
            try tree.file("d1/b.png", Samples.jpeg)  // an extension that lies
            try tree.file("d1/c", Samples.gif)
            try tree.file("d1/notes", Array("plain words, nothing more\n".utf8))
            try tree.file("d1/page", Array("<!DOCTYPE html><html><body>x</body></html>\n".utf8))
            try tree.file("d1/empty", [])
            try tree.file("d1/.hidden.png", Samples.png)
            try tree.file("d1/sub/h", Samples.heic)
            try tree.file("d1/sub/t", Samples.tiffFamily)
            try tree.file("d2/noise", Samples.noise)
            try tree.file("d2/x/y/z.jpg", Samples.jpeg)
            try tree.file("f.png", Samples.png)
            try tree.file("t.txt", Array("hello\n".utf8))
            try tree.fifo("d1/pipe")
            try tree.symlink("d1/link", to: "a")
            try tree.symlink("d1/dangling", to: "nowhere")
            try FileManager.default.createDirectory(atPath: root + "/d2/proc", withIntermediateDirectories: true)
            try FileManager.default.createDirectory(atPath: root + "/proc", withIntermediateDirectories: true)
            try Self.makeSocket(root + "/d2/sock")
            procMounted = geteuid() == 0 && Self.canUnshare()
        }

        static func makeSocket(_ path: String) throws {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            guard fd >= 0 else { throw CLIError("socket: \(errno)") }
            defer { close(fd) }
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (i, b) in path.utf8.prefix(raw.count - 1).enumerated() { raw[i] = b }
            }
            let ok = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            guard ok == 0 else { throw CLIError("bind: \(errno)") }
        }

        static func canUnshare() -> Bool {
            guard FileManager.default.isExecutableFile(atPath: "/usr/bin/unshare") else { return false }
            let p = Process()
            p.executableURL = URL(fileURLWithPath: "/usr/bin/unshare")
            p.arguments = ["-m", "true"]
            p.standardError = FileHandle.nullDevice
            guard (try? p.run()) != nil else { return false }
            p.waitUntilExit()
            return p.terminationStatus == 0
        }

        /// Runs the scan, in a private mount namespace with proc mounted inside the tree when root.
        func scan(_ arguments: [String]) throws -> RunResult {
            let launcher = procMounted
                ? ["unshare", "-m", "sh", "-c", "mount -t proc proc \"$IMGSNIFF_TEST_ROOT/d2/proc\" && mount -t proc proc \"$IMGSNIFF_TEST_ROOT/proc\" && exec \"$@\"", "sh"]
                : []
            return try IMGSniffBinary.run(["scan"] + arguments, in: tree.root,
                                          environment: ["IMGSNIFF_TEST_ROOT": root, "COLUMNS": "400"], unsetting: ["NO_COLOR"],
                                          launcher: launcher)
        }

        /// The answer for one path alone (outside any namespace: the paths compared never lie in proc).
        func single(_ path: String) throws -> Answer {
            if let known = singles[path] { return known }
            let r = try IMGSniffBinary.run(["scan", "--format", "ndjson", path], in: tree.root)
            let record = try #require(try parseNDJSON(r).first, "no record for \(path) alone")
            let answer = Answer(uti: record["uti"] as? String, error: (record["error"] as? [String: Any])?["code"] as? String,
                                isImage: record["isImage"] as? Bool ?? false, extensionMatches: record["extensionMatches"] as? Bool)
            singles[path] = answer
            return answer
        }

        /// The paths the walk should yield for `operands`, in order (a reference walk: names sorted
        /// bytewise, hidden names and links inside directories skipped, proc mounts not entered).
        func expectedPaths(_ operands: [String]) -> [String] {
            var out: [String] = []
            func walk(_ dir: String) {
                let full = root + "/" + dir
                if dir.hasSuffix("proc") { return }  // a mount point (or, without root, an empty directory)
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: full)) ?? [])
                    .filter { !$0.hasPrefix(".") }
                    .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
                for name in names {
                    let path = dir + "/" + name
                    var st = stat()
                    guard lstat(root + "/" + path, &st) == 0 else { continue }
                    switch st.st_mode & S_IFMT {
                    case S_IFLNK: continue
                    case S_IFDIR: walk(path)
                    default: out.append(path)
                    }
                }
            }
            for operand in operands {
                var st = stat()
                if stat(root + "/" + operand, &st) == 0, st.st_mode & S_IFMT == S_IFDIR {
                    walk(operand)
                } else {
                    out.append(operand)
                }
            }
            return out
        }
    }

    static let pool = ["d1", "d2", "f.png", "t.txt", "missing", "d1/pipe", "d2/sock", "d1/link", "d1/dangling", "d1/sub",
                       "d1/a", "proc", "d2/x", "also-missing"]

    /// Operand lists from a fixed seed: each 1 to 6 operands, duplicates allowed.
    static func operandLists(count: Int) -> [[String]] {
        var state: UInt64 = 0x2545_F491_4F6C_DD1D
        func next(_ n: Int) -> Int {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return Int(state >> 33) % n
        }
        // The issue's reproduction first: a missing operand before a directory.
        var lists = [["missing", "d1"], ["proc", "d1", "d2"]]
        while lists.count < count { lists.append((0...next(6)).map { _ in pool[next(pool.count)] }) }
        return lists
    }

    @Test(arguments: [1, 2, 16])
    func everyModeMatchesTheFileAlone(jobs: Int) throws {
        let f = try Fixture()
        for operands in Self.operandLists(count: 8) {
            let expected = f.expectedPaths(operands)
            let answers = try expected.map { try f.single($0) }
            let context = "operands \(operands), --jobs \(jobs)"
            let j = ["--jobs", String(jobs)]

            // NDJSON and JSON: every record, in order, each the file's own answer.
            for format in ["ndjson", "json"] {
                let r = try f.scan(j + ["--format", format] + operands)
                let records: [[String: Any]] = format == "json"
                    ? try #require(try JSONSerialization.jsonObject(with: r.stdout) as? [[String: Any]], "\(context)")
                    : try parseNDJSON(r)
                #expect(records.map { $0["path"] as? String ?? "" } == expected, "\(format) \(context)")
                for (record, answer) in zip(records, answers) {
                    #expect(record["uti"] as? String == answer.uti, "\(format) \(record["path"] ?? "") \(context)")
                    #expect((record["error"] as? [String: Any])?["code"] as? String == answer.error, "\(format) \(context)")
                }
                let anyError = answers.contains { $0.error != nil && $0.error != "notRegular" }
                    || operands.contains { ["d1/pipe", "d2/sock"].contains($0) }
                #expect(r.status == (anyError ? 2 : expected.isEmpty ? 1 : 0), "\(format) exit status \(context): \(r.stderr)")
            }

            // CSV: the path and uti columns.
            let csv = try parseCSV(String(decoding: try f.scan(j + ["--format", "csv"] + operands).stdout, as: UTF8.self))
            #expect(csv.dropFirst().map { $0[0] } == expected, "csv \(context)")
            for (row, answer) in zip(csv.dropFirst(), answers) { #expect((row[1].isEmpty ? nil : row[1]) == answer.uti, "csv \(row[0])") }

            // The table: each row's identifier column, cut at the header's column offsets.
            let table = try f.scan(j + ["--format", "table", "--no-summary", "--color", "never"] + operands)
            let lines = table.lines
            if let header = lines.first {
                let start = try #require(header.range(of: "IDENTIFIER")).lowerBound
                let end = try #require(header.range(of: "EXT")).lowerBound
                let rows = Array(lines.dropFirst())
                #expect(rows.map { String($0.split(separator: " ").first ?? "") } == expected, "table \(context)")
                for (row, answer) in zip(rows, answers) {
                    let cell = row.count > header.distance(from: header.startIndex, to: start)
                        ? String(row[row.index(row.startIndex, offsetBy: header.distance(from: header.startIndex, to: start))..<row.index(row.startIndex, offsetBy: min(row.count, header.distance(from: header.startIndex, to: end)))]).trimmingCharacters(in: .whitespaces)
                        : ""
                    #expect(cell == (answer.uti ?? "-"), "table \(row) \(context)")
                }
            } else {
                #expect(expected.isEmpty, "table \(context)")
            }

            // --print0 --only-images: exactly the images that were read.
            let print0 = try f.scan(j + ["--print0", "--only-images"] + operands)
            let listed = print0.stdout.split(separator: 0).map { String(decoding: $0, as: UTF8.self) }
            #expect(listed == zip(expected, answers).filter { $0.1.isImage && $0.1.read }.map(\.0), "print0 \(context)")

            // --type: one type.
            let pngs = try parseNDJSON(try f.scan(j + ["--format", "ndjson", "--type", "public.png"] + operands))
            #expect(pngs.map { $0["path"] as? String ?? "" } == zip(expected, answers).filter { $0.1.uti == "public.png" }.map(\.0),
                    "--type \(context)")

            // --mismatches: the extensions that lie.
            let lies = try parseNDJSON(try f.scan(j + ["--format", "ndjson", "--mismatches"] + operands))
            #expect(lies.map { $0["path"] as? String ?? "" } == zip(expected, answers).filter { $0.1.extensionMatches == false }.map(\.0),
                    "--mismatches \(context)")

            // --summary: the counts of exactly these answers.
            let summary = try #require(try JSONSerialization.jsonObject(with: try f.scan(j + ["--summary", "--format", "json"] + operands).stdout)
                                        as? [String: Any], "\(context)")
            #expect(summary["listed"] as? Int == expected.count, "--summary \(context)")
            var perType: [String: Int] = [:]
            for a in answers { if let uti = a.uti, uti != "public.data" { perType[uti, default: 0] += 1 } }
            #expect((summary["types"] as? [String: Int]) == perType, "--summary types \(context)")

            // --quiet: the status says whether an image was found.
            let quiet = try f.scan(j + ["--quiet", "--only-images"] + operands)
            #expect(quiet.stdout.isEmpty)
            let found = answers.contains { $0.isImage && $0.read }
            #expect(found ? quiet.status == 0 : quiet.status != 0, "--quiet \(context)")
        }
    }

    /// libmagic's column is beside the right file too (slow: a few lists, two jobs).
    @Test func crossCheckStaysOnItsFile() throws {
        let f = try Fixture()
        for operands in Self.operandLists(count: 3) {
            let expected = f.expectedPaths(operands)
            let records = try parseNDJSON(try f.scan(["--jobs", "2", "--format", "ndjson", "--cross-check"] + operands))
            #expect(records.map { $0["path"] as? String ?? "" } == expected)
            for (record, path) in zip(records, expected) { #expect(record["uti"] as? String == (try f.single(path)).uti) }
        }
    }

    /// `imgsniff scan /` (as deep as a test can afford: proc, sys and dev are in reach) ends
    /// without a trap on a terminal (through script(1)) and in a pipe, with the documented status.
    @Test func scanOfTheRootOnATerminalAndInAPipe() throws {
        guard FileManager.default.isExecutableFile(atPath: "/usr/bin/script"), let binary = IMGSniffBinary.url else { return }
        let command = "\(binary.path) scan --max-depth 2 /"
        let terminal = try IMGSniffBinary.run(["-qec", command, "/dev/null"], environment: ["COLUMNS": "200"],
                                              program: URL(fileURLWithPath: "/usr/bin/script"), timeout: 120)
        #expect(!terminal.timedOut)
        #expect([0, 2].contains(terminal.status), "status \(terminal.status): \(terminal.stderr)")
        #expect(!terminal.text.contains("Fatal error") && !terminal.text.contains("Crash"))
        #expect(terminal.text.contains(" files"), "the table's summary")
        let pipe = try IMGSniffBinary.run(["scan", "--max-depth", "2", "/"], timeout: 120)
        #expect([0, 2].contains(pipe.status), "status \(pipe.status): \(pipe.stderr)")
        #expect(!pipe.stderr.contains("Fatal error"))
        let records = try parseNDJSON(pipe)
        #expect(records.count > 10)
        #expect(!records.contains { ($0["path"] as? String)?.hasPrefix("/proc/") == true }, "proc is not entered")
    }
}
