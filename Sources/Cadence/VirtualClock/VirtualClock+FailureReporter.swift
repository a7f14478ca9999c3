extension VirtualClock {
    /// The reporter a clock created here uses: `FailureReporter.current` when one is bound (`.virtualTime` and
    /// `withVirtualTime` bind one that records into the test), else `FailureReporter.standardError`.
    ///
    /// A clock keeps the reporter in effect when it was created, so a report made later, from any thread, still
    /// reaches the test that made the clock.
    public static var issueReporter: FailureReporter { FailureReporter.current ?? .standardError }
}
