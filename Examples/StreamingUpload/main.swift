// stream-upload: store an upload only if it is an image, deciding from its first bytes.
//
//     stream-upload DEST < body                 # the request body on standard input
//     curl -s https://example.com/a.png | stream-upload a.upload
//
// The body is read as an asynchronous stream of chunks, as a server framework hands it over.
// `ImageSniffer.detect(from:)` reads until the format is decided; a PDF or a ZIP is refused
// there, without reading (or storing) the rest. An image is written to DEST: the bytes detection
// read first, then the rest of the stream, chunk by chunk. Memory stays bounded by the read cap
// plus one chunk, whatever the size of the body.
//
// Prints "stored: <identifier> (<bytes> bytes)" or "refused: <why>" and exits 0, 1 (refused),
// 2 (I/O error) or 64 (usage). The ImageSniff library only: no Foundation.

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ImageSniff

enum UploadError: Error {
    case notAnImage(String)
    case truncated(String)
}

/// Stores an upload if it is an image. `body` yields the request body's chunks; `sink` writes them.
func acceptImage<Body: AsyncSequence>(
    body: Body, contentLength: Int?, sink: (ArraySlice<UInt8>) async throws -> Void
) async throws -> ImageType where Body.Element: Collection, Body.Element.Element == UInt8 {
    var chunks = body.makeAsyncIterator()
    let sniffed = try await ImageSniffer.detect(from: &chunks, expectedLength: contentLength)
    let detection = sniffed.detection
    guard detection.type.conforms(to: .image) else { throw UploadError.notAnImage(detection.type.identifier) }
    if sniffed.reachedEnd && detection.completeness == .truncated { throw UploadError.truncated(detection.type.identifier) }
    try await sink(sniffed.bytesRead[...])                  // what detection read, then the rest
    while let chunk = try await chunks.next() { try await sink(ArraySlice(chunk)) }
    return detection.type
}

/// Standard input as an asynchronous stream of chunks (a server framework's request body).
func standardInputChunks() -> AsyncStream<[UInt8]> {
    AsyncStream(unfolding: {
        var chunk = [UInt8](repeating: 0, count: 16_384)
        while true {
            let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { return nil }
            chunk.removeLast(chunk.count - n)
            return chunk
        }
    })
}

func finish(_ message: String, _ status: Int32) -> Never {
    print(message)
    exit(status)
}

let arguments = CommandLine.arguments.dropFirst()
guard arguments.count == 1, let destination = arguments.first, destination != "-h", destination != "--help" else {
    finish("usage: stream-upload DEST < body", 64)
}

// The destination is created only once the body is known to be an image.
var fd: Int32 = -1
var stored = 0
do {
    let type = try await acceptImage(body: standardInputChunks(), contentLength: nil) { bytes in
        if fd < 0 {
            fd = open(destination, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
            if fd < 0 { finish("refused: cannot create \(destination): \(String(cString: strerror(errno)))", 2) }
        }
        var done = 0
        while done < bytes.count {
            let n = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + done, $0.count - done) }
            if n < 0 && errno == EINTR { continue }
            if n <= 0 { finish("refused: cannot write \(destination)", 2) }
            done += n
        }
        stored += bytes.count
    }
    if fd >= 0 { close(fd) }
    finish("stored: \(type.identifier) (\(stored) bytes)", 0)
} catch UploadError.notAnImage(let identifier) {
    finish("refused: \(identifier) is not an image", 1)
} catch UploadError.truncated(let identifier) {
    finish("refused: \(identifier) is cut short", 1)
}
