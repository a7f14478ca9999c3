import CadenceSupport

extension Publisher {
    /// Attaches the specified subject to this publisher: the subject receives the upstream subscription (and
    /// decides what to request from it), then every value and the completion.
    ///
    /// - Returns: A cancellable instance that cancels the upstream subscription; the subject is held weakly, and
    ///   its deinitialisation cancels the upstream too.
    public func subscribe<S: Subject>(_ subject: S) -> AnyCancellable where Failure == S.Failure, Output == S.Output {
        let subscriber = SubjectSubscriber(subject)
        subscribe(subscriber)
        return AnyCancellable(subscriber)
    }
}

/// The subscriber that feeds a subject from an upstream publisher; it is also the subscription the subject is
/// given, passing requests to the upstream. It holds the subject weakly, so a subject that goes away cancels its
/// upstream from its own deinitialiser.
private final class SubjectSubscriber<Downstream: Subject>: Subscriber, Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Input = Downstream.Output
    typealias Failure = Downstream.Failure

    // `lock` guards `subject` and `state`.
    private let lock = UnfairLock()
    private weak var subject: Downstream?
    private var state = SubscriptionStatus<Void>.awaitingSubscription(())

    init(_ subject: Downstream) {
        self.subject = subject
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard let subject, state.receive(subscription: subscription) != nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lock.unlock()
        subject.send(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard state.isSubscribed, let subject else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        subject.send(input)
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard state.isSubscribed, let subject, let ended = state.complete() else {
            lock.unlock()
            return
        }
        self.subject = nil
        lock.unlock()
        subject.send(completion: completion)
        withExtendedLifetime(ended) {} // released here, outside the lock
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard let subscription = state.subscription else {
            lock.unlock()
            return
        }
        lock.unlock()
        subscription.request(demand)
    }

    func cancel() {
        lock.lock()
        let previous = state.terminate()
        subject = nil
        lock.unlock()
        previous.subscription?.cancel()
    }

    var description: String { "Subject" }

    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        let upstream: Any
        if let subscription = state.subscription {
            upstream = subscription
        } else {
            upstream = Optional<any Subscription>.none as Any
        }
        return Mirror(
            self,
            children: [
                "downstreamSubject": subject as Any,
                "upstreamSubscription": upstream,
                "subject": subject as Any,
            ])
    }

    var playgroundDescription: Any { description }
}
