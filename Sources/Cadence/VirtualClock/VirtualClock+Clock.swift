import CadenceRuntimeHooks
import CadenceSupport

extension VirtualClock: Clock {
    /// The smallest step of virtual time: one tick, 1 ms.
    public var minimumResolution: Duration { .ticks(1) }

    /// Suspends the calling task until the clock is advanced to `deadline`.
    ///
    /// Nothing but driving the clock wakes a sleeper: whichever call of `advance(by:)`, `advance(to:)` or `run()`
    /// reaches `deadline` resumes it, and a deadline already reached returns at once. Cancelling the sleeping task
    /// resumes it at once with `CancellationError` and takes its wake-up off the timeline (`pendingCount` drops);
    /// ending the clock's test (``end()``) resumes every sleeper with `CancellationError` too.
    ///
    /// ```swift
    /// let clock = VirtualClock()
    /// try await withThrowingTaskGroup { group in
    ///     group.addImmediateTask { try await clock.sleep(for: .seconds(1)) }  // asleep once addImmediateTask returns
    ///     clock.advance(by: .seconds(1))                                      // resumes it
    ///     try await group.waitForAll()
    /// }
    /// ```
    ///
    /// What is deterministic:
    /// - *which* sleepers an advance resumes: exactly those whose deadline it reaches, each exactly once;
    /// - the order of the resumptions: by deadline, then first asleep first, interleaved with the clock's other work
    ///   due on the same ticks in the order it was all scheduled;
    /// - that a sleeper is resumed no earlier than its deadline: `now` is at least the deadline once it runs again.
    ///
    /// What is not: resuming a task only enqueues it on its executor. The code after `sleep` runs later, on another
    /// thread, concurrently with the rest of the advance and with the code that called it; `advance` may return
    /// before it has run; several resumed tasks run in whatever order their executors pick; and the `now` such code
    /// reads is wherever the clock has got to by then (so work it schedules "after 5 ms" lands 5 ms after *that*).
    /// To wait for resumed tasks, await them (a task group, `Task.value`) — never a fixed number of `Task.yield()`s.
    /// To make sure a task is asleep before advancing, start it with `Task.immediate`/`addImmediateTask`, which run it
    /// synchronously up to its first suspension, or check `pendingCount`.
    ///
    /// `tolerance` is ignored (virtual time is exact); a negative tolerance is reported.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleep(until: deadline, tolerance: tolerance, at: nil)
    }

    /// Suspends the calling task for `duration` of virtual time, until the clock is advanced that far (see
    /// `sleep(until:tolerance:)`).
    ///
    /// The same sleep as `Clock`'s own `sleep(for:tolerance:)`, which code written against any `Clock` calls; called on
    /// a `VirtualClock` itself, it also notes where it was called, so that a session that finds the task still asleep
    /// when its test ends can say where the task sleeps.
    public func sleep(
        for duration: Duration,
        tolerance: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async throws {
        try await sleep(
            until: now.advanced(by: duration), tolerance: tolerance,
            at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// The sleep, noting `location` (where the task called it, when known) for a session's report of leftover tasks.
    private func sleep(until deadline: Instant, tolerance: Duration?, at location: SourceCodeLocation?) async throws {
        if let tolerance, tolerance < .zero {
            reporter.report(
                "VirtualClock.sleep(until:tolerance:) was given a negative tolerance (\(tolerance)); a tolerance "
                    + "must not be negative, and virtual time ignores it."
            )
        }
        try Task.checkCancellation()
        let now = state.withLock { $0.now }
        if deadline.ticks <= now { return }
        let sleeper = Sleeper()
        // On a session's clock, the session's executor may ask whether its body sleeps here (see
        // `watchForStalls`), and the session names the tasks its body left asleep; a task sleeps once at a time.
        let task = executor == nil ? 0 : cadence_current_task_id()
        if task != 0 {
            let asleep = SleepingTask(
                deadline: deadline.ticks, end: { sleeper.cancel() }, since: now,
                origin: location == nil ? "VirtualClock.sleep(until:tolerance:)" : "VirtualClock.sleep(for:)",
                location: location
            )
            sleepingTasks.withLock { $0[task] = asleep }
        }
        defer {
            if task != 0 { sleepingTasks.withLock { _ = $0.removeValue(forKey: task) } }
        }
        // On a clock that explores schedules, the wake-ups of different tasks due at one tick go in the order chosen.
        let lane = ScheduleLane.wakeUp(task: task != 0 || chooser == nil ? task : cadence_current_task_id())
        if let chooser, case .wakeUp(let id) = lane { chooser.noteSleep(of: id, named: currentTaskName, at: location) }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                guard sleeper.install(continuation) else { return }
                let scheduled = enqueue(
                    .tick(deadline.ticks),
                    interval: 0,
                    lane: lane,
                    { sleeper.resume(with: .success(())) },
                    onEnd: { sleeper.resume(with: .failure(CancellationError())) },
                    origin: "VirtualClock.sleep(until:tolerance:)"
                )
                sleeper.attach(scheduled)
                // Another thread may have advanced past the deadline between the check above and the enqueue; then
                // the wake-up would wait for the next advance. Wake now instead (the sleeper resumes only once).
                if deadline.ticks <= state.withLock({ $0.now }) {
                    scheduled.cancel()
                    sleeper.resume(with: .success(()))
                }
            }
        } onCancel: {
            sleeper.cancel()
        }
    }
}

/// The hand-over between a sleeping task, the clock's action that wakes it, and the task's cancellation handler:
/// whichever comes first resumes the continuation, exactly once.
final class Sleeper: Sendable {
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
        typealias Taken = (CheckedContinuation<Void, any Error>?, VirtualClock.ScheduledAction?)
        let (continuation, scheduled) = state.withLock { state -> Taken in
            state.isCancelled = true
            guard !state.isFinished else { return (nil, nil) }
            guard let continuation = state.continuation else { return (nil, nil) }
            state.isFinished = true
            defer {
                state.continuation = nil
                state.scheduled = nil
            }
            return (continuation, state.scheduled)
        }
        scheduled?.cancel()
        continuation?.resume(throwing: CancellationError())
    }
}

/// The running task's name (`Task(name:)`), where the runtime keeps one: Swift 6.2's, on macOS 26 and its peers.
private var currentTaskName: String? {
    if #available(macOS 26, iOS 26, tvOS 26, watchOS 26, visionOS 26, *) {
        return Task.name
    }
    return nil
}
