/// A type-erasing subscriber.
///
/// Use an `AnySubscriber` to wrap an existing subscriber whose details you don't want to expose, or to make a
/// subscriber out of closures.
public struct AnySubscriber<Input, Failure: Error>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    @usableFromInline let box: AnySubscriberBase<Input, Failure>

    public let combineIdentifier: CombineIdentifier

    /// Creates a type-erasing subscriber to wrap an existing subscriber.
    @inlinable
    public init<S: Subscriber>(_ s: S) where S.Input == Input, S.Failure == Failure {
        if let erased = s as? AnySubscriber<Input, Failure> {
            self = erased
        } else {
            box = AnySubscriberBox(s)
            combineIdentifier = s.combineIdentifier
        }
    }

    /// Creates a type-erasing subscriber that forwards to a subject.
    public init<S: Subject>(_ s: S) where S.Output == Input, S.Failure == Failure {
        self.init(
            receiveSubscription: { s.send(subscription: $0) },
            receiveValue: {
                s.send($0)
                return .none
            },
            receiveCompletion: { s.send(completion: $0) })
    }

    /// Creates a type-erasing subscriber that executes the provided closures.
    public init(
        receiveSubscription: ((any Subscription) -> Void)? = nil,
        receiveValue: ((Input) -> Subscribers.Demand)? = nil,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)? = nil
    ) {
        box = ClosureSubscriberBox(
            receiveSubscription: receiveSubscription,
            receiveValue: receiveValue,
            receiveCompletion: receiveCompletion)
        combineIdentifier = CombineIdentifier()
    }

    public var description: String { box.description }

    public var customMirror: Mirror { box.customMirror }

    public var playgroundDescription: Any { description }

    @inlinable
    public func receive(subscription: any Subscription) {
        box.receive(subscription: subscription)
    }

    @inlinable
    public func receive(_ value: Input) -> Subscribers.Demand {
        box.receive(value)
    }

    @inlinable
    public func receive(completion: Subscribers.Completion<Failure>) {
        box.receive(completion: completion)
    }
}

/// The erased interface of a subscriber; subclasses hold the concrete one.
@usableFromInline
class AnySubscriberBase<Input, Failure: Error>: CustomStringConvertible, CustomReflectable {
    @usableFromInline init() {}

    @usableFromInline func receive(subscription: any Subscription) { fatalError("abstract") }

    @usableFromInline func receive(_ input: Input) -> Subscribers.Demand { fatalError("abstract") }

    @usableFromInline func receive(completion: Subscribers.Completion<Failure>) { fatalError("abstract") }

    @usableFromInline var description: String { "Anonymous AnySubscriber" }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: [:]) }
}

@usableFromInline
final class AnySubscriberBox<Base: Subscriber>: AnySubscriberBase<Base.Input, Base.Failure> {
    @usableFromInline let base: Base

    @inlinable init(_ base: Base) {
        self.base = base
    }

    @inlinable override func receive(subscription: any Subscription) {
        base.receive(subscription: subscription)
    }

    @inlinable override func receive(_ input: Base.Input) -> Subscribers.Demand {
        base.receive(input)
    }

    @inlinable override func receive(completion: Subscribers.Completion<Base.Failure>) {
        base.receive(completion: completion)
    }

    @usableFromInline override var description: String { String(describing: base) }

    @usableFromInline override var customMirror: Mirror {
        (base as? any CustomReflectable)?.customMirror ?? Mirror(reflecting: base)
    }
}

@usableFromInline
final class ClosureSubscriberBox<Input, Failure: Error>: AnySubscriberBase<Input, Failure> {
    let receiveSubscriptionBody: ((any Subscription) -> Void)?
    let receiveValueBody: ((Input) -> Subscribers.Demand)?
    let receiveCompletionBody: ((Subscribers.Completion<Failure>) -> Void)?

    init(
        receiveSubscription: ((any Subscription) -> Void)?,
        receiveValue: ((Input) -> Subscribers.Demand)?,
        receiveCompletion: ((Subscribers.Completion<Failure>) -> Void)?
    ) {
        receiveSubscriptionBody = receiveSubscription
        receiveValueBody = receiveValue
        receiveCompletionBody = receiveCompletion
    }

    override func receive(subscription: any Subscription) {
        receiveSubscriptionBody?(subscription)
    }

    override func receive(_ input: Input) -> Subscribers.Demand {
        receiveValueBody?(input) ?? .none
    }

    override func receive(completion: Subscribers.Completion<Failure>) {
        receiveCompletionBody?(completion)
    }
}
