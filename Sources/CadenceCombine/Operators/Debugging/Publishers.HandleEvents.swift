import CadenceSupport

extension Publisher {
    /// Performs the specified closures when publisher events occur.
    ///
    /// ```swift
    /// publisher
    ///     .handleEvents(receiveOutput: { print("got", $0) }, receiveCancel: { print("cancelled") })
    ///     .sink { _ in }
    /// ```
    ///
    /// - Parameters:
    ///   - receiveSubscription: Executes when the publisher receives the subscription from the upstream publisher.
    ///   - receiveOutput: Executes when the publisher receives a value from the upstream publisher.
    ///   - receiveCompletion: Executes when the upstream publisher finishes normally or terminates with an error.
    ///   - receiveCancel: Executes when the downstream receiver cancels publishing.
    ///   - receiveRequest: Executes when the publisher receives a request for more elements.
    /// - Returns: A publisher that performs the specified closures when publisher events occur.
    public func handleEvents(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveOutput: ((Output) -> Void)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
        receiveCancel: (() -> Void)? = nil,
        receiveRequest: ((Subscribers.Demand) -> Void)? = nil
    ) -> Publishers.HandleEvents<Self> {
        Publishers.HandleEvents(
            upstream: self,
            receiveSubscription: receiveSubscription,
            receiveOutput: receiveOutput,
            receiveCompletion: receiveCompletion,
            receiveCancel: receiveCancel,
            receiveRequest: receiveRequest)
    }
}

extension Publishers {
    /// A publisher that performs the specified closures when publisher events occur.
    ///
    /// Demand passes through unchanged. `receiveRequest` sees each request of the subscriber, and also each
    /// positive demand the subscriber returns for a value. Each closure runs before the event goes on; once the
    /// subscription completed or was cancelled, the closures are released and none runs again. As in Combine, the
    /// operator checks nothing itself: it passes on every event, even one that comes after the completion or before
    /// the subscription.
    public struct HandleEvents<Upstream: Publisher>: Publisher {
        public typealias Output = Upstream.Output
        public typealias Failure = Upstream.Failure

        /// The publisher from which this publisher receives elements.
        public let upstream: Upstream

        /// A closure that executes when the publisher receives the subscription from the upstream publisher.
        public var receiveSubscription: ((any Subscription) -> Void)?

        /// A closure that executes when the publisher receives a value from the upstream publisher.
        public var receiveOutput: ((Upstream.Output) -> Void)?

        /// A closure that executes when the upstream publisher finishes normally or terminates with an error.
        public var receiveCompletion: ((Subscribers.Completion<Upstream.Failure>) -> Void)?

        /// A closure that executes when the downstream receiver cancels publishing.
        public var receiveCancel: (() -> Void)?

        /// A closure that executes when the publisher receives a request for more elements.
        public var receiveRequest: ((Subscribers.Demand) -> Void)?

        /// Creates a publisher that performs the specified closures when publisher events occur.
        public init(
            upstream: Upstream,
            receiveSubscription: ((any Subscription) -> Void)? = nil,
            receiveOutput: ((Output) -> Void)? = nil,
            receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil,
            receiveCancel: (() -> Void)? = nil,
            receiveRequest: ((Subscribers.Demand) -> Void)?
        ) {
            self.upstream = upstream
            self.receiveSubscription = receiveSubscription
            self.receiveOutput = receiveOutput
            self.receiveCompletion = receiveCompletion
            self.receiveCancel = receiveCancel
            self.receiveRequest = receiveRequest
        }

        /// Attaches the subscriber to the upstream through this operator.
        public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            upstream.subscribe(Inner(downstream: subscriber, handlers: self))
        }
    }
}

extension Publishers.HandleEvents {
    /// The operator's subscription. Like Combine's, it is transparent: every event goes on to the downstream or the
    /// upstream whatever came before it (a value after the completion, a completion before the subscription), and it
    /// keeps its downstream for as long as it lives. Only the closures have a life cycle: they are released when the
    /// upstream completes or the subscription is cancelled, and none runs after that.
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        private enum Status {
            case awaitingSubscription
            case subscribed(any Subscription)
            case terminal
        }

        private let downstream: Downstream
        // `lock` guards every stored var; the closures are nil once the subscription completed or was cancelled.
        private let lock = UnfairLock()
        private var status = Status.awaitingSubscription
        private var receiveSubscription: ((any Subscription) -> Void)?
        private var receiveOutput: ((Input) -> Void)?
        private var receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
        private var receiveCancel: (() -> Void)?
        private var receiveRequest: ((Subscribers.Demand) -> Void)?

        init(downstream: Downstream, handlers: Publishers.HandleEvents<Upstream>) {
            self.downstream = downstream
            receiveSubscription = handlers.receiveSubscription
            receiveOutput = handlers.receiveOutput
            receiveCompletion = handlers.receiveCompletion
            receiveCancel = handlers.receiveCancel
            receiveRequest = handlers.receiveRequest
        }

        /// Reads a stored var under the lock. (`UnfairLock` guards no state of its own: its `withLock` would make an
        /// `inout` access to its empty state, which ThreadSanitizer sees racing with `lock()` on another thread.)
        private func locked<Value>(_ read: () -> Value) -> Value {
            lock.lock()
            defer { lock.unlock() }
            return read()
        }

        func receive(subscription: any Subscription) {
            // As in Combine, the closure also sees a second subscription, which is then cancelled.
            locked { receiveSubscription }?(subscription)
            lock.lock()
            guard case .awaitingSubscription = status else {
                lock.unlock()
                subscription.cancel()
                return
            }
            status = .subscribed(subscription)
            lock.unlock()
            downstream.receive(subscription: self)
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            locked { receiveOutput }?(input)
            let demand = downstream.receive(input)
            // A demand of zero returned for a value is not a request.
            if demand != .none {
                locked { receiveRequest }?(demand)
            }
            return demand
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            locked { receiveCompletion }?(completion)
            lock.lock()
            status = .terminal
            let released = takeHandlers()
            lock.unlock()
            downstream.receive(completion: completion)
            withExtendedLifetime(released) {}
        }

        func request(_ demand: Subscribers.Demand) {
            locked { receiveRequest }?(demand)
            lock.lock()
            guard case .subscribed(let upstream) = status else {
                lock.unlock()
                return
            }
            lock.unlock()
            upstream.request(demand)
        }

        func cancel() {
            // As in Combine, `receiveCancel` runs even before the subscription arrived; the subscription is then
            // still taken when it comes.
            locked { receiveCancel }?()
            lock.lock()
            guard case .subscribed(let upstream) = status else {
                lock.unlock()
                return
            }
            status = .terminal
            let released = takeHandlers()
            lock.unlock()
            upstream.cancel()
            withExtendedLifetime(released) {}
        }

        /// Takes every closure out of the subscription; call with the lock held, and let the result go after leaving
        /// the lock: a closure may hold the last reference to an object whose `deinit` calls back into this
        /// subscription.
        private func takeHandlers() -> (
            ((any Subscription) -> Void)?, ((Input) -> Void)?, ((Subscribers.Completion<Failure>) -> Void)?,
            (() -> Void)?, ((Subscribers.Demand) -> Void)?
        ) {
            defer {
                receiveSubscription = nil
                receiveOutput = nil
                receiveCompletion = nil
                receiveCancel = nil
                receiveRequest = nil
            }
            return (receiveSubscription, receiveOutput, receiveCompletion, receiveCancel, receiveRequest)
        }

        var description: String { "HandleEvents" }

        var customMirror: Mirror { Mirror(self, children: [:]) }

        var playgroundDescription: Any { description }
    }
}
