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

/// How a `TransformSubscription` meets the calls that come outside its subscribed span — before the upstream's
/// subscription arrives, or after the subscription ended — as its counterpart in Apple's Combine does. With an upstream
/// that keeps Combine's rules none of this shows; it decides what a misbehaving upstream (or a race with `cancel()`)
/// gets.
enum TransformConduct: Equatable {
    /// A value, a completion or a request before the upstream's subscription breaks Combine's rule and traps (see
    /// `combineRule`); values and completions after the end are ignored; a cancel before the subscription ends it, so a
    /// subscription that arrives later is cancelled. Combine's filtering operators: `tryFilter`, `tryCompactMap`,
    /// `removeDuplicates`, `prefix(while:)` and their `try` forms.
    case strict
    /// Values and completions outside the subscribed span are ignored, and so are requests and a cancel before the
    /// subscription (a subscription that arrives after such a cancel is taken). Combine's `drop(while:)` and
    /// `tryDrop(while:)`.
    case lenient
    /// As `lenient` for completions, requests and cancels, but every value goes through the operation whatever the
    /// status: what it emits reaches the downstream and a skip answers `.max(1)`; a finish or a failure ends only a
    /// live subscription — and, when `failsAfterEnd`, a failure outside it still reaches the downstream. Combine's
    /// `tryMap` (which fails after the end), `tryScan` and `output(in:)`.
    case passThrough(failsAfterEnd: Bool)
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

    /// How the subscription meets calls outside its subscribed span, as Combine's counterpart does.
    static var conduct: TransformConduct { get }

    /// Whether a downstream's `request(.max(0))` breaks Combine's rule here, as it does for Apple's filtering
    /// operators (`filter`, `compactMap`, `removeDuplicates`, `drop(while:)`, `prefix(while:)` and their `try`
    /// forms); `false` by default: the zero demand is passed on, as Combine's `tryMap`, `tryScan` and `output(at:)` do.
    static var rejectsZeroDemand: Bool { get }

    /// The subscription's `customMirror` children, as Combine's counterpart has them; by default the downstream alone
    /// for a `.strict` conduct and none otherwise. `status` and `state` are what the subscription holds at the time.
    static func mirrorChildren(downstream: Any, status: Any, state: State) -> [Mirror.Child]

    /// Decides what to do with one upstream value.
    func step(_ input: Input, state: inout State) -> TransformStep<Output, Failure>

    /// Converts a failure that the upstream completed with into the downstream's failure type.
    func failure(from upstreamFailure: UpstreamFailure) -> Failure
}

extension TransformOperation {
    static var rejectsZeroDemand: Bool { false }

    static func mirrorChildren(downstream: Any, status: Any, state: State) -> [Mirror.Child] {
        conduct == .strict ? [("downstream", downstream)] : []
    }
}

/// The subscriber an operator hands its upstream and the subscription it hands its downstream, for operators that
/// turn each upstream value into "emit / skip / finish / fail" (see `TransformStep`).
///
/// - Demand: what the downstream requests goes upstream unchanged; a skipped value asks the upstream for one more by
///   answering `.max(1)`, as Combine's `filter` does; an emitted value answers with the downstream's own answer.
/// - Termination: `.finish`, `.fail`, the upstream's completion and `cancel()` end the subscription once: the upstream's
///   subscription is let go, requests are ignored, and what still arrives is met as `Operation.conduct` says.
/// - Lifetime: as in Combine, the downstream and the operation (with its closures) stay with the subscription for its
///   whole life, ended or not; they go when the upstream and the downstream let go of the subscription (a `sink`
///   drops its subscription when it completes or is cancelled, a well-behaved upstream its subscriber).
/// - Locking: at most one lock acquisition per value, never held while calling out.
final class TransformSubscription<Operation: TransformOperation, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Operation.Output, Downstream.Failure == Operation.Failure {
    typealias Input = Operation.Input
    typealias Failure = Operation.UpstreamFailure

    // `lock` guards `status`. `state` is touched only from the upstream's calls, which a publisher serializes.
    private let lock = UnfairLock()
    private var status: SubscriptionStatus<Void> = .awaitingSubscription(())
    private var state: Operation.State
    private let downstream: Downstream
    private let operation: Operation

    init(downstream: Downstream, operation: Operation, initialState: Operation.State) {
        self.downstream = downstream
        self.operation = operation
        state = initialState
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard status.receive(subscription: subscription) != nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        if case .passThrough(let failsAfterEnd) = Operation.conduct {
            return deliver(step(input), failsAfterEnd: failsAfterEnd)
        }
        lock.lock()
        let current = status
        lock.unlock()
        switch current {
        case .subscribed:
            return deliver(step(input), failsAfterEnd: false)
        case .awaitingSubscription:
            breakRuleIfStrict("received a value before its subscription; an upstream sends values only after it")
            return .none
        case .terminal:
            return .none
        }
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        if case .awaitingSubscription = status {
            lock.unlock()
            breakRuleIfStrict("received a completion before its subscription; an upstream completes only after it")
            return
        }
        // `ended` keeps the upstream's subscription alive until here, so its release runs unlocked.
        guard let ended = status.complete() else {
            lock.unlock()
            return
        }
        lock.unlock()
        withExtendedLifetime(ended) {
            downstream.receive(completion: completion.mapFailure(operation.failure(from:)))
        }
    }

    func request(_ demand: Subscribers.Demand) {
        if Operation.rejectsZeroDemand {
            guard demand.isPositive(in: Operation.description) else { return }
        }
        lock.lock()
        let current = status
        lock.unlock()
        switch current {
        case .subscribed(let upstream, _):
            upstream.request(demand)
        case .awaitingSubscription:
            breakRuleIfStrict(
                "request(_:) was called before it sent its subscription; a subscriber requests only through a "
                    + "subscription it received")
        case .terminal:
            return
        }
    }

    func cancel() {
        lock.lock()
        if case .awaitingSubscription = status, Operation.conduct != .strict {
            // Combine's counterpart ignores this cancel: a subscription that arrives later is taken.
            lock.unlock()
            return
        }
        let previous = status.terminate()
        lock.unlock()
        // `previous` keeps the upstream's subscription alive until here, so its release runs unlocked.
        previous.subscription?.cancel()
    }

    /// A call that came before the upstream's subscription: Combine's filtering operators (`.strict`) trap on it —
    /// or, inside a test that uses CadenceTesting, report it (see `combineRule`); the caller then ignores the call.
    private func breakRuleIfStrict(_ what: @autoclosure () -> String) {
        guard Operation.conduct == .strict else { return }
        _ = combineRule(false, "\(Operation.description): \(what())")
    }

    /// Acts on what the operation decided for one value.
    @inline(__always)
    private func deliver(
        _ step: TransformStep<Operation.Output, Operation.Failure>,
        failsAfterEnd: Bool
    ) -> Subscribers.Demand {
        switch step {
        case .emit(let output):
            return downstream.receive(output)
        case .skip:
            return .max(1)
        case .finish:
            terminate(with: .finished, evenIfEnded: false)
            return .none
        case .fail(let error):
            terminate(with: .failure(error), evenIfEnded: failsAfterEnd)
            return .none
        }
    }

    /// Runs the operation's step on one value. An operation without state (`State` is empty, as for `tryMap`) gets a
    /// scratch copy instead of `&state`: ThreadSanitizer takes a modifying access to an empty stored property of this
    /// generic class for one that conflicts with the locked reads of `status` from `request(_:)` and `cancel()`.
    @inline(__always)
    private func step(_ input: Input) -> TransformStep<Operation.Output, Operation.Failure> {
        if MemoryLayout<Operation.State>.size == 0 {
            var scratch = state
            return operation.step(input, state: &scratch)
        }
        return operation.step(input, state: &state)
    }

    /// Ends the subscription from inside `receive(_:)`: cancels the upstream, then completes the downstream. When the
    /// subscription is not live, nothing happens unless `evenIfEnded` (`tryMap`'s failure, as in Combine).
    private func terminate(with completion: Subscribers.Completion<Operation.Failure>, evenIfEnded: Bool) {
        lock.lock()
        guard let ended = status.complete() else {
            lock.unlock()
            if evenIfEnded {
                downstream.receive(completion: completion)
            }
            return
        }
        lock.unlock()
        ended.subscription.cancel()
        downstream.receive(completion: completion)
    }

    var description: String { Operation.description }

    var customMirror: Mirror {
        lock.lock()
        let current = status
        lock.unlock()
        // `state` is read unlocked, as `step` writes it: a mirror taken while values arrive may see a passing value.
        return Mirror(self, children: Operation.mirrorChildren(downstream: downstream, status: current, state: state))
    }

    var playgroundDescription: Any { description }
}
