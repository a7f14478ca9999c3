extension VirtualClock {
    /// Where a virtual clock reports misuse that it survives: the package's one misuse channel, ``IssueReporter``.
    public typealias IssueReporter = CadenceSupport.IssueReporter

    /// The reporter a clock created here uses: `IssueReporter.current`, standard error unless a test binds another
    /// with `IssueReporter.$current.withValue(_:operation:)`.
    ///
    /// A clock keeps the reporter in effect when it was created, so a report made later, from any thread, still
    /// reaches the test that made the clock.
    public static var issueReporter: IssueReporter { IssueReporter.current }
}
