import ImageSniff

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
