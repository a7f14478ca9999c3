import CadenceTesting
import Testing

private enum SatisfyingFetchError: Error {
    case offline
}

/// A state that holds an error, and so is not `Equatable`.
private enum FetchState {
    case idle
    case loading
    case loaded([String])
    case failed(any Error)

    var items: [String]? {
        if case let .loaded(items) = self { return items }
        return nil
    }
}

/// `toEmit(satisfying:)` and `thenEmit(satisfying:)`: the next value handed to a closure of checks (issue 19 item 2).
@Suite(.quietKnownIssues) struct EmitSatisfyingTests {
    @Test func checksThatPassLetTheChainGoOn() {
        let clock = VirtualClock()
        let states: TestPublisher<FetchState, Never> = clock.hot([
            (0, .value(.idle)), (1, .value(.loading)), (3, .value(.loaded(["a", "b"]))),
        ])
        expect(states, on: clock)
            .toEmit(satisfying: { if case .idle = $0 {} else { Issue.record("not idle") } })
            .thenEmit(satisfying: { state in #expect(state.items == nil) })
            .thenEmit(
                satisfying: { state in
                    let items = try #require(state.items)
                    #expect(items.count == 2)
                }, within: .ticks(2)
            )
            .thenIgnoreRest()
    }

    @Test func aFailedExpectInsideFailsTheStepOnceWithTheTimeline() {
        let clock = VirtualClock()
        let states: TestPublisher<FetchState, Never> = clock.hot([(1, .value(.loaded(["a"])))])
        let failures = recordingFailures {
            expect(states, on: clock).toEmit(satisfying: { state in
                #expect(state.items?.count == 2, "two items")
            })
        }
        #expect(
            failures.map { String($0.message.prefix { $0 != "\n" }) } == [
                "toEmit(satisfying: { … }) failed: the value FetchState.loaded([\"a\"]) did not pass the check: two items at "
                    + "tick 1."
            ])
        let plain = recordingFailures {
            expect(clock.cold("a", values: ["a": 3]), on: clock).toEmit(satisfying: { #expect($0 == 2) })
        }
        #expect(
            plain.first?.message.hasPrefix(
                "toEmit(satisfying: { … }) failed: the value 3 did not pass the check: Expectation failed: "
            ) == true)
    }

    @Test func aFailedRequireOrAThrownErrorFailsTheStep() {
        let clock = VirtualClock()
        let states: TestPublisher<FetchState, Never> = clock.hot([
            (0, .value(.failed(SatisfyingFetchError.offline))), (2, .value(.idle)),
        ])
        let failures = recordingFailures {
            expect(states, on: clock)
                .toEmit(satisfying: { state in _ = try #require(state.items, "items") })
            expect(states, on: clock)
                .toEmit(satisfying: { _ in throw SatisfyingFetchError.offline }, within: .ticks(2))
        }
        #expect(
            failures.map { String($0.message.prefix { $0 != "\n" }) } == [
                "toEmit(satisfying: { … }) failed: the value FetchState.failed(.offline) did not pass the check: "
                    + "items at tick 0.",
                "toEmit(satisfying: { … }, within: .ticks(2)) failed: the value FetchState.idle did not pass the check: "
                    + "threw SatisfyingFetchError.offline at tick 2.",
            ])
    }

    @Test func aCompletionInsteadOfAValueFailsAtIt() {
        let failures = recordingFailures {
            expect(Empty<Int, Never>()).toEmit(satisfying: { _ in })
        }
        #expect(
            failures.map { String($0.message.prefix { $0 != "\n" }) } == [
                "toEmit(satisfying: { … }) failed: expected a value that passes the check, received finished."
            ])
    }
}
