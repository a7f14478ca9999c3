import CadenceSupport

extension Publisher {
    /// Handles errors from an upstream publisher by replacing it with another publisher.
    ///
    /// ```swift
    /// loadProfile()
    ///     .catch { _ in Just(Profile.guest) }
    ///     .sink { profile in show(profile) }
    /// ```
    ///
    /// - Parameter handler: A closure that takes the upstream failure and returns a publisher to continue with.
    public func `catch`<P>(_ handler: @escaping (Failure) -> P) -> Publishers.Catch<Self, P>
    where P: Publisher, Output == P.Output {
        Publishers.Catch(upstream: self, handler: handler)
    }
}

extension Publishers {
    /// A publisher that handles errors from an upstream publisher by replacing the failed publisher with another
    /// publisher.
    ///
    /// Demand: the downstream's demand passes through to the upstream; after a failure, the replacement publisher is
    /// asked for the demand still outstanding, then the downstream's demand passes through to it.
    public struct Catch<Upstream: Publisher, NewPublisher: Publisher>: Publisher
    where Upstream.Output == NewPublisher.Output {
        public typealias Output = Upstream.Output
        public typealias Failure = NewPublisher.Failure

        /// The publisher that this publisher receives elements from.
        public let upstream: Upstream

        /// A closure that accepts the upstream failure as input and returns a publisher to replace the upstream
        /// publisher.
        public let handler: (Upstream.Failure) -> NewPublisher

        /// Creates a publisher that handles errors from an upstream publisher by replacing the failed publisher
        /// with another publisher.
        public init(upstream: Upstream, handler: @escaping (Upstream.Failure) -> NewPublisher) {
            self.upstream = upstream
            self.handler = handler
        }

        /// Attaches the subscriber to the upstream, through the subscription that replaces it on failure.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            let handler = self.handler
            let subscription = CatchSubscription<Upstream, NewPublisher, S>(
                name: "Catch",
                downstream: subscriber,
                handler: { .success(handler($0)) },
                convertFailure: { $0 })
            upstream.subscribe(subscription.uncaughtSubscriber)
        }
    }
}

/// The subscription of `catch` and `tryCatch`: it forwards the upstream, and after the upstream failed, the
/// publisher the handler returned, carrying the outstanding demand over.
///
/// `handler` returns the replacement publisher or, for `tryCatch`, the error it threw; `convertFailure` turns the
/// replacement's failure into the downstream's.
final class CatchSubscription<Upstream: Publisher, NewPublisher: Publisher, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Upstream.Output == NewPublisher.Output, Downstream.Input == Upstream.Output {
    private let name: String
    private let handler: (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>
    private let convertFailure: (NewPublisher.Failure) -> Downstream.Failure
    private let state: Locked<CatchStateMachine<Downstream>>

    init(
        name: String,
        downstream: Downstream,
        handler: @escaping (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>,
        convertFailure: @escaping (NewPublisher.Failure) -> Downstream.Failure
    ) {
        self.name = name
        state = Locked(CatchStateMachine(downstream: downstream))
        self.handler = handler
        self.convertFailure = convertFailure
    }

    var uncaughtSubscriber: UncaughtSubscriber { UncaughtSubscriber(parent: self) }

    // MARK: Upstream

    fileprivate func receiveUpstream(subscription: any Subscription) {
        guard let downstream = state.withLock({ $0.receiveUpstream(subscription: subscription) }) else {
            subscription.cancel()
            return
        }
        downstream.receive(subscription: self)
    }

    fileprivate func receiveUpstream(_ value: Upstream.Output) -> Subscribers.Demand {
        let downstream: Downstream
        switch state.withLock({ $0.receiveUpstreamValue() }) {
        case .none:
            return .none
        case .deliver(let receiver):
            downstream = receiver
        case .unrequested:
            _ = combineRule(
                false,
                "\(name): the upstream sent a value that was not requested; a publisher sends "
                    + "no more values than its subscriber requested")
            return .none
        }
        let more = downstream.receive(value)
        if more > 0 {
            state.withLock { $0.downstreamAsked(more) }
        }
        return more
    }

    fileprivate func receiveUpstream(completion: Subscribers.Completion<Upstream.Failure>) {
        let isFailure = if case .failure = completion { true } else { false }
        switch state.withLock({ $0.receiveUpstreamCompletion(isFailure: isFailure) }) {
        case .none:
            return
        case .failedOutOfTurn:
            _ = combineRule(
                false,
                "\(name): the upstream failed before its subscription or after its first "
                    + "failure; a publisher completes once, after sending its subscription")
        case .finish(let downstream):
            downstream.receive(completion: .finished)
        case .callHandler:
            guard case .failure(let error) = completion else { return }
            switch handler(error) {
            case .success(let replacement):
                replacement.subscribe(CaughtSubscriber(parent: self))
            case .failure(let thrown):
                // nil: cancelled while the handler ran.
                state.withLock { $0.handlerThrew() }?.receive(completion: .failure(thrown))
            }
        }
    }

    // MARK: Replacement

    fileprivate func receiveReplacement(subscription: any Subscription) {
        guard let outstanding = state.withLock({ $0.receiveReplacement(subscription: subscription) }) else {
            subscription.cancel()
            return
        }
        if outstanding > 0 {
            subscription.request(outstanding)
        }
    }

    fileprivate func receiveReplacement(_ value: NewPublisher.Output) -> Subscribers.Demand {
        state.withLock { $0.receiveReplacementValue() }?.receive(value) ?? .none
    }

    fileprivate func receiveReplacement(completion: Subscribers.Completion<NewPublisher.Failure>) {
        state.withLock { $0.receiveReplacementCompletion() }?.receive(completion: completion.mapFailure(convertFailure))
    }

    // MARK: Subscription

    func request(_ additional: Subscribers.Demand) {
        guard additional.isPositive(in: name) else { return }
        state.withLock { $0.request(additional) }?.request(additional)
    }

    func cancel() {
        state.withLock { $0.cancel() }?.cancel()
    }

    // MARK: Reflection

    var description: String { name }

    var customMirror: Mirror {
        let (downstream, demand) = state.withLock { ($0.downstream, $0.demand) }
        return Mirror(self, children: ["downstream": downstream, "demand": demand])
    }

    var playgroundDescription: Any { description }

    // MARK: Subscribers

    /// The subscriber to the upstream.
    struct UncaughtSubscriber: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        let parent: CatchSubscription

        var combineIdentifier: CombineIdentifier { parent.combineIdentifier }

        func receive(subscription: any Subscription) { parent.receiveUpstream(subscription: subscription) }

        func receive(_ input: Input) -> Subscribers.Demand { parent.receiveUpstream(input) }

        func receive(completion: Subscribers.Completion<Failure>) { parent.receiveUpstream(completion: completion) }

        var description: String { parent.description }

        var customMirror: Mirror { parent.customMirror }

        var playgroundDescription: Any { description }
    }

    /// The subscriber to the replacement publisher.
    struct CaughtSubscriber: Subscriber, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        typealias Input = NewPublisher.Output
        typealias Failure = NewPublisher.Failure

        let parent: CatchSubscription

        var combineIdentifier: CombineIdentifier { parent.combineIdentifier }

        func receive(subscription: any Subscription) { parent.receiveReplacement(subscription: subscription) }

        func receive(_ input: Input) -> Subscribers.Demand { parent.receiveReplacement(input) }

        func receive(completion: Subscribers.Completion<Failure>) {
            parent.receiveReplacement(completion: completion)
        }

        var description: String { parent.description }

        var customMirror: Mirror { parent.customMirror }

        var playgroundDescription: Any { description }
    }
}
