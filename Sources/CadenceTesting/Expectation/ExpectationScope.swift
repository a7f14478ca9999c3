/// A stretch of a test — one test body under the `.virtualTime` trait or `withVirtualTime` — whose expectations hold
/// their late checks until it finishes.
///
/// Inside a scope, an expectation chain that has ended does not report events that arrive afterwards one by one; it
/// registers a check, and ``finish()`` (called once the scope has drained its clock) runs every check on the scope's
/// own task, so each late failure lands in the test that wrote the expectation.
final class ExpectationScope: Sendable {
    private let checks = Locked<[@Sendable () -> Void]>([])

    /// The scope expectations created here register with, if any.
    @TaskLocal static var current: ExpectationScope?

    init() {}

    /// Adds a check to run when the scope finishes.
    func register(_ check: @escaping @Sendable () -> Void) {
        checks.withLock { $0.append(check) }
    }

    /// Runs every registered check, in the order the chains ended; a scope finishes once.
    func finish() {
        let checks = checks.withLock { checks in
            defer { checks.removeAll() }
            return checks
        }
        for check in checks { check() }
    }
}
