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
    /// subscription completed or was cancelled, the closures are released and none runs again.
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
    private final class Inner<Downstream: Subscriber>: Subscriber, Subscription, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    where Downstream.Input == Upstream.Output, Downstream.Failure == Upstream.Failure {
        typealias Input = Upstream.Output
        typealias Failure = Upstream.Failure

        // `lock` guards every stored var. `downstream` and the closures are nil once the subscription completed or
        // was cancelled.
        private let lock = UnfairLock()
        private var downstream: Downstream?
        private var upstream: (any Subscription)?
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

        func receive(subscription: any Subscription) {
            lock.lock()
            let handler = receiveSubscription
            let downstream = upstream == nil ? self.downstream : nil
            if downstream != nil {
                upstream = subscription
            }
            lock.unlock()
            // As in Combine, the closure also sees a second subscription, which is then cancelled.
            handler?(subscription)
            if let downstream {
                downstream.receive(subscription: self)
            } else {
                subscription.cancel()
            }
        }

        func receive(_ input: Input) -> Subscribers.Demand {
            lock.lock()
            guard let downstream, upstream != nil else {
                lock.unlock()
                return .none
            }
            let outputHandler = receiveOutput
            let requestHandler = receiveRequest
            lock.unlock()
            outputHandler?(input)
            let demand = downstream.receive(input)
            if demand > 0 {
                requestHandler?(demand)
            }
            return demand
        }

        func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            guard let downstream, upstream != nil else {
                lock.unlock()
                return
            }
            let handler = receiveCompletion
            self.downstream = nil
            upstream = nil
            let released = takeHandlers()
            lock.unlock()
            handler?(completion)
            downstream.receive(completion: completion)
            withExtendedLifetime(released) {}
        }

        func request(_ demand: Subscribers.Demand) {
            lock.lock()
            let handler = receiveRequest
            let upstream = downstream == nil ? nil : self.upstream
            lock.unlock()
            handler?(demand)
            upstream?.request(demand)
        }

        func cancel() {
            lock.lock()
            guard let upstream else {
                lock.unlock()
                return
            }
            let handler = receiveCancel
            let released = (self.downstream, takeHandlers())
            self.upstream = nil
            downstream = nil
            lock.unlock()
            handler?()
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

