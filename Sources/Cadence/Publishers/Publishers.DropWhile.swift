#if !canImport(Combine)

extension Publisher {
    /// Omits elements from the upstream publisher until a given closure returns false, before republishing all
    /// remaining elements.
    ///
    /// ```swift
    /// [-2, -1, 0, 3, -4].publisher
    ///     .drop { $0 <= 0 }
    ///     .sink { print($0) } // prints 3, then -4
    /// ```
    ///
    /// - Parameter predicate: A closure that returns whether to drop the element.
    /// - Returns: A publisher that skips over elements until the closure returns `false`.
    public func drop(while predicate: @escaping (Output) -> Bool) -> Publishers.DropWhile<Self> {
        Publishers.DropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given closure returns false.
    ///
    /// Demand: requests pass through unchanged, and each dropped value is answered with `.max(1)`, so the subscriber's
    /// demand only counts the values it gets. The predicate is not called again once it returned `false`.
    public struct DropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The closure that indicates whether to drop the element.
        public let predicate: (Output) -> Bool

        /// Creates a publisher that drops elements of `upstream` while `predicate` returns `true`.
        public init(upstream: Upstream, predicate: @escaping (Output) -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.DropWhile {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        // `lock` guards every stored var. `downstream` is nil once the subscription completed or was cancelled;
        // `predicate` is nil once it returned false, or the subscription ended.
        private let lock = UnfairLock()
        private var downstream: Downstream?
        private var upstream: (any Subscription)?
        private var predicate: ((Input) -> Bool)?

        init(downstream: Downstream, predicate: @escaping (Input) -> Bool) {
            self.downstream = downstream
            self.predicate = predicate
        }

        func receive(subscription: any Subscription) {
            lock.lock()
            guard upstream == nil, let downstream else {
                lock.unlock()
                subscription.cancel()
                return
            }
            upstream = subscription
            lock.unlock()
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard let downstream, upstream != nil else {
                lock.unlock()
                return .none
            }
            let predicate = self.predicate
            lock.unlock()
            if let predicate {
                if predicate(input) {
                    return .max(1)
                }
                // Values arrive one at a time, so nothing else clears the predicate but completion or cancel.
                lock.lock()
                self.predicate = nil
                lock.unlock()
            }
            return downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard let downstream, upstream != nil else {
                lock.unlock()
                return
            }
            self.downstream = nil
            upstream = nil
            predicate = nil
            lock.unlock()
            downstream.receive(completion: completion)
        }

        func request(_ demand: Subscribers.Demand) {
            demand.assertPositive(in: "DropWhile")
            lock.lock()
            let upstream = downstream == nil ? nil : self.upstream
            lock.unlock()
            upstream?.request(demand)
        }

        func cancel() {
            lock.lock()
            let upstream = self.upstream
            self.upstream = nil
            downstream = nil
            predicate = nil
            lock.unlock()
            upstream?.cancel()
        }

        var description: String { "DropWhile" }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}

#endif
