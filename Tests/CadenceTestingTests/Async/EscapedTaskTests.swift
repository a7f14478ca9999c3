import CadenceSupport
import CadenceTesting
import Dispatch
import Foundation
import Testing

/// Tasks a session cannot follow as it follows the others: a `Task.detached`, which inherits none of the session's
/// task-local values, and a task on an actor whose executor is not the runtime's.
@Suite struct EscapedTaskTests {
    /// The guide's sentence: a `Task.detached` left suspended is not seen, as the runtime gives no way to (see
    /// `SessionExecutor.Membership`); the same task made with `Task {}` is.
    @Test func aDetachedTaskLeftSuspendedIsNotSeenWhereATaskIs() async {
        let parked = Synchronized<[UnsafeContinuation<Void, Never>]>([])
        await expectFailures([]) {
            await withVirtualTime { clock in
                Task.detached { await withUnsafeContinuation { parked.value.append($0) } }
                await clock.advance(by: .zero)
                #expect(parked.value.count == 1)
            }
        }
        await expectFailures([
            "Tasks that the body started were still suspended when it ended, waiting on a continuation nobody "
                + "resumed or on work outside virtual time (a DispatchQueue, a URL session), after the virtual clock "
                + "had woken its sleepers. Resume, cancel or await them before the body returns, or let this test "
                + "leave them with withVirtualTime(leftovers: .allowed)."
        ]) {
            await withVirtualTime { clock in
                Task { await withUnsafeContinuation { parked.value.append($0) } }
                await clock.advance(by: .zero)
                #expect(parked.value.count == 2)
            }
        }
        for continuation in parked.value { continuation.resume() }
    }

    // MARK: Actors with an executor of their own

    /// An executor of the test's own: runs each job on a serial dispatch queue.
    final class QueueExecutor: SerialExecutor {
        let queue = DispatchQueue(label: "QueueExecutor")

        func enqueue(_ job: consuming ExecutorJob) {
            let job = UnownedJob(job)
            queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
        }
    }

    actor Ledger {
        let executor = QueueExecutor()
        var entries: [String] = []

        nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }

        func record(_ entry: String) { entries.append(entry) }

        func perform(_ work: @Sendable () -> Void) { work() }
    }

    static let ranOnQueueExecutor =
        "A task of the test ran on an executor that virtual time does not drive "
        + "(QueueExecutor, the custom SerialExecutor of an actor): the Swift runtime hands such an executor its jobs "
        + "directly, so the test's advances neither waited for that task nor ran it in order with the others, and what "
        + "it did there happened at no fixed tick. In the test, give the actor the default executor (drop its "
        + "unownedExecutor), or inject the work behind a protocol."

    @Test(.hangGuard)
    func aTaskOnAnActorWithACustomExecutorIsReportedWhenItComesBack() async {
        let ledger = Ledger()
        let log = Synchronized<[String]>([])
        await expectFailures([Self.ranOnQueueExecutor]) {
            await withVirtualTime { clock in
                let saving = Task {
                    await ledger.record("saved")
                    log.value.append("back")
                }
                await saving.value
                await clock.advance(by: .zero)
            }
        }
        #expect(log.value == ["back"])
        #expect(await ledger.entries == ["saved"])
    }

    @Test(.hangGuard)
    func workOfNoTestOnACustomExecutorThatResumesATaskOfTheTestIsNotReported() async {
        let ledger = Ledger()
        let parked = Synchronized<UnsafeContinuation<Void, Never>?>(nil)
        let log = Synchronized<[String]>([])
        await expectFailures([]) {
            await withVirtualTime { clock in
                let waiting = Task {
                    await withUnsafeContinuation { parked.value = $0 }
                    log.value.append("resumed")
                }
                await clock.advance(by: .zero)
                // The outside world: a task made on a queue, not by the test, resumes it from the actor.
                DispatchQueue.global().async {
                    Task { await ledger.perform { parked.value?.resume() } }
                }
                await waiting.value
            }
        }
        #expect(log.value == ["resumed"])
    }

    @Test func aTaskOnADefaultActorIsNotReported() async {
        actor Counter {
            var count = 0
            func increment() { count += 1 }
        }
        let counter = Counter()
        await expectFailures([]) {
            await withVirtualTime { clock in
                Task { await counter.increment() }
                await clock.advance(by: .zero)
            }
        }
        #expect(await counter.count == 1)
    }
}
