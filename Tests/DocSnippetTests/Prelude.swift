// What the documentation's snippets take for granted: a request body and its length, a file to
// write to, some bytes, paths, and the errors an upload handler throws. Only declarations: the
// snippets are compiled, not run (the quick start, which prints, is run by ExamplesTests).

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
