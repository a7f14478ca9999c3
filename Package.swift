// swift-tools-version: 6.2
import PackageDescription

let package = Package(
    name: "Cadence",
    // Apple platforms only (ignored elsewhere): Combine needs macOS 10.15 / iOS 13, and `VirtualClock`'s `Clock`,
    // `InstantProtocol` and `Duration` need macOS 13 / iOS 16 / tvOS 16 / watchOS 9.
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    products: [
        .library(name: "Cadence", targets: ["Cadence"]),
        .library(name: "CadenceTesting", targets: ["CadenceTesting"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "Cadence"),
        .target(name: "CadenceTesting", dependencies: ["Cadence"]),
        .testTarget(name: "CadenceTests", dependencies: ["Cadence"]),
        .testTarget(name: "CadenceTestingTests", dependencies: ["CadenceTesting"]),
    ],
    swiftLanguageModes: [.v6]
)
