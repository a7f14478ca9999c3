// swift-tools-version: 6.1
import PackageDescription

let package = Package(
    name: "Cadence",
    products: [
        .library(name: "Cadence", targets: ["Cadence"]),
    ],
    dependencies: [],
    targets: [
        .target(name: "Cadence"),
        .testTarget(name: "CadenceTests", dependencies: ["Cadence"]),
    ],
    swiftLanguageModes: [.v6]
)
