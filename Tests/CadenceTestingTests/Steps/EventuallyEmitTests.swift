import CadenceTesting
import Testing

/// `toEventuallyEmit(_:within:)`, `toEventuallyEmit(where:within:)` and their `thenEventuallyEmit` twins.
@Suite struct EventuallyEmitTests {
    // MARK: Success

    @Test func skipsValuesUntilTheExpectedOne() {
        expectNoFailures {
            let expectation = expect([1, 2, 3, 4].publisher).toEventuallyEmit(3).thenEmit(4).thenFinish()
            #expect(expectation.values == [1, 2, 3, 4])
        }
    }

    @Test func theFirstValueMayAlreadyBeTheOne() {
        expectNoFailures {
            expect(Just("done")).toEventuallyEmit("done").thenFinish()
            expect(Just(8)).toEventuallyEmit(where: { $0 > 5 }).thenFinish()
        }
    }

    @Test func skippingReadsAfterAnotherStep() {
        let clock = VirtualClock()
        expectNoFailures {
            let progress = CurrentValueSubject<Double, Never>(0)
            for tick in 1...4 {
                clock.schedule(at: VirtualClock.Instant(ticks: Int64(tick * 10))) { progress.send(Double(tick) / 4) }
            }
            clock.schedule(at: VirtualClock.Instant(ticks: 41)) { progress.send(completion: .finished) }
            expect(progress, on: clock).toEmit(0).thenEventuallyEmit(where: { $0 >= 0.5 }, within: .ticks(20))
                .thenEventuallyEmit(1, within: .ticks(20)).thenFinish(within: .ticks(1))
        }
    }

    @Test func theStepLeavesTheClockAtTheMatch() {
        let clock = VirtualClock()
        expectNoFailures {
            let subject = scheduledSubject(on: clock, [(1, 1), (2, 2), (3, 3), (9, 4)])
            expect(subject, on: clock).toEventuallyEmit(3).thenEmit(4)
            #expect(clock.now.ticks == 9)
        }
    }

    @Test func thePredicateIsCalledOncePerValue() {
        let clock = VirtualClock()
        var calls = 0
        expectNoFailures {
            let subject = scheduledSubject(on: clock, [(1, 1), (2, 2), (3, 3), (4, 4), (5, 5)])
            expect(subject, on: clock).toEventuallyEmit(where: {
                calls += 1
                return $0 == 5
            })
        }
        #expect(calls == 5)
    }

    @Test func aLaterFailureShowsTheSkippedValuesAndTheMatch() {
        expectFailures([
            """
            thenEmit(5) failed: the value differs: expected 5, received 4.

                expect(Publishers.Sequence<Array<Int>, Never>)
              ✓   .toEventuallyEmit(3)
              ✗   .thenEmit(5)

                 received      expected
                 subscription
                 1             (skipped)  toEventuallyEmit(3)
                 2             (skipped)  toEventuallyEmit(3)
                 3             3          toEventuallyEmit(3)
              →  4             5          thenEmit(5)
                 finished
            """
        ]) {
            expect([1, 2, 3, 4].publisher).toEventuallyEmit(3).thenEmit(5)
        }
    }

    @Test func aMatchBeyondTheDemandIsNotTaken() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEventuallyEmit(where: { … }) failed: a value matching the predicate, after 1 skipped value, never \
            arrived: the publisher sent 2 at tick 0 beyond the demand requested (.max(1) in all), which breaks the \
            subscription contract (rule 1.1).

                expect(EmitCountTests.Flood)
              ✗   .toEventuallyEmit(where: { … })

                 tick  received             expected
                    0  subscription
                    0  1                    (skipped)  toEventuallyEmit(where: { … })
              →     0  2 (contract broken)  (a match)  toEventuallyEmit(where: { … })
            """
        ]) {
            expect(EmitCountTests.Flood(values: [1, 2]), on: clock, demand: .max(1))
                .toEventuallyEmit(where: { $0 == 2 })
        }
    }

    // MARK: A completion first

    @Test func finishedBeforeTheValueSaysHowManyWereSkipped() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEventuallyEmit(3) failed: skipped 2 values, then expected the value (3), received finished at tick 2.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEventuallyEmit(3)

                 tick  received      expected
                    0  subscription
                    1  1             (skipped)  toEventuallyEmit(3)
                    1  2             (skipped)  toEventuallyEmit(3)
              →     2  finished      3          toEventuallyEmit(3)
            """
        ]) {
            let subject = scheduledSubject(on: clock, [(1, 1), (1, 2)], completion: (2, .finished))
            expect(subject, on: clock).toEventuallyEmit(3)
        }
    }

    @Test func finishedAtOnceSkipsNothing() {
        expectFailures([
            """
            toEventuallyEmit("a") failed: expected the value ("a"), received finished.

                expect(Empty<String, Never>)
              ✗   .toEventuallyEmit("a")

                 received      expected
                 subscription
              →  finished      "a"       toEventuallyEmit("a")
            """
        ]) {
            expect(Empty<String, Never>()).toEventuallyEmit("a")
        }
    }

    @Test func aFailureAfterOneSkippedValue() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenEventuallyEmit(where: { … }) failed: skipped 1 value, then expected a value matching the predicate, \
            received failure(Outage) at tick 3.

                expect(PassthroughSubject<Int, Outage>)
              ✓   .toEmit(1)
              ✗   .thenEventuallyEmit(where: { … })

                 tick  received         expected
                    0  subscription
                    1  1                1          toEmit(1)
                    2  2                (skipped)  thenEventuallyEmit(where: { … })
              →     3  failure(Outage)  (a match)  thenEventuallyEmit(where: { … })
            """
        ]) {
            let subject = scheduledSubject(
                on: clock, [(1, 1), (2, 2)], completion: (3, .failure(Outage())), failing: Outage.self
            )
            expect(subject, on: clock).toEmit(1).thenEventuallyEmit(where: { $0 > 10 })
        }
    }

    // MARK: Missing

    @Test func noMatchBeforeTheClockGoesIdle() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEventuallyEmit(where: { … }) failed: a value matching the predicate, after 2 skipped values, never \
            arrived: the clock went idle at tick 2 with nothing scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time.

                expect(Publishers.Delay<…>)
              ✗   .toEventuallyEmit(where: { … })

                 tick  received      expected
                    0  subscription
                    1  1             (skipped)  toEventuallyEmit(where: { … })
                    2  2             (skipped)  toEventuallyEmit(where: { … })
              →     2  (nothing)     (a match)  toEventuallyEmit(where: { … })
            """
        ]) {
            let subject = scheduledSubject(on: clock, [(1, 1), (2, 2)])
            expect(subject.delay(for: .ticks(0), scheduler: clock.scheduler), on: clock)
                .toEventuallyEmit(where: { $0 > 2 })
        }
    }

    @Test func noMatchWithinTheBudget() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEventuallyEmit(5, within: .ticks(3)) failed: the value (5), after 1 skipped value, did not arrive \
            within 3 ticks (by tick 3).

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEventuallyEmit(5, within: .ticks(3))

                 tick  received      expected
                    0  subscription
                    1  4             (skipped)  toEventuallyEmit(5, within: .ticks(3))
              →     3  (nothing)     5          toEventuallyEmit(5, within: .ticks(3))
                    7  6
            """
        ]) {
            expect(scheduledSubject(on: clock, [(1, 4), (7, 6)]), on: clock).toEventuallyEmit(5, within: .ticks(3))
        }
    }

    @Test func noMatchDeliveredSynchronouslyWithoutAClock() {
        expectFailures([
            """
            toEventuallyEmit(9) failed: the value (9), after 3 skipped values, never arrived: nothing more was \
            delivered synchronously, and there is no virtual clock to advance (pass one with on:, or bind \
            VirtualClock.current).

                expect(CurrentValueSubject<Int, Never>)
              ✗   .toEventuallyEmit(9)

                 received      expected
                 subscription
                 1             (skipped)  toEventuallyEmit(9)
                 2             (skipped)  toEventuallyEmit(9)
                 3             (skipped)  toEventuallyEmit(9)
              →  (nothing)     9          toEventuallyEmit(9)
            """
        ]) {
            let subject = CurrentValueSubject<Int, Never>(1)
            let expectation = expect(subject)
            subject.send(2)
            subject.send(3)
            expectation.toEventuallyEmit(9)
        }
    }

    // MARK: Late

    @Test func theMatchArrivesAfterTheBudget() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEventuallyEmit(3, within: .ticks(2)) failed: the value (3), after 2 skipped values, did not arrive \
            within 2 ticks (by tick 2); it arrived at tick 6, 4 ticks late.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEventuallyEmit(3, within: .ticks(2))

                 tick  received      expected
                    0  subscription
                    1  1             (skipped)  toEventuallyEmit(3, within: .ticks(2))
                    2  2             (skipped)  toEventuallyEmit(3, within: .ticks(2))
              →     2  (nothing)     3          toEventuallyEmit(3, within: .ticks(2))
                    4  0
                    6  3
            """
        ]) {
            let subject = scheduledSubject(on: clock, [(1, 1), (2, 2), (4, 0), (6, 3)])
            expect(subject, on: clock).toEventuallyEmit(3, within: .ticks(2))
        }
    }

    // MARK: Bad input

    @Test func aNegativeBudgetIsRejected() {
        expectFailures([
            """
            thenEventuallyEmit(2, within: .ticks(-5)) failed: its budget is negative (-5 ticks); a step cannot \
            wait less than no time — use .ticks(0) for "at the current tick".

                expect(Publishers.Sequence<Array<Int>, Never>)
              ✓   .toEmit(1)
              ✗   .thenEventuallyEmit(2, within: .ticks(-5))

                 received      expected
                 subscription
                 1             1               toEmit(1)
                 2
                 finished
              →  (nothing)     (a valid step)  thenEventuallyEmit(2, within: .ticks(-5))
            """,
            """
            toEventuallyEmit(where: { … }, within: .ticks(-1)) failed: its budget is negative (-1 tick); a \
            step cannot wait less than no time — use .ticks(0) for "at the current tick".

                expect(Just<Int>)
              ✗   .toEventuallyEmit(where: { … }, within: .ticks(-1))

                 received      expected
                 subscription
                 1
                 finished
              →  (nothing)     (a valid step)  toEventuallyEmit(where: { … }, within: .ticks(-1))
            """,
        ]) {
            expect([1, 2].publisher).toEmit(1).thenEventuallyEmit(2, within: .ticks(-5))
            expect(Just(1)).toEventuallyEmit(where: { _ in true }, within: .ticks(-1))
        }
    }
}
