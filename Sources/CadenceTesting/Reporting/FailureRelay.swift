import Cadence
import CadenceSupport

/// Carries failures found away from a test's task back onto a task that belongs to the test.
///
/// Started on the test's task, a relay starts an unstructured task there, which inherits the test's task-local values
/// (for Swift Testing: the running test and any `withKnownIssue`), and records each failure ``send(_:)`` hands it, in
/// order. The task ends when the relay goes, that is when nothing can report through it any more.
///
/// A relay made with ``init(record:)`` starts at once. One made with ``init(record:startsWhere:)`` starts only when
/// ``start()`` is called where its condition holds — an expectation chain starts its relay only when it may need it
/// (a step failed, or it watches for late events), so a passing chain costs its test no task, which would be most of
/// what a small test costs.
final class FailureRelay: Sendable {
    /// What has been sent and recorded, and who waits for the two to meet.
    struct Progress {
        var sent = 0
        var recorded = 0
        /// Each waits until `recorded` reaches its target.
        var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    /// The relay task's stream, once the task has started.
    private let started = Locked<AsyncStream<ExpectationFailure>.Continuation?>(nil)
    private let progress = Locked(Progress())
    private let record: @Sendable (ExpectationFailure) -> Void
    /// Whether the task running now is one the relay's task may start on.
    private let canStartHere: @Sendable () -> Bool

    /// A relay whose task calls `record` with each failure sent, started at once; call it on the task `record` must
    /// run in.
    convenience init(record: @escaping @Sendable (ExpectationFailure) -> Void) {
        self.init(record: record, startsWhere: { true })
        start()
    }

    /// A relay whose task calls `record` with each failure sent, started by ``start()`` on a task where
    /// `canStartHere` returns true.
    init(
        record: @escaping @Sendable (ExpectationFailure) -> Void,
        startsWhere canStartHere: @escaping @Sendable () -> Bool
    ) {
        self.record = record
        self.canStartHere = canStartHere
    }

    /// Starts the relay's task on the task running now, unless it has started or this is not a task it may start
    /// on; returns whether the relay's task runs.
    @discardableResult
    func start() -> Bool {
        if started.withLock({ $0 != nil }) { return true }
        guard canStartHere() else { return false }
        let (failures, continuation) = AsyncStream.makeStream(of: ExpectationFailure.self)
        let first = started.withLock { started in
            guard started == nil else { return false }
            started = continuation
            return true
        }
        guard first else { return true }
        let record = record
        let progress = progress
        // Captures the stream and the progress, never the relay, so that the relay's deinit ends the task. Not one of
        // a virtual-time session's tasks for its report of tasks left alive: a reporter made inside a session may
        // outlive it, and its task is Cadence's, not the test's.
        SessionExecutor.$current.withValue(nil) {
            Task { await Self.record(failures, with: record, progress: progress) }
        }
        return true
    }

    /// Whether the relay's task has started.
    var hasStarted: Bool {
        started.withLock { $0 != nil }
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
        started.withLock { $0 }?.finish()
    }

    /// Hands `failure` to the relay's task; returns false, handing nothing, when the task has not started.
    @discardableResult
    func send(_ failure: ExpectationFailure) -> Bool {
        guard let continuation = started.withLock({ $0 }) else { return false }
        progress.withLock { $0.sent += 1 }
        continuation.yield(failure)
        return true
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
