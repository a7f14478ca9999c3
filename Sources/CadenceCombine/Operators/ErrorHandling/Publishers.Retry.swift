import CadenceSupport
extension Publisher {
    /// Attempts to recreate a failed subscription with the upstream publisher up to the number of times you specify.
    ///
    /// ```swift
    /// fetchQuote()
    ///     .retry(3)
    ///     .sink(receiveCompletion: { print($0) }, receiveValue: { print($0) })
    /// ```
    ///
    /// - Parameter retries: The number of times to attempt to recreate the subscription.
    public func retry(_ retries: Int) -> Publishers.Retry<Self> {
        Publishers.Retry(upstream: self, retries: retries)
    }
}

extension Publishers {
    /// A publisher that attempts to recreate its subscription to a failed upstream publisher.
    ///
    /// Demand: the downstream's demand passes through to the upstream; each new subscription is asked for the demand
    /// still outstanding. The downstream gets one subscription, whatever the number of attempts.
    public struct Retry<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// The maximum number of retry attempts to perform; `nil` retries indefinitely.
        public let retries: Int?

        /// Creates a publisher that attempts to recreate its subscription to a failed upstream publisher.
        public init(upstream: Upstream, retries: Int?) {
            self.upstream = upstream
            self.retries = retries
        }

        /// Attaches the subscriber to the upstream, through the subscription that resubscribes on failure.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(upstream: upstream, retries: retries, downstream: subscriber))
        }
    }
}

extension Publishers.Retry: Equatable where Upstream: Equatable {}

extension Publishers.Retry {
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let upstream: Upstream

        // `lock` guards every stored var below.
        private let lock = UnfairLock()
        private var downstream: Downstream?
        private var subscription: (any Subscription)?
        private var remaining: Int?
        private var demand = Subscribers.Demand.none
        private var sentSubscription = false
        /// Set while this object resubscribes, so a failure delivered from inside `subscribe` loops instead of
        /// recursing.
        private var isResubscribing = false
        private var needsResubscribe = false

        init(upstream: Upstream, retries: Int?, downstream: Downstream) {
            self.upstream = upstream
            self.remaining = retries
            self.downstream = downstream
        }

        func receive(subscription: any Subscription) {
            lock.lock()
            guard let downstream, self.subscription == nil else {
                lock.unlock()
                subscription.cancel()
                return
            }
            self.subscription = subscription
            let isFirst = !sentSubscription
            sentSubscription = true
            let outstanding = demand
            lock.unlock()
            if isFirst {
                downstream.receive(subscription: self)
            }
            if outstanding > 0 {
                subscription.request(outstanding)
            }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard let downstream else {
                lock.unlock()
                return .none
            }
            demand -= 1
            lock.unlock()
            let more = downstream.receive(input)
            if more > 0 {
                lock.lock()
                demand += more
                lock.unlock()
            }
            return more
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard let downstream else {
                lock.unlock()
                return
            }
            subscription = nil
            if case .failure = completion, remaining.map({ $0 > 0 }) ?? true {
                remaining = remaining.map { $0 - 1 }
                guard !isResubscribing else {
                    needsResubscribe = true
                    lock.unlock()
                    return
                }
                isResubscribing = true
                repeat {
                    needsResubscribe = false
                    lock.unlock()
                    upstream.subscribe(self)
                    lock.lock()
                } while needsResubscribe && self.downstream != nil
                isResubscribing = false
                lock.unlock()
                return
            }
            self.downstream = nil
            lock.unlock()
            downstream.receive(completion: completion)
        }

        func request(_ additional: Subscribers.Demand) {
            additional.assertPositive(in: "Retry")
            lock.lock()
            guard downstream != nil else {
                lock.unlock()
                return
            }
            demand += additional
            let subscription = self.subscription
            lock.unlock()
            subscription?.request(additional)
        }

        func cancel() {
            lock.lock()
            guard let released = downstream else {
                lock.unlock()
                return
            }
            downstream = nil
            let subscription = self.subscription.take()
            lock.unlock()
            // The downstream is released here, outside the lock: its deinitialiser may cancel again.
            withExtendedLifetime(released) {}
            subscription?.cancel()
        }

        var description: String { "Retry" }

        var customMirror: Mirror {
            lock.lock()
            defer { lock.unlock() }
            return Mirror(self, children: [
                "downstream": downstream as Any,
                "remainingRetries": remaining as Any,
                "demand": demand,
            ])
        }

        var playgroundDescription: Any { description }
    }
}

