// upload-validator: accept a file only if its bytes are a real image.
//
//     upload-validator photo.upload            # a file
//     upload-validator - < photo.upload        # standard input (what a web server would pipe)
//     upload-validator --allow jpg --allow png --allow public.heic photo.upload
//     upload-validator --max-pixels 50000000 photo.upload   # refuse decompression bombs
//
// Prints one line, "accepted: <identifier> (<description>, .<ext>)" or "rejected: <why>", and
// exits 0 (accepted), 1 (rejected), 2 (could not read) or 64 (usage). The file's name and any
// declared MIME type are ignored: only the bytes count. --max-pixels refuses an image whose header
// states more pixels (width × height) than the budget, before anything decodes it; from standard
// input, as soon as the header has passed (the rest of the upload is not read). Uses the
// ImageSniff library only (no Foundation).

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

let usage = "usage: upload-validator [--allow TYPE]... [--max-pixels N] FILE|-"

// Arguments: --allow TYPE (an identifier, extension or MIME type; repeatable) and one path.
var allowed: [ImageType] = []
var maxPixels: Int?
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
    case "--max-pixels":
        guard let value = arguments.popFirst().flatMap({ Int($0) }), value > 0 else {
            fail("upload-validator: --max-pixels needs a positive number\n" + usage, status: 64)
        }
        maxPixels = value
    default:
        guard path == nil else { fail(usage, status: 64) }
        path = argument
    }
}
guard let path else { fail(usage, status: 64) }

/// Reads standard input as an upload arrives, only until the answer is decided
/// (`IncrementalSniffer`): a PDF is refused after its first bytes, not after all of them. With
/// --max-pixels the header is read on until its size is stated, and an image that states too many
/// pixels is refused at once, before the rest of the upload is read.
func inspectStandardInput(maxPixels: Int?) -> Inspection {
    var sniffer = IncrementalSniffer(readsProperties: maxPixels != nil)
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
        if let maxPixels, case .stated(let pixels) = sniffer.propertyProgress.pixelCount, pixels > maxPixels,
           let type = sniffer.detection?.type, type.isImage {
            let p = sniffer.propertyProgress.properties
            fail("rejected: \(type.identifier) is \(p.width ?? 0)x\(p.height ?? 0), more than \(maxPixels) pixels "
                 + "(after \(sniffer.bytesSeen) bytes)", status: 1)
        }
    }
    let detection = sniffer.detection ?? Detection(type: .data, confidence: .unknown)
    return Inspection(detection: detection, properties: sniffer.propertyProgress.properties)
}

let inspection: Inspection
if path == "-" {
    inspection = inspectStandardInput(maxPixels: maxPixels)
} else {
    do {
        inspection = try ImageSniffer.inspect(fileAt: path)
    } catch {
        fail("rejected: cannot read \(path): \(error)", status: 2)
    }
}
let detection = inspection.detection

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
if let maxPixels {
    // The header's size, before any decoder allocates for it. No stated size: refused too.
    let p = inspection.properties
    guard let pixels = p.pixelCount, let width = p.width, let height = p.height else {
        fail("rejected: \(name) does not state its size", status: 1)
    }
    if pixels > maxPixels {
        fail("rejected: \(name) is \(width)x\(height), more than \(maxPixels) pixels", status: 1)
    }
}
print("accepted: \(type.identifier) (\(type.localizedDescription), .\(type.preferredFilenameExtension ?? "?"))")
