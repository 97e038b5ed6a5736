// swift-tools-version:6.0
// Benchmarks for ImageSniff (issue 7). A package of its own, so that users of the library never
// resolve anything it needs. Build:
//   swift build -c release --package-path Benchmarks --scratch-path Benchmarks/.build
// Run everything side by side: Benchmarks/run.sh [N]
import PackageDescription

let package = Package(
    name: "ImageSniffBenchmarks",
    dependencies: [
        // The project itself, by path. Named, because a path dependency's identity is otherwise
        // its folder's name, which a clone may choose.
        .package(name: "ImageSniff", path: ".."),
    ],
    targets: [
        // In-memory, per-file and in-process directory-scan measurements (Swift, no Foundation).
        .executableTarget(
            name: "bench",
            dependencies: [.product(name: "ImageSniff", package: "ImageSniff")]
        ),
        // The floor: opendir/readdir + open + pread 4 KiB + close, nothing else (C).
        .executableTarget(
            name: "floor",
            linkerSettings: [.linkedLibrary("pthread")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
