import CadenceSupport

/// What tells zip and combineLatest apart: how the values of the upstreams are kept, when they make an output and
/// when no further output can come. Everything else (demand, delivery, completion, cancellation) is
/// `TupleCombiningInner`'s.
protocol TupleCombiningStorage {
    associatedtype Output
    init()
    /// Combine's name for the operator: the subscription's `description` and the name in its trap messages.
    static var operatorName: String { get }
    /// Whether an output waits for demand (zip's queued tuples), so a downstream request may make one deliverable.
    /// When `false`, a value that arrives without demand makes no output at all (combineLatest).
    static var outputWaitsForDemand: Bool { get }
    /// Whether a failing upstream is cancelled along with the others (zip does so, as Combine does).
    static var cancelsFailingUpstream: Bool { get }
    /// Whether `request(.max(0))` traps, as Combine's zip does; combineLatest passes it on.
    static var requiresPositiveDemand: Bool { get }
    /// Called after one upstream's value has been stored.
    mutating func noteArrival()
    /// Whether there is an output to deliver now (then `removeOutput()` hands it out); `hasDemand` says whether the
    /// downstream can take it. A combination this considers and turns down is not considered again.
    mutating func considerOutput(hasDemand: Bool) -> Bool
    /// Removes and returns the output that `considerOutput(hasDemand:)` has just found. Two steps, not one
    /// returning an optional: these run unspecialised, where an `Output?` costs a metadata look-up.
    mutating func removeOutput() -> Output
    /// Whether `considerOutput(hasDemand:)` would have something to do (an output, or a combination to consider).
    ///
    /// This and `isExhausted` are `mutating` though they change nothing: the subscription (unspecialised) then works
    /// on its stored storage in place, where a non-mutating call first copies the whole storage and destroys the copy
    /// afterwards, through its value witnesses, on every value.
    mutating func hasOutput(hasDemand: Bool) -> Bool
    /// Whether no further output can come, given which upstreams have completed and how many of them finished.
    mutating func isExhausted(completed: [Bool], finishedCount: Int) -> Bool
    /// The child the subscription's mirror shows for the stored values.
    var mirrorChild: Mirror.Child { get }
}

extension TupleCombiningStorage {
    mutating func noteArrival() {}
}

/// The subscription behind `Publishers.Zip`, `Zip3`, `Zip4`, `CombineLatest`, `CombineLatest3` and
/// `CombineLatest4`; `Storage` makes it one or the other.
///
/// Demand, as in Combine: every `request(_:)` of the downstream is passed to every upstream, and so is the demand
/// the downstream returns from `receive(_:)` (to the upstream whose value produced the output, as the return value of
/// its `receive(_:)`; to the others through `request(_:)`).
///
/// The downstream receives its subscription once every upstream has been subscribed to. It finishes as soon as the
/// storage says no further output can come, cancelling the upstreams that have not finished; the first failure
/// cancels the upstreams that have not completed and fails the downstream at once. As Combine's, the subscription
/// keeps its downstream after a cancel or a completion, until the subscription itself goes.
///
/// Delivery is serialised by a `DeliveryToken`: the thread that holds it calls the downstream with the lock
/// released; a thread that stores a value, completes or requests while another holds it leaves the work to that
/// thread. When an output leaves nothing else to do and the downstream asks for nothing more, the holder gives the
/// token back without taking the lock again.
final class TupleCombiningInner<Storage: TupleCombiningStorage, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Storage.Output {
    typealias Failure = Downstream.Failure

    // `lock` guards every stored var below (so they need no run-time exclusivity checks). The downstream, kept for
    // the subscription's whole life as Combine keeps it, is in a `SubscriberBox`, and whether a failure is pending is
    // a flag of its own: the methods run unspecialised, and a `Downstream?` or a `Failure?` read on every value would
    // cost a metadata look-up each time.
    private let lock = UnfairLock()
    private let downstream: SubscriberBox<Downstream>
    @exclusivity(unchecked) private var storage = Storage()
    @exclusivity(unchecked) private var upstreams: UpstreamSubscriptions
    @exclusivity(unchecked) private var demand = Subscribers.Demand.none
    @exclusivity(unchecked) private var requested = Subscribers.Demand.none
    @exclusivity(unchecked) private var forward = Subscribers.Demand.none
    // Atomic, not guarded by `lock`: held from creation until `start()` has handed the downstream its subscription.
    private let token = DeliveryToken(held: true)
    private var pendingFailure: Failure?
    @exclusivity(unchecked) private var hasPendingFailure = false
    @exclusivity(unchecked) private var terminated = false

    init(downstream: Downstream, arity: Int) {
        self.downstream = SubscriberBox(downstream)
        upstreams = UpstreamSubscriptions(count: arity)
    }

    /// The subscriber to attach to the upstream at `index`; `store` keeps one of its values in the storage.
    func side<Input>(
        _ index: Int, _ store: @escaping (inout Storage, Input) -> Void
    )
        -> TupleCombiningSide<Storage, Downstream, Input>
    {
        TupleCombiningSide(index: index, inner: self, store: store)
    }

    /// Hands the downstream its subscription, then delivers whatever happened while the upstreams subscribed.
    func start() {
        downstream.subscriber.receive(subscription: self)
        lock.lock()
        token.clearWork()
        _ = drainLocked(triggeredBy: nil)
    }

    // MARK: Upstream events

    func receive(subscription: any Subscription, at index: Int) {
        lock.lock()
        guard !terminated, !hasPendingFailure, upstreams.attach(subscription, at: index) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        let alreadyRequested = requested
        lock.unlock()
        if alreadyRequested > 0 {
            subscription.request(alreadyRequested)
        }
    }

    func receive<Input>(
        _ value: Input, at index: Int, store: (inout Storage, Input) -> Void
    ) -> Subscribers.Demand {
        lock.lock()
        guard !terminated, !hasPendingFailure, !upstreams.isCompleted(index) else {
            lock.unlock()
            return .none
        }
        store(&storage, value)
        storage.noteArrival()
        guard token.take() else {
            lock.unlock()
            return .none
        }
        return drainLocked(triggeredBy: index)
    }

    func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        lock.lock()
        guard !terminated, !hasPendingFailure, upstreams.markCompleted(index) else {
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            upstreams.markFinished(index)
            guard token.take() else {
                lock.unlock()
                return
            }
            _ = drainLocked(triggeredBy: nil)
        case .failure(let error):
            if !Storage.cancelsFailingUpstream {
                upstreams.forget(index)
            }
            let running = upstreams.takeAll()
            if token.leaveWorkIfHeld() {
                pendingFailure = error
                hasPendingFailure = true
                lock.unlock()
                running.forEach { $0?.cancel() }
                return
            }
            terminated = true
            let released = storage
            storage = Storage()
            lock.unlock()
            running.forEach { $0?.cancel() }
            downstream.subscriber.receive(completion: .failure(error))
            withExtendedLifetime(released) {}
        }
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        if Storage.requiresPositiveDemand {
            guard demand.isPositive(in: Storage.operatorName) else { return }
        }
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        self.demand += demand
        if token.leaveWorkIfHeld() {
            forward += demand
            lock.unlock()
            return
        }
        requested += demand
        let running = upstreams.subscriptions
        lock.unlock()
        running.forEach { $0?.request(demand) }
        guard Storage.outputWaitsForDemand else { return }
        lock.lock()
        guard token.take() else {
            lock.unlock()
            return
        }
        _ = drainLocked(triggeredBy: nil)
    }

    func cancel() {
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        terminated = true
        pendingFailure = nil
        hasPendingFailure = false
        let running = upstreams.takeAll()
        let released = storage
        storage = Storage()
        lock.unlock()
        running.forEach { $0?.cancel() }
        withExtendedLifetime(released) {}
    }

    // MARK: Delivery

    /// Delivers what can be delivered, completes when the storage is exhausted, forwards the demand gathered
    /// meanwhile, then gives the token back. Called with the lock and the token held; returns with neither. Returns
    /// the demand for the upstream at `triggeredBy`, which gets it from its `receive(_:)` instead of through
    /// `request(_:)`.
    private func drainLocked(triggeredBy trigger: Int?) -> Subscribers.Demand {
        let downstream = downstream
        while true {
            if hasPendingFailure {
                failPendingLocked()
                return .none
            }
            guard !terminated else {
                token.release()
                lock.unlock()
                return .none
            }
            if storage.considerOutput(hasDemand: demand > 0) {
                let output = storage.removeOutput()
                if demand != .unlimited, demand > 0 {
                    demand -= 1
                }
                let idleAfter =
                    forward == .none && !storage.hasOutput(hasDemand: demand > 0)
                    && !storage.isExhausted(completed: upstreams.completed, finishedCount: upstreams.finishedCount)
                lock.unlock()
                let more = downstream.subscriber.receive(output)
                // Nothing to forward and nothing left to do: give the token back without the lock.
                if more == .none, idleAfter, token.releaseIfNothingLeft() {
                    return .none
                }
                lock.lock()
                token.clearWork()
                if more > 0 {
                    demand += more
                    forward += more
                }
                continue
            }
            if storage.isExhausted(completed: upstreams.completed, finishedCount: upstreams.finishedCount) {
                finishLocked()
                return .none
            }
            let gathered = forward
            forward = .none
            token.release()
            guard gathered > 0 else {
                lock.unlock()
                return .none
            }
            requested += gathered
            let running = upstreams.subscriptions
            lock.unlock()
            for (index, upstream) in running.enumerated() where index != trigger {
                upstream?.request(gathered)
            }
            return trigger == nil ? .none : gathered
        }
    }

    // The two ends of a delivery, out of line: the metadata of `Subscribers.Completion<Failure>` that they need is
    // then looked up when they run, not on every value `drainLocked` delivers.

    /// Fails the downstream with the failure left by another thread. Called with the lock and the token held;
    /// returns with neither.
    @inline(never)
    private func failPendingLocked() {
        let failure = pendingFailure.take()
        hasPendingFailure = false
        terminated = true
        token.release()
        let released = storage
        storage = Storage()
        lock.unlock()
        if let failure {
            downstream.subscriber.receive(completion: .failure(failure))
        }
        withExtendedLifetime(released) {}
    }

    /// Finishes the downstream, cancelling the upstreams that have not finished. Called with the lock and the token
    /// held; returns with neither.
    @inline(never)
    private func finishLocked() {
        terminated = true
        token.release()
        let unfinished = upstreams.takeAll()
        let released = storage
        storage = Storage()
        lock.unlock()
        unfinished.forEach { $0?.cancel() }
        downstream.subscriber.receive(completion: .finished)
        withExtendedLifetime(released) {}
    }

    // MARK: Reflection

    var description: String { Storage.operatorName }

    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        let children: [Mirror.Child] = [
            ("downstream", downstream.subscriber),
            ("upstreamSubscriptions", upstreams.subscriptions),
            ("demand", demand),
            storage.mirrorChild,
        ]
        return Mirror(self, children: children)
    }

    var playgroundDescription: Any { description }
}

/// The subscriber that `TupleCombiningInner` attaches to the upstream at one index.
struct TupleCombiningSide<Storage: TupleCombiningStorage, Downstream: Subscriber, Input>: Subscriber,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Storage.Output {
    typealias Failure = Downstream.Failure

    let index: Int
    let inner: TupleCombiningInner<Storage, Downstream>
    let store: (inout Storage, Input) -> Void
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) {
        inner.receive(subscription: subscription, at: index)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        inner.receive(input, at: index, store: store)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        inner.receive(completion: completion, at: index)
    }

    var description: String { Storage.operatorName }

    var customMirror: Mirror { Mirror(self, children: ["parentSubscription": inner.combineIdentifier]) }

    var playgroundDescription: Any { description }
}
