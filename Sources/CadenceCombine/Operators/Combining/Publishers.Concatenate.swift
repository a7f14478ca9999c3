import CadenceSupport
extension Publisher {
    /// Prefixes a publisher's output with the specified values.
    public func prepend(_ elements: Output...) -> Publishers.Concatenate<Publishers.Sequence<[Output], Failure>, Self> {
        prepend(elements)
    }

    /// Prefixes a publisher's output with the specified sequence.
    public func prepend<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Publishers.Sequence<S, Failure>, Self>
    where Output == S.Element {
        Publishers.Concatenate(prefix: Publishers.Sequence(sequence: elements), suffix: self)
    }

    /// Prefixes the output of this publisher with the elements emitted by the given publisher.
    public func prepend<P>(_ publisher: P) -> Publishers.Concatenate<P, Self>
    where P: Publisher, Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: publisher, suffix: self)
    }

    /// Appends a publisher's output with the specified elements.
    public func append(_ elements: Output...) -> Publishers.Concatenate<Self, Publishers.Sequence<[Output], Failure>> {
        append(elements)
    }

    /// Appends a publisher's output with the specified sequence.
    public func append<S: Sequence>(_ elements: S) -> Publishers.Concatenate<Self, Publishers.Sequence<S, Failure>>
    where Output == S.Element {
        Publishers.Concatenate(prefix: self, suffix: Publishers.Sequence(sequence: elements))
    }

    /// Appends the output of this publisher with the elements emitted by the given publisher.
    public func append<P>(_ publisher: P) -> Publishers.Concatenate<Self, P>
    where P: Publisher, Failure == P.Failure, Output == P.Output {
        Publishers.Concatenate(prefix: self, suffix: publisher)
    }
}

extension Publishers {
    /// A publisher that emits all of one publisher's elements before those from another publisher.
    ///
    /// Demand, as in Combine: the downstream's requests go to the prefix publisher while it runs; when it finishes,
    /// the suffix publisher is subscribed to and asked for whatever demand is still outstanding, and later requests go
    /// to it. The downstream gets its subscription when the prefix publisher hands over its own; a failure of the
    /// prefix ends everything without subscribing to the suffix.
    public struct Concatenate<Prefix: Publisher, Suffix: Publisher>: Publisher
    where Prefix.Failure == Suffix.Failure, Prefix.Output == Suffix.Output {
        public typealias Output = Suffix.Output
        public typealias Failure = Suffix.Failure

        /// The publisher to republish, in its entirety, before republishing elements from `suffix`.
        public let prefix: Prefix

        /// The publisher to republish only after `prefix` finishes.
        public let suffix: Suffix

        /// Creates a publisher that emits all of one publisher's elements before those from another publisher.
        public init(prefix: Prefix, suffix: Suffix) {
            self.prefix = prefix
            self.suffix = suffix
        }

        public func receive<S: Subscriber>(subscriber: S) where Suffix.Failure == S.Failure, Suffix.Output == S.Input {
            let inner = Inner(downstream: subscriber, suffix: suffix)
            prefix.subscribe(SharedIdentitySide(index: .prefix, host: inner))
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publishers.Concatenate {
    /// The publishers `Inner` hears from through a side subscriber.
    private enum Part {
        case prefix
        case suffix
    }

    private enum Phase {
        case awaitingPrefix
        case prefix(any Subscription)
        case awaitingSuffix
        case suffix(any Subscription)
        case terminated
    }

    /// The downstream's subscription. Only one upstream runs at a time, so values never overlap: the prefix's
    /// completion is what subscribes to the suffix.
    private final class Inner<Downstream: Subscriber>: Subscription, IndexedSideHost, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
        typealias SideIndex = Part
        typealias SideInput = Output
        typealias SideFailure = Failure

        // `lock` guards every stored var below.
        private let lock = UnfairLock()
        private var downstream: Downstream?
        private var suffix: Suffix?
        private var phase = Phase.awaitingPrefix
        private var suffixSubscribed = false
        private var demand = Subscribers.Demand.none

        init(downstream: Downstream, suffix: Suffix) {
            self.downstream = downstream
            self.suffix = suffix
        }

        // MARK: Prefix and suffix

        func receive(subscription: any Subscription, at part: Part) {
            switch part {
            case .prefix: prefixReceive(subscription: subscription)
            case .suffix: suffixReceive(subscription: subscription)
            }
        }

        func receive(_ input: Output, at part: Part) -> Subscribers.Demand {
            switch part {
            case .prefix: prefixReceive(input)
            case .suffix: suffixReceive(input)
            }
        }

        func receive(completion: Subscribers.Completion<Failure>, at part: Part) {
            switch part {
            case .prefix: prefixReceive(completion: completion)
            case .suffix: suffixReceive(completion: completion)
            }
        }

        // MARK: Prefix

        private func prefixReceive(subscription: any Subscription) {
            lock.lock()
            guard case .awaitingPrefix = phase, let downstream else {
                lock.unlock()
                subscription.cancel()
                return
            }
            phase = .prefix(subscription)
            lock.unlock()
            downstream.receive(subscription: self)
        }

        private func prefixReceive(_ input: Output) -> Subscribers.Demand {
            lock.lock()
            guard case .prefix = phase, demand > 0, let downstream else {
                lock.unlock()
                return .none
            }
            demand -= 1
            lock.unlock()
            let more = downstream.receive(input)
            guard more > 0 else {
                return .none
            }
            lock.lock()
            demand += more
            lock.unlock()
            return more
        }

        private func prefixReceive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard case .prefix = phase, let downstream else {
                lock.unlock()
                return
            }
            switch completion {
            case .finished:
                phase = .awaitingSuffix
                let suffix = self.suffix
                self.suffix = nil
                lock.unlock()
                suffix?.subscribe(SharedIdentitySide(index: .suffix, host: self))
            case .failure:
                phase = .terminated
                self.downstream = nil
                let released = suffix
                suffix = nil
                lock.unlock()
                downstream.receive(completion: completion)
                withExtendedLifetime(released) {}
            }
        }

        // MARK: Suffix

        private func suffixReceive(subscription: any Subscription) {
            lock.lock()
            guard case .awaitingSuffix = phase, !suffixSubscribed else {
                lock.unlock()
                subscription.cancel()
                return
            }
            suffixSubscribed = true
            phase = .suffix(subscription)
            let outstanding = demand
            lock.unlock()
            if outstanding > 0 {
                subscription.request(outstanding)
            }
        }

        private func suffixReceive(_ input: Output) -> Subscribers.Demand {
            lock.lock()
            guard case .suffix = phase, let downstream else {
                lock.unlock()
                return .none
            }
            lock.unlock()
            return downstream.receive(input)
        }

        private func suffixReceive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard case .suffix = phase, let downstream else {
                lock.unlock()
                return
            }
            phase = .terminated
            self.downstream = nil
            lock.unlock()
            downstream.receive(completion: completion)
        }

        // MARK: Subscription

        func request(_ demand: Subscribers.Demand) {
            demand.assertPositive(in: "Concatenate")
            lock.lock()
            self.demand += demand
            let upstream: (any Subscription)?
            switch phase {
            case .prefix(let subscription), .suffix(let subscription):
                upstream = subscription
            case .awaitingPrefix, .awaitingSuffix, .terminated:
                upstream = nil
            }
            lock.unlock()
            upstream?.request(demand)
        }

        func cancel() {
            lock.lock()
            let upstream: (any Subscription)?
            switch phase {
            case .prefix(let subscription), .suffix(let subscription):
                upstream = subscription
            case .awaitingPrefix, .awaitingSuffix, .terminated:
                upstream = nil
            }
            phase = .terminated
            let released = (downstream, suffix)
            downstream = nil
            suffix = nil
            lock.unlock()
            upstream?.cancel()
            withExtendedLifetime(released) {}
        }

        var description: String { "Concatenate" }

        var customMirror: Mirror {
            lock.lock()
            defer { lock.unlock() }
            return Mirror(self, children: ["downstream": downstream as Any, "demand": demand])
        }

        var playgroundDescription: Any { description }
    }
}

