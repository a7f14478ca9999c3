import CadenceTesting
import Testing

/// `expectInOrder` (`Expectation/ExpectInOrder.swift`): events of several chains on one clock, in order.
struct ExpectInOrderTests {
    @Test func eventsInOrderPassAndTheClockStopsAtTheLast() {
        let clock = VirtualClock()
        let requests = scheduledSubject(on: clock, [(300, "c")])
        let results = scheduledSubject(on: clock, [(Int64(100), [String]()), (500, ["cat"])])
        expectNoFailures {
            let sent = expect(requests, "requests", on: clock)
            let shown = expect(results, "results", on: clock)
            expectInOrder(sent.emits("c"), shown.emits(["cat"]), within: .seconds(1))
            #expect(clock.now.ticks == 500)
            sent.thenIgnoreRest()
            shown.thenIgnoreRest()
        }
    }

    @Test func onOneTickTheOrderIsTheOrderTheEventsCameIn() {
        let clock = VirtualClock()
        let first = scheduledSubject(on: clock, [(300, 1)])
        let second = scheduledSubject(on: clock, [(300, 2)])
        expectFailures([
            """
            expectInOrder failed: [first] emits 1 came at tick 300, before [second] emits 2 at tick 300.

                expectInOrder(
              ✓   [second] emits 2  at tick 300
              ✗   [first] emits 1
                )

                 tick  chain     event
                    0  [first]   subscription
                    0  [second]  subscription
                  300  [first]   1
                  300  [second]  2             ← 1
            """
        ]) {
            let a = expect(first, "first", on: clock)
            let b = expect(second, "second", on: clock)
            expectInOrder(b.emits(2), a.emits(1))
            expectInOrder(a.emits(1), b.emits(2))
            a.thenIgnoreRest()
            b.thenIgnoreRest()
        }
    }

    @Test func anEventThatNeverComesWithinTheBudget() {
        let clock = VirtualClock()
        let requests = scheduledSubject(on: clock, [(300, "c")])
        let results = scheduledSubject(on: clock, [(1500, ["cat"])])
        expectFailures([
            """
            expectInOrder(within: .seconds(1)) failed: expect(PassthroughSubject<Array<String>, Never>) emits \
            ["cat"] never came after [requests] emits "c" at tick 300, within 1000 ticks (by tick 1000).

                expectInOrder(
              ✓   [requests] emits "c"  at tick 300
              ✗   expect(PassthroughSubject<Array<String>, Never>) emits ["cat"]
                within: .seconds(1))

                 tick  chain                                             event
                    0  [requests]                                        subscription
                    0  expect(PassthroughSubject<Array<String>, Never>)  subscription
                  300  [requests]                                        "c"           ← 1
            """
        ]) {
            let sent = expect(requests, "requests", on: clock)
            let shown = expect(results, on: clock)
            expectInOrder(sent.emits("c"), shown.emits(["cat"]), within: .seconds(1))
            sent.thenIgnoreRest()
            shown.thenIgnoreRest()
        }
        #expect(clock.now.ticks == 1000)
    }

    @Test func withoutABudgetTheClockRunsUntilNothingIsLeft() {
        let clock = VirtualClock()
        let numbers = scheduledSubject(on: clock, [(10, 1), (20, 2)], completion: (30, .finished))
        expectFailures([
            """
            expectInOrder failed: [numbers] emits 3 never came after [numbers] emits 1 at tick 10, by tick 30, when \
            the clock had nothing left to run.

                expectInOrder(
              ✓   [numbers] emits 1  at tick 10
              ✗   [numbers] emits 3
                  [numbers] finishes
                )

                 tick  chain      event
                    0  [numbers]  subscription
                   10  [numbers]  1             ← 1
                   20  [numbers]  2
                   30  [numbers]  finished
            """
        ]) {
            let chain = expect(numbers, "numbers", on: clock)
            expectInOrder(chain.emits(1), chain.emits(3), chain.finishes())
            chain.thenIgnoreRest()
        }
    }

    @Test func aFailureAndACompletionCanBeOrdered() {
        let clock = VirtualClock()
        let loads = scheduledSubject(
            on: clock, [(5, 1)], completion: (10, .failure(InOrderTestError.offline)),
            failing: InOrderTestError.self)
        let spinner = scheduledSubject(on: clock, [(1, true), (12, false)], completion: (12, .finished))
        expectNoFailures {
            let load = expect(loads, "load", on: clock)
            let shown = expect(spinner, "spinner", on: clock)
            expectInOrder(shown.emits(true), load.fails(), shown.emits(false), shown.finishes())
            load.thenIgnoreRest()
            shown.thenIgnoreRest()
        }
    }

    @Test func badInputIsAClearFailure() {
        let clock = VirtualClock()
        let subject = PassthroughSubject<Int, Never>()
        expectFailures([
            "expectInOrder failed: it needs at least two events to order, and was given 1.",
            """
            expectInOrder failed: its chains must share one virtual clock — make them with expect(_:on:) and one \
            scheduler, or inside .virtualTime, where they share VirtualClock.current.
            """,
            "expectInOrder(within: .ticks(-1)) failed: the budget is negative.",
        ]) {
            let onClock = expect(subject, "on the clock", on: clock)
            let onAnother = expect(subject, "on another clock", on: VirtualClock())
            expectInOrder(onClock.emits(1))
            expectInOrder(onClock.emits(1), onAnother.emits(2))
            expectInOrder(onClock.emits(1), onClock.emits(2), within: .ticks(-1))
            onClock.thenIgnoreRest()
            onAnother.thenIgnoreRest()
        }
    }
}

private enum InOrderTestError: Error {
    case offline
}
