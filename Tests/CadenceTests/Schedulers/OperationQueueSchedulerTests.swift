#if !canImport(Combine)
import Cadence
import Dispatch
import Foundation
import Testing

/// The waits for a real queue are bounded at a minute, not ten seconds. The queue's work runs on the global queue's
/// threads, where other tests' synchronous bodies block too; libdispatch on Linux adds about one thread a second past
/// the cores, so with n of them blocked an operation waits about n - 2 seconds (20 blocked: 18.8 s; 40: 37.8 s).
@Suite struct OperationQueueSchedulerTests {
    typealias Time = OperationQueue.SchedulerTimeType

    private func makeSerialQueue() -> OperationQueue {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }

    /// Waits, boundedly (a minute), until `queue` holds no operation.
    private func waitUntilEmpty(_ queue: OperationQueue) -> Bool {
        for _ in 0..<6_000 {
            if queue.operationCount == 0 { return true }
            Thread.sleep(forTimeInterval: 0.01)
        }
        return false
    }

    @Test func timeAndStride() throws {
        try DateSchedulerTimeChecks.all(Time.self)
    }

    @Test func nowIsTheCurrentDateAndToleranceIsZero() {
        let queue = OperationQueue()
        let before = Date()
        let now = queue.now
        let after = Date()
        #expect(before <= now.date && now.date <= after)
        #expect(queue.minimumTolerance == 0)
    }

    @Test func actionsRunOnTheQueueInTheOrderScheduled() {
        let queue = makeSerialQueue()
        let log = LockedBox<[Int]>([])
        let onQueue = LockedBox<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        for index in 0..<50 {
            queue.schedule {
                log.append(index)
                onQueue.append(OperationQueue.current === queue)
            }
        }
        queue.schedule(options: nil) { done.signal() }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(log.value == Array(0..<50))
        #expect(onQueue.value.count == 50 && onQueue.value.allSatisfy { $0 })
    }

    @Test func aDelayedActionWaitsOnTheQueueWithoutHoldingUpLaterWork() throws {
        let queue = makeSerialQueue()
        let log = LockedBox<[String]>([])
        let done = DispatchSemaphore(value: 0)
        let due = queue.now.advanced(by: .milliseconds(50))
        let ranAt = LockedBox<Date?>(nil)
        queue.schedule(after: due) {
            ranAt.mutate { $0 = Date() }
            log.append("delayed")
            done.signal()
        }
        #expect(queue.operationCount >= 1)
        queue.schedule { log.append("immediate") }
        #expect(done.wait(timeout: .now() + 60) == .success)
        #expect(log.value == ["immediate", "delayed"])
        #expect(try #require(ranAt.value) >= due.date)
    }

    @Test func cancelAllOperationsCancelsADelayedAction() {
        let queue = makeSerialQueue()
        let ran = LockedBox(false)
        queue.schedule(after: queue.now.advanced(by: .milliseconds(30))) { ran.mutate { $0 = true } }
        #expect(queue.operationCount == 1)
        queue.cancelAllOperations()
        #expect(waitUntilEmpty(queue))
        Thread.sleep(forTimeInterval: 0.06) // past the date: the cancelled operation is gone and stays unrun
        #expect(!ran.value)
        #expect(queue.operationCount == 0)
    }

    /// As in Combine, the operation that waits for its date is a `Cancellable`, and cancelling it that way drops it.
    @Test func aDelayedActionsOperationIsACancellable() throws {
        let queue = makeSerialQueue()
        let ran = LockedBox(false)
        queue.schedule(after: queue.now.advanced(by: .milliseconds(30))) { ran.mutate { $0 = true } }
        let waiting = try #require(queue.operations.first as? any Cancellable)
        #expect(!(waiting is BlockOperation))
        waiting.cancel()
        #expect(waitUntilEmpty(queue))
        Thread.sleep(forTimeInterval: 0.06) // past the date: the cancelled operation stays unrun
        #expect(!ran.value)
    }

    @Test func aRepeatingActionFiresRepeatedlyAndStopsOnceCancelled() {
        let queue = makeSerialQueue()
        RepeatingActionChecks.firesRepeatedlyAndStopsOnceCancelled(
            on: queue, settle: { waitUntilEmpty(queue) }, afterQuiet: { queue.operationCount == 0 }
        )
    }

    @Test func releasingTheRepeatingCancellableEndsTheRepetition() {
        let queue = makeSerialQueue()
        RepeatingActionChecks.releasingTheCancellableStopsIt(on: queue, settle: { waitUntilEmpty(queue) })
    }
}
#endif
