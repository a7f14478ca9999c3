// Cadence's benchmarks. Run optimised: `swift run -c release --package-path Benchmarks CadenceBenchmarks`.
// Times are wall-clock per operation (median and fastest of the timed runs, after warm-up runs).

ExpectationBenchmarks.check()
DebounceBenchmarks.check()

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
