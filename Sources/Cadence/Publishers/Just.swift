#if !canImport(Combine)

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
        subscriber.receive(subscription: JustSubscription(value: output, downstream: subscriber))
    }
}

extension Just: Equatable where Output: Equatable {}

@usableFromInline
final class JustSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    // `lock` guards `downstream`, which is nil once the value went out or the subscription was cancelled.
    @usableFromInline let lock = UnfairLock()
    @usableFromInline var downstream: Downstream?
    @usableFromInline let value: Downstream.Input

    @inlinable
    init(value: Downstream.Input, downstream: Downstream) {
        self.value = value
        self.downstream = downstream
    }

    @inlinable
    func request(_ demand: Subscribers.Demand) {
        demand.assertPositive(in: "Just")
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return
        }
        self.downstream = nil
        lock.unlock()
        _ = downstream.receive(value)
        downstream.receive(completion: .finished)
    }

    @inlinable
    func cancel() {
        lock.lock()
        // Released after the lock: the downstream's `deinit` may cancel this subscription again.
        let released = downstream
        downstream = nil
        lock.unlock()
        withExtendedLifetime(released) {}
    }

    @usableFromInline var description: String { "Just" }

    @usableFromInline var customMirror: Mirror { Mirror(self, children: ["value": value]) }

    @usableFromInline var playgroundDescription: Any { description }
}

#endif
