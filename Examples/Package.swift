// swift-tools-version: 6.2
import PackageDescription

// A small app layer and its tests, written the way iOS and server-side teams write them, using Cadence by path as a
// user's project would use it by URL. Run them with:
//
//     swift test --package-path Examples
let package = Package(
    name: "CadenceExamples",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        .package(name: "Cadence", path: "..")
    ],
    targets: [
        // The production code: view models, a repository, a network layer. It depends on Cadence only (on Apple
        // platforms that is Combine itself), never on the test library.
        .target(
            name: "ExampleApp",
            dependencies: [.product(name: "Cadence", package: "Cadence")]
        ),
        // Its tests, in Swift Testing (on the `.virtualTime` trait) and in XCTest (with the shims).
        .testTarget(
            name: "ExampleAppTests",
            dependencies: ["ExampleApp", .product(name: "CadenceTesting", package: "Cadence")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
