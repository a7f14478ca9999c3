extension Publisher {
    /// Decodes the output from the upstream using a specified decoder.
    ///
    /// Input the decoder rejects ends the stream: the upstream is cancelled and the downstream fails with the
    /// decoder's error.
    ///
    /// ```swift
    /// let articles = dataPublisher.decode(type: [Article].self, decoder: JSONDecoder())
    /// ```
    public func decode<Item: Decodable, Coder: TopLevelDecoder>(
        type: Item.Type,
        decoder: Coder
    ) -> Publishers.Decode<Self, Item, Coder> where Output == Coder.Input {
        Publishers.Decode(upstream: self, decoder: decoder)
    }
}

extension Publishers {
    /// A publisher that decodes each element of its upstream with a decoder.
    ///
    /// Demand passes through to the upstream unchanged.
    public struct Decode<Upstream: Publisher, Output: Decodable, Coder: TopLevelDecoder>: Publisher
    where Upstream.Output == Coder.Input {
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        private let decoder: Coder

        public init(upstream: Upstream, decoder: Coder) {
            self.upstream = upstream
            self.decoder = decoder
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == any Error {
            let decoder = self.decoder
            upstream.subscribe(
                CodingSubscription<Upstream.Output, Upstream.Failure, S>(downstream: subscriber, name: "Decode") {
                    try decoder.decode(Output.self, from: $0)
                })
        }
    }
}
