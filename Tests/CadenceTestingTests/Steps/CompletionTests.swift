import CadenceTesting
import Testing

@Suite("toFinish / thenFinish")
struct CompletionTests {
    typealias Scripted = ScriptedPublisher<Int, TestError>

    // MARK: Success

    @Test("toFinish() accepts a finish delivered synchronously, with no clock")
    func finishWithoutClock() {
        expectNoFailures {
            expect(Empty<Int, Never>()).toFinish()
            expect(Just(1)).toEmit(1).thenFinish()
        }
    }

    @Test("thenFinish waits on the clock; a budget is met by a finish at its last tick, .ticks(0) at the current one")
    func finishOnClock() {
        let clock = VirtualClock()
        expectNoFailures {
            expect(Scripted.timed([(1, .value(1)), (4, .completion(.finished))], on: clock), on: clock)
                .toEmit(1).thenFinish()
            expect(Scripted.timed([(9, .completion(.finished))], on: clock), on: clock).toFinish(within: .ticks(5))
            expect(Empty<Int, Never>(), on: clock).toFinish(within: .ticks(0))
        }
        #expect(clock.now.ticks == 9)
    }

    // MARK: Wrong completion or a value instead

    @Test("A failure instead of a finish fails the step at the failure")
    func failureInstead() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenFinish() failed: expected finished, received failure(TestError.offline) at tick 3.

                expect(ScriptedPublisher<Int, TestError>)
              ✓   .toEmit(1)
              ✗   .thenFinish()

                 tick  received                    expected
                    0  subscription
                    1  1                           1         toEmit(1)
              →     3  failure(TestError.offline)  finished  thenFinish()
            """
        ]) {
            expect(Scripted.timed([(1, .value(1)), (3, .completion(.failure(.offline)))], on: clock), on: clock)
                .toEmit(1).thenFinish()
        }
    }

    @Test("A value instead of a finish fails the step at the value")
    func valueInstead() {
        expectFailures([
            """
            toFinish() failed: expected finished, received 1.

                expect(Just<Int>)
              ✗   .toFinish()

                 received      expected
                 subscription
              →  1             finished  toFinish()
                 finished
            """
        ]) {
            expect(Just(1)).toFinish()
        }
    }

    // MARK: Missing

    @Test("No finish before the clock goes idle")
    func missingClockIdle() {
        let clock = VirtualClock()
        expectFailures([
            """
            toFinish() failed: the finish never arrived: the clock went idle at tick 0 with nothing scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toFinish()

                 tick  received      expected
                    0  subscription
              →     0  (nothing)     finished  toFinish()
            """
        ]) {
            expect(PassthroughSubject<Int, Never>(), on: clock).toFinish()
        }
    }

    @Test("No finish delivered synchronously, with no clock to advance")
    func missingWithoutClock() {
        expectFailures([
            """
            toFinish() failed: the finish never arrived: nothing more was delivered synchronously, and there is no \
            virtual clock to advance (pass one with on:, or bind VirtualClock.current).

                expect(PassthroughSubject<Int, Never>)
              ✗   .toFinish()

                 received      expected
                 subscription
              →  (nothing)     finished  toFinish()
            """
        ]) {
            expect(PassthroughSubject<Int, Never>()).toFinish()
        }
    }

    @Test("A finish after the budget is reported late, by how much")
    func late() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenFinish(within: .ticks(2)) failed: the finish did not arrive within 2 ticks (by tick 3); it arrived at \
            tick 7, 4 ticks late.

                expect(ScriptedPublisher<Int, TestError>)
              ✓   .toEmit(1)
              ✗   .thenFinish(within: .ticks(2))

                 tick  received      expected
                    0  subscription
                    1  1             1         toEmit(1)
              →     3  (nothing)     finished  thenFinish(within: .ticks(2))
                    7  finished
            """
        ]) {
            expect(Scripted.timed([(1, .value(1)), (7, .completion(.finished))], on: clock), on: clock)
                .toEmit(1).thenFinish(within: .ticks(2))
        }
    }

    @Test("With .ticks(0), a finish one tick later is late")
    func zeroBudget() {
        let clock = VirtualClock()
        expectFailures([
            """
            toFinish(within: .ticks(0)) failed: the finish did not arrive within 0 ticks (by tick 0); it arrived at \
            tick 1, 1 tick late.

                expect(ScriptedPublisher<Int, TestError>)
              ✗   .toFinish(within: .ticks(0))

                 tick  received      expected
                    0  subscription
              →     0  (nothing)     finished  toFinish(within: .ticks(0))
                    1  finished
            """
        ]) {
            expect(Scripted.timed([(1, .completion(.finished))], on: clock), on: clock).toFinish(within: .ticks(0))
        }
    }

    // MARK: Bad input

    @Test("A negative budget is rejected without waiting")
    func negativeBudget() {
        let clock = VirtualClock()
        expectFailures([
            """
            toFinish(within: .ticks(-1)) failed: its budget is negative (-1 tick); a step cannot wait less \
            than no time — use .ticks(0) for "at the current tick".

                expect(ScriptedPublisher<Int, TestError>)
              ✗   .toFinish(within: .ticks(-1))

                 tick  received      expected
                    0  subscription
              →     0  (nothing)     (a valid step)  toFinish(within: .ticks(-1))
            """
        ]) {
            expect(Scripted.timed([(4, .completion(.finished))], on: clock), on: clock).toFinish(within: .ticks(-1))
        }
        #expect(clock.now.ticks == 0)
    }
}
