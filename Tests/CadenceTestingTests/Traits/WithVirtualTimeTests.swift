import CadenceTesting
import Foundation
import Testing

@Suite struct WithVirtualTimeTests {
    // MARK: The clock

    @Test func theBodyRunsOnAFreshClockThatItsSchedulersShareAndThatEndsAfterwards() throws {
        #expect(VirtualClock.current == nil)
        let (clock, value) = withVirtualTime { clock in
            #expect(VirtualClock.current === clock)
            #expect(DispatchQueue.test.clock === clock)
            #expect(clock.now.ticks == 0)
            #expect(!clock.hasEnded)
            return (clock, 42)
        }
        #expect(value == 42)
        #expect(clock.hasEnded)
        #expect(VirtualClock.current == nil)
    }

    @Test func expectInsideTheBodyDrivesItsClock() throws {
        expectFailures([]) {
            let clock = withVirtualTime { clock in
                expect(Just(1).delay(for: .seconds(3), scheduler: DispatchQueue.test)).toEmit(1).thenFinish()
                #expect(clock.now.ticks == 3000)
                return clock
            }
            #expect(clock.now.ticks == 3000)
        }
    }

    @Test func theAsyncFormKeepsTheClockAcrossSuspensionsAndEndsIt() async throws {
        let clock = await withVirtualTime { clock in
            await Task.yield()
            #expect(VirtualClock.current === clock)
            let inChild = await Task { VirtualClock.current }.value
            #expect(inChild === clock)
            return clock
        }
        #expect(clock.hasEnded)
        #expect(VirtualClock.current == nil)
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func theAsyncFormWakesSleepersWhenItDrains() async throws {
        let woke = Synchronized<Int64?>(nil)
        // A test of the drain: it leaves its sleeper to it on purpose.
        let (clock, sleeper) = await withVirtualTime(leftovers: .allowed) { clock in
            let sleeper = Task.immediate {
                try? await clock.sleep(for: .seconds(2))
                woke.value = clock.now.ticks
            }
            await Task.yield()
            #expect(clock.pendingCount == 1)
            return (clock, sleeper)
        }
        await sleeper.value
        #expect(woke.value == 2000)
        #expect(clock.now.ticks == 2000)
        #expect(clock.pendingCount == 0)
    }

    @MainActor @Test func theAsyncFormRunsTheBodyOnTheCallersActor() async {
        var steps: [Int64] = []
        await withVirtualTime { clock in
            MainActor.assertIsolated()
            await Task.yield()
            await clock.advance(by: .milliseconds(5))
            steps.append(clock.now.ticks)
        }
        #expect(steps == [5])
    }

    @Test func callsNestWithAClockEach() throws {
        withVirtualTime { outer in
            outer.advance(by: .seconds(1))
            let inner = withVirtualTime { inner in
                #expect(inner !== outer)
                #expect(VirtualClock.current === inner)
                #expect(inner.now.ticks == 0)
                return inner
            }
            #expect(inner.hasEnded)
            #expect(!outer.hasEnded)
            #expect(VirtualClock.current === outer)
            #expect(outer.now.ticks == 1000)
        }
    }

    @Test func anInnerCallReportsItsLateEventsWhenItReturns() throws {
        // The reporter writes into `order` too, so the order shows whether the report came before the return.
        let order = Synchronized<[String]>([])
        let reporter = FailureReporter { failure in order.update { $0.append("reported: " + failure.message) } }
        FailureReporter.$current.withValue(reporter) {
            withVirtualTime { _ in
                withVirtualTime { _ in
                    let subject = CurrentValueSubject<Int, Never>(1)
                    expect(subject).toEmit(1)
                    subject.send(2)
                }
                order.update { $0.append("inner returned") }
            }
        }
        #expect(order.value == ["reported: " + lateTwoMessage, "inner returned"])
    }

    @Test func aThrowingBodyEndsTheClockAndRethrows() throws {
        let box = Synchronized<VirtualClock?>(nil)
        let runs = Synchronized(0)
        expectFailures([]) {
            #expect(throws: BodyError.self) {
                try withVirtualTime { clock in
                    box.value = clock
                    clock.schedule(after: .seconds(1)) { runs.update { $0 += 1 } }
                    throw BodyError()
                }
            }
        }
        #expect(box.value?.hasEnded == true)
        #expect(runs.value == 0)
    }

    @Test func theAsyncFormRethrows() async throws {
        await #expect(throws: BodyError.self) {
            try await withVirtualTime { _ in
                await Task.yield()
                throw BodyError()
            }
        }
    }

    // MARK: What it reports

    @Test func lateOverFulfilmentIsReportedAtTheExpectation() throws {
        var line = 0
        let failures = recordingFailures {
            withVirtualTime { _ in
                let subject = CurrentValueSubject<Int, Never>(1)
                line = #line + 1
                expect(subject).toEmit(1)
                subject.send(2)
                subject.send(completion: .finished)
            }
        }
        #expect(
            failures.map(\.message) == [
                """
                expect(CurrentValueSubject<Int, Never>) received 2 events after its chain had ended: 2 at tick 0, \
                finished at tick 0.

                    expect(CurrentValueSubject<Int, Never>)
                  ✓   .toEmit(1)

                     tick  received      expected
                        0  subscription
                        0  1             1          toEmit(1)
                  →     0  2             (no step)
                        0  finished      (no step)
                """
            ])
        #expect(failures.map(\.location.line) == [line])
    }

    @Test func anEndlessTimerIsNotedAtTheCall() throws {
        var line = 0
        let failures = recordingFailures {
            // A test of the opt-out's note: it leaves its endless timer running on purpose.
            line = #line + 1
            withVirtualTime(horizon: .seconds(5), leftovers: .allowed) { clock in
                clock.schedule(at: clock.now, every: .seconds(2)) {}
            }
        }
        #expect(
            failures.map(\.message) == [
                """
                The virtual clock was still busy .seconds(5) after the body returned (at tick 0): 1 scheduled action, \
                due at tick 6000, never ran. An endless repeating timer, or work that keeps rescheduling itself? Cancel \
                it before the body returns, or give withVirtualTime(horizon:) a longer horizon.
                """
            ])
        #expect(failures.map(\.location.line) == [line])
    }

    @Test func aTimerThatNeverIdlesStopsAtTheActionLimit() throws {
        expectFailures([
            """
            The virtual clock was still busy after running 100,000 actions since the body returned (at tick 0; it \
            stopped at tick 99999): 1 scheduled action, due at tick 100000, never ran. An endless repeating \
            timer, or work that keeps rescheduling itself? Cancel it before the body returns.
            """
        ]) {
            // A test of the drain's action limit: it leaves a timer that never idles on purpose.
            withVirtualTime(leftovers: .allowed) { clock in
                _ = clock.schedule(at: clock.now, every: .ticks(1)) {}
            }
        }
    }

    @Test func workLeftBehindFailsByDefault() throws {
        expectFailures([
            """
            The body returned at tick 500 and left work on the virtual clock:
              5 scheduled actions, due at ticks 2500, 3500, 4500 and later
            Finish, cancel or await that work before the body returns, or let this test leave it with \
            withVirtualTime(leftovers: .allowed).
            """
        ]) {
            withVirtualTime(horizon: .seconds(1)) { clock in
                clock.advance(by: .milliseconds(500))
                for seconds in [5, 2, 3, 4, 4] {
                    clock.schedule(after: .seconds(seconds)) {}
                }
            }
        }
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func aSleepingTaskIsWorkLeftBehind() async throws {
        let line = #line + 12
        await expectFailures([
            """
            The body returned at tick 0 and left work on the virtual clock:
              a task asleep in VirtualClock.sleep(for:) at CadenceTestingTests/WithVirtualTimeTests.swift:\(line), \
            since tick 0, until tick 10000
            Finish, cancel or await that work before the body returns, or let this test leave it with \
            withVirtualTime(leftovers: .allowed).
            """
        ]) {
            let sleeper = await withVirtualTime(horizon: .zero) { clock in
                await Task.yield()
                return Task.immediate { try await clock.sleep(for: .seconds(10)) }
            }
            await #expect(throws: CancellationError.self) { try await sleeper.value }
        }
    }

    @Test func aHorizonOfZeroStillRunsWhatIsDueNow() throws {
        let runs = Synchronized(0)
        expectFailures([]) {
            withVirtualTime(horizon: .zero) { clock in
                _ = clock.schedule(after: .zero) { runs.update { $0 += 1 } }
            }
        }
        #expect(runs.value == 1)
    }

    @Test func aNegativeHorizonIsReported() throws {
        expectFailures([
            """
            withVirtualTime(horizon:) was given a negative horizon (-500 ticks); time never goes backwards, so \
            only the work already due when the body returned (at tick 0) ran.
            """
        ]) {
            withVirtualTime(horizon: .milliseconds(-500)) { _ in }
        }
    }

    @Test func clockMisuseIsReportedAtTheCall() throws {
        var line = 0
        let failures = recordingFailures {
            line = #line + 1
            withVirtualTime { clock in
                clock.schedule(at: clock.now, every: .zero) {}.cancel()
            }
        }
        #expect(
            failures.map(\.message) == [
                "VirtualClock.schedule(at:every:) was given a repeat interval of 0.0 seconds; an interval must be "
                    + "positive, so the action repeats every tick (1 ms) instead."
            ])
        #expect(failures.map(\.location.line) == [line])
    }

    @Test func clocksTheBodyMakesReportIntoTheTestToo() throws {
        var line = 0
        let failures = recordingFailures {
            line = #line + 1
            withVirtualTime { _ in
                let own = VirtualClock()
                own.advance(to: .init(ticks: -3))
            }
        }
        #expect(
            failures.map(\.message) == [
                "VirtualClock.advance(to:) was given tick -3, which is before now (tick 0); time never goes backwards, so "
                    + "the clock stays at tick 0."
            ])
        #expect(failures.map(\.location.line) == [line])
    }

    @Test(.virtualTime) func aCallInsideATraitsTestGetsItsOwnClockAndRestoresTheTests() throws {
        let testClock = try #require(VirtualClock.current)
        testClock.advance(by: .seconds(1))
        let inner = withVirtualTime { clock in
            #expect(clock !== testClock)
            #expect(DispatchQueue.test.clock === clock)
            return clock
        }
        #expect(inner.hasEnded)
        #expect(VirtualClock.current === testClock)
        #expect(DispatchQueue.test.now == DispatchQueue.SchedulerTimeType(virtualTick: 1000))
    }

    @Test func aBodyThatNeverUsesTimeReportsNothing() throws {
        expectFailures([]) {
            let clock = withVirtualTime { $0 }
            #expect(clock.now.ticks == 0)
            #expect(clock.hasEnded)
        }
    }

    @Test(.quietKnownIssues) func lateOverFulfilmentIsRecordedAsAnIssueInTheRunningTest() {
        withKnownIssue {
            withVirtualTime { _ in
                let subject = CurrentValueSubject<Int, Never>(1)
                expect(subject).toEmit(1)
                subject.send(2)
            }
        } matching: { issue in
            issue.comments.map(\.rawValue) == [lateTwoMessage] && isError(issue)
        }
    }
}

private struct BodyError: Error {}
