import CadenceSupport
/// A stretch of a test — one test body under the `.virtualTime` trait or `withVirtualTime` — whose expectations hold
/// their late checks until it finishes.
///
/// Inside a scope, an expectation chain that has ended does not report events that arrive afterwards one by one; it
/// registers a check, and ``finish()`` (called once the scope has drained its clock) runs every check on the scope's
/// own task, so each late failure lands in the test that wrote the expectation.
final class ExpectationScope: Sendable {
    private struct State {
        var checks: [@Sendable () -> Void] = []
        var finished = false
    }

    private let state = Locked(State())

    /// The scope expectations created here register with, if any.
    @TaskLocal static var current: ExpectationScope?

    init() {}

    /// Adds a check to run when the scope finishes; returns false, adding nothing, when it has already finished (the
    /// caller then checks on its own).
    func register(_ check: @escaping @Sendable () -> Void) -> Bool {
        state.withLock { state in
            guard !state.finished else { return false }
            state.checks.append(check)
            return true
        }
    }

    /// Runs every registered check, in the order the chains ended; a scope finishes once, and checks registered
    /// afterwards are refused.
    func finish() {
        let checks = state.withLock { state in
            defer {
                state.checks.removeAll()
                state.finished = true
            }
            return state.checks
        }
        for check in checks { check() }
    }
}
