import CadenceSupport
extension Publisher {
    /// Ignores elements from the upstream publisher until it receives an element from a second publisher.
    ///
    /// If the second publisher completes before it produces an element, this publisher completes the same way.
    public func drop<P>(untilOutputFrom publisher: P) -> Publishers.DropUntilOutput<Self, P>
    where P: Publisher, Failure == P.Failure {
        Publishers.DropUntilOutput(upstream: self, other: publisher)
    }
}

extension Publishers {
    /// A publisher that ignores elements from the upstream publisher until it receives an element from a second
    /// publisher.
    ///
    /// Demand, as in Combine: the downstream's requests go straight to the upstream, and a value dropped before the
    /// trigger uses up one of them; the second publisher is asked for `.max(1)`. The downstream gets its subscription
    /// first, then the second publisher is subscribed to, then the upstream.
    public struct DropUntilOutput<Upstream: Publisher, Other: Publisher>: Publisher
    where Upstream.Failure == Other.Failure {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A publisher to monitor for its first emitted element.
        public let other: Other

        /// Creates a publisher that ignores elements from the upstream publisher until it receives an element from
        /// another publisher.
        public init(upstream: Upstream, other: Other) {
            self.upstream = upstream
            self.other = other
        }

        public func receive<S: Subscriber>(subscriber: S)
        where Upstream.Output == S.Input, Other.Failure == S.Failure {
            let inner = Inner(downstream: subscriber)
            subscriber.receive(subscription: inner)
            other.subscribe(SharedIdentitySide(index: .other, host: inner))
            upstream.subscribe(inner)
        }
    }
}

extension Publishers.DropUntilOutput: Equatable where Upstream: Equatable, Other: Equatable {}

extension Publishers.DropUntilOutput {
    /// Subscribes to the upstream and is the downstream's subscription. Once triggered, a value goes through with one
    /// lock acquisition: nothing the trigger does after its first value reaches the downstream, so the upstream is
    /// the only one delivering.
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
        private var requested = Subscribers.Demand.none
        private var triggered = false
        private var terminated = false

        init(downstream: Downstream) {
            self.downstream = downstream
        }

        // MARK: Upstream

        func receive(subscription: any Subscription) {
            lock.lock()
            guard !terminated, upstreamLink.attach(subscription) else {
                lock.unlock()
                subscription.cancel()
                return
            }
            let alreadyRequested = requested
            lock.unlock()
            if alreadyRequested > 0 {
                subscription.request(alreadyRequested)
            }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard !terminated, let downstream else {
                lock.unlock()
                return .none
            }
            guard triggered else {
                requested -= 1
                lock.unlock()
                return .none
            }
            lock.unlock()
            return downstream.receive(input)
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
            if !terminated {
                triggered = true
                _ = triggerLink.close()
            }
            lock.unlock()
            return .none
        }

        func receive(completion: Subscribers.Completion<Other.Failure>, at _: OtherPublisherSide) {
            lock.lock()
            guard !triggered, !terminated, let downstream else {
                _ = triggerLink.close()
                lock.unlock()
                return
            }
            terminated = true
            self.downstream = nil
            _ = triggerLink.close()
            let upstream = upstreamLink.close()
            lock.unlock()
            upstream?.cancel()
            downstream.receive(completion: completion)
        }

        // MARK: Subscription

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            guard !terminated else {
                lock.unlock()
                return
            }
            requested += demand
            let upstream = upstreamLink.subscription
            lock.unlock()
            upstream?.request(demand)
        }

        func cancel() {
            lock.lock()
            guard !terminated else {
                lock.unlock()
                return
            }
            terminated = true
            let released = downstream
            downstream = nil
            let upstream = upstreamLink.close()
            let trigger = triggerLink.close()
            lock.unlock()
            upstream?.cancel()
            trigger?.cancel()
            withExtendedLifetime(released) {}
        }

        var description: String { "DropUntilOutput" }

        var customMirror: Mirror {
            lock.lock()
            defer { lock.unlock() }
            return Mirror(self, children: ["downstream": downstream as Any, "triggered": triggered])
        }

        var playgroundDescription: Any { description }
    }
}

