// swift-tools-version: 6.2
import PackageDescription

// Cadence is six modules where Combine is missing and five where it is:
//
//   CadenceSupport   the package's one lock, its trap with a message, its one channel for misuse it survives
//   CadenceRuntimeHooks  C: the Swift runtime's enqueue hooks, which route a virtual-time session's jobs to it
//   CadenceCombine   Combine's API (and Foundation's Combine additions) for platforms without Combine
//   Cadence          `import Cadence`: Combine (Apple's, or CadenceCombine) re-exported, plus virtual time
//   CadenceTesting   the expectation DSL, reporting, the Swift Testing trait, the XCTest shims
//   CadenceTestingLoad  C: CadenceTesting's load-time setup, so that linking CadenceTesting decides how a broken
//                    Combine rule ends, not whether an `expect` has run yet
//
// ARCHITECTURE.md draws the layers and says what may depend on what.
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
        .target(name: "CadenceSupport"),
        .target(name: "CadenceRuntimeHooks"),
        .target(name: "Cadence", dependencies: ["CadenceSupport", "CadenceRuntimeHooks"]),
        .target(name: "CadenceTestingLoad"),
        .target(name: "CadenceTesting", dependencies: ["Cadence", "CadenceSupport", "CadenceTestingLoad"]),
        .testTarget(name: "CadenceTests", dependencies: ["Cadence"]),
        .testTarget(name: "CadenceTestingTests", dependencies: ["CadenceTesting", "CadenceSupport"]),
    ],
    swiftLanguageModes: [.v6]
)

// The stand-in, on a host without Combine only: a host with Combine builds for platforms with Combine, and there the
// stand-in is not declared at all, so that `swift build` never compiles a second `Publisher` beside Apple's.
#if !canImport(Combine)
/// The platforms without Combine, where Cadence brings its own.
let platformsWithoutCombine: [Platform] = [.linux, .windows, .android, .wasi, .openbsd]
package.targets.append(.target(name: "CadenceCombine", dependencies: ["CadenceSupport"]))
for target in package.targets where target.name == "Cadence" || target.name == "CadenceTests" {
    target.dependencies.append(.target(name: "CadenceCombine", condition: .when(platforms: platformsWithoutCombine)))
}
#endif
