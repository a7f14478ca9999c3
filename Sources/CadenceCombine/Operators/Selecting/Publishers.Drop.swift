import CadenceSupport
extension Publisher {
    /// Omits the specified number of elements before republishing subsequent elements.
    ///
    /// ```swift
    /// [1, 2, 3, 4, 5].publisher
    ///     .dropFirst(3)
    ///     .sink { print($0) } // prints 4, then 5
    /// ```
    ///
    /// - Parameter count: The number of elements to omit. The default is `1`.
    /// - Returns: A publisher that doesn't republish the first `count` elements.
    public func dropFirst(_ count: Int = 1) -> Publishers.Drop<Self> {
        Publishers.Drop(upstream: self, count: count)
    }
}

extension Publishers {
    /// A publisher that omits a specified number of elements before republishing later elements.
    ///
    /// Demand: the subscriber gets its subscription before the upstream is subscribed to. When the upstream's
    /// subscription arrives, Drop requests what the subscriber asked for so far plus `count` (the values it will
    /// drop), and answers each dropped value with `.none`; after that, requests pass through unchanged.
    public struct Drop<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The number of elements to drop.
        public let count: Int

        /// Creates a publisher that omits the first `count` elements of `upstream`.
        public init(upstream: Upstream, count: Int) {
            self.upstream = upstream
            self.count = count
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            require(count >= 0, "Drop: dropFirst(_:) needs a count of zero or more, got \(count)")
            let inner = Inner(downstream: subscriber, count: count)
            subscriber.receive(subscription: inner)
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.Drop: Equatable where Upstream: Equatable {}

extension Publishers.Drop {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        // `lock` guards every stored var. `downstream` is nil once the subscription completed or was cancelled.
        private let lock = UnfairLock()
        private var downstream: Downstream?
        private var upstream: (any Subscription)?
        private var pendingDemand = Subscribers.Demand.none
        private var remainingToDrop: Int

        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            remainingToDrop = count
        }

        func receive(subscription: any Subscription) {
            lock.lock()
            guard upstream == nil, downstream != nil else {
                lock.unlock()
                subscription.cancel()
                return
            }
            upstream = subscription
            let demand = pendingDemand + remainingToDrop
            pendingDemand = .none
            lock.unlock()
            if demand > 0 {
                subscription.request(demand)
            }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            // A value before the upstream's subscription is counted and passed on like any other, as Combine does.
            guard let downstream else {
                lock.unlock()
                return .none
            }
            if remainingToDrop > 0 {
                remainingToDrop -= 1
                lock.unlock()
                return .none
            }
            lock.unlock()
            return downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard let downstream else {
                lock.unlock()
                return
            }
            self.downstream = nil
            upstream = nil
            lock.unlock()
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            guard demand.isPositive(in: "Drop") else { return }
            lock.lock()
            guard downstream != nil else {
                lock.unlock()
                return
            }
            guard let upstream else {
                pendingDemand += demand
                lock.unlock()
                return
            }
            lock.unlock()
            upstream.request(demand)
        }

        func cancel() {
            lock.lock()
            let upstream = self.upstream
            // Released after the lock: the downstream's `deinit` may cancel this subscription again.
            let released = downstream
            self.upstream = nil
            downstream = nil
            lock.unlock()
            upstream?.cancel()
            withExtendedLifetime(released) {}
        }

        var description: String { "Drop" }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}

