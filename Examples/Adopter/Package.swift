// swift-tools-version:6.0
// A package as an adopter writes it: it depends on ImageSniff alone. CI resolves and builds it
// (scripts/check-adopter.sh) and checks that nothing else is fetched: the library has no
// dependencies, and the command's (none either) never reach a package that uses the library.
import PackageDescription

let package = Package(
    name: "adopter",
    dependencies: [.package(name: "ImageSniff", path: "../..")],
    targets: [
        .executableTarget(name: "adopter", dependencies: [.product(name: "ImageSniff", package: "ImageSniff")]),
    ]
)
