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
            prefix.subscribe(PrefixSubscriber(inner: inner))
        }
    }
}

extension Publishers.Concatenate: Equatable where Prefix: Equatable, Suffix: Equatable {}

extension Publishers.Concatenate {
    /// The downstream's subscription: holds a ``ConcatenateStateMachine`` under its lock and does what each
    /// transition returns after leaving it.
    private final class Inner<Downstream: Subscriber>: Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
        private let state: Locked<ConcatenateStateMachine<Downstream, Suffix>>

        init(downstream: Downstream, suffix: Suffix) {
            state = Locked(ConcatenateStateMachine(downstream: downstream, suffix: suffix))
        }

        // MARK: Prefix

        fileprivate func prefixReceive(subscription: any Subscription) {
            guard let downstream = state.withLock({ $0.receivePrefix(subscription: subscription) }) else {
                subscription.cancel()
                return
            }
            downstream.receive(subscription: self)
        }

        fileprivate func prefixReceive(_ input: Output) -> Subscribers.Demand {
            guard let downstream = state.withLock({ $0.receivePrefixValue() }) else { return .none }
            let more = downstream.receive(input)
            guard more > 0 else { return .none }
            state.withLock { $0.downstreamAsked(more) }
            return more
        }

        fileprivate func prefixReceive(completion: Subscribers.Completion<Failure>) {
            let isFailure = if case .failure = completion { true } else { false }
            switch state.withLock({ $0.receivePrefixCompletion(isFailure: isFailure) }) {
            case .none:
                return
            case .subscribeSuffix(let suffix):
                suffix?.subscribe(SuffixSubscriber(inner: self))
            case .fail(let downstream, let released):
                downstream.receive(completion: completion)
                withExtendedLifetime(released) {}
            }
        }

        // MARK: Suffix

        fileprivate func suffixReceive(subscription: any Subscription) {
            guard let outstanding = state.withLock({ $0.receiveSuffix(subscription: subscription) }) else {
                subscription.cancel()
                return
            }
            if outstanding > 0 {
                subscription.request(outstanding)
            }
        }

        fileprivate func suffixReceive(_ input: Output) -> Subscribers.Demand {
            state.withLock { $0.receiveSuffixValue() }?.receive(input) ?? .none
        }

        fileprivate func suffixReceive(completion: Subscribers.Completion<Failure>) {
            state.withLock { $0.receiveSuffixCompletion() }?.receive(completion: completion)
        }

        // MARK: Subscription

        func request(_ demand: Subscribers.Demand) {
            state.withLock { $0.request(demand) }?.request(demand)
        }

        func cancel() {
            let (upstream, released) = state.withLock { $0.cancel() }
            upstream?.cancel()
            withExtendedLifetime(released) {}
        }

        var description: String { "Concatenate" }

        /// No children, as in Combine.
        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        var playgroundDescription: Any { description }
    }

    /// The subscriber to the prefix publisher: it has the subscription's identity and name, and no children. A type
    /// of its own, apart from the suffix's, as in Combine.
    private struct PrefixSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
        typealias Input = Prefix.Output
        typealias Failure = Prefix.Failure

        let inner: Inner<Downstream>

        var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

        func receive(subscription: any Subscription) { inner.prefixReceive(subscription: subscription) }

        func receive(_ input: Input) -> Subscribers.Demand { inner.prefixReceive(input) }

        func receive(completion: Subscribers.Completion<Failure>) { inner.prefixReceive(completion: completion) }

        var description: String { inner.description }

        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        var playgroundDescription: Any { description }
    }

    /// The subscriber to the suffix publisher, once the prefix finished; as ``PrefixSubscriber``.
    private struct SuffixSubscriber<Downstream: Subscriber>: Subscriber, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Suffix.Output, Downstream.Failure == Suffix.Failure {
        typealias Input = Suffix.Output
        typealias Failure = Suffix.Failure

        let inner: Inner<Downstream>

        var combineIdentifier: CombineIdentifier { inner.combineIdentifier }

        func receive(subscription: any Subscription) { inner.suffixReceive(subscription: subscription) }

        func receive(_ input: Input) -> Subscribers.Demand { inner.suffixReceive(input) }

        func receive(completion: Subscribers.Completion<Failure>) { inner.suffixReceive(completion: completion) }

        var description: String { inner.description }

        var customMirror: Mirror { Mirror(self, children: EmptyCollection()) }

        var playgroundDescription: Any { description }
    }
}
