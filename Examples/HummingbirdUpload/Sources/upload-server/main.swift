// POST /upload: the body is sniffed as it arrives. The request is refused as soon as the bytes say
// it is not an image (415), as soon as the image's header states more pixels than allowed (413), or
// when the body outgrows its limit (413); an image is accepted (201) with its detection and
// properties as JSON (the library's Codable results). Nothing is decoded, and a refused body is not
// read to its end.
//
//   upload-server [port]          (default 8080; 127.0.0.1 only)

import Hummingbird
import ImageSniff

let maxPixels = 50_000_000
let maxBodyBytes = 64 << 20

struct Accepted: ResponseEncodable {
    let detection: Detection
    let properties: ImageProperties
    let bytes: Int
}

struct Refusal: ResponseEncodable {
    let error: String
    let type: ImageType?

    init(error: String, type: ImageType? = nil) {
        self.error = error
        self.type = type
    }
}

/// A JSON answer with this status.
func reply(_ status: HTTPResponse.Status, _ body: some ResponseEncodable, _ request: Request, _ context: some RequestContext) throws -> Response {
    var response = try body.response(from: request, context: context)
    response.status = status
    return response
}

let router = Router()
router.post("upload") { request, context -> Response in
    let length = request.headers[.contentLength].flatMap { Int($0) }
    if let length, length > maxBodyBytes { return try reply(.contentTooLarge, Refusal(error: "body larger than \(maxBodyBytes) bytes"), request, context) }
    var sniffer = IncrementalSniffer(expectedLength: length, readsProperties: true)
    var received = 0
    for try await buffer in request.body {
        received += buffer.readableBytes
        if received > maxBodyBytes { return try reply(.contentTooLarge, Refusal(error: "body larger than \(maxBodyBytes) bytes"), request, context) }
        sniffer.append(buffer.readableBytesView)
        // Decided, or as decided as it gets before the end (text is text however it goes on).
        if let detection = sniffer.detection, sniffer.isDecided || !sniffer.wantsMoreData, !detection.type.isImage {
            return try reply(.unsupportedMediaType, Refusal(error: "not an image", type: detection.type), request, context)
        }
        if case .stated(let pixels) = sniffer.propertyProgress.pixelCount, pixels > maxPixels {
            return try reply(.contentTooLarge, Refusal(error: "\(pixels) pixels, more than \(maxPixels)", type: sniffer.detection?.type), request, context)
        }
        // A real service would store the chunk here.
    }
    sniffer.finish()
    guard received > 0, let detection = sniffer.detection else { return try reply(.badRequest, Refusal(error: "empty body"), request, context) }
    guard detection.type.isImage else { return try reply(.unsupportedMediaType, Refusal(error: "not an image", type: detection.type), request, context) }
    if let pixels = sniffer.propertyProgress.properties.pixelCount, pixels > maxPixels {
        return try reply(.contentTooLarge, Refusal(error: "\(pixels) pixels, more than \(maxPixels)", type: detection.type), request, context)
    }
    return try reply(.created, Accepted(detection: detection, properties: sniffer.propertyProgress.properties, bytes: received), request, context)
}

let port = CommandLine.arguments.dropFirst().first.flatMap { Int($0) } ?? 8080
let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: port)))
try await app.runService()
