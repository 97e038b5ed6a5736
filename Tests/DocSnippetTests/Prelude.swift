// What the documentation's snippets take for granted: a request body and its length, a file to
// write to, some bytes, paths, and the errors an upload handler throws. Only declarations: the
// snippets are compiled, not run (the quick start, which prints, is run by ExamplesTests).

import Foundation
import ImageSniff

let contentLength: Int? = nil
let body = AsyncStream<[UInt8]> { $0.finish() }
let paths: [String] = []
let firstBytes: [UInt8] = []
let pngBytes: [UInt8] = [], tiffBytes: [UInt8] = [], tgaBytes: [UInt8] = []
let limit = 100_000_000

struct TooLarge: Error {}
struct NotAnImage: Error {}
enum UploadError: Error { case notAnImage(String), truncated(String) }

/// Where an upload goes.
struct Destination {
    func write(_ chunk: some Collection<UInt8>) async throws {}
}
let file = Destination()

func fetch(_ range: Range<Int>) async throws -> [UInt8] { [] }

/// What a running snippet printed: its `print` calls land here (this module's `print` shadows the
/// standard library's), so the test can compare them with the snippet's `// ...` comments.
final class PrintedLines: @unchecked Sendable {
    private let lock = NSLock()
    private var storage: [String] = []
    func append(_ line: String) { lock.lock(); storage.append(line); lock.unlock() }
    var lines: [String] { lock.lock(); defer { lock.unlock() }; return storage }

    @TaskLocal static var current: PrintedLines?
}

func print(_ items: Any..., separator: String = " ", terminator: String = "\n") {
    let text = items.map { "\($0)" }.joined(separator: separator)
    if let sink = PrintedLines.current { sink.append(text) } else { Swift.print(text, terminator: terminator) }
}
