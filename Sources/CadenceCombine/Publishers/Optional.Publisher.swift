extension Optional {
    /// A publisher that publishes the wrapped value once, then finishes; or just finishes when this is `nil`.
    public var publisher: Publisher {
        Publisher(self)
    }

    /// A publisher that publishes an optional value to each subscriber exactly once, if the optional has a value.
    ///
    /// With a value, it goes out on the subscriber's first positive request, followed by `.finished`. With `nil`, the
    /// subscriber gets the empty subscription and `.finished` at once, without waiting for demand.
    public struct Publisher: CadenceCombine.Publisher {
        public typealias Output = Wrapped

        public typealias Failure = Never

        /// The result to deliver to each subscriber.
        public let output: Wrapped?

        /// Creates a publisher to emit the value of the optional, or to finish immediately if the optional doesn't
        /// have a value.
        public init(_ output: Output?) {
            self.output = output
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Wrapped, S.Failure == Never {
            if let output {
                subscriber.receive(
                    subscription: OnceSubscription(output: output, downstream: subscriber, name: "Optional"))
            } else {
                subscriber.receive(subscription: Subscriptions.empty)
                subscriber.receive(completion: .finished)
            }
        }
    }
}

extension Optional.Publisher: Equatable where Wrapped: Equatable {}
