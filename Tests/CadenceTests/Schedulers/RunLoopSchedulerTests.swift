#if !canImport(Combine)
import Cadence
import Dispatch
import Foundation
import Testing

/// A thread that runs its own run loop, 50 ms at a time, until stopped, for scheduling onto from other threads.
private final class RunLoopThread: @unchecked Sendable { // `runLoop` is written once before `started` is signalled
    private(set) var runLoop: RunLoop!
    private(set) var thread: Thread!
    private let stopped = LockedBox(false)
    private let finished = DispatchSemaphore(value: 0)

    init() {
        let started = DispatchSemaphore(value: 0)
        let thread = Thread { [self] in
            runLoop = RunLoop.current
            // A timer far in the future keeps the run loop from returning at once for want of inputs.
            runLoop.add(Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }, forMode: .default)
            started.signal()
            while !stopped.value {
                _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 0.05))
            }
            finished.signal()
        }
        self.thread = thread
        thread.start()
        started.wait()
    }

    func stop() {
        stopped.mutate { $0 = true }
        _ = finished.wait(timeout: .now() + 10)
    }
}

@Suite struct RunLoopSchedulerTests {
    typealias Time = RunLoop.SchedulerTimeType

    @Test func timeAndStride() throws {
        try DateSchedulerTimeChecks.all(Time.self)
    }

    @Test func nowIsTheCurrentDateAndToleranceIsZero() {
        let worker = RunLoopThread()
        defer { worker.stop() }
        let before = Date()
        let now = worker.runLoop.now
        let after = Date()
        #expect(before <= now.date && now.date <= after)
        #expect(worker.runLoop.minimumTolerance == 0)
    }

    @Test func actionsScheduledFromAnotherThreadWakeTheRunLoopAndRunOnItInOrder() {
        let worker = RunLoopThread()
        defer { worker.stop() }
        let log = LockedBox<[Int]>([])
        let onThread = LockedBox<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        for index in 0..<50 {
            worker.runLoop.schedule {
                log.append(index)
                onThread.append(Thread.current == worker.thread)
            }
        }
        worker.runLoop.schedule(options: nil) { done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(log.value == Array(0..<50))
        #expect(onThread.value.count == 50 && onThread.value.allSatisfy { $0 })
    }

    @Test func schedulingWakesARunLoopSleepingInAnotherThread() {
        // The run loop sleeps for up to 30 s with nothing to do: the action runs well within the 10 s wait only if
        // scheduling wakes it up. The action then invalidates the far-future timer, the run loop's only input, so
        // the run returns for want of inputs and the thread ends with the test instead of sleeping on.
        let started = DispatchSemaphore(value: 0)
        let finished = DispatchSemaphore(value: 0)
        let loop = LockedBox<UncheckedSendable<(RunLoop, Timer)>?>(nil)
        Thread {
            let runLoop = RunLoop.current
            let farTimer = Timer(fire: .distantFuture, interval: 0, repeats: false) { _ in }
            runLoop.add(farTimer, forMode: .default)
            loop.mutate { $0 = UncheckedSendable((runLoop, farTimer)) }
            started.signal()
            _ = runLoop.run(mode: .default, before: Date(timeIntervalSinceNow: 30))
            finished.signal()
        }.start()
        #expect(started.wait(timeout: .now() + 10) == .success)
        Thread.sleep(forTimeInterval: 0.05) // let it fall asleep
        let ran = DispatchSemaphore(value: 0)
        let runLoopAndTimer = loop.value?.value
        loop.value?.value.0.schedule {
            runLoopAndTimer?.1.invalidate()
            ran.signal()
        }
        #expect(ran.wait(timeout: .now() + 10) == .success)
        #expect(finished.wait(timeout: .now() + 10) == .success)
    }

    @Test func aDelayedActionRunsOnTheRunLoopAndNeverBeforeItsDate() throws {
        let worker = RunLoopThread()
        defer { worker.stop() }
        let done = DispatchSemaphore(value: 0)
        let due = worker.runLoop.now.advanced(by: .milliseconds(50))
        let observed = LockedBox<(Date, Bool)?>(nil)
        worker.runLoop.schedule(after: due, tolerance: .milliseconds(1), options: nil) {
            observed.mutate { $0 = (Date(), Thread.current == worker.thread) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        let (ranAt, onThread) = try #require(observed.value)
        #expect(ranAt >= due.date)
        #expect(onThread)
    }

    @Test func aRepeatingActionFiresRepeatedlyAndStopsOnceCancelled() {
        let worker = RunLoopThread()
        defer { worker.stop() }
        RepeatingActionChecks.firesRepeatedlyAndStopsOnceCancelled(
            on: worker.runLoop,
            settle: {
                // Once an action scheduled now has run, a run already under way has finished.
                let flushed = DispatchSemaphore(value: 0)
                worker.runLoop.schedule { flushed.signal() }
                return flushed.wait(timeout: .now() + 10) == .success
            })
    }
}
#endif
