import CadenceTesting

/// `expect(Just(1)).toEmit(1).thenFinish()` against the same check written by hand.
public enum ExpectationBenchmarks {
    /// The DSL, `calls` times: subscribe, record, match two steps, end the chain. Returns `calls`.
    public static func dsl(calls: Int) -> Int {
        for _ in 0..<calls { dsl() }
        return calls
    }

    /// The same test written by hand, `calls` times: a sink that appends to arrays, then the checks. Returns the
    /// number of checks that passed.
    public static func handWritten(calls: Int) -> Int {
        var passed = 0
        for _ in 0..<calls where handWritten() { passed += 1 }
        return passed
    }

    static func dsl() {
        expect(Just(1)).toEmit(1).thenFinish()
    }

    static func handWritten() -> Bool {
        var values: [Int] = []
        var completions: [Subscribers.Completion<Never>] = []
        let cancellable = Just(1).sink(
            receiveCompletion: { completions.append($0) },
            receiveValue: { values.append($0) }
        )
        withExtendedLifetime(cancellable) {}
        guard values == [1], completions.count == 1, case .finished = completions[0] else { return false }
        return true
    }

    /// Runs the DSL once with a recording reporter: the benchmark must measure a passing chain. Returns the first
    /// failure's message, if any.
    public static func failure() -> String? {
        recordingFailures { dsl() }.first?.message
    }
}
