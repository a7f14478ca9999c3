import CadenceSupport

/// A publisher that eventually produces a single value and then finishes or fails.
///
/// The closure passed to `init` runs once, at once, and receives a promise; the first call of the promise settles the
/// future and later calls are ignored. The outcome replays to every subscriber, including those that subscribe after
/// it settled: a value goes out on the subscriber's first positive request (followed by `.finished`), a failure goes
/// out as soon as it is known, without waiting for demand. The promise may be called from any thread.
///
/// ```swift
/// let future = Future<Int, Never> { promise in
///     DispatchQueue.global().async { promise(.success(42)) }
/// }
/// ```
public final class Future<Output, Failure: Error>: Publisher {
    /// A type that represents a closure to invoke in the future, when an element or error is available.
    public typealias Promise = (Result<Output, Failure>) -> Void

    // `lock` guards `result`, `outcome` and `conduits`.
    private let lock = UnfairLock()
    private var result: Result<Output, Failure>?
    /// Which way `result` went, readable without the metadata of `Result<Output, Failure>`.
    @exclusivity(unchecked) private var outcome = FutureOutcome.pending
    @exclusivity(unchecked) private var conduits: [FutureConduitBase] = []

    /// Creates a publisher that invokes a promise closure when the publisher emits an element.
    public init(_ attemptToFulfill: @escaping (@escaping Promise) -> Void) {
        attemptToFulfill(promise)
    }

    private func promise(_ result: Result<Output, Failure>) {
        lock.lock()
        guard outcome == .pending else {
            lock.unlock()
            return
        }
        self.result = result
        let outcome: FutureOutcome
        switch result {
        case .success: outcome = .succeeded
        case .failure: outcome = .failed
        }
        self.outcome = outcome
        let waiting = conduits
        conduits = []
        lock.unlock()
        for conduit in waiting {
            conduit.settle(outcome)
        }
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        lock.lock()
        let outcome = self.outcome
        // A conduit made once the promise is fulfilled is never in `conduits`: it need not be removed from them.
        let conduit = FutureConduit(parent: self, downstream: subscriber, isRegistered: outcome == .pending)
        if outcome == .pending {
            conduits.append(conduit)
        }
        lock.unlock()
        if outcome != .pending {
            conduit.settle(outcome)
        }
        subscriber.receive(subscription: conduit)
        conduit.didSubscribe()
    }

    /// The outcome, once the promise has been fulfilled; a conduit reads it when it delivers.
    fileprivate var settledResult: Result<Output, Failure>? {
        lock.lock()
        defer { lock.unlock() }
        return result
    }

    fileprivate func remove(_ conduit: FutureConduitBase) {
        lock.lock()
        let index = conduits.firstIndex { $0 === conduit }
        let removed = index.map { conduits.remove(at: $0) }
        lock.unlock()
        withExtendedLifetime(removed) {} // released here, outside the lock
    }
}

/// Whether a future's promise has been fulfilled, and how. Not generic: the future and its conduits pass it around
/// and test it on every subscription, code that runs unspecialised, where each use of a `Result<Output, Failure>?`
/// would cost a look-up of its metadata at run time.
private enum FutureOutcome {
    case pending
    case succeeded
    case failed
}

/// The settle-only face of a subscription to a `Future`, so the future can hold subscriptions of any downstream type.
/// Not generic, so that the future's list of them is of a concrete type.
private class FutureConduitBase {
    func settle(_ outcome: FutureOutcome) {}
}

/// One subscriber's subscription to a `Future`.
///
/// It delivers once, when it has both the outcome and (for a value) a positive demand, and only after the subscriber
/// has been handed the subscription, so a promise fulfilled on another thread cannot overtake `receive(subscription:)`.
/// It learns only which way the future went; the value or the error it reads from the future, which it holds until
/// it has delivered.
private final class FutureConduit<Downstream: Subscriber>: FutureConduitBase,
    Subscription, CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    // `lock` guards every stored var below (so they need no run-time exclusivity checks). The downstream is in a
    // `SubscriberBox`: these methods run unspecialised, where a stored `Downstream?` costs a metadata look-up on each
    // use.
    private let lock = UnfairLock()
    @exclusivity(unchecked) private var parent: Future<Output, Failure>?
    @exclusivity(unchecked) private var downstream: SubscriberBox<Downstream>?
    @exclusivity(unchecked) private var outcome = FutureOutcome.pending
    @exclusivity(unchecked) private var hasDemand = false
    /// Set once `receive(subscription:)` is under way (a request from inside it may deliver) or has returned.
    @exclusivity(unchecked) private var isSubscribed = false
    /// Whether the future keeps this conduit among those waiting for its promise.
    private let isRegistered: Bool

    init(parent: Future<Output, Failure>, downstream: Downstream, isRegistered: Bool) {
        self.parent = parent
        self.downstream = SubscriberBox(downstream)
        self.isRegistered = isRegistered
    }

    override func settle(_ outcome: FutureOutcome) {
        lock.lock()
        self.outcome = outcome
        deliverIfReady()
    }

    func didSubscribe() {
        lock.lock()
        isSubscribed = true
        deliverIfReady()
    }

    func request(_ demand: Subscribers.Demand) {
        guard demand.isPositive(in: "Future") else { return }
        lock.lock()
        hasDemand = true
        isSubscribed = true // the subscriber holds the subscription: it is inside or past `receive(subscription:)`
        deliverIfReady(releasingParent: false)
    }

    /// Called with `lock` held; releases it. As in Combine, a delivery that a request set off keeps the future as
    /// the subscription's parent; one that the outcome (or the subscription) set off lets it go once delivered.
    private func deliverIfReady(releasingParent: Bool = true) {
        guard isSubscribed, let downstream, let parent, outcome != .pending,
            outcome == .failed || hasDemand
        else {
            lock.unlock()
            return
        }
        self.downstream = nil
        lock.unlock()
        deliver(from: parent, to: downstream.subscriber)
        // As in Combine, the subscription lets go of the future only once the outcome is delivered.
        guard releasingParent else { return }
        lock.lock()
        let released = self.parent
        self.parent = nil
        lock.unlock()
        if isRegistered {
            released?.remove(self)
        }
        withExtendedLifetime(released) {}
    }

    /// Sends the future's outcome to the downstream. Out of line: it is the one place that needs the metadata of
    /// `Result<Output, Failure>`, and the checks before it, which run several times a subscription, do not.
    @inline(never)
    private func deliver(from parent: Future<Output, Failure>, to downstream: Downstream) {
        switch parent.settledResult {
        case .success(let output)?:
            _ = downstream.receive(output)
            downstream.receive(completion: .finished)
        case .failure(let error)?:
            downstream.receive(completion: .failure(error))
        case nil:
            preconditionFailure("Future: a conduit delivered before its future was settled")
        }
    }

    func cancel() {
        lock.lock()
        let parent = self.parent
        let downstream = self.downstream
        self.parent = nil
        self.downstream = nil
        lock.unlock()
        if isRegistered {
            parent?.remove(self)
        }
        withExtendedLifetime((parent, downstream)) {} // released here, outside the lock
    }

    var description: String { "Future" }

    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        return Mirror(
            self,
            children: [
                "parent": parent as Any, "downstream": downstream?.subscriber as Any, "hasAnyDemand": hasDemand,
                "subject": parent as Any,
            ])
    }

    var playgroundDescription: Any { description }
}

extension Future where Failure == Never {
    /// The published value of the future, delivered asynchronously.
    ///
    /// It suspends until the promise is fulfilled. A future that never fails always produces its value, so
    /// cancelling the waiting task does not end the wait early.
    public final var value: Output {
        get async {
            await withCheckedContinuation { (continuation: CheckedContinuation<Output, Never>) in
                let waiter = FutureValueWaiter<Output, Never> { result in
                    if case .success(let output)? = result {
                        // The future hands its value over to the waiting task and keeps no use of it.
                        nonisolated(unsafe) let transferred = output
                        continuation.resume(returning: transferred)
                    }
                }
                subscribe(waiter)
            }
        }
    }
}

extension Future {
    /// The published value of the future or an error, delivered asynchronously.
    ///
    /// It suspends until the promise is fulfilled, then returns the value or throws the failure. Cancelling the
    /// waiting task cancels its subscription to the future and throws `CancellationError`.
    public final var value: Output {
        get async throws {
            let waiter = FutureValueWaiterBox<Output, Failure>()
            return try await withTaskCancellationHandler {
                try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Output, any Error>) in
                    let subscriber = FutureValueWaiter<Output, Failure> { result in
                        switch result {
                        case .success(let output)?:
                            // The future hands its value over to the waiting task and keeps no use of it.
                            nonisolated(unsafe) let transferred = output
                            continuation.resume(returning: transferred)
                        case .failure(let error)?: continuation.resume(throwing: error)
                        case nil: continuation.resume(throwing: CancellationError())
                        }
                    }
                    if waiter.install(subscriber) {
                        subscribe(subscriber)
                    }
                }
            } onCancel: {
                waiter.cancel()
            }
        }
    }
}

/// Holds the subscriber of one `value` call so that the task's cancellation handler, which may run before the
/// subscriber exists, can reach it.
private final class FutureValueWaiterBox<Output, Failure: Error>: @unchecked Sendable {
    // `lock` guards `subscriber` and `isCancelled`.
    private let lock = UnfairLock()
    private var subscriber: FutureValueWaiter<Output, Failure>?
    private var isCancelled = false

    /// Stores the subscriber; when the task was already cancelled, cancels it instead and returns false.
    func install(_ subscriber: FutureValueWaiter<Output, Failure>) -> Bool {
        lock.lock()
        guard !isCancelled else {
            lock.unlock()
            subscriber.cancel()
            return false
        }
        self.subscriber = subscriber
        lock.unlock()
        return true
    }

    func cancel() {
        lock.lock()
        isCancelled = true
        let subscriber = self.subscriber
        self.subscriber = nil
        lock.unlock()
        subscriber?.cancel()
    }
}

/// Subscribes to a future for its `value` and resumes the waiting task exactly once: with the outcome, or with `nil`
/// when cancelled first.
private final class FutureValueWaiter<Output, Failure: Error>: Subscriber, @unchecked Sendable {
    typealias Input = Output

    // `lock` guards `resume` and `subscription`.
    private let lock = UnfairLock()
    private var resume: ((Result<Output, Failure>?) -> Void)?
    private var subscription: (any Subscription)?

    init(resume: @escaping (Result<Output, Failure>?) -> Void) {
        self.resume = resume
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard resume != nil, self.subscription == nil else {
            lock.unlock()
            subscription.cancel()
            return
        }
        self.subscription = subscription
        lock.unlock()
        subscription.request(.max(1))
    }

    func receive(_ input: Output) -> Subscribers.Demand {
        finish(with: .success(input))
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        if case .failure(let error) = completion {
            finish(with: .failure(error))
        }
    }

    func cancel() {
        lock.lock()
        let subscription = self.subscription
        let resume = self.resume
        self.subscription = nil
        self.resume = nil
        lock.unlock()
        subscription?.cancel()
        resume?(nil)
    }

    private func finish(with result: Result<Output, Failure>) {
        lock.lock()
        let resume = self.resume
        self.resume = nil
        subscription = nil
        lock.unlock()
        resume?(result)
    }
}
