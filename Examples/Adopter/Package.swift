// swift-tools-version:6.0
// A package as an adopter writes it: it depends on ImageSniff's products alone. CI resolves and
// builds it (scripts/check-adopter.sh) and checks that nothing else is fetched: the package has no
// dependencies.
import PackageDescription

let package = Package(
    name: "adopter",
    dependencies: [.package(name: "ImageSniff", path: "../..")],
    targets: [
        .executableTarget(name: "adopter", dependencies: [.product(name: "ImageSniff", package: "ImageSniff")]),
        // A directory-walking client: DirectoryScan and the Codable results.
        .executableTarget(name: "adopter-scan", dependencies: [.product(name: "ImageSniff", package: "ImageSniff"),
                                                               .product(name: "ImageSniffScan", package: "ImageSniff")]),
    ]
)
