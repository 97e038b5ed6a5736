import Foundation
import Testing
#if canImport(Glibc)
import Glibc
#endif

/// `imgsniff scan -` on pipes: read as the bytes come, only until the answer is decided.
@Suite("imgsniff scan - (standard input as a stream)")
struct StreamingCLITests {
    /// Runs `imgsniff ARGS` at the end of a shell pipeline: `script` is the pipeline with
    /// `"$@"` standing for the command.
    private func pipeline(_ script: String, _ arguments: [String] = ["scan", "-"], timeout: Double = 30) throws -> RunResult {
        try IMGSniffBinary.run(arguments, in: Repository.testImages, launcher: ["bash", "-c", script, "bash"],
                               timeout: timeout)
    }

    @Test("an endless text stream is answered (yes | imgsniff scan -)")
    func endlessText() throws {
        let r = try pipeline(#"yes | "$@""#, timeout: 20)
        #expect(!r.timedOut, "imgsniff read an endless stream to its end")
        let record = try #require(try parseNDJSON(r).first)
        #expect(record["uti"] as? String == "public.plain-text")
        #expect(record["path"] as? String == "-")
    }

    /// Ctrl-C while standard input is an idle pipe stops the scan at once (the read is not
    /// restarted after the signal), with status 130, as `cat` would stop.
    @Test("Ctrl-C on an idle pipe ends the scan at once")
    func interruptOnIdlePipe() throws {
        // Standard input: a FIFO the test holds open for writing and never writes to.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-idle-\(UUID().uuidString)")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let writer = open(fifo.path, O_RDWR)
        #expect(writer >= 0)
        defer { close(writer) }
        let running = try IMGSniffBinary.start(["scan", "-"], stdin: fifo)
        usleep(500_000)
        kill(running.process.processIdentifier, SIGINT)
        let r = try running.finish(timeout: 20)
        #expect(!r.timedOut, "the read waited for the pipe after Ctrl-C")
        #expect(r.status == 130, "\(r.stderr)")
        // The signal stopped the read: that says nothing about the stream, so no record (it
        // gave one with the error EINTR, a row that readers of the output took for a file's).
        #expect(try parseNDJSON(r).isEmpty, "\(r.stdout)")
    }

    /// SIGTERM (what `timeout` and service managers send) stops a read in progress as Ctrl-C
    /// does: `--verify` walks all of a JPEG without its end marker, here a terabyte of holes, and
    /// an endless stream through `--verify -` is read until it ends. A stranger's report: the
    /// first SIGTERM waited for the file to be finished, and `yes | timeout 10 imgsniff scan
    /// --verify -` never ended.
    @Test("SIGTERM stops a long read at once", arguments: ["file", "stream"])
    func terminateALongRead(source: String) throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-term-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let running: IMGSniffBinary.Running
        if source == "file" {
            let jpeg = try Data(contentsOf: Repository.testImages.appendingPathComponent("jpeg/baseline"))
            #expect(jpeg.suffix(2) == Data([0xFF, 0xD9]))
            let file = directory.appendingPathComponent("cut.jpg")
            try jpeg.dropLast(2).write(to: file)
            #expect(truncate(file.path, 1 << 40) == 0, "a sparse terabyte")
            running = try IMGSniffBinary.start(["scan", "--verify", file.path])
        } else {
            running = try IMGSniffBinary.start(["scan", "--verify", "-"], launcher: ["bash", "-c", #"exec "$@" < <(yes)"#, "bash"])
        }
        usleep(700_000)
        let sent = Date()
        kill(running.process.processIdentifier, SIGTERM)
        let r = try running.finish(timeout: 30)
        #expect(!r.timedOut, "SIGTERM did not stop the read")
        #expect(Date().timeIntervalSince(sent) < 10)
        #expect(r.status == 143, "\(r.stderr)")
        #expect(try parseNDJSON(r).isEmpty, "a record for a read the signal stopped: \(r.stdout)")
    }

    /// Ctrl-C while standard output is a pipe nobody reads (`imgsniff scan | less`, less ignoring
    /// the signal) stops the scan at once with status 130, not when the reader goes away.
    @Test("Ctrl-C with a full output pipe ends the scan at once")
    func interruptOnFullOutputPipe() throws {
        // Standard output: a FIFO the test holds open and never reads, so writes block once its
        // buffer (64 KiB) is full; TestImages with properties is more than that.
        let fifo = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-full-\(UUID().uuidString)")
        #expect(mkfifo(fifo.path, 0o600) == 0)
        defer { try? FileManager.default.removeItem(at: fifo) }
        let reader = open(fifo.path, O_RDWR)
        #expect(reader >= 0)
        defer { close(reader) }
        let running = try IMGSniffBinary.start(["scan", "--format", "ndjson", "--properties", "--jobs", "1", Repository.testImages.path], stdout: fifo)
        usleep(1_500_000)
        kill(running.process.processIdentifier, SIGINT)
        let r = try running.finish(timeout: 20, readOutput: false)
        #expect(!r.timedOut, "the write waited for the reader after Ctrl-C")
        #expect(r.status == 130, "\(r.stderr)")
    }

    @Test("a PNG signature followed by endless noise is answered without reading on")
    func signatureThenEndlessNoise() throws {
        let r = try pipeline(#"{ head -c 64 png/alpha; cat /dev/urandom; } | "$@""#, timeout: 20)
        #expect(!r.timedOut)
        let record = try #require(try parseNDJSON(r).first)
        #expect(record["uti"] as? String == "public.png")
    }

    /// An answer that waits for the end of the data is read on to it: a TGA without a footer is
    /// named by its length, so a 720 KB one piped was data (and had no size); piped, it is what
    /// the file is, with its properties. A stream that never ends is still answered.
    @Test func pipeReadToItsEndWhenTheAnswerWaitsForIt() throws {
        var tga = [UInt8](repeating: 0, count: 18)
        tga[2] = 2  // uncompressed true colour, no colour map, 600 x 400, 24 bits
        tga[12] = UInt8(600 & 0xFF); tga[13] = UInt8(600 >> 8); tga[14] = UInt8(400 & 0xFF); tga[15] = UInt8(400 >> 8); tga[16] = 24
        tga += (0..<600 * 400 * 3).map { UInt8(truncatingIfNeeded: $0 * 7) }
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-tga-\(UUID().uuidString)")
        try Data(tga).write(to: url)
        defer { try? FileManager.default.removeItem(at: url) }
        let direct = try #require(try parseNDJSON(IMGSniffBinary.run(["scan", "--properties", "--format", "ndjson", url.path],
                                                                     in: Repository.testImages)).first)
        #expect(direct["uti"] as? String == "com.truevision.tga-image")
        let r = try pipeline(#"cat "$0" | "$@""#.replacingOccurrences(of: "$0", with: url.path), ["scan", "--properties", "-"])
        let piped = try #require(try parseNDJSON(r).first)
        for field in ["uti", "confidence", "completeness"] {
            #expect("\(piped[field] ?? "nil")" == "\(direct[field] ?? "nil")", "\(field)")
        }
        let width = (piped["properties"] as? [String: Any])?["width"] as? Int
        #expect(width == 600)
        let endless = try pipeline(#"{ head -c 18 "$0"; cat /dev/zero; } | "$@""#.replacingOccurrences(of: "$0", with: url.path), timeout: 60)
        #expect(!endless.timedOut)
        #expect(try parseNDJSON(endless).count == 1)
    }

    /// Every test image through a pipe in 7-byte writes gives what the file gives.
    @Test("cat FILE | imgsniff scan - equals imgsniff scan FILE for every test image")
    func pipeEqualsFile() throws {
        let files = Manifest.entries.map(\.file)
        #expect(files.count > 300)
        let direct = try IMGSniffBinary.run(["scan", "--format", "ndjson"] + files, in: Repository.testImages)
        let byFile = byPath(try parseNDJSON(direct))
        let script = #"bin="$1"; for f in $(cat); do dd if="$f" bs=7 status=none | "$bin" scan - || true; done"#
        let listURL = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-list-\(UUID().uuidString)")
        try files.joined(separator: "\n").write(to: listURL, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: listURL) }
        let piped = try IMGSniffBinary.run(["scan", "-"], in: Repository.testImages, stdin: listURL,
                                           launcher: ["bash", "-c", script, "bash"], timeout: 300)
        let records = try parseNDJSON(piped)
        #expect(records.count == files.count)
        for (file, record) in zip(files, records) {
            let expected = try #require(byFile[file], "\(file) missing from the direct scan")
            for field in ["uti", "confidence", "animated", "completeness"] {
                #expect("\(record[field] ?? "nil")" == "\(expected[field] ?? "nil")", "\(file): \(field)")
            }
        }
    }
}
