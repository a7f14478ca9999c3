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
            other.subscribe(SharedIdentitySide(index: .other, host: inner))
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.PrefixUntilOutput {
    /// Subscribes to the upstream and is the downstream's subscription.
    ///
    /// The trigger may fire on another thread while the upstream delivers a value; the delivering flag makes the
    /// trigger leave the finish to the delivering thread, so the downstream never gets two calls at once.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, IndexedSideHost,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure
        typealias SideIndex = OtherPublisherSide
        typealias SideInput = Other.Output
        typealias SideFailure = Other.Failure

        // `lock` guards every stored var below.
        private let lock = UnfairLock()
        private var downstream: Downstream?
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
            guard upstreamLink.isAwaiting, let downstream else {
                lock.unlock()
                subscription.cancel()
                return
            }
            let alreadyTriggered = terminated
            if alreadyTriggered {
                upstreamLink = .completed
            } else {
                _ = upstreamLink.attach(subscription)
            }
            delivering = true
            lock.unlock()
            if alreadyTriggered {
                subscription.cancel()
            }
            downstream.receive(subscription: self)
            lock.lock()
            endDeliveryLocked()
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard !terminated, let downstream else {
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
            guard !terminated, let downstream else {
                lock.unlock()
                return
            }
            terminated = true
            self.downstream = nil
            _ = upstreamLink.close()
            let trigger = triggerLink.close()
            lock.unlock()
            trigger?.cancel()
            downstream.receive(completion: completion)
        }

        /// Gives the delivering flag back and sends a finish the trigger left behind. Called with the lock held;
        /// returns without it.
        private func endDeliveryLocked() {
            delivering = false
            guard pendingFinish, let downstream else {
                lock.unlock()
                return
            }
            pendingFinish = false
            self.downstream = nil
            lock.unlock()
            downstream.receive(completion: .finished)
        }

        // MARK: Trigger (the other publisher)

        func receive(subscription: any Subscription, at _: OtherPublisherSide) {
            lock.lock()
            guard !terminated, triggerLink.attach(subscription) else {
                lock.unlock()
                subscription.cancel()
                return
            }
            lock.unlock()
            subscription.request(.max(1))
        }

        func receive(_ input: Other.Output, at _: OtherPublisherSide) -> Subscribers.Demand {
            lock.lock()
            guard !terminated, triggerLink.subscription != nil, let downstream else {
                lock.unlock()
                return .none
            }
            terminated = true
            _ = triggerLink.close()
            // Before the upstream has subscribed, its link stays open: its subscription is still to be taken (and
            // cancelled) when it arrives.
            let upstreamSubscribed = !upstreamLink.isAwaiting
            let upstream = upstreamSubscribed ? upstreamLink.close() : nil
            if delivering || !upstreamSubscribed {
                pendingFinish = true
                lock.unlock()
                upstream?.cancel()
                return .none
            }
            self.downstream = nil
            lock.unlock()
            upstream?.cancel()
            downstream.receive(completion: .finished)
            return .none
        }

        func receive(completion: Subscribers.Completion<Other.Failure>, at _: OtherPublisherSide) {
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
            let released = downstream
            downstream = nil
            terminated = true
            pendingFinish = false
            let upstream = upstreamLink.close()
            let trigger = triggerLink.close()
            lock.unlock()
            upstream?.cancel()
            trigger?.cancel()
            withExtendedLifetime(released) {}
        }

        var description: String { "PrefixUntilOutput" }

        var customMirror: Mirror {
            lock.lock()
            defer { lock.unlock() }
            return Mirror(self, children: [
                "downstream": downstream as Any,
                "upstreamSubscription": upstreamLink.subscription as Any,
            ])
        }

        var playgroundDescription: Any { description }
    }
}

