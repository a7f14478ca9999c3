import Cadence
import Foundation
import Testing

/// `DispatchQueue.immediate` and its kin: every action at once, with another scheduler's time types.
@Suite struct SynchronousSchedulerTests {
    @Test func everyFormRunsTheActionBeforeReturning() {
        let scheduler = DispatchQueue.immediate
        var log: [String] = []
        scheduler.schedule { log.append("now") }
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(1))) { log.append("after") }
        let repeating = scheduler.schedule(after: scheduler.now.advanced(by: 1), interval: 1) { log.append("every") }
        #expect(log == ["now", "after", "every"])
        repeating.cancel()
        #expect(log == ["now", "after", "every"])
    }

    @Test func itsTimeIsTickZeroOfTheTimeTypeAndNeverMoves() {
        #expect(DispatchQueue.immediate.now == DispatchQueue.SchedulerTimeType(virtualTick: 0))
        #expect(RunLoop.immediate.now == RunLoop.SchedulerTimeType(virtualTick: 0))
        #expect(OperationQueue.immediate.now == OperationQueue.SchedulerTimeType(virtualTick: 0))
        let scheduler = DispatchQueue.immediate
        scheduler.schedule(after: scheduler.now.advanced(by: .seconds(5))) {}
        #expect(scheduler.now == DispatchQueue.SchedulerTimeType(virtualTick: 0))
        #expect(scheduler.minimumTolerance == .zero)
    }

    @Test func theErasedFormsRunAtOnceToo() {
        var runs = 0
        let dispatch: AnySchedulerOf<DispatchQueue> = .immediate
        let runLoop: AnySchedulerOf<RunLoop> = .immediate
        let operations: AnySchedulerOf<OperationQueue> = .immediate
        dispatch.schedule { runs += 1 }
        runLoop.schedule { runs += 1 }
        operations.schedule(after: operations.now.advanced(by: .seconds(1))) { runs += 1 }
        #expect(runs == 3)
    }

    @Test func aDebounceOnItEmitsAtOnce() {
        let subject = PassthroughSubject<String, Never>()
        var received: [String] = []
        let subscription = subject.debounce(for: .milliseconds(300), scheduler: DispatchQueue.immediate)
            .sink { received.append($0) }
        subject.send("s")
        subject.send("sw")
        #expect(received == ["s", "sw"])
        subscription.cancel()
    }
}
