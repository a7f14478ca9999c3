#if !canImport(Combine)

extension Subscribers {
    /// A simple subscriber that requests an unlimited number of values upon subscription.
    ///
    /// After it completes or is cancelled, a sink releases its closures, which breaks the usual retain cycle
    /// through an `AnyCancellable` stored by the object the closures capture.
    public final class Sink<Input, Failure: Error>: Subscriber, Cancellable, CustomStringConvertible,
        CustomReflectable, CustomPlaygroundDisplayConvertible
    {
        private enum State {
            case awaitingSubscription
            case subscribed(any Subscription)
            case terminal
        }

        // `lock` guards `state`, `valueHandler` and `completionHandler`.
        private let lock = UnfairLock()
        private var state = State.awaitingSubscription
        private var valueHandler: ((Input) -> Void)?
        private var completionHandler: ((Subscribers.Completion<Failure>) -> Void)?

        /// The closure to execute on receipt of a value (a no-op once the sink has completed or been cancelled).
        public var receiveValue: (Input) -> Void {
            lock.lock()
            defer { lock.unlock() }
            return valueHandler ?? { _ in }
        }

        /// The closure to execute on completion (a no-op once the sink has completed or been cancelled).
        public var receiveCompletion: (Subscribers.Completion<Failure>) -> Void {
            lock.lock()
            defer { lock.unlock() }
            return completionHandler ?? { _ in }
        }

        /// Initializes a sink with the provided closures.
        public init(
            receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
            receiveValue: @escaping (Input) -> Void
        ) {
            valueHandler = receiveValue
            completionHandler = receiveCompletion
        }

        public var description: String { "Sink" }

        public var customMirror: Mirror { Mirror(self, children: [:]) }

        public var playgroundDescription: Any { description }

        public func receive(subscription: any Subscription) {
            lock.lock()
            guard case .awaitingSubscription = state else {
                lock.unlock()
                subscription.cancel()
                return
            }
            state = .subscribed(subscription)
            lock.unlock()
            subscription.request(.unlimited)
        }

        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.lock()
            let handler = valueHandler
            lock.unlock()
            handler?(value)
            return .none
        }

        public func receive(completion: Subscribers.Completion<Failure>) {
            lock.lock()
            let handler = completionHandler
            let released = valueHandler
            state = .terminal
            valueHandler = nil
            completionHandler = nil
            lock.unlock()
            handler?(completion)
            // Released here, outside the lock: the closure may hold the last reference to an object whose `deinit`
            // cancels this sink.
            withExtendedLifetime(released) {}
        }

        /// Cancels the subscription and releases the closures.
        public func cancel() {
            lock.lock()
            // Released at the end, outside the lock: a closure may hold the last reference to an object whose
            // `deinit` cancels this sink again.
            let released = (valueHandler, completionHandler)
            valueHandler = nil
            completionHandler = nil
            guard case .subscribed(let subscription) = state else {
                state = .terminal
                lock.unlock()
                withExtendedLifetime(released) {}
                return
            }
            state = .terminal
            lock.unlock()
            subscription.cancel()
            withExtendedLifetime(released) {}
        }
    }
}

extension Publisher {
    /// Attaches a subscriber with closure-based behaviour, which requests an unlimited number of values.
    ///
    /// - Returns: A cancellable instance, which you use when you end assignment of the received value. Deallocation
    ///   of the result will tear down the subscription stream.
    public func sink(
        receiveCompletion: @escaping (Subscribers.Completion<Failure>) -> Void,
        receiveValue: @escaping (Output) -> Void
    ) -> AnyCancellable {
        let sink = Subscribers.Sink<Output, Failure>(receiveCompletion: receiveCompletion, receiveValue: receiveValue)
        subscribe(sink)
        return AnyCancellable(sink)
    }
}

extension Publisher where Failure == Never {
    /// Attaches a subscriber with closure-based behaviour to a publisher that never fails.
    public func sink(receiveValue: @escaping (Output) -> Void) -> AnyCancellable {
        sink(receiveCompletion: { _ in }, receiveValue: receiveValue)
    }
}

#endif
