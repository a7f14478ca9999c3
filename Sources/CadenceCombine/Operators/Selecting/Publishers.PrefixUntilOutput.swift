import CadenceSupport

extension Publisher {
    /// Republishes elements until another publisher emits an element.
    ///
    /// After the second publisher publishes an element, the publisher returned by this method finishes.
    public func prefix<P: Publisher>(untilOutputFrom publisher: P) -> Publishers.PrefixUntilOutput<Self, P> {
        Publishers.PrefixUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// A publisher that republishes elements until another publisher emits an element.
    ///
    /// Demand, as in Combine: the downstream's requests go straight to the upstream, and the other publisher is asked
    /// for `.max(1)`. The other publisher is subscribed to first; the downstream gets its subscription when the
    /// upstream hands over its own. A failure of the other publisher is ignored.
    public struct PrefixUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// Another publisher, whose first output causes this publisher to finish.
        public let other: Other

        /// Creates a publisher that republishes elements until another publisher emits an element.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Failure == S.Failure, Upstream.Output == S.Input {
            let inner = Inner(downstream: subscriber)
            other.subscribe(TriggerSubscriber(inner: inner))
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.PrefixUntilOutput {
    /// Subscribes to the upstream and is the downstream's subscription.
    ///
    /// As in Combine, it keeps its downstream for as long as it lives and has no description or mirror of its own;
    /// a value or a completion the upstream sends before its subscription is dropped, and a trigger that fires
    /// before the upstream's subscription finishes the downstream at once (the subscription, when it comes, is
    /// cancelled and not handed on). The trigger may fire on another thread while the upstream delivers a value; the
    /// delivering flag makes the trigger leave the finish to the delivering thread, so the downstream never gets two
    /// calls at once.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private let downstream: Downstream
        // `lock` guards every stored var below.
        private let lock = UnfairLock()
        private var upstreamLink = SingleUpstreamLink.awaiting
        private var triggerLink = SingleUpstreamLink.awaiting
        private var delivering = false
        private var pendingFinish = false
        // Set once the downstream has been completed, is due to be, or has cancelled.
        private var terminated = false

        init(downstream: Downstream) {
            self.downstream = downstream
        }

        // MARK: Upstream

        func receive(subscription: any Subscription) {
            lock.lock()
            guard upstreamLink.isAwaiting, !terminated else {
                if upstreamLink.isAwaiting {
                    upstreamLink = .completed
                }
                lock.unlock()
                subscription.cancel()
                return
            }
            _ = upstreamLink.attach(subscription)
            delivering = true
            lock.unlock()
            downstream.receive(subscription: self)
            lock.lock()
            endDeliveryLocked()
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard !terminated, upstreamLink.subscription != nil else {
                lock.unlock()
                return .none
            }
            delivering = true
            lock.unlock()
            let more = downstream.receive(input)
            lock.lock()
            endDeliveryLocked()
            return more
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            let subscribed = upstreamLink.subscription != nil
            _ = upstreamLink.close()
            let trigger = triggerLink.close()
            guard subscribed, !terminated else {
                lock.unlock()
                trigger?.cancel()
                return
            }
            terminated = true
            lock.unlock()
            trigger?.cancel()
            downstream.receive(completion: completion)
        }

        /// Gives the delivering flag back and sends a finish the trigger left behind. Called with the lock held;
        /// returns without it.
        private func endDeliveryLocked() {
            delivering = false
            guard pendingFinish else {
                lock.unlock()
                return
            }
            pendingFinish = false
            lock.unlock()
            downstream.receive(completion: .finished)
        }

        // MARK: Trigger (the other publisher)

        func receiveTrigger(subscription: any Subscription) {
            lock.lock()
            guard !terminated, triggerLink.attach(subscription) else {
                lock.unlock()
                subscription.cancel()
                return
            }
            lock.unlock()
            subscription.request(.max(1))
        }

        func receiveTrigger(_ input: Other.Output) -> Subscribers.Demand {
            lock.lock()
            guard !terminated, triggerLink.subscription != nil else {
                lock.unlock()
                return .none
            }
            terminated = true
            _ = triggerLink.close()
            let upstream = upstreamLink.close()
            if delivering {
                pendingFinish = true
                lock.unlock()
                upstream?.cancel()
                return .none
            }
            lock.unlock()
            upstream?.cancel()
            downstream.receive(completion: .finished)
            return .none
        }

        func receiveTrigger(completion: Subscribers.Completion<Other.Failure>) {
            lock.lock()
            _ = triggerLink.close()
            lock.unlock()
        }

        // MARK: Subscription

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            let upstream = terminated ? nil : upstreamLink.subscription
            lock.unlock()
            upstream?.request(demand)
        }

        func cancel() {
            lock.lock()
            terminated = true
            pendingFinish = false
            let upstream = upstreamLink.close()
            let trigger = triggerLink.close()
            lock.unlock()
            upstream?.cancel()
            trigger?.cancel()
        }
    }

    /// The subscriber to the other publisher: it hands each event to its `Inner` and shares the inner's identity.
    /// As in Combine, neither has a description or a mirror of its own.
    private struct TriggerSubscriber<Downstream: Subscriber>: Subscriber
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Other.Output
        typealias Failure = Other.Failure

        let inner: Inner<Downstream>

        var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

        func receive(subscription: any Subscription) {
            inner.receiveTrigger(subscription: subscription)
        }

        func receive(_ input: Other.Output) -> Subscribers.Demand {
            inner.receiveTrigger(input)
        }

        func receive(completion: Subscribers.Completion<Other.Failure>) {
            inner.receiveTrigger(completion: completion)
        }
    }
}
