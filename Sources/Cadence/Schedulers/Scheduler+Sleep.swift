import CadenceSupport

extension Scheduler {
    /// Suspends the calling task for `duration` of the scheduler's time: until an action scheduled `duration` from
    /// `now` runs. On a test scheduler the advance that reaches it wakes it; cancelling the task ends the sleep at
    /// once with `CancellationError` and takes the action off the scheduler.
    ///
    /// ```swift
    /// try await scheduler.sleep(for: .seconds(1))   // on DispatchQueue.test: until an advance by 1 s
    /// ```
    public func sleep(
        for duration: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride = .zero,
        options: SchedulerOptions? = nil
    ) async throws {
        try await sleep(until: now.advanced(by: duration), tolerance: tolerance, options: options)
    }

    /// Suspends the calling task until `deadline` of the scheduler's time (see `sleep(for:tolerance:options:)`).
    public func sleep(
        until deadline: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride = .zero,
        options: SchedulerOptions? = nil
    ) async throws {
        try Task.checkCancellation()
        let sleep = SchedulerSleep()
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleep.begin(continuation) else { return }
                // A repeating action, because only that form hands back a Cancellable: the first run wakes the
                // sleeper and cancels the rest. The interval is never reached.
                let action = self.schedule(
                    after: deadline, interval: .seconds(86_400), tolerance: tolerance,
                    options: options
                ) { sleep.wake() }
                sleep.hold(action)
            }
        } onCancel: {
            sleep.cancel()
        }
    }

    /// The scheduler's time every `interval`, from `interval` after `now`, for as long as the stream is iterated:
    /// an action repeating on the scheduler, cancelled when the iteration ends.
    ///
    /// ```swift
    /// for await _ in scheduler.timer(interval: .seconds(1)) { model.tick() }
    /// ```
    public func timer(
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride = .zero,
        options: SchedulerOptions? = nil
    ) -> AsyncStream<SchedulerTimeType> where SchedulerTimeType: SendableMetatype {
        AsyncStream { continuation in
            let action = CancellableHolder()
            continuation.onTermination = { _ in action.cancel() }
            action.hold(
                self.schedule(
                    after: self.now.advanced(by: interval), interval: interval, tolerance: tolerance, options: options
                ) {
                    // A time read for this one yield and handed over whole: nothing else holds it.
                    nonisolated(unsafe) let now = self.now
                    continuation.yield(now)
                }
            )
        }
    }
}

/// One sleep on a scheduler: the sleeper's continuation and the action that wakes it, each taken out exactly once by
/// whichever of waking and cancelling comes first.
private final class SchedulerSleep: Sendable {
    private enum State {
        case notStarted
        case asleep(CheckedContinuation<Void, any Error>, (any Cancellable)?)
        case cancelledBeforeItBegan
        case ended
    }

    private let state = Locked(State.notStarted)

    /// Takes the sleeper's continuation; false, having resumed it with `CancellationError`, if the task was cancelled
    /// before.
    func begin(_ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        let cancelled = state.withLock { state in
            if case .cancelledBeforeItBegan = state {
                state = .ended
                return true
            }
            state = .asleep(continuation, nil)
            return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
        return !cancelled
    }

    /// Keeps the waking action, to cancel it if the task is cancelled first; cancels it at once if the sleep has
    /// already ended (a scheduler that ran the action inside `schedule`).
    func hold(_ action: any Cancellable) {
        let ended = state.withLock { state in
            guard case let .asleep(continuation, nil) = state else { return true }
            state = .asleep(continuation, action)
            return false
        }
        if ended { action.cancel() }
    }

    /// Ends the sleep: the action ran.
    func wake() {
        end(markingCancelledIfNotStarted: false)?.resume()
    }

    /// Ends the sleep with `CancellationError`: the task was cancelled (before the sleep began, it ends as it begins).
    func cancel() {
        end(markingCancelledIfNotStarted: true)?.resume(throwing: CancellationError())
    }

    /// Takes the continuation out and cancels the action, if the sleep is under way.
    private func end(markingCancelledIfNotStarted: Bool) -> CheckedContinuation<Void, any Error>? {
        let taken = state.withLock { state -> (CheckedContinuation<Void, any Error>, (any Cancellable)?)? in
            switch state {
            case let .asleep(continuation, action):
                state = .ended
                return (continuation, action)
            case .notStarted where markingCancelledIfNotStarted:
                state = .cancelledBeforeItBegan
                return nil
            case .notStarted, .cancelledBeforeItBegan, .ended:
                return nil
            }
        }
        taken?.1?.cancel()
        return taken?.0
    }
}

/// A `Cancellable` held for a `@Sendable` closure that cancels it, once.
private final class CancellableHolder: Sendable {
    private let state = Locked<(action: (any Cancellable)?, cancelled: Bool)>((nil, false))

    /// Keeps `action`, or cancels it at once if ``cancel()`` came first.
    func hold(_ action: any Cancellable) {
        let cancelled = state.withLock { state in
            if !state.cancelled { state.action = action }
            return state.cancelled
        }
        if cancelled { action.cancel() }
    }

    /// Cancels the action held, if any, and any held later.
    func cancel() {
        let action = state.withLock { state in
            state.cancelled = true
            defer { state.action = nil }
            return state.action
        }
        action?.cancel()
    }
}
