import Cadence

extension Publisher {
    /// Resubscribes after a failure that `shouldRetry` accepts, once per delay, waiting that delay first; fails with
    /// the last error when the delays run out or `shouldRetry` turns the error down.
    ///
    /// ```swift
    /// api.startExport(of: "sales")
    ///     .retry(after: [.seconds(1), .seconds(2), .seconds(4)], scheduler: scheduler)   // 4 attempts in all
    /// ```
    ///
    /// Combine's `retry(_:)` resubscribes at once; pairing it with `delay` would delay the final failure too. Here the
    /// last error is delivered as soon as it arrives.
    ///
    /// - Parameters:
    ///   - delays: How long to wait before each retry, in order; `delays.count + 1` attempts in all.
    ///   - scheduler: The scheduler that times the waits.
    ///   - shouldRetry: Whether an error is worth another attempt; every error is, by default.
    public func retry<S: Scheduler>(
        after delays: [S.SchedulerTimeType.Stride],
        scheduler: S,
        if shouldRetry: @escaping (Failure) -> Bool = { _ in true }
    ) -> AnyPublisher<Output, Failure> {
        self.catch { error -> AnyPublisher<Output, Failure> in
            guard let delay = delays.first, shouldRetry(error) else {
                return Fail(error: error).eraseToAnyPublisher()
            }
            return Just(())
                .delay(for: delay, scheduler: scheduler)
                .setFailureType(to: Failure.self)
                .flatMap { self.retry(after: Array(delays.dropFirst()), scheduler: scheduler, if: shouldRetry) }
                .eraseToAnyPublisher()
        }
        .eraseToAnyPublisher()
    }
}
