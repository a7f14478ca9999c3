// swift-tools-version: 6.2
import PackageDescription

// Cadence's benchmarks: a separate package, so `swift build` and `swift test` of Cadence never build them, and they
// always run optimised. Run them with:
//
//     swift run -c release --package-path Benchmarks CadenceBenchmarks
let package = Package(
    name: "CadenceBenchmarks",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        .package(name: "Cadence", path: ".."),
    ],
    targets: [
        .executableTarget(
            name: "CadenceBenchmarks",
            dependencies: [.product(name: "CadenceTesting", package: "Cadence")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
