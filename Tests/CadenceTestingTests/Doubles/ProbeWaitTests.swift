// The bounded wait of `checkPublisherContract`'s probes counts only the time the probe's threads could run: time they
// spent waiting for a CPU (a loaded machine) is left out, so a slow machine makes the check slower, not wrong. The
// run-queue times are made up here (`queuedTime`), so what is left out is exactly known.
import CadenceSupport
import Dispatch
import Foundation
import Testing

@testable import CadenceTesting

@Suite struct ProbeWaitTests {
    /// A made-up run-queue clock: every thread it is asked about has waited for a CPU the whole time since
    /// `starve()`, and not at all before.
    final class MadeUpRunQueue: Sendable {
        /// When `starve()` was called, if it was.
        private let since = Locked<UInt64?>(nil)

        func starve() {
            since.withLock { $0 = DispatchTime.now().uptimeNanoseconds }
        }

        func queued(_: Int32) -> UInt64? {
            since.withLock { since in since.map { DispatchTime.now().uptimeNanoseconds - $0 } ?? 0 }
        }
    }

    @Test func workThatReturnsInTimeEndsTheWaitAtOnce() {
        let threads = ProbeThreads()
        let done = DispatchSemaphore(value: 0)
        Thread {
            threads.enrolCurrentThread()
            done.signal()
        }.start()
        #expect(threads.wait(for: done, limit: .seconds(10)))
    }

    @Test func aThreadThatIsBlockedRunsOutTheLimitOnTheWallClock() {
        let runQueue = MadeUpRunQueue()
        let threads = ProbeThreads(queuedTime: runQueue.queued)
        let done = DispatchSemaphore(value: 0)
        let release = DispatchSemaphore(value: 0)
        Thread {
            threads.enrolCurrentThread()
            release.wait()
            done.signal()
        }.start()
        let start = DispatchTime.now().uptimeNanoseconds
        #expect(!threads.wait(for: done, limit: .milliseconds(200)))
        // At least the limit passed (never more than the backstop, ten times it).
        let waited = DispatchTime.now().uptimeNanoseconds - start
        #expect(waited >= 200_000_000)
        release.signal()
        done.wait()
    }

    /// Where the threads' ids cannot be read (not Linux), nothing is left out.
    static let readsThreadIDs = ProbeThreads.currentThreadID() != nil

    /// Starts a thread that enrols in `threads` (whose run-queue clock starves it from now on), then does `work`;
    /// returns once it has enrolled.
    private func startStarvedThread(
        _ threads: ProbeThreads, _ runQueue: MadeUpRunQueue, work: @escaping @Sendable () -> Void
    ) {
        let enrolled = DispatchSemaphore(value: 0)
        runQueue.starve()
        Thread {
            threads.enrolCurrentThread()
            enrolled.signal()
            work()
        }.start()
        enrolled.wait()
    }

    @Test(.enabled(if: readsThreadIDs)) func timeAThreadSpendsWaitingForACPUIsNotCounted() {
        let runQueue = MadeUpRunQueue()
        let threads = ProbeThreads(queuedTime: runQueue.queued)
        let done = DispatchSemaphore(value: 0)
        startStarvedThread(threads, runQueue) {
            // Five limits' worth of a machine so loaded the thread got no CPU: none of it counts.
            Thread.sleep(forTimeInterval: 0.5)
            done.signal()
        }
        #expect(threads.wait(for: done, limit: .milliseconds(100), backstop: 100))
    }

    @Test(.enabled(if: readsThreadIDs)) func aThreadStarvedForeverStillEndsTheWaitAtTheBackstop() {
        let runQueue = MadeUpRunQueue()
        let threads = ProbeThreads(queuedTime: runQueue.queued)
        let done = DispatchSemaphore(value: 0)
        startStarvedThread(threads, runQueue) {}
        let start = DispatchTime.now().uptimeNanoseconds
        #expect(!threads.wait(for: done, limit: .milliseconds(50), backstop: 4))
        #expect(DispatchTime.now().uptimeNanoseconds - start >= 200_000_000)
    }

    @Test func onLinuxAThreadsIdAndRunQueueTimeAreRead() throws {
        #if os(Linux)
        let id = try #require(ProbeThreads.currentThreadID())
        #expect(id > 0)
        #expect(ProbeThreads.queuedNanoseconds(id) != nil)
        #expect(ProbeThreads.queuedNanoseconds(-1) == nil)
        #else
        #expect(ProbeThreads.currentThreadID() == nil)
        #endif
    }
}
