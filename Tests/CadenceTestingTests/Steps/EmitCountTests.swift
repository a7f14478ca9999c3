import CadenceTesting
import Dispatch
import Testing

/// `toEmit(count:within:)` and `thenEmit(count:within:)`.
@Suite struct EmitCountTests {
    /// A publisher that sends all its values at once, whatever the demand — breaking the subscription contract.
    struct Flood: Publisher {
        typealias Output = Int
        typealias Failure = Never

        let values: [Int]

        func receive<S: Subscriber>(subscriber: S) where S.Failure == Never, S.Input == Int {
            subscriber.receive(subscription: Subscriptions.empty)
            for value in values { _ = subscriber.receive(value) }
        }
    }

    // MARK: Success

    @Test func exactlyTheCountOfAnyValuesThenFinished() {
        expectNoFailures {
            let expectation = expect(["x", "y", "z"].publisher).toEmit(count: 3).thenFinish()
            #expect(expectation.values == ["x", "y", "z"])
        }
    }

    @Test func countReadsAfterAnotherStep() {
        expectNoFailures {
            expect([1, 2, 3, 4].publisher).toEmit(1).thenEmit(count: 2).thenEmit(4).thenFinish()
            expect(Just(5)).toEmit(count: 1).thenFinish()
        }
    }

    @Test func valuesSpreadOverTimeWithinTheBudget() {
        let clock = VirtualClock()
        expectNoFailures {
            let subject = scheduledSubject(on: clock, [(1, 10), (4, 20), (6, 30)], completion: (9, .finished))
            expect(subject, on: clock).toEmit(count: 2, within: .ticks(4)).thenEmit(count: 1, within: .ticks(2))
                .thenFinish()
        }
        #expect(clock.now.ticks == 9)
    }

    @Test func theStepStopsAtTheLastCountedValue() {
        let clock = VirtualClock()
        expectNoFailures {
            let subject = scheduledSubject(on: clock, [(1, 10), (2, 20), (50, 30)])
            expect(subject, on: clock).toEmit(count: 2).thenEmit(30)
        }
        #expect(clock.now.ticks == 50)
    }

    @Test func aDemandOfTwoIsEnoughForACountOfTwo() {
        expectNoFailures {
            let expectation = expect([1, 2, 3].publisher, demand: .max(2)).toEmit(count: 2)
            #expect(expectation.values == [1, 2])
        }
    }

    @Test func valuesSentFromManyThreadsAreAllCounted() {
        // The subject serialises nothing itself; the recorder must take concurrent values safely.
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        expectNoFailures {
            let expectation = expect(subject)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for value in 0..<250 { subject.send(thread * 1000 + value) }
            }
            expectation.toEmit(count: 1000)
            #expect(Set(expectation.values).count == 1000)
        }
    }

    // MARK: Missing

    @Test func aDemandOfTwoIsNotEnoughForACountOfThree() {
        expectFailures([
            """
            toEmit(count: 3) failed: value 3 of 3 never arrived: the subscriber had no \
            demand left (.max(2) requested in all) — request more with thenRequest(_:).

                expect(Publishers.Sequence<Array<Int>, Never>)
              ✗   .toEmit(count: 3)

                 received      expected
                 subscription
                 1             (any value)  toEmit(count: 3)
                 2             (any value)  toEmit(count: 3)
              →  (nothing)     (any value)  toEmit(count: 3)
            """
        ]) {
            expect([1, 2, 3].publisher, demand: .max(2)).toEmit(count: 3)
        }
    }

    @Test func valuesThatNeverArriveBeforeTheClockGoesIdle() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenEmit(count: 2) failed: value 2 of 2 never arrived: the clock went idle at tick 3 with nothing \
            scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time.

                expect(PassthroughSubject<Int, Never>)
              ✓   .toEmit(1)
              ✗   .thenEmit(count: 2)

                 tick  received      expected
                    0  subscription
                    1  1             1            toEmit(1)
                    3  7             (any value)  thenEmit(count: 2)
              →     3  (nothing)     (any value)  thenEmit(count: 2)
            """
        ]) {
            expect(scheduledSubject(on: clock, [(1, 1), (3, 7)]), on: clock).toEmit(1).thenEmit(count: 2)
        }
    }

    @Test func aValueThatNeverArrivesWithinTheBudget() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit(count: 1, within: .ticks(2)) failed: a value did not arrive within 2 ticks (by tick 2).

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(count: 1, within: .ticks(2))

                 tick  received      expected
                    0  subscription
              →     2  (nothing)     (any value)  toEmit(count: 1, within: .ticks(2))
            """
        ]) {
            expect(PassthroughSubject<Int, Never>(), on: clock).toEmit(count: 1, within: .ticks(2))
        }
        #expect(clock.now.ticks == 2)
    }

    @Test func valuesThatAreNotDeliveredSynchronouslyWithoutAClock() {
        expectFailures([
            """
            toEmit(count: 1) failed: a value never arrived: nothing more was delivered synchronously, and there is \
            no virtual clock to advance (pass one with on:, or bind VirtualClock.current).

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(count: 1)

                 received      expected
                 subscription
              →  (nothing)     (any value)  toEmit(count: 1)
            """
        ]) {
            expect(PassthroughSubject<Int, Never>()).toEmit(count: 1)
        }
    }

    @Test func aValueBeyondTheDemandDoesNotCount() {
        expectFailures([
            """
            toEmit(count: 3) failed: value 3 of 3 never arrived: the publisher sent 3 beyond the demand requested \
            (.max(2) in all), which breaks the subscription contract (rule 1.1).

                expect(EmitCountTests.Flood)
              ✗   .toEmit(count: 3)

                 received             expected
                 subscription
                 1                    (any value)  toEmit(count: 3)
                 2                    (any value)  toEmit(count: 3)
              →  3 (contract broken)  (any value)  toEmit(count: 3)
            """
        ]) {
            expect(Flood(values: [1, 2, 3]), demand: .max(2)).toEmit(count: 3)
        }
    }

    // MARK: Extra values

    @Test func theStepConsumesExactlyTheCountAndTheRestIsReported() {
        expectFailures([
            """
            expect(Publishers.Sequence<Array<Int>, Never>) received 2 events no step expected: 3, finished.

                expect(Publishers.Sequence<Array<Int>, Never>)
              ✓   .toEmit(count: 2)

                 received      expected
                 subscription
                 1             (any value)  toEmit(count: 2)
                 2             (any value)  toEmit(count: 2)
              →  3             (no step)
                 finished      (no step)
            """
        ]) {
            expect([1, 2, 3].publisher).toEmit(count: 2)
        }
    }

    // MARK: Late

    @Test func theLastValueArrivesAfterTheBudget() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit(count: 2, within: .ticks(4)) failed: value 2 of 2 did not arrive within 4 ticks (by tick 4); it \
            arrived at tick 5, 1 tick late.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(count: 2, within: .ticks(4))

                 tick  received      expected
                    0  subscription
                    1  10            (any value)  toEmit(count: 2, within: .ticks(4))
              →     4  (nothing)     (any value)  toEmit(count: 2, within: .ticks(4))
                    5  20
            """
        ]) {
            expect(scheduledSubject(on: clock, [(1, 10), (5, 20)]), on: clock).toEmit(count: 2, within: .ticks(4))
        }
    }

    // MARK: A completion instead of a value

    @Test func finishedBeforeTheCount() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit(count: 3) failed: expected value 3 of 3, received finished at tick 2.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(count: 3)

                 tick  received      expected
                    0  subscription
                    1  10            (any value)  toEmit(count: 3)
                    1  20            (any value)  toEmit(count: 3)
              →     2  finished      (any value)  toEmit(count: 3)
            """
        ]) {
            let subject = scheduledSubject(on: clock, [(1, 10), (1, 20)], completion: (2, .finished))
            expect(subject, on: clock).toEmit(count: 3)
        }
    }

    @Test func aFailureInsteadOfAValue() {
        expectFailures([
            """
            toEmit(count: 1) failed: expected a value, received failure(Outage).

                expect(Fail<Int, Outage>)
              ✗   .toEmit(count: 1)

                 received         expected
                 subscription
              →  failure(Outage)  (any value)  toEmit(count: 1)
            """
        ]) {
            expect(Fail<Int, Outage>(error: Outage())).toEmit(count: 1)
        }
    }

    // MARK: Bad input

    @Test func aCountBelowOneIsRejected() {
        expectFailures([
            """
            toEmit(count: 0) failed: its count is 0; the step must expect at least 1 value — to check that nothing \
            arrives, use toEmitNothing(for:).

                expect(Empty<Int, Never>)
              ✗   .toEmit(count: 0)

                 received      expected
                 subscription
                 finished
              →  (nothing)     (a valid step)  toEmit(count: 0)
            """,
            """
            thenEmit(count: -2) failed: its count is -2; the step must expect at least 1 value — to check that \
            nothing arrives, use toEmitNothing(for:).

                expect(Just<Int>)
              ✓   .toEmit(1)
              ✗   .thenEmit(count: -2)
                  .thenFinish()  (not checked)

                 received      expected
                 subscription
                 1             1               toEmit(1)
                 finished
              →  (nothing)     (a valid step)  thenEmit(count: -2)
            """,
        ]) {
            expect(Empty<Int, Never>()).toEmit(count: 0)
            expect(Just(1)).toEmit(1).thenEmit(count: -2).thenFinish()
        }
    }

    @Test func aNegativeBudgetIsRejected() {
        expectFailures([
            """
            toEmit(count: 1, within: .seconds(-1)) failed: its budget is negative (-1000 ticks); a step cannot wait \
            less than no time — use .ticks(0) for "at the current tick".

                expect(Just<Int>)
              ✗   .toEmit(count: 1, within: .seconds(-1))

                 received      expected
                 subscription
                 1
                 finished
              →  (nothing)     (a valid step)  toEmit(count: 1, within: .seconds(-1))
            """
        ]) {
            expect(Just(1)).toEmit(count: 1, within: .seconds(-1))
        }
    }
}
