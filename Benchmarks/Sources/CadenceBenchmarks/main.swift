// Cadence's benchmarks. Run optimised: `swift run -c release --package-path Benchmarks CadenceBenchmarks`.
// Times are wall-clock per operation (median and fastest of the timed runs, after warm-up runs).

import Foundation

ExpectationBenchmarks.check()
DebounceBenchmarks.check()

// `CadenceBenchmarks --profile dsl|hand|debounce [count]` runs one body `count` times (default 10,000) and prints
// nothing: for a profiler (`valgrind --tool=callgrind`, `perf record`).
let arguments = CommandLine.arguments
if arguments.count >= 3, arguments[1] == "--profile" {
    let count = arguments.count >= 4 ? Int(arguments[3]) ?? 10_000 : 10_000
    let body: () -> Void = switch arguments[2] {
    case "dsl": ExpectationBenchmarks.dsl
    case "hand": ExpectationBenchmarks.handWritten
    case "debounce": DebounceBenchmarks.virtualTime
    default: fatalError("--profile takes dsl, hand or debounce")
    }
    for _ in 0 ..< count { body() }
    exit(0)
}

let dsl = Harness.measure("expect(Just(1)).toEmit(1).thenFinish()", operations: 20_000, runs: 15) {
    ExpectationBenchmarks.dsl()
}
let handWritten = Harness.measure("  the same, by hand: sink + arrays (baseline)", operations: 20_000, runs: 15) {
    ExpectationBenchmarks.handWritten()
}
let virtualDebounce = Harness.measure("debounce 300 ms test, virtual time (DispatchQueue.test)", operations: 2_000, runs: 15) {
    DebounceBenchmarks.virtualTime()
}
let realDebounce = Harness.measure("  the same, real DispatchQueue + semaphore wait", operations: 1, runs: 5, warmUp: 1) {
    DebounceBenchmarks.realTime()
}

Harness.printTable([dsl, handWritten, virtualDebounce, realDebounce])
print("")
let overhead = dsl.median / handWritten.median
print("DSL: \(Harness.format(dsl.median)) per chain (target ≤ 10 µs: \(dsl.median <= 10_000 ? "met" : "NOT met")), "
    + "\(Harness.rounded(overhead))× the hand-written check")
let speedUp = realDebounce.median / virtualDebounce.median
print("Debounce: virtual time is \(Int(speedUp.rounded()))× faster than waiting on a real queue "
    + "(target ≥ 1000×: \(speedUp >= 1000 ? "met" : "NOT met"))")
