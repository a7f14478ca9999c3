import Foundation
import Testing

#if DEBUG && !canImport(Combine)
@testable import Cadence
#else
import Cadence
#endif

@Suite struct AnySchedulerTests {
    /// Production code keeps an erased scheduler in a `Sendable` type and uses it from any task.
    struct Model: Sendable {
        let scheduler: AnySchedulerOf<VirtualScheduler>
    }

    @Test func everyRequirementIsForwardedToTheWrappedScheduler() {
        let (clock, messages) = recordingClock(at: 3)
        let erased = clock.scheduler.eraseToAnyScheduler()
        let log = LockedBox<[String]>([])
        #expect(erased.now == VirtualTime(tick: 3))
        #expect(erased.minimumTolerance == 0)
        erased.schedule(options: nil) { log.append("now@\(clock.now.ticks)") }
        erased.schedule(after: VirtualTime(tick: 5), tolerance: .ticks(1), options: nil) {
            log.append("after@\(clock.now.ticks)")
        }
        let timer = erased.schedule(
            after: VirtualTime(tick: 4), interval: .ticks(3), tolerance: .ticks(9), options: nil
        ) {
            log.append("every@\(clock.now.ticks)")
        }
        #expect(clock.pendingCount == 3)
        clock.advance(by: .ticks(4))
        #expect(log.value == ["now@3", "every@4", "after@5", "every@7"])
        timer.cancel()
        #expect(clock.pendingCount == 0)
        #expect(erased.now == VirtualTime(tick: 7))
        // The tolerance check is the wrapped scheduler's own, under its own name.
        #expect(
            messages.value == [
                "TestScheduler.schedule(after:interval:tolerance:options:_:) was given a tolerance (9 ticks) larger than "
                    + "its interval (3 ticks); virtual time ignores tolerance and runs the action exactly every interval."
            ])
    }

    @Test func theConvenienceOverloadsReachTheWrappedScheduler() {
        let scheduler = VirtualScheduler()
        let erased: AnySchedulerOf<VirtualScheduler> = scheduler.eraseToAnyScheduler()
        let log = LockedBox<[Int64]>([])
        erased.schedule { log.append(scheduler.now.tick) }
        erased.schedule(after: VirtualTime(tick: 2)) { log.append(scheduler.now.tick) }
        let timer = erased.schedule(after: VirtualTime(tick: 3), interval: .ticks(2)) {
            log.append(-scheduler.now.tick)
        }
        scheduler.advance(by: .ticks(5))
        #expect(log.value == [0, 2, -3, -5])
        timer.cancel()
    }

    @Test func schedulersWithOptionsKeepTheirOptionsType() {
        let scheduler = TestScheduler<VirtualTime, String>()
        let erased: AnySchedulerOf<TestScheduler<VirtualTime, String>> = AnyScheduler(scheduler)
        let ran = LockedBox(false)
        erased.schedule(options: "fast") { ran.mutate { $0 = true } }
        scheduler.advance()
        #expect(ran.value)
    }

    @Test func theClosureInitialiserCallsEachClosureForItsRequirement() {
        let calls = LockedBox<[String]>([])
        let erased = AnyScheduler<VirtualTime, Never>(
            minimumTolerance: {
                calls.append("minimumTolerance")
                return .ticks(2)
            },
            now: {
                calls.append("now")
                return VirtualTime(tick: 9)
            },
            scheduleImmediately: { _, action in
                calls.append("immediately")
                action()
            },
            delayed: { date, tolerance, _, action in
                calls.append("delayed \(date) \(tolerance)")
                action()
            },
            interval: { date, interval, _, _, action in
                calls.append("interval \(date) \(interval)")
                action()
                return AnyCancellable { calls.append("cancelled") }
            }
        )
        #expect(erased.now == VirtualTime(tick: 9))
        #expect(erased.minimumTolerance == .ticks(2))
        erased.schedule { calls.append("action") }
        erased.schedule(after: VirtualTime(tick: 1), tolerance: .ticks(3)) { calls.append("action") }
        erased.schedule(after: VirtualTime(tick: 2), interval: .ticks(4), tolerance: 0) { calls.append("action") }
            .cancel()
        #expect(
            calls.value == [
                "now", "minimumTolerance", "immediately", "action", "delayed tick 1 3 ticks", "action",
                "interval tick 2 4 ticks", "action", "cancelled",
            ])
    }

    @Test func anErasedSchedulerDrivesTheSameClockFromASendableModel() async {
        let clock = VirtualClock()
        let model = Model(scheduler: clock.scheduler.eraseToAnyScheduler())
        let log = LockedBox<[Int64]>([])
        await Task.detached {
            model.scheduler.schedule(after: model.scheduler.now.advanced(by: .ticks(4))) { log.append(clock.now.ticks) }
        }.value
        await clock.advance(by: .ticks(4))
        #expect(log.value == [4])
    }

    #if DEBUG && !canImport(Combine)
    @Test func erasingAnErasedSchedulerDoesNotWrapItAgain() {
        let erased = VirtualScheduler().eraseToAnyScheduler()
        #expect(erased.eraseToAnyScheduler().box === erased.box)
        #expect(AnyScheduler(erased).box === erased.box)
        func eraseGenerically<S: Scheduler & Sendable>(_ scheduler: S) -> AnySchedulerOf<S> {
            scheduler.eraseToAnyScheduler()
        }
        #expect(eraseGenerically(erased).box === erased.box)
    }
    #endif
}

@Suite("AnyScheduler of a run loop")
struct RunLoopAnySchedulerTests {
    @Test func aRunLoopErasesAndItsErasedSchedulerRunsWorkOnThatRunLoop() {
        let runLoop = RunLoop.current
        let erased: AnySchedulerOf<RunLoop> = runLoop.eraseToAnyScheduler()
        let ran = LockedBox<[String]>([])
        erased.schedule { ran.append("now") }
        erased.schedule(after: erased.now.advanced(by: .milliseconds(5))) { ran.append("later") }
        let deadline = Date(timeIntervalSinceNow: 10)
        while ran.value.count < 2, Date() < deadline {
            _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
        }
        #expect(ran.value == ["now", "later"])
        #expect(erased.minimumTolerance == runLoop.minimumTolerance)
    }

    @Test func codeTakingAnySchedulerOfRunLoopIsDrivenByRunLoopTest() {
        let scheduler = RunLoop.test
        let erased: AnySchedulerOf<RunLoop> = scheduler.eraseToAnyScheduler()
        let ran = LockedBox<[Int64]>([])
        erased.schedule(after: erased.now.advanced(by: .seconds(1))) { ran.append(scheduler.clock.now.ticks) }
        scheduler.advance(by: .milliseconds(999))
        #expect(ran.value == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(ran.value == [1000])
    }
}
