#if !canImport(Combine)
import Cadence
import Dispatch
import Foundation
import Testing

@Suite struct OperationQueueSchedulerTests {
    typealias Time = OperationQueue.SchedulerTimeType

    private func makeSerialQueue() -> OperationQueue {
        let queue = OperationQueue()
        queue.maxConcurrentOperationCount = 1
        return queue
    }

    /// Waits, boundedly, until `queue` holds no operation.
    private func waitUntilEmpty(_ queue: OperationQueue) -> Bool {
        for _ in 0..<1_000 {
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
        #expect(done.wait(timeout: .now() + 10) == .success)
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
        #expect(done.wait(timeout: .now() + 10) == .success)
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
        Thread.sleep(forTimeInterval: 0.06)   // past the date: the cancelled operation is gone and stays unrun
        #expect(!ran.value)
        #expect(queue.operationCount == 0)
    }

    @Test func aRepeatingActionFiresRepeatedlyAndStopsOnceCancelled() {
        let queue = makeSerialQueue()
        let fires = LockedBox<[Date]>([])
        let threeFires = DispatchSemaphore(value: 0)
        let start = queue.now.advanced(by: .milliseconds(20))
        let cancellable = queue.schedule(after: start, interval: .milliseconds(10)) {
            let count = fires.mutate { $0.append(Date()); return $0.count }
            if count == 3 { threeFires.signal() }
        }
        #expect(threeFires.wait(timeout: .now() + 10) == .success)
        cancellable.cancel()
        #expect(waitUntilEmpty(queue))
        let countAtCancel = fires.value.count
        Thread.sleep(forTimeInterval: 0.1)   // ten intervals: a live repetition would have run again
        #expect(fires.value.count == countAtCancel)
        #expect(queue.operationCount == 0)
        #expect(fires.value.first.map { $0 >= start.date } == true)
        #expect(fires.value == fires.value.sorted())
    }

    @Test func releasingTheRepeatingCancellableEndsTheRepetition() {
        let queue = makeSerialQueue()
        let fires = LockedBox(0)
        let firstFire = DispatchSemaphore(value: 0)
        var cancellable: Cancellable? = queue.schedule(after: queue.now, interval: .milliseconds(5)) {
            if fires.mutate({ $0 += 1; return $0 }) == 1 { firstFire.signal() }
        }
        #expect(firstFire.wait(timeout: .now() + 10) == .success)
        #expect(cancellable != nil)
        cancellable = nil
        #expect(waitUntilEmpty(queue))
        let countAtRelease = fires.value
        Thread.sleep(forTimeInterval: 0.05)
        #expect(fires.value == countAtRelease)
    }
}
#endif
