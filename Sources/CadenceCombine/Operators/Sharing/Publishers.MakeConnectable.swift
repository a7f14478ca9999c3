extension Publisher where Failure == Never {
    /// Creates a connectable wrapper around the publisher.
    ///
    /// ```swift
    /// let connectable = ticks.makeConnectable()
    /// connectable.sink { print($0) }.store(in: &cancellables)
    /// connectable.connect().store(in: &cancellables) // values start flowing now
    /// ```
    public func makeConnectable() -> Publishers.MakeConnectable<Self> {
        Publishers.MakeConnectable(upstream: self)
    }
}

extension Publishers {
    /// A publisher that provides explicit connectability to another publisher: it multicasts the upstream through a
    /// `PassthroughSubject` once `connect()` is called.
    public struct MakeConnectable<Upstream: Publisher>: ConnectablePublisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        private let multicast: Multicast<Upstream, PassthroughSubject<Output, Failure>>

        /// Creates a connectable publisher, attached to the provided upstream publisher.
        public init(upstream: Upstream) {
            multicast = Multicast(upstream: upstream, createSubject: { PassthroughSubject() })
        }

        /// Attaches the subscriber to the multicasting subject.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            multicast.subscribe(subscriber)
        }

        /// Connects to the upstream publisher, and returns the cancellable that disconnects it.
        public func connect() -> any Cancellable {
            multicast.connect()
        }
    }
}
