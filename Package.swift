// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "ImageSniff",
    // What the code needs on Apple platforms (constrained opaque types, Swift concurrency, typed
    // throws at run time). CI builds on Linux only: Apple builds are untested.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "ImageSniff", targets: ["ImageSniff"]),
        .library(name: "ImageSniffMagic", targets: ["ImageSniffMagic"]),
        .library(name: "ImageSniffScan", targets: ["ImageSniffScan"]),
        .executable(name: "imgsniff", targets: ["imgsniff"]),
    ],
    // None: a package that depends on ImageSniff resolves and builds nothing else (the command
    // parses its own arguments; `make docs` runs the toolchain's docc without a plugin).
    targets: [
        // The core: Swift standard library and the C library only. No Foundation.
        .target(name: "ImageSniff"),
        // libmagic (the engine of `file`), for the cross-check. The core never needs it.
        .systemLibrary(
            name: "CLibMagic",
            pkgConfig: "libmagic",
            providers: [.apt(["libmagic-dev"]), .brew(["libmagic"])]
        ),
        .target(name: "ImageSniffMagic", dependencies: ["ImageSniff", "CLibMagic"]),
        // The few system calls Swift cannot reach portably: renameat2(RENAME_NOREPLACE) for
        // no-clobber renames, fstatfs for pseudo-filesystems, the CPU affinity mask.
        .target(name: "CSystemShim"),
        // Scanning trees as a library (`DirectoryScan`): system calls, the walk, the scan pool,
        // records and their encoding. No Foundation, no libmagic.
        .target(name: "ImageSniffScan", dependencies: ["ImageSniff", "CSystemShim"]),
        // The command's logic: output modes, the libmagic cross-check, the rename planner and
        // journal. No Foundation.
        .target(name: "IMGSniffKit", dependencies: ["ImageSniff", "ImageSniffScan", "ImageSniffMagic", "CSystemShim"]),
        .executableTarget(
            name: "imgsniff",
            dependencies: [
                "ImageSniff",
                "IMGSniffKit",
                "ImageSniffScan",
            ]
        ),
        // Examples: tiny programs built with the library alone (and by CI, so they keep compiling).
        .executableTarget(name: "upload-validator", dependencies: ["ImageSniff"], path: "Examples/UploadValidator"),
        .executableTarget(name: "sort-by-type", dependencies: ["ImageSniff"], path: "Examples/SortByType"),
        .executableTarget(name: "quick-start", dependencies: ["ImageSniff"], path: "Examples/QuickStart"),
        .executableTarget(name: "stream-upload", dependencies: ["ImageSniff"], path: "Examples/StreamingUpload"),
        // What the test targets share: the repository's paths, the TestImages manifest, the
        // detector's invariants (also compiled into the fuzz target), running the built binary.
        .target(name: "TestSupport", dependencies: ["ImageSniff"], path: "Tests/TestSupport"),
        .testTarget(name: "ImageSniffTests", dependencies: ["ImageSniff", "TestSupport"], exclude: ["FuzzRegressions", "Fixtures"]),
        .testTarget(name: "ImageSniffMagicTests", dependencies: ["ImageSniffMagic", "ImageSniff", "TestSupport"]),
        .testTarget(name: "IMGSniffKitTests", dependencies: ["IMGSniffKit", "ImageSniffScan", "ImageSniff", "TestSupport"]),
        .testTarget(name: "IMGSniffCLITests", dependencies: ["ImageSniff", "ImageSniffScan", "IMGSniffKit", "TestSupport"]),
    ],
    swiftLanguageModes: [.v6]
)
