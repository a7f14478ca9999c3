import Synchronization

/// A publisher that emits an output to each subscriber just once, and then finishes.
///
/// The value goes out when the subscriber first requests a demand greater than zero.
public struct Just<Output>: Publisher {
    public typealias Failure = Never

    /// The one element that the publisher emits.
    public let output: Output

    /// Initializes a publisher that emits the specified output just once.
    @inlinable
    public init(_ output: Output) {
        self.output = output
    }

    @inlinable
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Never {
        subscriber.receive(subscription: JustSubscription<S?, Output>(value: output, downstream: subscriber))
    }
}

extension Just: Equatable where Output: Equatable {}

/// The slot a `JustSubscription` keeps its subscriber in: `Optional<Downstream>`, named as the class's own generic
/// parameter. A generic class's `deinit` is not specialised; it destroys a stored `Downstream?` only after looking
/// the metadata of `Optional<Downstream>` up at run time, once per subscription, while a property whose type is a
/// generic parameter needs no look-up.
@usableFromInline
protocol JustSubscriberSlot {
    associatedtype Downstream: Subscriber

    init(_ downstream: Downstream)

    mutating func take() -> Downstream?
}

extension Optional: JustSubscriberSlot where Wrapped: Subscriber {
    @usableFromInline typealias Downstream = Wrapped
}

/// A subscriber's subscription to a `Just`: the value goes out on the first positive request, then `.finished`.
///
/// The value's type is a generic parameter of its own, not `Downstream.Input`: the unspecialised `deinit` destroys a
/// value of an associated type only after asking the runtime for that type's witness (twice: `Slot.Downstream`, then
/// its `Input`), once per subscription.
@usableFromInline
final class JustSubscription<Slot: JustSubscriberSlot, Value>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Slot.Downstream.Input == Value {
    @usableFromInline typealias Downstream = Slot.Downstream

    // `isDone` guards `downstream`: only the one call that flips it to true (the first request or cancel) touches
    // `downstream` again, to take it out. No lock to allocate, and no run-time exclusivity check.
    @usableFromInline let isDone: Atomic<Bool>
    @usableFromInline @exclusivity(unchecked) var downstream: Slot
    @usableFromInline let value: Value

    @inlinable
    init(value: Value, downstream: Downstream) {
        self.isDone = Atomic(false)
        self.value = value
        self.downstream = Slot(downstream)
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        guard demand.isPositive(in: "Just") else { return }
        guard !isDone.exchange(true, ordering: .acquiringAndReleasing), let downstream = downstream.take() else {
            return
        }
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    @inlinable
    func cancel() {
        guard !isDone.exchange(true, ordering: .acquiringAndReleasing) else { return }
        // Released after the flag is set: the downstream's `deinit` may cancel this subscription again.
        let released = downstream.take()
        withExtendedLifetime(released) {}
    }

    @usableFromInline var description: String { "Just" }

    @usableFromInline var customMirror: Mirror { Mirror(self, unlabeledChildren: CollectionOfOne(value)) }

    @usableFromInline var playgroundDescription: Any { description }
}
