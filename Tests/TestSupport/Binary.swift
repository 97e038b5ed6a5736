// Running the built `imgsniff` (and the examples) the way a user does.

import Foundation
#if canImport(Glibc)
import Glibc
#endif

public struct RunResult: Sendable {
    public let status: Int32
    public let stdout: Data
    public let stderr: String
    public let timedOut: Bool
    public init(status: Int32, stdout: Data, stderr: String, timedOut: Bool) {
        self.status = status; self.stdout = stdout; self.stderr = stderr; self.timedOut = timedOut
    }
    public var text: String { String(decoding: stdout, as: UTF8.self) }
    public var lines: [String] { text.split(separator: "\n").map(String.init) }
}

public enum IMGSniffBinary {
    /// The built `imgsniff`: `IMGSNIFF_BINARY` if set, else next to the test bundle (the products
    /// directory), else the newest `.build*/*/imgsniff` under the package root.
    public static let url: URL? = {
        let fm = FileManager.default
        func ok(_ u: URL) -> Bool { fm.isExecutableFile(atPath: u.path) }
        if let env = ProcessInfo.processInfo.environment["IMGSNIFF_BINARY"] { return URL(fileURLWithPath: env) }
        var candidates: [URL] = []
        let bundle = Bundle.main.bundleURL
        candidates += [bundle.appendingPathComponent("imgsniff"), bundle.deletingLastPathComponent().appendingPathComponent("imgsniff")]
        let exe = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var dir = exe.deletingLastPathComponent()
        for _ in 0..<4 {
            candidates.append(dir.appendingPathComponent("imgsniff"))
            dir = dir.deletingLastPathComponent()
        }
        if let found = candidates.first(where: ok) { return found }
        let root = Repository.root
        var best: (URL, Date)?
        for build in (try? fm.contentsOfDirectory(atPath: root.path)) ?? [] where build.hasPrefix(".build") {
            for sub in ["debug", "release"] {
                let u = root.appendingPathComponent(build).appendingPathComponent(sub).appendingPathComponent("imgsniff")
                guard ok(u), let date = (try? fm.attributesOfItem(atPath: u.path))?[.modificationDate] as? Date else { continue }
                if best == nil || date > best!.1 { best = (u, date) }
            }
        }
        return best?.0
    }()

    /// The program `name` built beside `imgsniff` (an example, say).
    public static func sibling(_ name: String) throws -> URL {
        var directories = [Bundle.main.bundleURL, Bundle.main.bundleURL.deletingLastPathComponent(),
                           URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()]
        if let url { directories.append(url.deletingLastPathComponent()) }
        for directory in directories {
            let candidate = directory.appendingPathComponent(name)
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CLIError("\(name) not found in \(directories.map(\.path)): build the package (swift build)")
    }

    /// A running `imgsniff`, for tests that signal it.
    public final class Running {
        public let process: Process
        let scratch: URL
        let outURL: URL
        let errURL: URL

        init(process: Process, scratch: URL, outURL: URL, errURL: URL) {
            self.process = process
            self.scratch = scratch
            self.outURL = outURL
            self.errURL = errURL
        }

        /// Waits (at most `timeout` seconds, then kills it) and collects the output; with
        /// `readOutput` false, standard output is not read back (a FIFO the test holds open).
        public func finish(timeout: Double = 60, readOutput: Bool = true) throws -> RunResult {
            let deadline = Date().addingTimeInterval(timeout)
            var timedOut = false
            while process.isRunning {
                if Date() > deadline {
                    timedOut = true
                    kill(process.processIdentifier, SIGKILL)
                    process.waitUntilExit()
                    break
                }
                usleep(2000)
            }
            process.waitUntilExit()
            defer { try? FileManager.default.removeItem(at: scratch) }
            return RunResult(status: process.terminationStatus, stdout: readOutput ? (try? Data(contentsOf: outURL)) ?? Data() : Data(),
                             stderr: String(decoding: (try? Data(contentsOf: errURL)) ?? Data(), as: UTF8.self), timedOut: timedOut)
        }
    }

    /// Starts `imgsniff` (or `program`) with `arguments` in `directory`; standard input from
    /// `stdin` (a file) or /dev/null; standard output to `stdout` when given (e.g. /dev/full),
    /// else collected. `launcher` runs it through another program (`["prlimit", "--nproc=1"]`).
    public static func start(_ arguments: [String], in directory: URL? = nil, stdin: URL? = nil, stdout: URL? = nil,
                             environment: [String: String] = [:], unsetting: [String] = [], launcher: [String] = [],
                             program: URL? = nil) throws -> Running {
        guard let binary = program ?? url else { throw CLIError("imgsniff binary not found (set IMGSNIFF_BINARY)") }
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
        let outURL = stdout ?? scratch.appendingPathComponent("out"), errURL = scratch.appendingPathComponent("err")
        if stdout == nil { try Data().write(to: outURL) }
        try Data().write(to: errURL)
        let process = Process()
        if launcher.isEmpty {
            process.executableURL = binary
            process.arguments = arguments
        } else {
            process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            process.arguments = launcher + [binary.path] + arguments
        }
        if let directory { process.currentDirectoryURL = directory }
        var env = ProcessInfo.processInfo.environment
        // Never the user's journals or journal key: one state directory for the test process, so
        // that an undo run finds the key the apply run signed with.
        env["XDG_STATE_HOME"] = IMGSniffBinary.stateHome.path
        for k in unsetting { env[k] = nil }  // (swift test sets NO_COLOR=1 for its children)
        for (k, v) in environment { env[k] = v }
        process.environment = env
        process.standardOutput = try FileHandle(forWritingTo: outURL)
        process.standardError = try FileHandle(forWritingTo: errURL)
        process.standardInput = try stdin.map { try FileHandle(forReadingFrom: $0) } ?? FileHandle.nullDevice
        try process.run()
        return Running(process: process, scratch: scratch, outURL: stdout == nil ? outURL : scratch.appendingPathComponent("none"),
                       errURL: errURL)
    }

    /// The state directory (journals, journal key) of every run that does not set its own,
    /// removed when the test process exits.
    public static let stateHome: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-test-state-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { Trees.removeDeep(IMGSniffBinary.stateHome.path) }
        return url
    }()

    /// Runs `imgsniff` to the end (killed after `timeout` seconds): see `start`.
    public static func run(_ arguments: [String], in directory: URL? = nil, stdin: URL? = nil, stdout: URL? = nil,
                           environment: [String: String] = [:], unsetting: [String] = [], launcher: [String] = [],
                           program: URL? = nil, timeout: Double = 60) throws -> RunResult {
        try start(arguments, in: directory, stdin: stdin, stdout: stdout, environment: environment, unsetting: unsetting,
                  launcher: launcher, program: program).finish(timeout: timeout)
    }
}

public struct CLIError: Error, CustomStringConvertible {
    public let description: String
    public init(_ d: String) { description = d }
}

