extension PublisherExpectation {
    /// Runs the test's tasks and the expectation's virtual clock until both are idle — `await clock.run()` — and
    /// returns the chain, for steps that then read what the tasks published.
    ///
    /// The steps themselves let the test's tasks run as they drive the clock, on the Swift 6.2 runtime and later (see
    /// "The DSL in `async` tests" in the AsyncAwait guide). On an older runtime, or to run everything before the steps
    /// (to read `events` afterwards, say), let the tasks run first:
    ///
    /// ```swift
    /// await expect(viewModel.$state).running()
    ///     .toEmit([.idle, .loading, .loaded(items)], within: .seconds(3))
    /// ```
    ///
    /// Inside `@Test(.virtualTime)` and `withVirtualTime` every task of the test runs on the test's executor, between
    /// the clock's ticks (see `VirtualClock.run(limit:)`); with no clock there is nothing to drive and it returns
    /// the chain as it is.
    @discardableResult
    public func running(isolation: isolated (any Actor)? = #isolation) async -> Self {
        await clock?.run()
        return self
    }

    /// Moves the expectation's virtual clock forward by `duration`, letting the test's tasks run before time moves and
    /// after each tick's due work — `await clock.advance(by:)` — and returns the chain.
    ///
    /// ```swift
    /// await expect(viewModel.$state).advancing(by: .seconds(1)).toEmit([.idle, .loading])
    /// ```
    @discardableResult
    public func advancing(by duration: Duration, isolation: isolated (any Actor)? = #isolation) async -> Self {
        await clock?.advance(by: duration)
        return self
    }
}
