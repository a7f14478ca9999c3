extension Publisher where Output: Encodable {
    /// Encodes the output from upstream using a specified encoder.
    ///
    /// A value the encoder rejects ends the stream: the upstream is cancelled and the downstream fails with the
    /// encoder's error.
    ///
    /// ```swift
    /// let json = Just(Article(title: "Swift")).encode(encoder: JSONEncoder())
    /// ```
    public func encode<Coder: TopLevelEncoder>(encoder: Coder) -> Publishers.Encode<Self, Coder> {
        Publishers.Encode(upstream: self, encoder: encoder)
    }
}

extension Publishers {
    /// A publisher that encodes each element of its upstream with an encoder.
    ///
    /// Demand passes through to the upstream unchanged.
    public struct Encode<Upstream: Publisher, Coder: TopLevelEncoder>: Publisher where Upstream.Output: Encodable {
        public typealias Failure = any Error

        public typealias Output = Coder.Output

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        private let encoder: Coder

        public init(upstream: Upstream, encoder: Coder) {
            self.upstream = upstream
            self.encoder = encoder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Coder.Output, S.Failure == any Error {
            let encoder = self.encoder
            upstream.subscribe(
                CodingSubscription<Upstream.Output, Upstream.Failure, S>(downstream: subscriber, name: "Encode") {
                    try encoder.encode($0)
                })
        }
    }
}
