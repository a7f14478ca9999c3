import CadenceTesting
import Testing

/// `toEmit(where:within:)` and `thenEmit(where:within:)`.
@Suite struct EmitWhereTests {
    /// A value that is not `Equatable`.
    struct Reading {
        var celsius: Double
    }

    // MARK: Success

    @Test func theNextValueSatisfiesThePredicate() {
        expectNoFailures {
            expect(Just(4)).toEmit(where: { $0.isMultiple(of: 2) }).thenFinish()
            expect(["swift", "sweet"].publisher)
                .toEmit(where: { $0.hasPrefix("sw") }).thenEmit(where: { $0.count == 5 }).thenFinish()
        }
    }

    @Test func valuesThatAreNotEquatable() {
        let clock = VirtualClock()
        expectNoFailures {
            let readings: [(tick: Int64, value: Reading)] = [(10, Reading(celsius: 21.5))]
            let subject = scheduledSubject(on: clock, readings)
            let expectation = expect(subject, on: clock).toEmit(where: { $0.celsius > 20 }, within: .ticks(10))
            #expect(expectation.values.map(\.celsius) == [21.5])
        }
    }

    @Test func thePredicateSeesOnlyTheNextValue() {
        var seen: [Int] = []
        expectNoFailures {
            expect([1, 2, 3].publisher).toEmit(where: {
                seen.append($0)
                return $0 == 1
            }).thenEmit([2, 3])
                .thenFinish()
        }
        #expect(seen == [1])
    }

    // MARK: Wrong value

    @Test func aValueThatDoesNotMatch() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit(where: { … }) failed: expected a value matching the predicate, received 7 at tick 1.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(where: { … })

                 tick  received      expected
                    0  subscription
              →     1  7             (a match)  toEmit(where: { … })
            """
        ]) {
            expect(scheduledSubject(on: clock, [(1, 7), (2, 8)]), on: clock).toEmit(where: { $0.isMultiple(of: 2) })
        }
    }

    @Test func aStringThatDoesNotMatchInTheSecondStep() {
        expectFailures([
            """
            thenEmit(where: { … }, within: .ticks(0)) failed: expected a value matching the predicate, received \
            "wrong".

                expect(Publishers.Sequence<Array<String>, Never>)
              ✓   .toEmit("ok")
              ✗   .thenEmit(where: { … }, within: .ticks(0))

                 received      expected
                 subscription
                 "ok"          "ok"       toEmit("ok")
              →  "wrong"       (a match)  thenEmit(where: { … }, within: .ticks(0))
                 finished
            """
        ]) {
            expect(["ok", "wrong"].publisher).toEmit("ok").thenEmit(where: \.isEmpty, within: .ticks(0))
        }
    }

    // MARK: Missing

    @Test func aValueThatNeverArrivesBeforeTheClockGoesIdle() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit(where: { … }) failed: a value matching the predicate never arrived: the clock went idle at tick 0 \
            with nothing scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(where: { … })

                 tick  received      expected
                    0  subscription
              →     0  (nothing)     (a match)  toEmit(where: { … })
            """
        ]) {
            expect(PassthroughSubject<Int, Never>(), on: clock).toEmit(where: { _ in true })
        }
    }

    @Test func aValueThatNeverArrivesWithinTheBudget() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit(where: { … }, within: .seconds(1)) failed: a value matching the predicate did not arrive within \
            1000 ticks (by tick 1000).

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(where: { … }, within: .seconds(1))

                 tick  received      expected
                    0  subscription
              →  1000  (nothing)     (a match)  toEmit(where: { … }, within: .seconds(1))
            """
        ]) {
            let subject = PassthroughSubject<Int, Never>()
            clock.schedule(after: .seconds(2)) { _ = subject }
            expect(subject, on: clock).toEmit(where: { _ in true }, within: .seconds(1))
        }
    }

    @Test func aValueThatIsNotDeliveredSynchronouslyWithoutAClock() {
        expectFailures([
            """
            toEmit(where: { … }) failed: a value matching the predicate never arrived: nothing more was delivered \
            synchronously, and there is no virtual clock to advance (pass one with on:, or bind VirtualClock.current).

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(where: { … })

                 received      expected
                 subscription
              →  (nothing)     (a match)  toEmit(where: { … })
            """
        ]) {
            expect(PassthroughSubject<Int, Never>()).toEmit(where: { _ in true })
        }
    }

    // MARK: Late

    @Test func aMatchingValueThatArrivesAfterTheBudget() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit(where: { … }, within: .ticks(1)) failed: a value matching the predicate did not arrive within 1 \
            tick (by tick 1); it arrived at tick 2, 1 tick late.

                expect(Publishers.Delay<…>)
              ✗   .toEmit(where: { … }, within: .ticks(1))

                 tick  received      expected
                    0  subscription
              →     1  (nothing)     (a match)  toEmit(where: { … }, within: .ticks(1))
                    2  3
                    2  finished
            """
        ]) {
            expect(Just(3).delay(for: .ticks(2), scheduler: clock.scheduler), on: clock)
                .toEmit(where: { $0 == 3 }, within: .ticks(1))
        }
    }

    // MARK: A completion instead of a value

    @Test func finishedInsteadOfAValue() {
        expectFailures([
            """
            toEmit(where: { … }) failed: expected a value matching the predicate, received finished.

                expect(Empty<String, Never>)
              ✗   .toEmit(where: { … })

                 received      expected
                 subscription
              →  finished      (a match)  toEmit(where: { … })
            """
        ]) {
            expect(Empty<String, Never>()).toEmit(where: { _ in true })
        }
    }

    @Test func aFailureInsteadOfAValue() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenEmit(where: { … }) failed: expected a value matching the predicate, received failure(Outage) at tick \
            4.

                expect(PassthroughSubject<Int, Outage>)
              ✓   .toEmit(1)
              ✗   .thenEmit(where: { … })

                 tick  received         expected
                    0  subscription
                    2  1                1          toEmit(1)
              →     4  failure(Outage)  (a match)  thenEmit(where: { … })
            """
        ]) {
            let subject = scheduledSubject(
                on: clock, [(2, 1)], completion: (4, .failure(Outage())), failing: Outage.self
            )
            expect(subject, on: clock).toEmit(1).thenEmit(where: { _ in true })
        }
    }

    // MARK: Bad input

    @Test func aNegativeBudgetIsRejected() {
        expectFailures([
            """
            toEmit(where: { … }, within: .ticks(-1)) failed: its budget is negative (-1 tick); a step cannot \
            wait less than no time — use .ticks(0) for "at the current tick".

                expect(Just<Int>)
              ✗   .toEmit(where: { … }, within: .ticks(-1))

                 received      expected
                 subscription
                 1
                 finished
              →  (nothing)     (a valid step)  toEmit(where: { … }, within: .ticks(-1))
            """
        ]) {
            expect(Just(1)).toEmit(where: { _ in true }, within: .ticks(-1))
        }
    }
}
