import CadenceSupport

/// A stretch of a test — one test body under the `.virtualTime` trait or `withVirtualTime`, or one XCTest test case —
/// whose expectations hold their late checks until it finishes.
///
/// Inside a scope, an expectation chain that has ended does not report events that arrive afterwards one by one; it
/// registers a check, and ``finish()`` (called once the scope has drained its clock) runs every check on the scope's
/// own task, so each late failure lands in the test that wrote the expectation.
///
/// An XCTest test case's scope (``XCTestCaseScope``) also watches each chain after it has cancelled its subscription,
/// so that an event a publisher sends even then is reported (as a stray, naming the test case) instead of lost.
///
/// The scope also knows when the test's body has returned (``noteBodyReturned()``: the session calls it before it
/// drains its clock, an XCTest test case's scope at the teardown): a chain on an `@Observable` property does not
/// report the `finished` that the release of its object sends after that.
final class ExpectationScope: Sendable {
    /// What a chain that has ended asks of the scope.
    private struct LateCheck {
        /// Run once, when the test's body has returned (at once for a chain that ends after that).
        var atBodyReturn: (@Sendable () -> Void)?
        /// Run when the scope finishes.
        var atFinish: @Sendable () -> Void
    }

    private struct State {
        var checks: [LateCheck] = []
        var bodyHasReturned = false
        var finished = false
    }

    private let state = Locked(State())

    /// The scope expectations created here register with, if any.
    @TaskLocal static var current: ExpectationScope?

    /// Whether a chain keeps watching for events after the scope finished and cancelled its subscription.
    let watchesAfterFinishing: Bool

    init(watchesAfterFinishing: Bool = false) {
        self.watchesAfterFinishing = watchesAfterFinishing
    }

    /// The reporter and the scope for an expectation made now: the test framework's reporter (or the one a test
    /// bound) and the running virtual-time session's scope; under XCTest with no session, the running test case's
    /// gated reporter and scope (``XCTestCaseScope``). A Swift Testing reporter's relay starts only when the chain
    /// calls `startRelay()`.
    static func resolved() -> (FailureReporter, ExpectationScope?) {
        let reporter = FailureReporter.resolved(relayStartsAtOnce: false)
        #if canImport(XCTest)
        if current == nil, reporter.destination == .xcTest, let testCase = XCTestCaseObserver.scopeForNewExpectation() {
            return (testCase.reporter, testCase.expectations)
        }
        #endif
        return (reporter, current)
    }

    /// Adds a check to run when the scope finishes, and `atBodyReturn` to run when the test's body has returned (at
    /// once, before this returns, when it already has); returns false, adding nothing and running nothing, when the
    /// scope has already finished (the caller then checks on its own).
    func register(
        _ check: @escaping @Sendable () -> Void, atBodyReturn: (@Sendable () -> Void)? = nil
    ) -> Bool {
        let (added, returned) = state.withLock { state -> (Bool, Bool) in
            guard !state.finished else { return (false, false) }
            state.checks.append(LateCheck(atBodyReturn: state.bodyHasReturned ? nil : atBodyReturn, atFinish: check))
            return (true, state.bodyHasReturned)
        }
        if added, returned { atBodyReturn?() }
        return added
    }

    /// Notes that the test's body has returned: what reaches a chain from now on happened after the test, such as
    /// the release of the objects the body held. Runs each chain's `atBodyReturn`, once; idempotent.
    func noteBodyReturned() {
        let hooks = state.withLock { state -> [@Sendable () -> Void] in
            guard !state.bodyHasReturned else { return [] }
            state.bodyHasReturned = true
            return state.checks.compactMap(\.atBodyReturn)
        }
        for hook in hooks { hook() }
    }

    /// Notes that the body has returned, if that was not noted yet, then runs every registered check, in the order
    /// the chains ended; a scope finishes once, and checks registered afterwards are refused.
    func finish() {
        noteBodyReturned()
        let checks = state.withLock { state in
            defer {
                state.checks.removeAll()
                state.finished = true
            }
            return state.checks
        }
        for check in checks { check.atFinish() }
    }
}
