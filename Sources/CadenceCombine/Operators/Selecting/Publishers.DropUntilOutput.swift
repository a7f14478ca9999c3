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
    /// Subscribes to the upstream and is the downstream's subscription.
    ///
    /// It follows Combine's subscription closely, loose ends included: it keeps its downstream for as long as it
    /// lives; a value dropped before the trigger (or after a cancel) uses up one requested value, and one that nobody
    /// requested breaks Combine's rules and traps; the second publisher's completion before its first value
    /// cancels the upstream and goes on to the downstream each time it comes, without ending the subscription; a
    /// request before the upstream's subscription is passed on when it arrives; and once the trigger fired, the side
    /// subscriber takes a new subscription to the second publisher again.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, IndexedSideHost,
        CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure
        typealias SideIndex = OtherPublisherSide
        typealias SideInput = Other.Output
        typealias SideFailure = Other.Failure

        private let downstream: Downstream
        // `lock` guards every stored var below.
        private let lock = UnfairLock()
        private var upstream: (any Subscription)?
        private var trigger: (any Subscription)?
        /// What the downstream requested and the dropped values have not used up yet.
        private var requested = Subscribers.Demand.none
        private var triggered = false
        /// Set by a cancel and by the upstream's completion.
        private var cancelled = false

        init(downstream: Downstream) {
            self.downstream = downstream
        }

        // MARK: Upstream

        func receive(subscription: any Subscription) {
            lock.lock()
            guard upstream == nil, !cancelled else {
                lock.unlock()
                subscription.cancel()
                return
            }
            upstream = subscription
            let alreadyRequested = requested
            lock.unlock()
            if alreadyRequested > 0 {
                subscription.request(alreadyRequested)
            }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard triggered, !cancelled else {
                let wasRequested = requested > 0
                if wasRequested {
                    requested -= 1
                }
                lock.unlock()
                _ = combineRule(
                    wasRequested,
                    "DropUntilOutput: received a value it did not request; a publisher must not send more values "
                        + "than its subscriber requested")
                return .none
            }
            lock.unlock()
            return downstream.receive(input)
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard !cancelled else {
                lock.unlock()
                return
            }
            cancelled = true
            upstream = nil
            let trigger = self.trigger
            self.trigger = nil
            lock.unlock()
            trigger?.cancel()
            downstream.receive(completion: completion)
        }

        // MARK: Trigger (the other publisher)

        func receive(subscription: any Subscription, at _: OtherPublisherSide) {
            lock.lock()
            guard trigger == nil, !cancelled else {
                lock.unlock()
                subscription.cancel()
                return
            }
            trigger = subscription
            lock.unlock()
            subscription.request(.max(1))
        }

        func receive(_ input: Other.Output, at _: OtherPublisherSide) -> Subscribers.Demand {
            lock.lock()
            triggered = true
            trigger = nil
            lock.unlock()
            return .none
        }

        func receive(completion: Subscribers.Completion<Other.Failure>, at _: OtherPublisherSide) {
            lock.lock()
            guard !triggered else {
                trigger = nil
                lock.unlock()
                return
            }
            let upstream = self.upstream
            self.upstream = nil
            lock.unlock()
            upstream?.cancel()
            downstream.receive(completion: completion)
        }

        // MARK: Subscription

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            requested += demand
            let upstream = self.upstream
            lock.unlock()
            upstream?.request(demand)
        }

        func cancel() {
            lock.lock()
            cancelled = true
            let upstream = self.upstream
            let trigger = self.trigger
            self.upstream = nil
            self.trigger = nil
            lock.unlock()
            upstream?.cancel()
            trigger?.cancel()
        }

        var description: String { "DropUntilOutput" }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}
