/// A publisher that exposes a method for outside callers to publish elements.
///
/// A subject can broadcast values to many subscribers; it is safe to call its `send` methods from any thread.
public protocol Subject<Output, Failure>: AnyObject, Publisher {
    /// Sends a value to the subscriber.
    func send(_ value: Output)

    /// Sends a completion signal to the subscriber.
    func send(completion: Subscribers.Completion<Failure>)

    /// Sends a subscription to the subscriber, so the subject can request values from an upstream publisher.
    func send(subscription: any Subscription)
}

extension Subject where Output == Void {
    /// Sends a void value to the subscriber.
    @inlinable
    public func send() {
        send(())
    }
}
