import CadenceSupport

/// What a wall-clock step waits on while it is pending: the next event, its deadline, or its task's cancellation.
///
/// The step installs ``eventArrived(_:)`` as an observer of the recorder *before* it first reads the events, so every
/// event it has not seen calls the waiter afterwards; ``wait(forEventAt:)`` checks, under the lock, whether that has
/// already happened before it suspends, so no wake-up is lost between the check and the suspension. Continuations are
/// resumed outside the lock, exactly once.
final class WallClockWaiter: Sendable {
    /// Why a wait ended (several may hold at once; the step re-reads the whole state).
    struct Status: Equatable {
        var deadlinePassed = false
        var cancelled = false
    }

    private struct State {
        /// The highest event index observed so far.
        var latestEvent = -1
        var status = Status()
        /// The suspended step, and the event index that wakes it.
        var waiting: (continuation: CheckedContinuation<Void, Never>, index: Int)?
    }

    private let state = Locked(State())

    init() {}

    /// Whether the deadline has passed and whether the waiting task was cancelled.
    var status: Status { state.withLock { $0.status } }

    /// Records that the event at `index` has arrived, waking the step if it waits for that index or an earlier one.
    func eventArrived(_ index: Int) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.latestEvent = max(state.latestEvent, index)
            guard let waiting = state.waiting, index >= waiting.index else { return nil }
            state.waiting = nil
            return waiting.continuation
        }
        continuation?.resume()
    }

    /// Records that the step's deadline has passed, waking the step.
    func deadlinePassed() {
        wake { $0.deadlinePassed = true }
    }

    /// Records that the waiting task was cancelled, waking the step.
    func cancel() {
        wake { $0.cancelled = true }
    }

    /// Suspends until an event with an index of at least `index` has arrived, the deadline has passed, or the task
    /// is cancelled — returning at once if one of them already has.
    func wait(forEventAt index: Int) async {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.latestEvent >= index || state.status != Status() { return true }
                    state.waiting = (continuation, index)
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        } onCancel: {
            cancel()
        }
    }

    private func wake(_ update: (inout Status) -> Void) {
        let continuation = state.withLock { state -> CheckedContinuation<Void, Never>? in
            update(&state.status)
            defer { state.waiting = nil }
            return state.waiting?.continuation
        }
        continuation?.resume()
    }
}
