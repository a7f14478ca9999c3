import Cadence
import CadenceSupport

/// Carries failures found away from a test's task back onto a task that belongs to the test.
///
/// Made on the test's task, a relay starts an unstructured task there, which inherits the test's task-local values
/// (for Swift Testing: the running test and any `withKnownIssue`), and records each failure ``send(_:)`` hands it, in
/// order. The task ends when the relay goes, that is when nothing can report through it any more.
final class FailureRelay: Sendable {
    /// What has been sent and recorded, and who waits for the two to meet.
    struct Progress {
        var sent = 0
        var recorded = 0
        /// Each waits until `recorded` reaches its target.
        var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let continuation: AsyncStream<ExpectationFailure>.Continuation
    private let progress: Locked<Progress>

    /// A relay whose task calls `record` with each failure sent; call it on the task `record` must run in.
    init(record: @escaping @Sendable (ExpectationFailure) -> Void) {
        let (failures, continuation) = AsyncStream.makeStream(of: ExpectationFailure.self)
        let progress = Locked(Progress())
        self.continuation = continuation
        self.progress = progress
        // Captures the stream and the progress, never the relay, so that the relay's deinit ends the task. Not one of
        // a virtual-time session's tasks for its report of tasks left alive: a reporter made inside a session may
        // outlive it, and its task is Cadence's, not the test's.
        SessionExecutor.$current.withValue(nil) {
            Task { await Self.record(failures, with: record, progress: progress) }
        }
    }

    /// The relay's task: records each failure as it comes, and resumes who waited for it.
    private static func record(
        _ failures: AsyncStream<ExpectationFailure>,
        with record: @Sendable (ExpectationFailure) -> Void,
        progress: Locked<Progress>
    ) async {
        for await failure in failures {
            record(failure)
            let ready = progress.withLock { progress in
                progress.recorded += 1
                let recorded = progress.recorded
                let ready = progress.waiters.filter { $0.target <= recorded }
                progress.waiters.removeAll { $0.target <= recorded }
                return ready
            }
            for waiter in ready { waiter.continuation.resume() }
        }
    }

    deinit {
        continuation.finish()
    }

    /// Hands `failure` to the relay's task.
    func send(_ failure: ExpectationFailure) {
        progress.withLock { $0.sent += 1 }
        continuation.yield(failure)
    }

    /// Returns once every failure sent so far has been recorded.
    func settle() async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = progress.withLock { progress in
                if progress.recorded >= progress.sent { return true }
                progress.waiters.append((progress.sent, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
