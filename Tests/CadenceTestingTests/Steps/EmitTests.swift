import CadenceTesting
import Dispatch
import Testing

/// `toEmit(_:)` and `thenEmit(_:)`, for a list of values and for one value.
@Suite struct EmitTests {
    // MARK: Success

    @Test func aListOfValuesThenFinishedPassesWithoutAClock() {
        expectNoFailures {
            let expectation = expect([1, 2, 3].publisher).toEmit([1, 2, 3]).thenFinish()
            #expect(expectation.values == [1, 2, 3])
            #expect(!expectation.hasFailed)
        }
    }

    @Test func oneValueThenTheRestReadsLeftToRight() {
        expectNoFailures {
            expect(["a", "b", "c"].publisher).toEmit("a").thenEmit(["b", "c"]).thenFinish()
            expect(Just(7)).toEmit(7).thenFinish()
        }
    }

    @Test func currentValueSubjectEmitsItsValueAtOnceThenWhatIsSent() {
        expectNoFailures {
            let subject = CurrentValueSubject<String, Never>("idle")
            let expectation = expect(subject).toEmit("idle")
            subject.send("loading")
            expectation.thenEmit("loading")
        }
    }

    @Test func delayedValuesPassWithinABudgetThatCoversThem() {
        let clock = VirtualClock()
        expectNoFailures {
            expect([1, 2, 3].publisher.delay(for: .ticks(5), scheduler: clock.scheduler), on: clock)
                .toEmit([1, 2, 3], within: .ticks(5)).thenFinish(within: .ticks(0))
        }
        #expect(clock.now.ticks == 5)
    }

    @Test func valuesSpreadOverTimeEachWithinItsOwnBudget() {
        let clock = VirtualClock()
        expectNoFailures {
            let subject = scheduledSubject(on: clock, [(2, 1), (5, 2), (9, 3)], completion: (9, .finished))
            expect(subject, on: clock)
                .toEmit(1, within: .ticks(2)).thenEmit(2, within: .ticks(3)).thenEmit([3], within: .ticks(4))
                .thenFinish(within: .ticks(0))
        }
    }

    @Test func debounceOnDispatchQueueTestEmitsTheLastValueAfterTheQuietPeriod() {
        let scheduler = DispatchQueue.test
        let subject = PassthroughSubject<String, Never>()
        expectNoFailures {
            let expectation = expect(subject.debounce(for: .milliseconds(300), scheduler: scheduler), on: scheduler)
            subject.send("s")
            subject.send("sw")
            expectation.toEmit("sw", within: .milliseconds(300))
        }
        #expect(scheduler.clock.now.ticks == 300)
    }

    // MARK: Wrong value

    @Test func aWrongValueInAListIsReportedAtItsTick() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit([1, 2, 3]) failed: value 2 of 3 differs: expected 2, received 5 at tick 2.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit([1, 2, 3])
                  .thenFinish(within: .ticks(5))  (not checked)

                 tick  received      expected
                    0  subscription
                    1  1             1         toEmit([1, 2, 3])
              →     2  5             2         toEmit([1, 2, 3])
            """
        ]) {
            let subject = scheduledSubject(on: clock, [(1, 1), (2, 5), (3, 3)])
            expect(subject, on: clock).toEmit([1, 2, 3]).thenFinish(within: .ticks(5))
        }
    }

    @Test func aWrongSingleValueWithoutAClockHasNoTickColumn() {
        expectFailures([
            """
            toEmit(1) failed: the value differs: expected 1, received 2.

                expect(Just<Int>)
              ✗   .toEmit(1)

                 received      expected
                 subscription
              →  2             1         toEmit(1)
                 finished
            """
        ]) {
            expect(Just(2)).toEmit(1)
        }
    }

    @Test func aWrongValueInTheSecondStepMarksTheFirstAsPassed() {
        expectFailures([
            """
            thenEmit(["b", "c"]) failed: value 2 of 2 differs: expected "c", received "x".

                expect(Publishers.Sequence<Array<String>, Never>)
              ✓   .toEmit("a")
              ✗   .thenEmit(["b", "c"])

                 received      expected
                 subscription
                 "a"           "a"       toEmit("a")
                 "b"           "b"       thenEmit(["b", "c"])
              →  "x"           "c"       thenEmit(["b", "c"])
                 finished
            """
        ]) {
            expect(["a", "b", "x"].publisher).toEmit("a").thenEmit(["b", "c"])
        }
    }

    // MARK: Missing

    @Test func aValueThatNeverArrivesBeforeTheClockGoesIdle() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit([1, 2, 3]) failed: value 3 of 3 (3) never arrived: the clock went idle at tick 2 with nothing \
            scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit([1, 2, 3])

                 tick  received      expected
                    0  subscription
                    1  1             1         toEmit([1, 2, 3])
                    2  2             2         toEmit([1, 2, 3])
              →     2  (nothing)     3         toEmit([1, 2, 3])
            """
        ]) {
            expect(scheduledSubject(on: clock, [(1, 1), (2, 2)]), on: clock).toEmit([1, 2, 3])
        }
    }

    @Test func aValueThatNeverArrivesWithinTheBudget() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenEmit(2, within: .ticks(3)) failed: the value (2) did not arrive within 3 ticks (by tick 4).

                expect(PassthroughSubject<Int, Never>)
              ✓   .toEmit(1)
              ✗   .thenEmit(2, within: .ticks(3))

                 tick  received      expected
                    0  subscription
                    1  1             1         toEmit(1)
              →     4  (nothing)     2         thenEmit(2, within: .ticks(3))
            """
        ]) {
            expect(scheduledSubject(on: clock, [(1, 1)]), on: clock).toEmit(1).thenEmit(2, within: .ticks(3))
        }
        #expect(clock.now.ticks == 4)
    }

    @Test func aValueThatIsNotDeliveredSynchronouslyWithoutAClock() {
        expectFailures([
            """
            toEmit("a") failed: the value ("a") never arrived: nothing more was delivered synchronously, and there is \
            no virtual clock to advance (pass one with on:, or bind VirtualClock.current).

                expect(PassthroughSubject<String, Never>)
              ✗   .toEmit("a")

                 received      expected
                 subscription
              →  (nothing)     "a"       toEmit("a")
            """
        ]) {
            expect(PassthroughSubject<String, Never>()).toEmit("a")
        }
    }

    // MARK: Late

    @Test func aValueThatArrivesAfterTheBudgetIsReportedLate() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit([1, 2], within: .ticks(5)) failed: value 2 of 2 (2) did not arrive within 5 ticks (by tick 5); it \
            arrived at tick 8, 3 ticks late.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit([1, 2], within: .ticks(5))

                 tick  received      expected
                    0  subscription
                    3  1             1         toEmit([1, 2], within: .ticks(5))
              →     5  (nothing)     2         toEmit([1, 2], within: .ticks(5))
                    8  2
            """
        ]) {
            expect(scheduledSubject(on: clock, [(3, 1), (8, 2)]), on: clock).toEmit([1, 2], within: .ticks(5))
        }
    }

    // MARK: A completion instead of a value

    @Test func finishedInsteadOfTheNextValue() {
        expectFailures([
            """
            toEmit([1, 2]) failed: expected value 2 of 2 (2), received finished.

                expect(Publishers.Sequence<Array<Int>, Never>)
              ✗   .toEmit([1, 2])

                 received      expected
                 subscription
                 1             1         toEmit([1, 2])
              →  finished      2         toEmit([1, 2])
            """
        ]) {
            expect([1].publisher).toEmit([1, 2])
        }
    }

    @Test func aFailureInsteadOfTheValue() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit(1) failed: expected the value (1), received failure(Outage) at tick 3.

                expect(PassthroughSubject<Int, Outage>)
              ✗   .toEmit(1)

                 tick  received         expected
                    0  subscription
              →     3  failure(Outage)  1         toEmit(1)
            """
        ]) {
            let subject = scheduledSubject(
                on: clock, [] as [(tick: Int64, value: Int)], completion: (3, .failure(Outage())), failing: Outage.self
            )
            expect(subject, on: clock).toEmit(1)
        }
    }

    // MARK: Bad input

    @Test func anEmptyListIsRejected() {
        expectFailures([
            """
            toEmit([]) failed: an empty list of values expects nothing, so it cannot fail; to check that nothing \
            arrives, use toEmitNothing(for:), or toFinish() for a publisher that completes without values.

                expect(Just<Int>)
              ✗   .toEmit([])
                  .thenEmit(1)  (not checked)

                 received      expected
                 subscription
                 1
                 finished
              →  (nothing)     (a valid step)  toEmit([])
            """
        ]) {
            expect(Just(1)).toEmit([]).thenEmit(1)
        }
    }

    @Test func aNegativeBudgetIsRejected() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenEmit([2], within: .milliseconds(-3)) failed: its budget is negative (-3 ticks); a step cannot wait less \
            than no time — use .ticks(0) for "at the current tick".

                expect(Publishers.Sequence<Array<Int>, Never>)
              ✓   .toEmit(1)
              ✗   .thenEmit([2], within: .milliseconds(-3))

                 tick  received      expected
                    0  subscription
                    0  1             1               toEmit(1)
                    0  2
                    0  finished
              →     0  (nothing)     (a valid step)  thenEmit([2], within: .milliseconds(-3))
            """
        ]) {
            expect([1, 2].publisher, on: clock).toEmit(1).thenEmit([2], within: .milliseconds(-3))
        }
    }

    @Test func aBudgetAFractionOfATickBelowZeroReadsAsNegativeNotZero() {
        expectFailures([
            """
            toEmit(1, within: .ticks(-1)) failed: its budget is negative (-1 tick); a step cannot wait less than no \
            time — use .ticks(0) for "at the current tick".

                expect(Just<Int>)
              ✗   .toEmit(1, within: .ticks(-1))

                 tick  received      expected
                    0  subscription
                    0  1
                    0  finished
              →     0  (nothing)     (a valid step)  toEmit(1, within: .ticks(-1))
            """
        ]) {
            let justBelowZero = Duration.zero - Duration(secondsComponent: 0, attosecondsComponent: 1)
            expect(Just(1), on: VirtualClock()).toEmit(1, within: justBelowZero)
        }
    }
}

@Suite("toEmit with array outputs")
struct EmitArrayOutputTests {
    @Test("toEmit([]) on a publisher of arrays expects one empty array, and compiles without ambiguity")
    func emptyArrayLiteralIsOneValue() {
        let subject = CurrentValueSubject<[String], Never>([])
        expectNoFailures {
            expect(subject).toEmit([]).thenIgnoreRest()
        }
        expectNoFailures {
            expect([[], ["swift"]].publisher).toEmit([[], ["swift"]]).thenFinish()
        }
    }

    @Test("A list of values for a publisher of arrays still fails value by value")
    func listOfArraysFails() {
        expectFailures([
            """
            toEmit([[], ["swift"]]) failed: value 2 of 2 differs: expected ["swift"], received ["rust"].

                expect(Publishers.Sequence<Array<Array<String>>, Never>)
              ✗   .toEmit([[], ["swift"]])

                 received      expected
                 subscription
                 []            []         toEmit([[], ["swift"]])
              →  ["rust"]      ["swift"]  toEmit([[], ["swift"]])
                 finished

            Difference (- expected, + received):
              [
            -   "swift"
            +   "rust"
              ]
            """
        ]) {
            expect([[], ["rust"]].publisher).toEmit([[], ["swift"]])
        }
    }
}
