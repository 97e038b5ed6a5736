// swift-tools-version:6.2
// An upload service on Hummingbird 2 that refuses non-images and decompression bombs while the
// body streams in. A package of its own (Hummingbird and SwiftNIO are its dependencies, never
// ImageSniff's); `exercise.sh` builds it, starts it and sends it real requests with curl.
import PackageDescription

let package = Package(
    name: "HummingbirdUpload",
    platforms: [.macOS(.v14)],
    dependencies: [
        .package(name: "ImageSniff", path: "../.."),
        .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    ],
    targets: [
        .executableTarget(name: "upload-server", dependencies: [
            .product(name: "ImageSniff", package: "ImageSniff"),
            .product(name: "Hummingbird", package: "hummingbird"),
        ]),
    ]
)
