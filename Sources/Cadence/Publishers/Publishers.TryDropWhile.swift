#if !canImport(Combine)

extension Publisher {
    /// Omits elements from the upstream publisher until an error-throwing closure returns false, before
    /// republishing all remaining elements.
    ///
    /// If the closure throws, the publisher cancels the upstream and fails with the thrown error.
    ///
    /// - Parameter predicate: A closure that returns whether to drop the element, or throws.
    /// - Returns: A publisher that skips over elements until the closure returns `false`, then republishes all
    ///   remaining elements.
    public func tryDrop(while predicate: @escaping (Output) throws -> Bool) -> Publishers.TryDropWhile<Self> {
        Publishers.TryDropWhile(upstream: self, predicate: predicate)
    }
}

extension Publishers {
    /// A publisher that omits elements from an upstream publisher until a given error-throwing closure returns
    /// false.
    ///
    /// Demand: requests pass through unchanged, and each dropped value is answered with `.max(1)`. When the predicate
    /// throws, the upstream is cancelled and the subscriber gets the error.
    public struct TryDropWhile<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = any Error

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The error-throwing closure that indicates whether to drop the element.
        public let predicate: (Upstream.Output) throws -> Bool

        /// Creates a publisher that drops elements of `upstream` while `predicate` returns `true`.
        public init(upstream: Upstream, predicate: @escaping (Output) throws -> Bool) {
            self.upstream = upstream
            self.predicate = predicate
        }

        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, predicate: predicate))
        }
    }
}

extension Publishers.TryDropWhile {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == any Error {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        // `lock` guards every stored var. `downstream` is nil once the subscription completed or was cancelled;
        // `predicate` is nil once it returned false, or the subscription ended.
        private let lock = UnfairLock()
        private var downstream: Downstream?
        private var upstream: (any Subscription)?
        private var predicate: ((Input) throws -> Bool)?

        init(downstream: Downstream, predicate: @escaping (Input) throws -> Bool) {
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
            guard let downstream, let upstream else {
                lock.unlock()
                return .none
            }
            let predicate = self.predicate
            lock.unlock()
            guard let predicate else {
                return downstream.receive(input)
            }
            let drops: Bool
            do {
                drops = try predicate(input)
            } catch {
                fail(with: error, cancelling: upstream)
                return .none
            }
            if drops {
                return .max(1)
            }
            // Values arrive one at a time, so nothing else clears the predicate but completion or cancel.
            lock.lock()
            self.predicate = nil
            lock.unlock()
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
            downstream.receive(completion: completion.eraseError)
        }

        func request(_ demand: Subscribers.Demand) {
            demand.assertPositive(in: "TryDropWhile")
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

        /// Ends the subscription because the predicate threw, unless a cancel or completion got there first.
        private func fail(with error: any Error, cancelling upstream: any Subscription) {
            lock.lock()
            guard let downstream else {
                lock.unlock()
                return
            }
            self.downstream = nil
            self.upstream = nil
            predicate = nil
            lock.unlock()
            upstream.cancel()
            downstream.receive(completion: .failure(error))
        }

        var description: String { "TryDropWhile" }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}

#endif
