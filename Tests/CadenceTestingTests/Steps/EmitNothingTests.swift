import Testing

#if DEBUG
@testable import CadenceTesting
#else
import CadenceSupport
import CadenceTesting
#endif

@Suite("toEmitNothing / thenEmitNothing")
struct EmitNothingTests {
    typealias Scripted = ScriptedPublisher<String, Never>

    // MARK: Success

    @Test("Nothing through the window's last tick passes, and the next step sees the event just after it")
    func quietThenValue() {
        let clock = VirtualClock()
        expectNoFailures {
            expect(Scripted.timed([(300, .value("swift"))], on: clock), on: clock)
                .toEmitNothing(for: .ticks(299)).thenEmit("swift")
        }
        #expect(clock.now.ticks == 300)
    }

    @Test("The clock is advanced to the end of the window even when it has nothing to do")
    func advancesIdleClock() {
        let clock = VirtualClock()
        expectNoFailures {
            expect(PassthroughSubject<Int, Never>(), on: clock).toEmitNothing(for: .ticks(50))
        }
        #expect(clock.now.ticks == 50)
        expectNoFailures {
            expect(PassthroughSubject<Int, Never>(), on: clock).toEmitNothing(for: .seconds(1))
        }
        #expect(clock.now.ticks == 1_050)
    }

    @Test("The window starts where the step starts: after an earlier step, at the tick that step ended")
    func windowAfterEarlierStep() {
        let clock = VirtualClock()
        expectNoFailures {
            expect(Scripted.timed([(5, .value("a")), (16, .value("b"))], on: clock), on: clock)
                .toEmit("a").thenEmitNothing(for: .ticks(10)).thenEmit("b", within: .ticks(1))
        }
        #expect(clock.now.ticks == 16)
    }

    @Test(".ticks(0) checks the current tick once the work due at it has run, and does not advance")
    func zeroDuration() {
        let clock = VirtualClock()
        expectNoFailures {
            expect(Scripted.timed([(1, .value("a"))], on: clock), on: clock)
                .toEmitNothing(for: .ticks(0)).thenEmit("a")
        }
        #expect(clock.now.ticks == 1)
    }

    @Test("Work due inside the window that sends nothing is run, and does not fail the step")
    func quietWorkInsideWindow() {
        let clock = VirtualClock()
        let ran = Locked(0)
        for tick in 1...20 {
            clock.schedule(at: VirtualClock.Instant(ticks: Int64(tick))) { ran.withLock { $0 += 1 } }
        }
        expectNoFailures {
            expect(PassthroughSubject<Int, Never>(), on: clock).toEmitNothing(for: .ticks(10))
        }
        #expect(ran.withLock { $0 } == 10)
        #expect(clock.now.ticks == 10)
    }

    @Test("With no clock, nothing delivered synchronously passes at once")
    func withoutClockQuiet() {
        expectNoFailures {
            expect(PassthroughSubject<Int, Never>()).toEmitNothing(for: .seconds(5))
        }
    }

    // MARK: Early

    @Test("A value inside the window is early: the message names the window's end, the tick, and how early")
    func earlyValue() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmitNothing(for: .ticks(299)) failed: expected nothing through tick 299, received "swift" at tick 150, \
            150 ticks early.

                expect(ScriptedPublisher<String, Never>)
              ✗   .toEmitNothing(for: .ticks(299))
                  .thenEmit("swift")  (not checked)

                 tick  received      expected
                    0  subscription
              →   150  "swift"       nothing through tick 299  toEmitNothing(for: .ticks(299))
            """
        ]) {
            expect(Scripted.timed([(150, .value("swift"))], on: clock), on: clock)
                .toEmitNothing(for: .ticks(299)).thenEmit("swift")
        }
        #expect(clock.now.ticks == 150)
    }

    @Test("A value at the window's last tick is 1 tick early")
    func earlyByOneTick() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenEmitNothing(for: .ticks(10)) failed: expected nothing through tick 15, received "b" at tick 15, 1 tick \
            early.

                expect(ScriptedPublisher<String, Never>)
              ✓   .toEmit("a")
              ✗   .thenEmitNothing(for: .ticks(10))

                 tick  received      expected
                    0  subscription
                    5  "a"           "a"                      toEmit("a")
              →    15  "b"           nothing through tick 15  thenEmitNothing(for: .ticks(10))
            """
        ]) {
            expect(Scripted.timed([(5, .value("a")), (15, .value("b"))], on: clock), on: clock)
                .toEmit("a").thenEmitNothing(for: .ticks(10))
        }
    }

    @Test("A completion inside the window is early too")
    func earlyCompletion() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmitNothing(for: .seconds(1)) failed: expected nothing through tick 1000, received finished at tick 400, \
            601 ticks early.

                expect(ScriptedPublisher<String, Never>)
              ✗   .toEmitNothing(for: .seconds(1))

                 tick  received      expected
                    0  subscription
              →   400  finished      nothing through tick 1000  toEmitNothing(for: .seconds(1))
            """
        ]) {
            expect(Scripted.timed([(400, .completion(.finished))], on: clock), on: clock)
                .toEmitNothing(for: .seconds(1))
        }
    }

    @Test("An event already there at the current tick fails .ticks(0)")
    func earlyAtZeroDuration() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmitNothing(for: .ticks(0)) failed: expected nothing through tick 0, received "a" at tick 0, 1 tick early.

                expect(Just<String>)
              ✗   .toEmitNothing(for: .ticks(0))

                 tick  received      expected
                    0  subscription
              →     0  "a"           nothing through tick 0  toEmitNothing(for: .ticks(0))
                    0  finished
            """
        ]) {
            expect(Just("a"), on: clock).toEmitNothing(for: .ticks(0))
        }
    }

    @Test("A value beyond the demand inside the window is early, marked as breaking the contract")
    func earlyContractBreak() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenEmitNothing(for: .ticks(5)) failed: expected nothing through tick 5, received "b" (contract broken) at \
            tick 2, 4 ticks early.

                expect(ScriptedPublisher<String, Never>)
              ✓   .toEmit("a")
              ✗   .thenEmitNothing(for: .ticks(5))

                 tick  received               expected
                    0  subscription
                    0  "a"                    "a"                     toEmit("a")
              →     2  "b" (contract broken)  nothing through tick 5  thenEmitNothing(for: .ticks(5))
            """
        ]) {
            expect(Scripted.timed([(0, .value("a")), (2, .value("b"))], on: clock), on: clock, demand: .max(1))
                .toEmit("a").thenEmitNothing(for: .ticks(5))
        }
    }

    @Test("A value after thenCancel() inside the window is early, said to come after the cancel")
    func earlyAfterCancel() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenEmitNothing(for: .ticks(10)) failed: expected nothing through tick 11, received "late" after the \
            subscription was cancelled at tick 4, 8 ticks early.

                expect(ScriptedPublisher<String, Never>)
              ✓   .toEmit("a")
              ✓   .thenCancel()
              ✗   .thenEmitNothing(for: .ticks(10))

                 tick  received                  expected
                    0  subscription
                    1  "a"                       "a"                      toEmit("a")
              →     4  "late" (contract broken)  nothing through tick 11  thenEmitNothing(for: .ticks(10))
            """
        ]) {
            expect(Scripted.timed([(1, .value("a")), (4, .value("late"))], on: clock), on: clock)
                .toEmit("a").thenCancel().thenEmitNothing(for: .ticks(10))
        }
    }

    @Test("With no clock, an event delivered synchronously fails, and the message says only those can be checked")
    func withoutClockEarly() {
        expectFailures([
            """
            toEmitNothing(for: .ticks(299)) failed: expected nothing for 299 ticks, received "swift" synchronously \
            (with no virtual clock, only what is delivered synchronously can be checked).

                expect(Just<String>)
              ✗   .toEmitNothing(for: .ticks(299))

                 received      expected
                 subscription
              →  "swift"       nothing for 299 ticks  toEmitNothing(for: .ticks(299))
                 finished
            """
        ]) {
            expect(Just("swift")).toEmitNothing(for: .ticks(299))
        }
    }

    @Test("With no clock, a synchronous value beyond the demand fails the step too")
    func withoutClockContractBreak() {
        expectFailures([
            """
            thenEmitNothing(for: .ticks(5)) failed: expected nothing for 5 ticks, received "b" (contract broken) \
            synchronously (with no virtual clock, only what is delivered synchronously can be checked).

                expect(ScriptedPublisher<String, Never>)
              ✓   .toEmit("a")
              ✗   .thenEmitNothing(for: .ticks(5))

                 received               expected
                 subscription
                 "a"                    "a"                  toEmit("a")
              →  "b" (contract broken)  nothing for 5 ticks  thenEmitNothing(for: .ticks(5))
            """
        ]) {
            expect(Scripted.ignoringDemand(["a", "b"]), demand: .max(1)).toEmit("a").thenEmitNothing(for: .ticks(5))
        }
    }

    #if DEBUG
    // MARK: The factory, on the wall clock

    @Test("On the wall clock (the async twin's use), the window is named in milliseconds")
    func wallClockTexts() {
        expectNoFailures {
            let expectation = expect(PassthroughSubject<String, Never>())
            let step = EmitNothingStep(
                recorder: expectation.recorder, window: .milliseconds(250), synchronousOnly: false, wallClock: true
            )
            #expect(step.kind == .window)
            let quiet = step.evaluate([][...], isFinal: false)
            #expect({ if case .pending = quiet { true } else { false } }())
            let event = TimedEvent<String, Never>(.value("swift"), at: .elapsed(.milliseconds(120)))
            guard case let .failed(divergence) = step.evaluate([event][...], isFinal: false) else {
                Issue.record("an event inside the window did not fail the step")
                return
            }
            // The wall-clock driver adds the event's time (" at +120 ms"), as it does for every step.
            #expect(StepText.describe(divergence.reason) == "expected nothing for 250 ms, received \"swift\"")
            #expect(divergence.atEvent && divergence.matched == 0 && divergence.earlyBy == nil)
            #expect(StepText.describe(step.expectation(at: 0, of: 1)) == "nothing for 250 ms")
            let passed = step.evaluate([][...], isFinal: true)
            #expect({ if case .satisfied(consumed: 0) = passed { true } else { false } }())
        }
    }
    #endif

    // MARK: Bad input

    @Test("A negative duration is rejected without advancing the clock")
    func negativeDuration() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmitNothing(for: .ticks(-5)) failed: its duration is negative (-5 ticks); a window cannot be \
            shorter than no time — use .ticks(0) for "nothing at the current tick".

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmitNothing(for: .ticks(-5))

                 tick  received      expected
                    0  subscription
              →     0  (nothing)     (a valid step)  toEmitNothing(for: .ticks(-5))
            """
        ]) {
            expect(PassthroughSubject<Int, Never>(), on: clock).toEmitNothing(for: .ticks(-5))
        }
        #expect(clock.now.ticks == 0)
    }
}
