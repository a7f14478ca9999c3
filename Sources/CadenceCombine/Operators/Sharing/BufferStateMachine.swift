/// What one `buffer(size:prefetch:whenFull:)` subscription knows, and how each event changes it: no lock, no calls
/// out.
///
/// One caller at a time is the *emitter* (`isEmitting`): it drains the buffer into the downstream, one ``DrainStep``
/// at a time, calling out between the steps with the lock released. An event that arrives while another caller emits
/// only updates the state; the emitter picks it up at its next step. Every transition hands back what the caller must
/// do once it has left the lock, and anything it lets go of (a dropped value, the downstream), so that those are
/// released outside the lock too.
struct BufferStateMachine<Downstream: Subscriber> {
    typealias Value = Downstream.Input
    typealias Failure = Downstream.Failure

    private let size: Int
    private let whenFull: Publishers.BufferingStrategy<Failure>
    private(set) var status: SubscriptionStatus<Downstream>
    private(set) var values = RingBuffer<Value>()
    /// What the downstream requested and has not received yet.
    private(set) var demand = Subscribers.Demand.none
    /// The upstream's completion, or the custom error of a full buffer, waiting to go out.
    private(set) var terminal: Subscribers.Completion<Failure>?
    /// Whether a caller is draining the buffer into the downstream.
    private(set) var isEmitting = false
    /// Whether `terminal` is the custom error of a full buffer, which cancelled the upstream.
    private var overflowed = false

    init(downstream: Downstream, size: Int, whenFull: Publishers.BufferingStrategy<Failure>) {
        status = .awaitingSubscription(downstream)
        self.size = size
        self.whenFull = whenFull
    }

    /// The downstream, while the subscription still has one.
    var downstream: Downstream? { status.context }

    /// What the emitter does next, with the lock released.
    enum DrainStep {
        /// Deliver `value` to the downstream (its demand is taken), then report its answer with `delivered(_:)`.
        case deliver(Downstream, Value)
        /// Deliver the completion and stop emitting: the subscription has ended; `released` (the upstream's
        /// subscription, and the values a failure left in the buffer) is to be let go after the delivery. When
        /// `refillsUpstream`, the buffer cancelled the upstream on overflow and, as Combine does, still asks it for
        /// what the delivered values earned.
        case complete(
            Downstream, Subscribers.Completion<Failure>,
            released: (upstream: any Subscription, values: RingBuffer<Value>), refillsUpstream: Bool)
        /// Nothing to deliver now: the emitter stops, and asks `upstream` (while the upstream may still send) for
        /// what the delivered values earned.
        case stop(upstream: (any Subscription)?)
        /// The subscription ended while emitting (it was cancelled): stop, asking nothing of anybody.
        case ended
    }

    // MARK: Upstream events

    /// The upstream's subscription arrived: hand back the downstream to give the subscription to, or `nil` when the
    /// caller must cancel the new subscription (one arrived already, or the subscription was cancelled).
    mutating func receive(subscription: any Subscription) -> Downstream? {
        status.receive(subscription: subscription)
    }

    enum ValueAction {
        /// Nothing more to do (the value was ignored, buffered, or dropped by `.dropNewest`), but to let `dropped`
        /// go.
        case none(dropped: Value?)
        /// The buffer is full and its strategy is `.customError`: make the error (outside the lock, it is the
        /// user's closure) and report it with `overflowed(with:)`.
        case overflow(makeError: () -> Failure)
        /// The caller became the emitter: perform `first`, then the steps that follow; let `dropped` go.
        case drain(first: DrainStep, dropped: Value?)
    }

    /// A value arrived: it joins the buffer, or the buffer's strategy decides what is dropped. As in Combine, a value
    /// that arrives while a finished completion waits for its turn still joins the buffer, ahead of the completion;
    /// one after a failure is ignored.
    mutating func receive(_ value: Value) -> ValueAction {
        guard status.isSubscribed else { return .none(dropped: nil) }
        if case .failure = terminal { return .none(dropped: nil) }
        var dropped: Value?
        if values.count >= size {
            switch whenFull {
            case .dropNewest:
                break
            case .dropOldest:
                dropped = values.popFirst()
                values.append(value)
            case .customError(let makeError):
                return .overflow(makeError: makeError)
            }
        } else {
            values.append(value)
        }
        guard !isEmitting else { return .none(dropped: dropped) }
        isEmitting = true
        return .drain(first: nextStep(), dropped: dropped)
    }

    /// The buffer overflowed with `.customError` and the error was made: it waits for the buffered values the
    /// downstream asks for (as in Combine, it goes out with the next request). Hands back the upstream's
    /// subscription for the caller to cancel, or `nil` when the subscription ended or completed meanwhile.
    mutating func overflowed(with error: Failure) -> (any Subscription)? {
        guard let upstream = status.subscription, terminal == nil else { return nil }
        terminal = .failure(error)
        overflowed = true
        return upstream
    }

    /// The upstream completed: the completion waits for its turn behind the buffered values. Hands back the first
    /// step to perform when the caller became the emitter.
    mutating func receive(completion: Subscribers.Completion<Failure>) -> DrainStep? {
        guard status.isSubscribed, terminal == nil else { return nil }
        terminal = completion
        return startEmitting()
    }

    // MARK: Downstream events

    /// The downstream asked for more: hands back the first step to perform when the caller became the emitter.
    mutating func request(_ additional: Subscribers.Demand) -> DrainStep? {
        guard status.isSubscribed else { return nil }
        demand += additional
        return startEmitting()
    }

    /// The downstream cancelled: hands back what the subscription was, to cancel its upstream subscription, and the
    /// buffered values, all to be let go outside the lock; `nil` when there is nothing to cancel.
    mutating func cancel() -> (previous: SubscriptionStatus<Downstream>, dropped: RingBuffer<Value>)? {
        guard status.isSubscribed else { return nil }
        let cancelled = (status.terminate(), values)
        values.removeAll()
        return cancelled
    }

    // MARK: Emitting

    /// The emitter delivered a value and the downstream answered `more`: the next step.
    mutating func delivered(_ more: Subscribers.Demand) -> DrainStep {
        demand += more
        return nextStep()
    }

    private mutating func startEmitting() -> DrainStep? {
        guard !isEmitting else { return nil }
        isEmitting = true
        return nextStep()
    }

    /// Called while emitting: the next value the downstream has demand for, the completion once it is due, or the
    /// end of the emitter's turn.
    private mutating func nextStep() -> DrainStep {
        guard case .subscribed(let upstream, let downstream) = status else {
            isEmitting = false
            return .ended
        }
        if demand > 0, let value = values.popFirst() {
            demand -= 1
            return .deliver(downstream, value)
        }
        if let completion = terminal {
            let isDue: Bool
            switch completion {
            case .finished: isDue = demand > 0 && values.isEmpty
            case .failure: isDue = true
            }
            if isDue {
                _ = status.terminate()
                // A failure drops the values still buffered.
                let dropped = values
                values.removeAll()
                isEmitting = false
                return .complete(downstream, completion, released: (upstream, dropped), refillsUpstream: overflowed)
            }
        }
        isEmitting = false
        return .stop(upstream: terminal == nil ? upstream : nil)
    }
}
