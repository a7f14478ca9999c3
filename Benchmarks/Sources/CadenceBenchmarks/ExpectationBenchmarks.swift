import CadenceTesting

/// `expect(Just(1)).toEmit(1).thenFinish()` against the same check written by hand.
enum ExpectationBenchmarks {
    /// The DSL: subscribe, record, match two steps, end the chain.
    static func dsl() {
        expect(Just(1)).toEmit(1).thenFinish()
    }

    /// The same test written by hand: a sink that appends to arrays, then the checks.
    static func handWritten() {
        var values: [Int] = []
        var completions: [Subscribers.Completion<Never>] = []
        let cancellable = Just(1).sink(
            receiveCompletion: { completions.append($0) },
            receiveValue: { values.append($0) }
        )
        guard values == [1], completions.count == 1, case .finished = completions[0] else {
            fatalError("the hand-written check failed: \(values), \(completions)")
        }
        blackHole(cancellable)
    }

    /// Runs the DSL once with a recording reporter: the benchmark must measure a passing chain.
    static func check() {
        let failures = recordingFailures { dsl() }
        guard failures.isEmpty else { fatalError("the DSL benchmark fails:\n\(failures[0].message)") }
        handWritten()
    }
}
