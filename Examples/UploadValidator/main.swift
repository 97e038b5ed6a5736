// upload-validator: accept a file only if its bytes are a real image.
//
//     upload-validator photo.upload            # a file
//     upload-validator - < photo.upload        # standard input (what a web server would pipe)
//     upload-validator --allow jpg --allow png --allow public.heic photo.upload
//
// Prints one line, "accepted: <identifier> (<description>, .<ext>)" or "rejected: <why>", and
// exits 0 (accepted), 1 (rejected), 2 (could not read) or 64 (usage). The file's name and any
// declared MIME type are ignored: only the bytes count. Uses the ImageSniff library only (no
// Foundation).

#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import ImageSniff

/// Prints the verdict (or, for usage errors, the message on standard error) and exits.
func fail(_ message: String, status: Int32) -> Never {
    if status == 64 {
        let line = Array((message + "\n").utf8)
        _ = line.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    } else {
        print(message)
    }
    exit(status)
}

let usage = "usage: upload-validator [--allow TYPE]... FILE|-"

// Arguments: --allow TYPE (an identifier, extension or MIME type; repeatable) and one path.
var allowed: [ImageType] = []
var path: String?
var arguments = CommandLine.arguments.dropFirst()
while let argument = arguments.popFirst() {
    switch argument {
    case "-h", "--help":
        fail(usage, status: 0)
    case "--allow":
        guard let name = arguments.popFirst(), let type = ImageType.types(hint: name).first else {
            fail("upload-validator: --allow needs a known identifier, extension or MIME type\n" + usage, status: 64)
        }
        allowed.append(type)
    default:
        guard path == nil else { fail(usage, status: 64) }
        path = argument
    }
}
guard let path else { fail(usage, status: 64) }

/// Reads standard input as an upload arrives, only until the answer is decided
/// (`IncrementalSniffer`): a PDF is refused after its first bytes, not after all of them. A format
/// whose answer depends on the end (TGA's footer) is read to the end, up to the read cap.
func detectStandardInput() -> Detection {
    var sniffer = IncrementalSniffer()
    var chunk = [UInt8](repeating: 0, count: 65536)
    while sniffer.wantsMoreData {
        let n = chunk.withUnsafeMutableBytes { read(0, $0.baseAddress, $0.count) }
        if n < 0 && errno == EINTR { continue }
        if n < 0 { fail("rejected: cannot read standard input", status: 2) }
        if n == 0 {
            sniffer.finish()
            break
        }
        sniffer.append(chunk[..<n])
    }
    return sniffer.detection ?? Detection(type: .data, confidence: .unknown)
}

let detection: Detection
if path == "-" {
    detection = detectStandardInput()
} else {
    do {
        detection = try ImageSniffer.detect(fileAt: path)
    } catch {
        fail("rejected: cannot read \(path): \(error)", status: 2)
    }
}

let type = detection.type
let name = "\(type.identifier) (\(type.localizedDescription))"
if detection.isUnknown {
    fail("rejected: unknown content (public.data)", status: 1)
}
if !type.conforms(to: .image) {
    fail("rejected: \(name) is not an image", status: 1)
}
if detection.completeness == .truncated {
    fail("rejected: \(name) is cut short", status: 1)
}
if !allowed.isEmpty && !allowed.contains(where: { type.conforms(to: $0) }) {
    fail("rejected: \(name) is not one of " + allowed.map(\.identifier).joined(separator: ", "), status: 1)
}
print("accepted: \(type.identifier) (\(type.localizedDescription), .\(type.preferredFilenameExtension ?? "?"))")
