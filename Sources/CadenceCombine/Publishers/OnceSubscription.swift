import CadenceSupport

/// Delivers one value, then `.finished`, on the first positive request: the subscription of `Result.Publisher`
/// ("Once") and `Optional.Publisher` ("Optional").
///
/// A request for `.none` traps, as in Combine. Cancelling before the request delivers nothing.
final class OnceSubscription<Downstream: Subscriber>: Subscription, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    // `lock` guards `downstream`, which is nil once the value went out or the subscription was cancelled.
    private let lock = UnfairLock()
    private var downstream: Downstream?
    private let output: Downstream.Input
    let description: String

    init(output: Downstream.Input, downstream: Downstream, name: String) {
        self.output = output
        self.downstream = downstream
        self.description = name
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand.isPositive(in: description) else { return }
        lock.lock()
        guard let downstream else {
            lock.unlock()
            return
        }
        self.downstream = nil
        lock.unlock()
        _ = downstream.receive(output)
        downstream.receive(completion: .finished)
    }

    func cancel() {
        lock.lock()
        let released = downstream
        downstream = nil
        lock.unlock()
        withExtendedLifetime(released) {} // released here, outside the lock
    }

    var customMirror: Mirror { Mirror(self, unlabeledChildren: CollectionOfOne(output)) }

    var playgroundDescription: Any { description }
}
