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
    private enum State {
        case awaitingUpstream
        case upstream(any Subscription)
        case awaitingReplacement
        case replacement(any Subscription)
        case terminal
    }

    private let name: String
    private let handler: (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>
    private let convertFailure: (NewPublisher.Failure) -> Downstream.Failure

    // `lock` guards `state`, `demand` and `downstream`.
    private let lock = UnfairLock()
    private var state = State.awaitingUpstream
    private var demand = Subscribers.Demand.none
    private var downstream: Downstream?

    init(
        name: String,
        downstream: Downstream,
        handler: @escaping (Upstream.Failure) -> Result<NewPublisher, Downstream.Failure>,
        convertFailure: @escaping (NewPublisher.Failure) -> Downstream.Failure
    ) {
        self.name = name
        self.downstream = downstream
        self.handler = handler
        self.convertFailure = convertFailure
    }

    var uncaughtSubscriber: UncaughtSubscriber { UncaughtSubscriber(parent: self) }

    // MARK: Upstream

    fileprivate func receiveUpstream(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingUpstream = state, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .upstream(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
    }

    fileprivate func receiveUpstream(_ value: Upstream.Output) -> Subscribers.Demand {
        lock.lock()
        guard case .upstream = state, let downstream else {
            lock.unlock()
            return .none
        }
        demand -= 1
        lock.unlock()
        let more = downstream.receive(value)
        if more > 0 {
            lock.lock()
            demand += more
            lock.unlock()
        }
        return more
    }

    fileprivate func receiveUpstream(completion: Subscribers.Completion<Upstream.Failure>) {
        lock.lock()
        guard case .upstream = state, let downstream else {
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            state = .terminal
            self.downstream = nil
            lock.unlock()
            downstream.receive(completion: .finished)
        case .failure(let error):
            state = .awaitingReplacement
            lock.unlock()
            switch handler(error) {
            case .success(let replacement):
                replacement.subscribe(CaughtSubscriber(parent: self))
            case .failure(let thrown):
                lock.lock()
                guard case .awaitingReplacement = state else { // cancelled while the handler ran
                    lock.unlock()
                    return
                }
                state = .terminal
                self.downstream = nil
                lock.unlock()
                downstream.receive(completion: .failure(thrown))
            }
        }
    }

    // MARK: Replacement

    fileprivate func receiveReplacement(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingReplacement = state else {
            lock.unlock()
            subscription.cancel()
            return
        }
        state = .replacement(subscription)
        let outstanding = demand
        lock.unlock()
        if outstanding > 0 {
            subscription.request(outstanding)
        }
    }

    fileprivate func receiveReplacement(_ value: NewPublisher.Output) -> Subscribers.Demand {
        lock.lock()
        guard case .replacement = state, let downstream else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        return downstream.receive(value)
    }

    fileprivate func receiveReplacement(completion: Subscribers.Completion<NewPublisher.Failure>) {
        lock.lock()
        guard case .replacement = state, let downstream else {
            lock.unlock()
            return
        }
        state = .terminal
        self.downstream = nil
        lock.unlock()
        downstream.receive(completion: completion.mapFailure(convertFailure))
    }

    // MARK: Subscription

    func request(_ additional: Subscribers.Demand) {
        additional.assertPositive(in: name)
        lock.lock()
        switch state {
        case .upstream(let subscription):
            demand += additional
            lock.unlock()
            subscription.request(additional)
        case .awaitingReplacement:
            demand += additional
            lock.unlock()
        case .replacement(let subscription):
            lock.unlock()
            subscription.request(additional)
        case .awaitingUpstream, .terminal:
            lock.unlock()
        }
    }

    func cancel() {
        lock.lock()
        let subscription: (any Subscription)?
        switch state {
        case .upstream(let current), .replacement(let current):
            subscription = current
        case .awaitingUpstream, .awaitingReplacement, .terminal:
            subscription = nil
        }
        state = .terminal
        let released = downstream
        downstream = nil
        lock.unlock()
        // The downstream is released here, outside the lock: its deinitialiser may cancel again.
        withExtendedLifetime(released) {}
        subscription?.cancel()
    }

    // MARK: Reflection

    var description: String { name }

    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        return Mirror(self, children: ["downstream": downstream as Any, "demand": demand])
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

