import CadenceSupport

extension Subscribers {
    /// A simple subscriber that assigns received elements to a property indicated by a key path.
    ///
    /// It requests `.unlimited` when subscribed, writes each value to `object[keyPath: keyPath]`, and releases the
    /// object when it completes or is cancelled, which breaks the usual retain cycle through an `AnyCancellable`
    /// that the object itself stores.
    public final class Assign<Root, Input>: Subscriber, Cancellable, CustomStringConvertible, CustomReflectable,
        CustomPlaygroundDisplayConvertible
    {
        public typealias Failure = Never

        private enum Status {
            case awaitingSubscription
            case subscribed(any Subscription)
            case terminal
        }

        // `lock` guards `storedObject` and `status`.
        private let lock = UnfairLock()
        private var storedObject: Root?
        private var status = Status.awaitingSubscription

        /// The object that contains the property to assign; `nil` once the subscriber has completed or been
        /// cancelled.
        public var object: Root? {
            lock.lock()
            defer { lock.unlock() }
            return storedObject
        }

        /// The key path that indicates the property to assign.
        public let keyPath: ReferenceWritableKeyPath<Root, Input>

        /// Creates a subscriber to assign the value of a property indicated by a key path.
        public init(object: Root, keyPath: ReferenceWritableKeyPath<Root, Input>) {
            storedObject = object
            self.keyPath = keyPath
        }

        public var description: String { "Assign \(Root.self)." }

        public var customMirror: Mirror {
            lock.lock()
            defer { lock.unlock() }
            return Mirror(self, children: ["object": storedObject as Any, "keyPath": keyPath, "status": status])
        }

        public var playgroundDescription: Any { description }

        public func receive(subscription: any Subscription) {
            lock.lock()
            guard case .awaitingSubscription = status else {
                lock.unlock()
                subscription.cancel()
                return
            }
            status = .subscribed(subscription)
            lock.unlock()
            subscription.request(.unlimited)
        }

        public func receive(_ value: Input) -> Subscribers.Demand {
            lock.lock()
            guard case .subscribed = status, let object = storedObject else {
                lock.unlock()
                return .none
            }
            lock.unlock()
            object[keyPath: keyPath] = value
            return .none
        }

        public func receive(completion: Subscribers.Completion<Never>) {
            lock.lock()
            guard case .subscribed(let subscription) = status else {
                lock.unlock()
                return
            }
            let released = terminateLocked()
            lock.unlock()
            // The object and the upstream subscription are released here, outside the lock.
            withExtendedLifetime((released, subscription)) {}
        }

        /// Cancels the subscription and releases the object.
        public func cancel() {
            lock.lock()
            guard case .subscribed(let subscription) = status else {
                lock.unlock()
                return
            }
            let released = terminateLocked()
            lock.unlock()
            withExtendedLifetime(released) {}
            subscription.cancel()
        }

        /// Ends the subscription; returns the object so the caller releases it after leaving the lock (its
        /// deinitialiser may run arbitrary code).
        private func terminateLocked() -> Root? {
            status = .terminal
            let released = storedObject
            storedObject = nil
            return released
        }
    }
}

extension Publisher where Failure == Never {
    /// Assigns each element from a publisher to a property on an object.
    ///
    /// - Returns: An `AnyCancellable` instance; the object is held strongly until the publisher completes or the
    ///   cancellable is cancelled or deinitialised.
    public func assign<Root>(to keyPath: ReferenceWritableKeyPath<Root, Output>, on object: Root) -> AnyCancellable {
        let subscriber = Subscribers.Assign(object: object, keyPath: keyPath)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}
