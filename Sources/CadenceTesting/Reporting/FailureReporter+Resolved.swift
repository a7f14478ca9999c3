#if canImport(Testing)
import Testing
#endif

extension FailureReporter {
    /// The reporter an expectation created now reports to: `current` when a test bound it, else the running test
    /// framework.
    ///
    /// Under Swift Testing each access makes a reporter bound to the test running on this task (see
    /// `swiftTesting`); read it on the test's task, as `expect(_:)` does. The reporter a virtual-time session binds
    /// for misuse is passed over: an expectation inside `.virtualTime` still reports into the test framework itself.
    public static var resolved: FailureReporter {
        resolved(relayStartsAtOnce: true)
    }

    /// `resolved`, with a Swift Testing reporter's relay started at once or only on ``startRelay()``.
    static func resolved(relayStartsAtOnce: Bool) -> FailureReporter {
        if let bound { return bound }
        if isSwiftTestingRunning { return .swiftTesting(relayStartsAtOnce: relayStartsAtOnce) }
        return .testFramework
    }

    /// Whether a Swift Testing test is running on the current task.
    static var isSwiftTestingRunning: Bool {
        #if canImport(Testing)
        // A pattern, not `!= nil`, which copies the test out twice more to compare it.
        if case .none = Test.current { false } else { true }
        #else
        false
        #endif
    }
}
