import Cadence
import Foundation

/// Runs `body` on a thread of its own and tells whether it returned within `seconds`.
///
/// A body that deadlocks (a lock taken a second time by the thread that holds it) leaves that thread blocked for the
/// rest of the run; the test gets `false` instead of hanging.
func review1ReturnsWithoutDeadlock(within seconds: Double = 10, _ body: @escaping @Sendable () -> Void) -> Bool {
    let returned = DispatchSemaphore(value: 0)
    let thread = Thread {
        body()
        returned.signal()
    }
    thread.start()
    return returned.wait(timeout: .now() + seconds) == .success
}

/// An object that owns the token of a subscription whose closures capture it: the usual retain cycle that a
/// completion or a cancellation breaks by releasing the closures.
final class Review1TokenOwner {
    var token: AnyCancellable?
    /// Set from `deinit`, so a test can see that the owner went away.
    let onDeinit: () -> Void

    init(onDeinit: @escaping () -> Void = {}) {
        self.onDeinit = onDeinit
    }

    deinit {
        onDeinit()
    }
}
