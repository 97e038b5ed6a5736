// Running the built binary and reading its peak resident set size, through GNU time: time forks
// the measured command from a small process of its own. (Measuring from here would not do: the
// test process starts children with vfork, and a child's peak RSS then includes this process's.)

import Foundation

public enum Measured {
    public static let isAvailable = FileManager.default.isExecutableFile(atPath: "/usr/bin/time")

    /// Runs `program arguments` with standard output to /dev/null; its exit status and peak RSS
    /// in KiB.
    public static func run(_ program: URL, _ arguments: [String]) throws -> (status: Int32, maxRSSKiB: Int) {
        let report = FileManager.default.temporaryDirectory.appendingPathComponent("imgsniff-rss-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: report) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/time")
        process.arguments = ["-f", "%M", "-o", report.path, program.path] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        let text = try String(contentsOf: report, encoding: .utf8)
        guard let kib = text.split(whereSeparator: \.isNewline).last.flatMap({ Int($0) }) else {
            throw CLIError("GNU time said: \(text)")
        }
        return (process.terminationStatus, kib)
    }
}
