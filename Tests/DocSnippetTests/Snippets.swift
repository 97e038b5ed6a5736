// Generated from the Swift snippets of README.md, docs/ and the DocC articles by
// DocSnippetTests.generate() (`make snippets`): do not edit. Each snippet is the body of a
// function of its own, so that it compiles with the tests; Prelude.swift declares what
// snippets take for granted.

import Foundation
import ImageSniff
import ImageSniffScan

// README.md:80
@Sendable func snippet_README_md_80() async throws {

    // Bytes you already hold: [UInt8], ArraySlice, Foundation's Data, any collection of UInt8.
    let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]
    let result = ImageSniffer.detect(gif)
    print(result.type.identifier)                        // com.compuserve.gif
    print(result.type.conforms(to: .image))              // true
    print(result.type.preferredFilenameExtension!)       // gif
    print(result.type.preferredMIMEType!)                // image/gif
    print(result.confidence, result.isAnimated)          // conclusive false

    // A file: one read of its first 4 KiB (more, where it lies, only when a format needs it).
    // The name plays no part: the files in TestImages have no extension.
    let nef = try ImageSniffer.detect(fileAt: "TestImages/raw/nef")
    print(nef.type.identifier)                           // com.nikon.raw-image
    print(nef.type.conforms(to: .cameraRawImage))        // true
    print(nef.type.conforms(to: .tiff))                  // false
    let apng = try ImageSniffer.detect(fileAt: "TestImages/png/apng-ffmpeg")
    print(apng.type.identifier, apng.isAnimated)         // public.png true

    // A hint (identifier, extension or MIME type) settles what the bytes cannot: this TIFF says
    // "NIKON" in its Make tag but carries nothing that tells a NEF from a plain TIFF.
    let plain = try ImageSniffer.detect(fileAt: "TestImages/tiff/make-nikon-plain")
    print(plain.type.identifier, plain.confidence)       // public.tiff family
    let hinted = try ImageSniffer.detect(fileAt: "TestImages/tiff/make-nikon-plain", hint: "nef")
    print(hinted.type.identifier, hinted.confidence)     // com.nikon.raw-image hinted

    // ...and never overrides what the bytes say: a PNG hinted as JPEG is a PNG.
    let png = try ImageSniffer.detect(fileAt: "TestImages/png/rgb8", hint: "public.jpeg")
    print(png.type.identifier, png.confidence)           // public.png conclusive

    // Types answer the questions UTType answers, in both directions.
    let heic = ImageType(mimeType: "image/heic")!
    print(heic.identifier, heic.parents)                 // public.heic [public.heif-standard]
    print(heic.conforms(to: .image))                     // true
    print(ImageType(filenameExtension: "JPG")!)          // public.jpeg
    print(ImageType("com.adobe.pdf")!.isImage)           // false
}

// README.md:126
@Sendable func snippet_README_md_126() async throws {
    let inspection = try ImageSniffer.inspect(fileAt: "upload.bin")
    let p = inspection.properties          // width, height, bitDepth, colorModel, hasAlpha, frameCount,
                                           // orientation, hasGainMap, hasICCProfile: nil = not stated
    if let pixels = p.pixelCount, pixels > 50_000_000 { /* refuse before decoding */ }
}

// README.md:165
@Sendable func snippet_README_md_165() async throws {

    func listImages(in paths: [String]) async throws {
        var options = DirectoryScan.Options()
        options.filter.onlyImages = true
        options.properties = true
        for try await record in DirectoryScan(paths, options: options) {
            let size = record.properties?.pixelCount.map { " \($0) pixels" } ?? ""
            print(record.displayPath, record.detection?.type.identifier ?? "?", size)
        }
    }
}

// README.md:189
@Sendable func snippet_README_md_189() async throws {

    let sprite = CustomType(identifier: "com.example.sprite", description: "Example sprite",
                            conformsTo: ["public.image"], filenameExtensions: ["spr"])
    let custom = CustomSniffer(detectors: [CustomDetector(type: sprite, magic: Array("SPR1".utf8))])
    print(custom.detect(Array("SPR1".utf8) + [0, 0, 0, 0]).identifier)   // com.example.sprite
}

// README.md:226
@Sendable func snippet_README_md_226() async throws {

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
}

// Sources/ImageSniff/ImageSniff.docc/CustomFormats.md:11
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_CustomFormats_md_11() async throws {

    let sprite = CustomType(identifier: "com.example.sprite", description: "Example sprite",
                            conformsTo: ["public.image"], filenameExtensions: ["spr"],
                            mimeTypes: ["image/x-example-sprite"])
    let sniffer = CustomSniffer(detectors: [CustomDetector(type: sprite, magic: Array("SPR1".utf8))])

    func describe(_ path: String) throws -> String {
        switch try sniffer.detect(fileAt: path) {
        case .custom(let type, _): return type.identifier                 // "com.example.sprite"
        case .builtIn(let detection): return detection.type.identifier    // "public.png", ...
        }
    }
}

// Sources/ImageSniff/ImageSniff.docc/GettingStarted.md:25
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_GettingStarted_md_25() async throws {

    let gif: [UInt8] = Array("GIF89a".utf8) + [1, 0, 1, 0, 0, 0, 0, 0x3B]
    let result = ImageSniffer.detect(gif)
    result.type.identifier                  // "com.compuserve.gif"
    result.type.conforms(to: .image)        // true
    result.type.preferredFilenameExtension  // "gif"
    result.type.preferredMIMEType           // "image/gif"
    result.confidence                       // .conclusive
    result.isAnimated                       // false
}

// Sources/ImageSniff/ImageSniff.docc/GettingStarted.md:60
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_GettingStarted_md_60() async throws {
    let nef = try ImageSniffer.detect(fileAt: "TestImages/raw/nef")
    nef.type.identifier                       // "com.nikon.raw-image"
    nef.type.conforms(to: .cameraRawImage)    // true
}

// Sources/ImageSniff/ImageSniff.docc/GettingStarted.md:75
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_GettingStarted_md_75() async throws {
    let sniffer = FileSniffer()
    for path in paths {
        let detection = try sniffer.detect(fileAt: path)
        print(path, detection.type.identifier)
    }
}

// Sources/ImageSniff/ImageSniff.docc/GettingStarted.md:90
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_GettingStarted_md_90() async throws {
    /// Detects a remote file of `length` bytes, fetching as much of its start as checks ask for.
    func detectRemote(length: Int, fetch: (Range<Int>) async throws -> [UInt8]) async throws -> Detection {
        var bytes = try await fetch(0..<min(4096, length))
        while true {
            let detection = ImageSniffer.detect(prefix: bytes, totalLength: length)
            // A check may ask more than once (each answer can lead to another structure).
            guard case .needsMoreData(let n) = detection.completeness, n > bytes.count else { return detection }
            bytes += try await fetch(bytes.count..<min(n, length))
        }
    }
}

// Sources/ImageSniff/ImageSniff.docc/GettingStarted.md:116
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_GettingStarted_md_116() async throws {
    let plain = try ImageSniffer.detect(fileAt: "TestImages/tiff/make-nikon-plain")
    (plain.type.identifier, plain.confidence)       // ("public.tiff", .family)
    let hinted = try ImageSniffer.detect(fileAt: "TestImages/tiff/make-nikon-plain", hint: "nef")
    (hinted.type.identifier, hinted.confidence)     // ("com.nikon.raw-image", .hinted)
}

// Sources/ImageSniff/ImageSniff.docc/GettingStarted.md:128
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_GettingStarted_md_128() async throws {
    let heic = ImageType(mimeType: "image/heic")!
    heic.identifier                 // "public.heic"
    heic.parents                    // [.heifStandard]
    heic.conforms(to: .image)       // true
    ImageType(filenameExtension: "JPG")   // .jpeg
}

// Sources/ImageSniff/ImageSniff.docc/HowHintsWork.md:43
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_HowHintsWork_md_43() async throws {
    // Rule 1: the bytes win.
    ImageSniffer.detect(pngBytes, hint: "public.jpeg").type          // .png

    // Rule 2: a TIFF with a Nikon Make tag and no NEF structures in reach.
    let plain = ImageSniffer.detect(tiffBytes)                      // .tiff, .family
    let nef = ImageSniffer.detect(tiffBytes, hint: "nef")           // .nef, .hinted
    let wrong = ImageSniffer.detect(tiffBytes, hint: "heic")        // .tiff, .family (not a member)

    // Rule 3: a TGA header without the 2.0 footer that the checks alone do not accept.
    ImageSniffer.detect(tgaBytes).type                              // .data, .unknown
    ImageSniffer.detect(tgaBytes, hint: "tga")                      // .tga, .hinted
}

// Sources/ImageSniff/ImageSniff.docc/ImageSniff.md:13
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_ImageSniff_md_13() async throws {

    let result = try ImageSniffer.detect(fileAt: "/data/0001")
    result.type.identifier                    // "com.nikon.raw-image"
    result.type.conforms(to: .cameraRawImage) // true
    result.type.preferredFilenameExtension    // "nef"
    result.confidence                         // .conclusive
}

// Sources/ImageSniff/ImageSniff.docc/ReadingImageProperties.md:13
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_ReadingImageProperties_md_13() async throws {

    let inspection = try ImageSniffer.inspect(fileAt: "upload.bin")
    guard inspection.detection.type.conforms(to: .image) else { throw NotAnImage() }
    let p = inspection.properties
    // A 100,000 × 100,000 PNG is a few hundred bytes: refuse it before a decoder allocates 40 GB.
    guard let pixels = p.pixelCount, pixels <= 50_000_000 else { throw TooLarge() }
    print(p.width!, p.height!, p.bitDepth ?? 0, p.colorModel?.rawValue ?? "?", p.frameCount ?? 1)
}

// Sources/ImageSniff/ImageSniff.docc/Streaming.md:13
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_Streaming_md_13() async throws {

    var sniffer = IncrementalSniffer(expectedLength: contentLength)   // nil when unknown
    for try await chunk in body {
        sniffer.append(chunk)                    // [UInt8], ArraySlice<UInt8>, Data, ...
        if !sniffer.wantsMoreData { break }
    }
    if !sniffer.isDecided && !sniffer.wantsMoreData { /* stopped early: the answer is provisional */ }
    let detection = sniffer.detection           // decided or provisional
}

// Sources/ImageSniff/ImageSniff.docc/Streaming.md:75
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_Streaming_md_75() async throws {
    var sniffer = IncrementalSniffer(expectedLength: contentLength, readsProperties: true)
    for try await chunk in body {
        sniffer.append(chunk)
        if case .stated(let pixels) = sniffer.propertyProgress.pixelCount, pixels > 100_000_000 {
            throw TooLarge()
        }
        if !sniffer.wantsMoreData { break }
    }
}

// Sources/ImageSniff/ImageSniff.docc/Streaming.md:93
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_Streaming_md_93() async throws {
    let upload = body.sniffing(expectedLength: contentLength, readsProperties: true)
    for try await chunk in upload {
        if case .decided(let d) = upload.status, !d.type.conforms(to: .image) { throw NotAnImage() }
        if case .stated(let pixels) = upload.propertyProgress.pixelCount, pixels > 100_000_000 { throw TooLarge() }
        try await file.write(chunk)
    }
}

// Sources/ImageSniff/ImageSniff.docc/Streaming.md:121
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_Streaming_md_121() async throws {

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
}

// Sources/ImageSniff/ImageSniff.docc/TypeModelAndConformance.md:21
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_TypeModelAndConformance_md_21() async throws {
    ImageType("public.jpeg")                     // .jpeg (case-insensitive)
    ImageType.jpeg.identifier                    // "public.jpeg"
    ImageType.jpeg.localizedDescription          // "JPEG image"
}

// Sources/ImageSniff/ImageSniff.docc/TypeModelAndConformance.md:38
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_TypeModelAndConformance_md_38() async throws {
    ImageType.nef.parents                        // [.cameraRawImage]
    ImageType.nef.conforms(to: .cameraRawImage)  // true
    ImageType.nef.conforms(to: .image)           // true
    ImageType.nef.conforms(to: .tiff)            // false: a NEF is not declared a TIFF
    ImageType.mpo.conforms(to: .jpeg)            // true: an MPO is a JPEG
    ImageType.heic.conforms(to: .heifStandard)   // true
    ImageType.pdf.isImage                        // false: documents are not images
}

// Sources/ImageSniff/ImageSniff.docc/TypeModelAndConformance.md:66
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_TypeModelAndConformance_md_66() async throws {
    ImageType.jpeg.preferredFilenameExtension    // "jpg"
    ImageType.jpeg.filenameExtensions            // ["jpg", "jpeg", "jpe", "jfif"]
    ImageType.bmp.preferredMIMEType              // "image/bmp"
    ImageType.bmp.mimeTypes                      // ["image/bmp", "image/x-ms-bmp"]
    ImageType.jpeg.tags["public.filename-extension"]
}

// Sources/ImageSniff/ImageSniff.docc/TypeModelAndConformance.md:77
@Sendable func snippet_Sources_ImageSniff_ImageSniff_docc_TypeModelAndConformance_md_77() async throws {
    ImageType(filenameExtension: "JPG")          // .jpeg
    ImageType(filenameExtension: ".tif")         // .tiff
    ImageType(mimeType: "image/heic")            // .heic
    ImageType.types(filenameExtension: "pic")    // [.pict, .radianceHDR]
    ImageType.types(hint: "image/tiff")          // [.tiff]
}

/// The snippets that print, each line with what it prints in a comment: run by the tests.
let runnableSnippets: [RunnableSnippet] = [
    RunnableSnippet(place: "README.md:80", expected: ["com.compuserve.gif", "true", "gif", "image/gif", "conclusive false", "com.nikon.raw-image", "true", "false", "public.png true", "public.tiff family", "com.nikon.raw-image hinted", "public.png conclusive", "public.heic [public.heif-standard]", "true", "public.jpeg", "false"], run: snippet_README_md_80),
    RunnableSnippet(place: "README.md:189", expected: ["com.example.sprite"], run: snippet_README_md_189),
]
