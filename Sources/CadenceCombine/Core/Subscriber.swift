/// A protocol that declares a type that can receive input from a publisher.
///
/// A publisher calls `receive(subscription:)` once, then `receive(_:)` no more times than the subscriber asked for,
/// then at most one `receive(completion:)`.
public protocol Subscriber<Input, Failure>: CustomCombineIdentifierConvertible {
    /// The kind of values this subscriber receives.
    associatedtype Input
    /// The kind of errors this subscriber might receive; use `Never` if it does not receive errors.
    associatedtype Failure: Error

    /// Tells the subscriber that it has successfully subscribed to the publisher and may request items.
    func receive(subscription: any Subscription)

    /// Tells the subscriber that the publisher has produced an element, and returns how many more it wants.
    func receive(_ input: Input) -> Subscribers.Demand

    /// Tells the subscriber that the publisher has completed publishing, either normally or with an error.
    func receive(completion: Subscribers.Completion<Failure>)
}

extension Subscriber where Input == Void {
    /// Tells the subscriber that a publisher of void elements is ready to receive further requests.
    @inlinable
    public func receive() -> Subscribers.Demand {
        receive(())
    }
}
