import CadenceSupport
/// What a transforming operator decides to do with one upstream value.
enum TransformStep<Output, Failure: Error> {
    /// Send this value downstream; the downstream's answer goes back upstream as new demand.
    case emit(Output)
    /// Send nothing and ask the upstream for one more value (`.max(1)`), so the downstream's demand is not lost.
    case skip
    /// Cancel the upstream and finish the downstream.
    case finish
    /// Cancel the upstream and fail the downstream with this error.
    case fail(Failure)
}

/// The per-operator part of a `TransformSubscription`: a value type holding the operator's closures, and a pure
/// `step` that turns one upstream value into a `TransformStep`.
///
/// Everything that changes from value to value (the previous element, a running result, a count) lives in `State`,
/// which the subscription keeps and passes to `step` as `inout`. `step` runs outside any lock, once per value, in the
/// order the upstream delivers them (a publisher never calls `receive(_:)` concurrently), so `State` needs no lock.
///
/// An operator of the "Slicing" kind (`prefix(while:)`, `drop(while:)`, `output(at:)`) fits the same shape: its
/// `step` returns `.finish` or `.skip` as its state says.
protocol TransformOperation {
    associatedtype Input
    associatedtype Output
    associatedtype UpstreamFailure: Error
    associatedtype Failure: Error
    associatedtype State

    /// The subscription's `description`: Combine's name for it (`"TryMap"`, `"RemoveDuplicates"`).
    static var description: String { get }

    /// Whether a downstream's `request(.max(0))` breaks Combine's rule here, as it does for Apple's filtering
    /// operators (`filter`, `compactMap`, `removeDuplicates`, `drop(while:)`, `prefix(while:)` and their `try`
    /// forms); `false` by default: the zero demand is passed on, as Combine's `tryMap`, `tryScan` and `output(at:)` do.
    static var rejectsZeroDemand: Bool { get }

    /// Decides what to do with one upstream value.
    func step(_ input: Input, state: inout State) -> TransformStep<Output, Failure>

    /// Converts a failure that the upstream completed with into the downstream's failure type.
    func failure(from upstreamFailure: UpstreamFailure) -> Failure
}

extension TransformOperation {
    static var rejectsZeroDemand: Bool { false }
}

/// The subscriber an operator hands its upstream and the subscription it hands its downstream, for operators that
/// turn each upstream value into "emit / skip / finish / fail" (see `TransformStep`).
///
/// - Demand: what the downstream requests goes upstream unchanged; a skipped value asks the upstream for one more by
///   answering `.max(1)`, as Combine's `filter` does; an emitted value answers with the downstream's own answer.
/// - Termination: `.finish`, `.fail`, the upstream's completion and `cancel()` all end the subscription once. After
///   that nothing reaches the downstream, requests are ignored, and the downstream and the operation (with its
///   closures) are released. `State` is released with the subscription itself.
/// - Locking: one lock acquisition per value, never held while calling out.
final class TransformSubscription<Operation: TransformOperation, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Operation.Output, Downstream.Failure == Operation.Failure {
    typealias Input = Operation.Input
    typealias Failure = Operation.UpstreamFailure

    // `lock` guards `status`. `state` is touched only from the upstream's calls, which a publisher serializes.
    private let lock = UnfairLock()
    private var status: SubscriptionStatus<(downstream: Downstream, operation: Operation)>
    private var state: Operation.State

    init(downstream: Downstream, operation: Operation, initialState: Operation.State) {
        status = .awaitingSubscription((downstream, operation))
        state = initialState
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard let (downstream, _) = status.receive(subscription: subscription) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard case .subscribed(_, let (downstream, operation)) = status else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        switch step(input, with: operation) {
        case .emit(let output):
            return downstream.receive(output)
        case .skip:
            return .max(1)
        case .finish:
            terminate(with: .finished)
            return .none
        case .fail(let error):
            terminate(with: .failure(error))
            return .none
        }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        // `ended` keeps the upstream's subscription and the operation alive until here, so their release runs unlocked.
        guard let ended = status.complete() else {
            lock.unlock()
            return
        }
        lock.unlock()
        let (downstream, operation) = ended.context
        downstream.receive(completion: completion.mapFailure(operation.failure(from:)))
    }

    func request(_ demand: Subscribers.Demand) {
        if Operation.rejectsZeroDemand {
            guard demand.isPositive(in: Operation.description) else { return }
        }
        lock.lock()
        guard let upstream = status.subscription else {
            lock.unlock()
            return
        }
        lock.unlock()
        upstream.request(demand)
    }

    func cancel() {
        lock.lock()
        let previous = status.terminate()
        lock.unlock()
        // `previous` keeps the downstream and the operation alive until here, so their release runs unlocked.
        previous.subscription?.cancel()
    }

    /// Runs the operation's step on one value. An operation without state (`State` is empty, as for `tryMap`) gets a
    /// scratch copy instead of `&state`: ThreadSanitizer takes a modifying access to an empty stored property of this
    /// generic class for one that conflicts with the locked reads of `status` from `request(_:)` and `cancel()`.
    @inline(__always)
    private func step(_ input: Input, with operation: Operation) -> TransformStep<Operation.Output, Operation.Failure> {
        if MemoryLayout<Operation.State>.size == 0 {
            var scratch = state
            return operation.step(input, state: &scratch)
        }
        return operation.step(input, state: &state)
    }

    /// Ends the subscription from inside `receive(_:)`: cancels the upstream, then completes the downstream.
    private func terminate(with completion: Subscribers.Completion<Operation.Failure>) {
        lock.lock()
        guard let ended = status.complete() else {
            lock.unlock()
            return
        }
        lock.unlock()
        // `ended` keeps the operation alive until here, so its release runs unlocked.
        ended.subscription.cancel()
        ended.context.downstream.receive(completion: completion)
    }

    var description: String { Operation.description }

    var customMirror: Mirror {
        lock.lock()
        let downstream = status.context?.downstream
        lock.unlock()
        return Mirror(self, children: ["downstream": downstream as Any])
    }

    var playgroundDescription: Any { description }
}

