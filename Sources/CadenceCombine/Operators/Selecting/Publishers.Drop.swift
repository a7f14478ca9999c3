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
    ///
    /// As in Combine, every completion the upstream sends goes downstream — a second one, or one after a cancel, too —
    /// and the subscription keeps its downstream for its whole life; values and requests after a completion or a
    /// cancel go nowhere.
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

        // `lock` guards every stored var but `downstream`.
        private let lock = UnfairLock()
        private let downstream: Downstream
        private var isEnded = false
        private var upstream: (any Subscription)?
        private var pendingDemand = Subscribers.Demand.none
        private var remainingToDrop: Int

        init(downstream: Downstream, count: Int) {
            self.downstream = downstream
            remainingToDrop = count
        }

        func receive(subscription: any Subscription) {
            lock.lock()
            guard upstream == nil, !isEnded else {
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
            guard !isEnded else {
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
            // Passed on even after the end, as Combine does. `released` keeps the upstream's subscription alive until
            // here, so its release runs unlocked.
            isEnded = true
            let released = upstream
            upstream = nil
            lock.unlock()
            downstream.receive(completion: completion)
            withExtendedLifetime(released) {}
        }

        func request(_ demand: Subscribers.Demand) {
            guard demand.isPositive(in: "Drop") else { return }
            lock.lock()
            guard !isEnded else {
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
            self.upstream = nil
            isEnded = true
            lock.unlock()
            upstream?.cancel()
        }

        var description: String { "Drop" }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}
