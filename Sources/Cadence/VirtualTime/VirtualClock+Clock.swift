extension VirtualClock: Clock {
    /// The smallest step of virtual time: one tick, 1 ms.
    public var minimumResolution: Duration { .ticks(1) }

    /// Suspends the calling task until the clock is advanced to `deadline`.
    ///
    /// Sleepers are resumed in deadline order (first in, first out on the same tick) by whichever call of
    /// `advance(by:)`, `advance(to:)` or `run()` reaches their deadline; a deadline already reached returns at once.
    /// Cancelling the sleeping task resumes it at once with `CancellationError`, and so does ending the clock's test.
    ///
    /// What is deterministic: *which* sleepers an advance resumes, the virtual time each one sees (`now` is their
    /// deadline while the advance resumes them), and the order in which they are resumed. What is not: resuming a
    /// sleeper only enqueues its task on its executor, so the code after `sleep` runs later, concurrently with the
    /// code that called `advance`, and the relative order of several resumed tasks is the executors' choice. Work that
    /// code schedules lands on the timeline at the `now` it reads, which by then may be later than its deadline.
    ///
    /// `tolerance` is ignored (virtual time is exact); a negative tolerance is reported.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        if let tolerance, tolerance < .zero {
            reporter.report(
                "VirtualClock.sleep(until:tolerance:) was given a negative tolerance (\(tolerance)); a tolerance " +
                "must not be negative, and virtual time ignores it."
            )
        }
        try Task.checkCancellation()
        if deadline.ticks <= state.withLock({ $0.now }) { return }
        let sleeper = Sleeper()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleeper.install(continuation) else { return }
                let scheduled = enqueue(
                    at: deadline.ticks,
                    interval: 0,
                    { sleeper.resume(with: .success(())) },
                    onEnd: { sleeper.resume(with: .failure(CancellationError())) },
                    origin: "VirtualClock.sleep(until:tolerance:)"
                )
                sleeper.attach(scheduled)
            }
        } onCancel: {
            sleeper.cancel()
        }
    }
}

/// The hand-over between a sleeping task, the clock's action that wakes it, and the task's cancellation handler:
/// whichever comes first resumes the continuation, exactly once.
private final class Sleeper: Sendable {
    private struct State {
        var continuation: CheckedContinuation<Void, any Error>?
        var scheduled: VirtualClock.ScheduledAction?
        var isCancelled = false
        var isFinished = false
    }

    private let state = Locked(State())

    /// Stores the continuation; returns false (after resuming it with `CancellationError`) when already cancelled.
    func install(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let cancelled = state.withLock { state in
            if state.isCancelled {
                state.isFinished = true
                return true
            }
            state.continuation = continuation
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Remembers the clock's action so cancelling the task can take it off the timeline.
    func attach(_ scheduled: VirtualClock.ScheduledAction) {
        let cancelNow = state.withLock { state in
            if state.isFinished { return state.isCancelled }
            state.scheduled = scheduled
            return false
        }
        if cancelNow { scheduled.cancel() }
    }

    func resume(with result: Result<Void, any Error>) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
            guard !state.isFinished else { return nil }
            state.isFinished = true
            state.scheduled = nil
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(with: result)
    }

    func cancel() {
        let (continuation, scheduled) = state.withLock { state -> (CheckedContinuation<Void, any Error>?, VirtualClock.ScheduledAction?) in
            state.isCancelled = true
            guard !state.isFinished else { return (nil, nil) }
            guard let continuation = state.continuation else { return (nil, nil) }
            state.isFinished = true
            defer { state.continuation = nil; state.scheduled = nil }
            return (continuation, state.scheduled)
        }
        scheduled?.cancel()
        continuation?.resume(throwing: CancellationError())
    }
}
