import CadenceTesting
import Foundation
import Testing

@Suite("UnimplementedScheduler")
struct UnimplementedSchedulerTests {
    static let notRun = "; an unimplemented scheduler runs nothing, so the action was not run."

    @Test("schedule(options:_:) reports a failure naming the scheduler and the method, and does not run the action")
    func scheduleNow() {
        let ran = Synchronized(false)
        expectFailures([
            "DispatchQueue.unimplemented(\"search\") was asked to schedule(options:_:) an action to run as soon as "
                + "possible" + Self.notRun
        ]) {
            DispatchQueue.unimplemented("search").schedule { ran.withLock { $0 = true } }
        }
        #expect(!ran.withLock { $0 })
    }

    @Test("schedule(after:tolerance:options:_:) says when the action was due")
    func scheduleAfter() {
        expectFailures([
            "DispatchQueue.unimplemented() was asked to schedule(after:tolerance:options:_:) an action due in 300 "
                + "ticks" + Self.notRun,
            "DispatchQueue.unimplemented() was asked to schedule(after:tolerance:options:_:) an action due in 1 tick"
                + Self.notRun,
            "DispatchQueue.unimplemented() was asked to schedule(after:tolerance:options:_:) an action due now"
                + Self.notRun,
        ]) {
            let scheduler = DispatchQueue.unimplemented()
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(300))) {}
            scheduler.schedule(after: scheduler.now.advanced(by: .microseconds(10))) {}
            scheduler.schedule(after: scheduler.now) {}
        }
    }

    @Test("schedule(after:interval:tolerance:options:_:) says when and how often, and returns an inert cancellable")
    func scheduleRepeating() {
        expectFailures([
            "RunLoop.unimplemented(\"ticker\") was asked to schedule(after:interval:tolerance:options:_:) an action "
                + "due in 5 ticks, repeating every 1000 ticks" + Self.notRun,
            "RunLoop.unimplemented(\"ticker\") was asked to schedule(after:interval:tolerance:options:_:) an action "
                + "due now, repeating every 1 tick" + Self.notRun,
        ]) {
            let scheduler = RunLoop.unimplemented("ticker")
            let due = scheduler.now.advanced(by: .milliseconds(5))
            let first = scheduler.schedule(after: due, interval: .seconds(1)) {}
            let second = scheduler.schedule(after: scheduler.now, interval: .milliseconds(1)) {}
            first.cancel()
            second.cancel()
        }
    }

    @Test("each factory names its scheduler")
    func names() {
        #expect(DispatchQueue.unimplemented().description == "DispatchQueue.unimplemented()")
        #expect(DispatchQueue.unimplemented("a \"b\"").description == #"DispatchQueue.unimplemented("a \"b\"")"#)
        #expect(RunLoop.unimplemented("r").description == "RunLoop.unimplemented(\"r\")")
        #expect(OperationQueue.unimplemented().description == "OperationQueue.unimplemented()")
        #expect(VirtualScheduler.unimplemented("v").description == "VirtualScheduler.unimplemented(\"v\")")
        #expect(UnimplementedSchedulerOf<DispatchQueue>().description == "UnimplementedScheduler()")
        #expect(UnimplementedScheduler<VirtualTime, Never>("u").description == "UnimplementedScheduler(\"u\")")
    }

    @Test("OperationQueue's and VirtualScheduler's report the same way")
    func otherTimeTypes() {
        expectFailures([
            "OperationQueue.unimplemented() was asked to schedule(options:_:) an action to run as soon as possible"
                + Self.notRun,
            "VirtualScheduler.unimplemented() was asked to schedule(after:tolerance:options:_:) an action due in 7 "
                + "ticks" + Self.notRun,
        ]) {
            OperationQueue.unimplemented().schedule {}
            let virtual = VirtualScheduler.unimplemented()
            virtual.schedule(after: virtual.now.advanced(by: .ticks(7))) {}
        }
    }

    @Test("reading now and minimumTolerance is not a failure: tick 0 and zero")
    func nowIsNotAFailure() {
        expectNoFailures {
            let dispatch = DispatchQueue.unimplemented()
            #expect(dispatch.now == DispatchQueue.SchedulerTimeType(virtualTick: 0))
            #expect(dispatch.minimumTolerance == .zero)
            #expect(VirtualScheduler.unimplemented().now == VirtualTime(tick: 0))
            #expect(RunLoop.unimplemented().now == RunLoop.SchedulerTimeType(virtualTick: 0))
        }
    }

    static let ranAnyway = "; an unimplemented scheduler must not be used at all. The action ran at once."

    @Test("the properties, as combine-schedulers spells them, report every use, time reads included, and run actions")
    func properties() {
        let runs = Synchronized(0)
        expectFailures([
            "RunLoop.unimplemented was asked for its now; an unimplemented scheduler must not be used at all.",
            "RunLoop.unimplemented was asked for its minimumTolerance; an unimplemented scheduler must not be used at "
                + "all.",
            "RunLoop.unimplemented was asked to schedule(options:_:) an action to run as soon as possible"
                + Self.ranAnyway,
            "DispatchQueue.unimplemented was asked to schedule(after:tolerance:options:_:) an action due now"
                + Self.ranAnyway,
            "OperationQueue.unimplemented was asked to schedule(after:interval:tolerance:options:_:) an action due "
                + "in 1000 ticks, repeating every 1000 ticks" + Self.ranAnyway,
            "AnySchedulerOf<DispatchQueue>.unimplemented was asked to schedule(options:_:) an action to run as soon "
                + "as possible" + Self.ranAnyway,
        ]) {
            let scheduler = RunLoop.unimplemented
            _ = scheduler.now
            _ = scheduler.minimumTolerance
            scheduler.schedule { runs.withLock { $0 += 1 } }
            DispatchQueue.unimplemented.schedule(
                after: DispatchQueue.SchedulerTimeType(virtualTick: 0), tolerance: .zero, options: nil
            ) { runs.withLock { $0 += 1 } }
            _ = OperationQueue.unimplemented.schedule(
                after: OperationQueue.SchedulerTimeType(virtualTick: 1000), interval: .seconds(1), tolerance: .zero,
                options: nil
            ) { runs.withLock { $0 += 1 } }
            let erased: AnySchedulerOf<DispatchQueue> = .unimplemented
            erased.schedule { runs.withLock { $0 += 1 } }
        }
        #expect(runs.withLock { $0 } == 4)
    }

    @Test("a property's scheduler reports to the reporter in force where it is used, not where it was made")
    func propertyReportsWhereUsed() {
        let scheduler = DispatchQueue.unimplemented
        expectFailures([
            "DispatchQueue.unimplemented was asked for its now; an unimplemented scheduler must not be used at all."
        ]) {
            _ = scheduler.now
        }
    }

    @Test("a failure is reported at the line that made the scheduler, not the one that used it")
    func location() {
        let line = #line + 2
        let failures = recordingFailures {
            let scheduler = DispatchQueue.unimplemented("here")
            useScheduler(scheduler)
        }
        #expect(
            failures.map(\.location) == [
                SourceCodeLocation(fileID: #fileID, filePath: #filePath, line: UInt(line), column: 56)
            ])
    }

    @Test("a failure goes to the reporter resolved when the scheduler was made, whoever uses it later")
    func reporterOfCreation() {
        let log = FailureLog()
        let scheduler = FailureReporter.$current.withValue(log.reporter) { DispatchQueue.unimplemented() }
        let later = recordingFailures { scheduler.schedule {} }
        #expect(later.isEmpty)
        #expect(log.failures.count == 1)
    }

    @Test("used from other threads, each use is reported once, to the reporter of its creation")
    func fromThreads() {
        let log = FailureLog()
        let scheduler = FailureReporter.$current.withValue(log.reporter) { DispatchQueue.unimplemented("shared") }
        DispatchQueue.concurrentPerform(iterations: 8) { _ in scheduler.schedule {} }
        #expect(
            log.messages
                == Array(
                    repeating:
                        "DispatchQueue.unimplemented(\"shared\") was asked to schedule(options:_:) an action to run as soon as "
                        + "possible" + Self.notRun, count: 8))
    }

    @Test("erased with eraseToAnyScheduler(), it still reports, through the erased scheduler's methods")
    func erased() {
        expectFailures([
            "DispatchQueue.unimplemented(\"erased\") was asked to schedule(after:tolerance:options:_:) an action due "
                + "in 20 ticks" + Self.notRun
        ]) {
            let scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.unimplemented("erased").eraseToAnyScheduler()
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(20))) {}
        }
    }

    @Test("an operator that schedules fails the test and delivers nothing")
    func throughOperator() {
        let log = FailureLog()
        let values = Synchronized<[Int]>([])
        FailureReporter.$current.withValue(log.reporter) {
            let scheduler = DispatchQueue.unimplemented("debounce")
            let subject = PassthroughSubject<Int, Never>()
            let cancellable = subject.debounce(for: .milliseconds(300), scheduler: scheduler)
                .sink { value in values.withLock { $0.append(value) } }
            subject.send(1)
            cancellable.cancel()
        }
        #expect(values.withLock { $0 }.isEmpty)
        #expect(
            log.messages == [
                "DispatchQueue.unimplemented(\"debounce\") was asked to schedule(after:interval:tolerance:options:_:) an "
                    + "action due in 300 ticks, repeating every 300 ticks" + Self.notRun
            ])
    }
}

/// A stand-in for production code that schedules on what it is given.
private func useScheduler(_ scheduler: some Scheduler) {
    scheduler.schedule {}
}

@Suite("UnimplementedScheduler, erased")
struct UnimplementedAnySchedulerTests {
    @Test("AnySchedulerOf<DispatchQueue>.unimplemented is DispatchQueue's, erased, reporting at its own call")
    func dispatchQueue() {
        let line = #line + 2
        let failures = recordingFailures {
            let scheduler: AnySchedulerOf<DispatchQueue> = .unimplemented("model")
            scheduler.schedule {}
        }
        #expect(
            failures.map(\.message) == [
                "DispatchQueue.unimplemented(\"model\") was asked to schedule(options:_:) an action to run as soon as "
                    + "possible; an unimplemented scheduler runs nothing, so the action was not run."
            ])
        #expect(failures.map(\.location.line) == [line])
    }

    @Test("AnySchedulerOf<RunLoop> and AnySchedulerOf<OperationQueue> have one too")
    func others() {
        let failures = recordingFailures {
            let runLoop: AnySchedulerOf<RunLoop> = .unimplemented()
            let queue: AnySchedulerOf<OperationQueue> = .unimplemented("q")
            runLoop.schedule {}
            queue.schedule {}
        }
        #expect(
            failures.map { $0.message.prefix(while: { $0 != " " }) } == [
                "RunLoop.unimplemented()", "OperationQueue.unimplemented(\"q\")",
            ])
    }

}
