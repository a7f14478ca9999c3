extension Publisher {
    /// Handles errors from an upstream publisher by either replacing it with another publisher or throwing a new
    /// error.
    ///
    /// ```swift
    /// loadProfile()
    ///     .tryCatch { error -> Just<Profile> in
    ///         guard error.isRecoverable else { throw error }
    ///         return Just(.guest)
    ///     }
    /// ```
    ///
    /// - Parameter handler: A throwing closure that takes the upstream failure and returns a publisher to continue
    ///   with; the error it throws ends the stream.
    public func tryCatch<P>(_ handler: @escaping (Failure) throws -> P) -> Publishers.TryCatch<Self, P>
    where P: Publisher, Output == P.Output {
        Publishers.TryCatch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed publisher with another
    /// publisher or producing a new error.
    ///
    /// Demand: the downstream's demand passes through to the upstream; after a failure, the replacement publisher is
    /// asked for the demand still outstanding, then the downstream's demand passes through to it.
    public struct TryCatch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A throwing closure that accepts the upstream failure and returns a publisher to replace the upstream.
        public let handler: (Upstream.Failure) throws -> NewPublisher

        /// Creates a publisher that handles errors from an upstream publisher by replacing the failed publisher
        /// with another publisher or by throwing an error.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) throws -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches the subscriber to the upstream, through the subscription that replaces it on failure.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = self.handler
            let subscription = CatchSubscription<Upstream, NewPublisher, S>(
                name: "TryCatch",
                downstream: subscriber,
                handler: { error in Result { try handler(error) } },
                convertFailure: { $0 })
            upstream.subscribe(subscription.uncaughtSubscriber)
        }
    }
}
