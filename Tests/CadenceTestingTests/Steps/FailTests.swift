import CadenceTesting
import Testing

@Suite("toFail / thenFail")
struct FailTests {
    typealias Scripted = ScriptedPublisher<Int, TestError>

    // MARK: Success

    @Test("toFail() accepts any failure delivered synchronously, with no clock")
    func anyFailureWithoutClock() {
        expectNoFailures {
            expect(Fail<Int, TestError>(error: .offline)).toFail()
        }
    }

    @Test("toFail(with:) accepts an equal error; toFail(where:) one its predicate accepts")
    func equalAndPredicate() {
        expectNoFailures {
            expect(Fail<Int, TestError>(error: .offline)).toFail(with: TestError.offline)
            expect(Fail<Int, TestError>(error: .timeout)).toFail(where: { $0 == .timeout })
        }
    }

    @Test("toFail(with:) matches an any Error failure by casting it to the expected error's type")
    func anyErrorFailure() {
        expectNoFailures {
            expect(Fail<Int, any Error>(error: TestError.offline)).toFail(with: TestError.offline)
            expect(Fail<Int, any Error>(error: OtherError(code: 7))).toFail(with: OtherError(code: 7))
            expect(Fail<Int, any Error>(error: OtherError(code: 7))).toFail(where: { $0 is OtherError })
        }
    }

    @Test("thenFail twins read after a value, and wait on the clock for the failure")
    func thenFailOnClock() {
        let clock = VirtualClock()
        expectNoFailures {
            expect(Scripted.timed([(1, .value(1)), (4, .completion(.failure(.offline)))], on: clock), on: clock)
                .toEmit(1).thenFail()
            expect(Scripted.timed([(6, .value(1)), (9, .completion(.failure(.offline)))], on: clock), on: clock)
                .toEmit(1).thenFail(with: TestError.offline, within: .ticks(3))
            expect(Scripted.timed([(10, .value(1)), (10, .completion(.failure(.timeout)))], on: clock), on: clock)
                .toEmit(1).thenFail(where: { $0 == .timeout }, within: .ticks(0))
        }
        #expect(clock.now.ticks == 10)
    }

    @Test("A budget is met by a failure exactly at its last tick; .ticks(0) by one at the current tick")
    func budgetBoundaries() {
        let clock = VirtualClock()
        expectNoFailures {
            expect(Scripted.timed([(5, .completion(.failure(.offline)))], on: clock), on: clock)
                .toFail(within: .ticks(5))
            expect(Fail<Int, TestError>(error: .offline), on: clock).toFail(within: .ticks(0))
        }
        #expect(clock.now.ticks == 5)
    }

    @Test("The predicate runs with no lock held: it may read the expectation it belongs to")
    func predicateReadsExpectation() {
        expectNoFailures {
            let expectation = expect(Fail<Int, TestError>(error: .offline))
            expectation.toFail(where: { [unowned expectation] error in
                error == .offline && expectation.events.count == 2 && !expectation.hasFailed
            })
        }
    }

    // MARK: Wrong completion or a value instead

    @Test("A finish instead of a failure fails the step at the finish")
    func finishedInstead() {
        let clock = VirtualClock()
        expectFailures([
            """
            toFail() failed: expected a failure, received finished at tick 2.

                expect(ScriptedPublisher<Int, TestError>)
              ✗   .toFail()

                 tick  received      expected
                    0  subscription
              →     2  finished      failure   toFail()
            """
        ]) {
            expect(Scripted.timed([(2, .completion(.finished))], on: clock), on: clock).toFail()
        }
    }

    @Test("A value instead of a failure fails the step at the value")
    func valueInstead() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenFail(with: TestError.offline) failed: expected failure(TestError.offline), received 2 at tick 1.

                expect(ScriptedPublisher<Int, TestError>)
              ✓   .toEmit(1)
              ✗   .thenFail(with: TestError.offline)

                 tick  received      expected
                    0  subscription
                    0  1             1                           toEmit(1)
              →     1  2             failure(TestError.offline)  thenFail(with: TestError.offline)
            """
        ]) {
            expect(Scripted.timed([(0, .value(1)), (1, .value(2))], on: clock), on: clock)
                .toEmit(1).thenFail(with: TestError.offline)
        }
    }

    /// What `toFail(with: TestError.offline)` reports of a `Fail` that fails with `.timeout`, however the error is
    /// written.
    static let offlineExpectedTimeoutReceived = """
        toFail(with: TestError.offline) failed: expected failure(TestError.offline), received \
        failure(TestError.timeout).

            expect(Fail<Int, TestError>)
          ✗   .toFail(with: TestError.offline)

             received                    expected
             subscription
          →  failure(TestError.timeout)  failure(TestError.offline)  toFail(with: TestError.offline)
        """

    @Test("A different error shows both errors")
    func differentError() {
        expectFailures([Self.offlineExpectedTimeoutReceived]) {
            expect(Fail<Int, TestError>(error: .timeout)).toFail(with: TestError.offline)
        }
    }

    @Test("toFail(with:) takes the publisher's own Failure, so a case needs no type: .offline")
    func leadingDotFailure() async {
        let clock = VirtualClock()
        expectNoFailures {
            expect(Fail<Int, TestError>(error: .offline)).toFail(with: .offline)
            expect(Scripted.timed([(1, .value(1)), (3, .completion(.failure(.timeout)))], on: clock), on: clock)
                .toEmit(1).thenFail(with: .timeout, within: .ticks(2))
        }
        await expectWallClockFailures([]) {
            await expect(Fail<Int, TestError>(error: .offline)).toFail(with: .offline, timeout: .seconds(60))
            await expect(Just(1).setFailureType(to: TestError.self).append(Fail(error: .timeout)))
                .toEmit(1, timeout: .seconds(60))
                .thenFail(with: .timeout, timeout: .seconds(60))
        }
    }

    @Test("toFail(with: .case) of the publisher's Failure reads and fails as toFail(with: Type.case) does")
    func leadingDotFailureFails() async {
        expectFailures([Self.offlineExpectedTimeoutReceived]) {
            expect(Fail<Int, TestError>(error: .timeout)).toFail(with: .offline)
        }
        await expectWallClockFailures(
            [
                """
                thenFail(with: TestError.offline, timeout: .seconds(60)) failed: expected failure(TestError.offline), \
                received failure(TestError.timeout) at +… ms.
                """
            ], headlinesOnly: true
        ) {
            await expect(Just(1).setFailureType(to: TestError.self).append(Fail(error: .timeout)))
                .toEmit(1, timeout: .seconds(60))
                .thenFail(with: .offline, timeout: .seconds(60))
        }
    }

    @Test("An any Error failure of another type shows both errors")
    func otherErrorType() {
        expectFailures([
            """
            toFail(with: TestError.offline) failed: expected failure(TestError.offline), received \
            failure(OtherError(code: 7)).

                expect(Fail<Int, Error>)
              ✗   .toFail(with: TestError.offline)

                 received                      expected
                 subscription
              →  failure(OtherError(code: 7))  failure(TestError.offline)  toFail(with: TestError.offline)
            """
        ]) {
            expect(Fail<Int, any Error>(error: OtherError(code: 7))).toFail(with: TestError.offline)
        }
    }

    @Test("A failure the predicate rejects fails the step, showing the error")
    func predicateRejects() {
        expectFailures([
            """
            toFail(where: { … }) failed: expected a failure matching the predicate, received failure(TestError.offline).

                expect(Fail<Int, TestError>)
              ✗   .toFail(where: { … })

                 received                    expected
                 subscription
              →  failure(TestError.offline)  failure(where: …)  toFail(where: { … })
            """
        ]) {
            expect(Fail<Int, TestError>(error: .offline)).toFail(where: { $0 == .timeout })
        }
    }

    // MARK: Missing

    @Test("No failure before the clock goes idle")
    func missingClockIdle() {
        let clock = VirtualClock()
        expectFailures([
            """
            toFail() failed: a failure never arrived: the clock went idle at tick 3 with nothing scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time.

                expect(PassthroughSubject<Int, TestError>)
              ✗   .toFail()

                 tick  received      expected
                    0  subscription
              →     3  (nothing)     failure   toFail()
            """
        ]) {
            clock.schedule(at: VirtualClock.Instant(ticks: 3)) {}
            expect(PassthroughSubject<Int, TestError>(), on: clock).toFail()
        }
    }

    @Test("No failure delivered synchronously, with no clock to advance")
    func missingWithoutClock() {
        expectFailures([
            """
            toFail(with: TestError.offline) failed: failure(TestError.offline) never arrived: nothing more was \
            delivered synchronously, and there is no virtual clock to advance (pass one with on:, or bind \
            VirtualClock.current).

                expect(PassthroughSubject<Int, TestError>)
              ✗   .toFail(with: TestError.offline)

                 received      expected
                 subscription
              →  (nothing)     failure(TestError.offline)  toFail(with: TestError.offline)
            """
        ]) {
            expect(PassthroughSubject<Int, TestError>()).toFail(with: TestError.offline)
        }
    }

    @Test("A failure after the budget is reported late, by how much")
    func late() {
        let clock = VirtualClock()
        expectFailures([
            """
            toFail(where: { … }, within: .ticks(5)) failed: a failure matching the predicate did not arrive within 5 \
            ticks (by tick 5); it arrived at tick 8, 3 ticks late.

                expect(ScriptedPublisher<Int, TestError>)
              ✗   .toFail(where: { … }, within: .ticks(5))

                 tick  received                    expected
                    0  subscription
              →     5  (nothing)                   failure(where: …)  toFail(where: { … }, within: .ticks(5))
                    8  failure(TestError.offline)
            """
        ]) {
            expect(Scripted.timed([(8, .completion(.failure(.offline)))], on: clock), on: clock)
                .toFail(where: { $0 == .offline }, within: .ticks(5))
        }
    }

    @Test("With .ticks(0), a failure one tick later is late")
    func zeroBudget() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenFail(within: .ticks(0)) failed: a failure did not arrive within 0 ticks (by tick 0); it arrived at \
            tick 1, 1 tick late.

                expect(ScriptedPublisher<Int, TestError>)
              ✓   .toEmit(1)
              ✗   .thenFail(within: .ticks(0))

                 tick  received                    expected
                    0  subscription
                    0  1                           1         toEmit(1)
              →     0  (nothing)                   failure   thenFail(within: .ticks(0))
                    1  failure(TestError.offline)
            """
        ]) {
            expect(
                Scripted.timed([(0, .value(1)), (1, .completion(.failure(.offline)))], on: clock), on: clock
            ).toEmit(1).thenFail(within: .ticks(0))
        }
    }

    @Test("A wrong error after the budget is not called late: the budget failure stands alone")
    func wrongErrorAfterBudget() {
        let clock = VirtualClock()
        expectFailures([
            """
            toFail(with: TestError.offline, within: .ticks(2)) failed: failure(TestError.offline) did not arrive \
            within 2 ticks (by tick 2).

                expect(ScriptedPublisher<Int, TestError>)
              ✗   .toFail(with: TestError.offline, within: .ticks(2))

                 tick  received                    expected
                    0  subscription
              →     2  (nothing)                   failure(TestError.offline)  toFail(with: TestError.offline, within: .ticks(2))
                    4  failure(TestError.timeout)
            """
        ]) {
            expect(Scripted.timed([(4, .completion(.failure(.timeout)))], on: clock), on: clock)
                .toFail(with: TestError.offline, within: .ticks(2))
        }
    }

    // MARK: Bad input

    @Test("A negative budget is rejected without waiting")
    func negativeBudget() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenFail(with: TestError.offline, within: .ticks(-3)) failed: its budget is negative (-3 ticks); a \
            step cannot wait less than no time — use .ticks(0) for "at the current tick".

                expect(ScriptedPublisher<Int, TestError>)
              ✓   .toEmit(1)
              ✗   .thenFail(with: TestError.offline, within: .ticks(-3))

                 tick  received      expected
                    0  subscription
                    0  1             1               toEmit(1)
              →     0  (nothing)     (a valid step)  thenFail(with: TestError.offline, within: .ticks(-3))
            """
        ]) {
            expect(Scripted.timed([(0, .value(1)), (5, .completion(.failure(.offline)))], on: clock), on: clock)
                .toEmit(1).thenFail(with: TestError.offline, within: .ticks(-3))
        }
        #expect(clock.now.ticks == 0)
    }
}
