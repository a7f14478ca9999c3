import CadenceSupport

/// What a reducing strategy tells its subscription after looking at one upstream value.
enum ReducingStep<Failure: Error> {
    /// Keep consuming the upstream.
    case `continue`
    /// The answer is known: cancel the upstream and deliver the result.
    case finish
    /// A throwing closure failed: cancel the upstream and fail downstream with this error.
    case fail(Failure)
}

/// The per-operator part of a reducing operator (`reduce`, `collect()`, `count()`, `min`/`max`, `contains`,
/// `allSatisfy`, `first`, `last` and their `try` forms): how each value changes the running answer, and what the
/// answer is when the upstream finishes.
///
/// `ReducingSubscription` owns a strategy and calls it only from upstream events (`receive(_:)` and
/// `receive(completion:)`), which the subscription contract serialises, so the strategy's own state needs no lock.
/// User code (a predicate, a combining closure) lives in `Body` instead, which the subscription calls only while it
/// is live.
protocol ReducingStrategy {
    /// The upstream's values.
    associatedtype Input
    /// The upstream's failure.
    associatedtype UpstreamFailure: Error
    /// The one value delivered downstream.
    associatedtype Output
    /// The downstream's failure: `UpstreamFailure`, or `any Error` for the `try` operators.
    associatedtype Failure: Error
    /// The user closure that `reduce` calls, or `Void` when it calls none.
    associatedtype Body

    /// Combine's name for the subscription (its `description`).
    static var name: String { get }

    /// The body to use without checking that the subscription is live, or nil when the body is user code, which the
    /// subscription calls only after checking (under its lock) that it was not cancelled. It is `()` when `Body` is
    /// `Void`: such strategies cost no lock per value.
    static var lockFreeBody: Body? { get }

    /// Folds one value into the running answer.
    mutating func reduce(_ input: Input, using body: Body) -> ReducingStep<Failure>

    /// Hands over the answer once the upstream finished or `reduce` said `.finish`; nil finishes without a value.
    mutating func takeResult() -> Output?

    /// Converts an upstream failure into the downstream's failure type (the `try` strategies write it out: `error`).
    static func failure(from error: UpstreamFailure) -> Failure

    /// True for a strategy whose `reduce` always answers `.continue` and needs no body (`collect()`): the
    /// subscription then calls `accumulate(_:)` instead, which touches no generic enum or optional per value.
    static var alwaysContinues: Bool { get }

    /// Folds one value; called instead of `reduce` only when `alwaysContinues` is true.
    mutating func accumulate(_ input: Input)

    /// The answer so far, which Combine's mirror of the subscription shows as `result`; nil while there is none.
    var partialResult: Output? { get }

    /// The answer the operator starts from, which Combine's mirror shows as `initial`; nil when it starts from none.
    var initialResult: Output? { get }

    /// The subscription's mirror children after its downstream and before its status: by default Combine's `result`
    /// and `initial`.
    var reflectedChildren: [Mirror.Child] { get }

    /// Whether the subscription's mirror has only the strategy's children, as Combine's `collect()` has (`count`).
    static var reflectsOnlyItsOwnChildren: Bool { get }
}

extension ReducingStrategy {
    static var lockFreeBody: Body? { nil }

    var reflectedChildren: [Mirror.Child] {
        [("result", partialResult as Any), ("initial", initialResult as Any)]
    }

    static var reflectsOnlyItsOwnChildren: Bool { false }

    static var alwaysContinues: Bool { false }

    mutating func accumulate(_ input: Input) {
        requirementFailure("Cadence: accumulate(_:) is only for strategies that always continue")
    }
}

extension ReducingStrategy where Body == Void {
    static var lockFreeBody: Body? { () }
}

extension ReducingStrategy where Failure == UpstreamFailure {
    static func failure(from error: UpstreamFailure) -> Failure { error }
}

/// The subscription of every reducing operator: a subscriber to the upstream and the subscription the downstream
/// holds.
///
/// - It hands itself to the downstream, then requests `.unlimited` from the upstream (as Combine does), whatever
///   the downstream asks for.
/// - It emits at most one value, and only once the downstream has requested something: a result known before
///   the first `request(_:)` waits for it.
/// - When the strategy knows the answer early (`.finish`) or a throwing closure fails (`.fail`), it cancels the
///   upstream before telling the downstream. An upstream failure goes downstream at once, demand or not.
/// - `cancel()` cancels the upstream once; after it nothing reaches the downstream. Before the upstream's
///   subscription it does nothing, as in Combine (the downstream cannot have this subscription yet).
/// - Lifetime: as in Combine, the downstream and the body (with all that its closure captured) stay with the
///   subscription for its whole life, ended or not; they go when the upstream and the downstream let go of the
///   subscription (a `sink` drops its subscription when it completes or is cancelled, a well-behaved upstream its
///   subscriber).
final class ReducingSubscription<Strategy: ReducingStrategy, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Strategy.Output, Downstream.Failure == Strategy.Failure {
    typealias Input = Strategy.Input
    typealias Failure = Strategy.UpstreamFailure

    private enum Phase {
        /// Waiting for the upstream's subscription.
        case awaitingSubscription
        /// Consuming the upstream.
        case reducing(any Subscription)
        /// The answer is known; waiting for the downstream's first request to deliver it.
        case holding(Strategy.Output?)
        /// Delivered, failed or cancelled: nothing more happens.
        case terminal
    }

    // Touched only from upstream events, which the contract serialises: no lock, and no run-time exclusivity check.
    @exclusivity(unchecked) private var strategy: Strategy

    /// `Strategy.alwaysContinues`, read once: the per-value path then asks nothing generic of the strategy type.
    private let alwaysContinues = Strategy.alwaysContinues

    // `lock` guards `phase` and `demanded`.
    private let lock = UnfairLock()
    private var phase = Phase.awaitingSubscription
    private var demanded = false
    private let downstream: Downstream
    private let body: Strategy.Body

    init(strategy: Strategy, body: Strategy.Body, downstream: Downstream) {
        self.strategy = strategy
        self.body = body
        self.downstream = downstream
    }

    // MARK: Subscriber

    func receive(subscription: any Subscription) {
        lock.lock()
        guard case .awaitingSubscription = phase else {
            lock.unlock()
            subscription.cancel()
            return
        }
        phase = .reducing(subscription)
        lock.unlock()
        downstream.receive(subscription: self)
        lock.lock()
        let stillReducing = if case .reducing = phase { true } else { false }
        lock.unlock()
        if stillReducing {
            subscription.request(.unlimited)
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        if alwaysContinues {
            strategy.accumulate(input)
            return .none
        }
        return reduce(input)
    }

    /// The general per-value path, kept out of `receive(_:)` so that the `alwaysContinues` path does not pay for the
    /// generic metadata this one needs.
    @inline(never)
    private func reduce(_ input: Input) -> Subscribers.Demand {
        let body: Strategy.Body
        if let lockFree = Strategy.lockFreeBody {
            body = lockFree
        } else {
            // User code runs only while the subscription is live: not after a cancel, as in Combine.
            lock.lock()
            let isLive = if case .reducing = phase { true } else { false }
            lock.unlock()
            guard isLive else { return .none }
            body = self.body
        }
        switch strategy.reduce(input, using: body) {
        case .continue:
            break
        case .finish:
            finishEarly()
        case .fail(let error):
            fail(error)
        }
        return .none
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        lock.lock()
        guard case .reducing = phase else {
            lock.unlock()
            return
        }
        // `ended` keeps the upstream's subscription alive until here, so its release runs unlocked.
        let ended = phase
        defer { withExtendedLifetime(ended) {} }
        switch completion {
        case .finished:
            let result = strategy.takeResult()
            guard demanded else {
                phase = .holding(result)
                lock.unlock()
                return
            }
            phase = .terminal
            lock.unlock()
            deliver(result)
        case .failure(let error):
            phase = .terminal
            lock.unlock()
            downstream.receive(completion: .failure(Strategy.failure(from: error)))
        }
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        guard demand.isPositive(in: Strategy.name) else { return }
        lock.lock()
        switch phase {
        case .awaitingSubscription, .reducing:
            demanded = true
            lock.unlock()
        case .holding(let result):
            phase = .terminal
            lock.unlock()
            deliver(result)
        case .terminal:
            lock.unlock()
        }
    }

    func cancel() {
        lock.lock()
        // Before the upstream's subscription the downstream has not got this one, so only a caller that kept the
        // subscriber can cancel here: Combine ignores that, and takes the subscription when it comes.
        if case .awaitingSubscription = phase {
            lock.unlock()
            return
        }
        // `previous` keeps the upstream's subscription (or a held result) alive until here, so its release runs
        // unlocked.
        let previous = phase
        phase = .terminal
        lock.unlock()
        if case .reducing(let upstream) = previous {
            upstream.cancel()
        }
        withExtendedLifetime(previous) {}
    }

    // MARK: Private

    private func finishEarly() {
        lock.lock()
        guard case .reducing(let upstream) = phase else {
            lock.unlock()
            return
        }
        let result = strategy.takeResult()
        let deliversNow = demanded
        phase = deliversNow ? .terminal : .holding(result)
        lock.unlock()
        upstream.cancel()
        if deliversNow {
            deliver(result)
        }
    }

    private func fail(_ error: Strategy.Failure) {
        lock.lock()
        guard case .reducing(let upstream) = phase else {
            lock.unlock()
            return
        }
        phase = .terminal
        lock.unlock()
        upstream.cancel()
        downstream.receive(completion: .failure(error))
    }

    private func deliver(_ result: Strategy.Output?) {
        if let result {
            _ = downstream.receive(result)
        }
        downstream.receive(completion: .finished)
    }

    // MARK: Reflection

    var description: String { Strategy.name }

    /// Combine's children: the downstream, the strategy's `result` and `initial`, and the status (`collect()` shows
    /// only its `count`). Like Combine's, the mirror reads the running answer without waiting for a value that the
    /// upstream is delivering on another thread: take it between values.
    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        if Strategy.reflectsOnlyItsOwnChildren {
            return Mirror(self, children: strategy.reflectedChildren)
        }
        let status: String =
            switch phase {
            case .awaitingSubscription: "awaitingSubscription"
            case .reducing: "reducing"
            case .holding: "holding"
            case .terminal: "terminal"
            }
        let children: [Mirror.Child] =
            [("downstream", downstream)] + strategy.reflectedChildren
            + [("status", status)]
        return Mirror(self, children: children)
    }

    var playgroundDescription: Any { description }
}
