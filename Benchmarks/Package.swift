// swift-tools-version: 6.2
import PackageDescription

// Cadence's benchmarks, side by side with the libraries users would pick instead: OpenCombine (Combine's API),
// combine-schedulers (`TestScheduler`) and swift-clocks (`TestClock`). A separate package, so `swift build` and
// `swift test` of Cadence never build them, and they always run optimised:
//
//     swift run -c release --package-path Benchmarks CadenceBenchmarks
//
// Cadence and OpenCombine both define `Publisher`, `PassthroughSubject`, `Just`, …: each side lives in its own module
// (`CadenceSide` imports only Cadence, `PeerSide` only the peers) and exposes plain, non-generic functions that
// return a checksum. The executable imports both and runs them in one run.
let package = Package(
    name: "CadenceBenchmarks",
    platforms: [.macOS(.v13), .iOS(.v16), .tvOS(.v16), .watchOS(.v9), .visionOS(.v1)],
    dependencies: [
        .package(name: "Cadence", path: ".."),
        .package(url: "https://github.com/OpenCombine/OpenCombine.git", exact: "0.14.0"),
        // On Linux its default trait, OpenCombineSchedulers, builds `TestScheduler` on OpenCombine (OpenCombineShim).
        .package(url: "https://github.com/pointfreeco/combine-schedulers", exact: "1.2.2"),
        .package(url: "https://github.com/pointfreeco/swift-clocks", exact: "1.1.1"),
        .package(url: "https://github.com/pointfreeco/swift-concurrency-extras", exact: "1.4.3"),
    ],
    targets: [
        .target(
            name: "CadenceSide",
            dependencies: [
                .product(name: "Cadence", package: "Cadence"),
                .product(name: "CadenceTesting", package: "Cadence"),
            ]
        ),
        .target(
            name: "PeerSide",
            dependencies: [
                .product(name: "OpenCombine", package: "OpenCombine"),
                .product(name: "OpenCombineDispatch", package: "OpenCombine"),
                .product(name: "OpenCombineShim", package: "OpenCombine"),
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
                .product(name: "Clocks", package: "swift-clocks"),
            ]
        ),
        .executableTarget(
            name: "CadenceBenchmarks",
            dependencies: ["CadenceSide", "PeerSide"]
        ),
        // Two suites of ten thousand tests each, the DSL's and the same check by hand: the `dsl-suite` benchmark runs
        // each through this package's test binary and times the whole run (`swift test` runs them too, in seconds).
        .testTarget(
            name: "SuiteBenchmarks",
            dependencies: [.product(name: "CadenceTesting", package: "Cadence")]
        ),
        // Not a benchmark: Cadence and combine-schedulers imported in one file (Guides/ComingFrom.md, "Beside
        // combine-schedulers and TCA"). It lives here because only this package may depend on the peers.
        .testTarget(
            name: "HookCoexistenceTests",
            dependencies: [
                .product(name: "CadenceTesting", package: "Cadence"),
                .product(name: "ConcurrencyExtras", package: "swift-concurrency-extras"),
            ]
        ),
        .testTarget(
            name: "CoexistenceTests",
            dependencies: [
                .product(name: "CadenceTesting", package: "Cadence"),
                .product(name: "CombineSchedulers", package: "combine-schedulers"),
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)
