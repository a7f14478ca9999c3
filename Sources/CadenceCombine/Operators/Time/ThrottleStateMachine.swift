/// What one throttle subscription knows, and how each event changes it: no lock, no calls out.
///
/// Every transition is `mutating` and returns what the caller must do once it has left the lock — schedule the next
/// emission, deliver a value or a completion — together with anything it lets go of, so that it is released outside
/// the lock too. At most one emission is scheduled at a time; it delivers the value held for the window (and, when
/// the upstream has completed, the completion after it).
struct ThrottleStateMachine<Downstream: Subscriber, Time: Strideable> {
    typealias Value = Downstream.Input
    typealias Failure = Downstream.Failure

    private enum Phase {
        case awaitingSubscription(Downstream)
        case subscribed(upstream: any Subscription, downstream: Downstream)
        /// The upstream completed; the held value (if any) and then the completion wait for the scheduled emission.
        case draining(Downstream)
        case finished
    }

    private var phase: Phase
    private let interval: Time.Stride
    private let latest: Bool
    /// What the downstream requested, less the values delivered or held for delivery.
    private(set) var demand = Subscribers.Demand.none
    /// The value the scheduled emission will deliver.
    private(set) var pendingValue: Value?
    /// The upstream's completion, delivered by the scheduled emission after `pendingValue`.
    private(set) var pendingCompletion: Subscribers.Completion<Failure>?
    /// Whether an emission is scheduled and has not run yet.
    private(set) var isEmissionScheduled = false
    /// When the last value went out; the next goes out no earlier than `interval` after it.
    private(set) var lastEmission: Time?

    init(downstream: Downstream, interval: Time.Stride, latest: Bool) {
        phase = .awaitingSubscription(downstream)
        self.interval = interval
        self.latest = latest
    }

    /// The downstream, while the subscription still has one.
    var downstream: Downstream? {
        switch phase {
        case .awaitingSubscription(let downstream), .subscribed(_, let downstream), .draining(let downstream):
            return downstream
        case .finished:
            return nil
        }
    }

    /// Whether the upstream's subscription is held and the upstream has not completed.
    var isSubscribed: Bool {
        if case .subscribed = phase { return true }
        return false
    }

    // MARK: Upstream events

    /// The upstream's subscription arrived: hand back the downstream to give the subscription to, or `nil` when the
    /// caller must cancel the new subscription.
    mutating func receive(subscription: any Subscription) -> Downstream? {
        guard case .awaitingSubscription(let downstream) = phase else { return nil }
        phase = .subscribed(upstream: subscription, downstream: downstream)
        return downstream
    }

    enum ValueAction {
        /// Nothing to schedule; `released` is a value let go of (dropped, or replaced by a later one).
        case none(released: Value?)
        /// Schedule the emission: at once (`nil`: `schedule(options:)`) or at a time (`schedule(after:)`).
        case scheduleEmission(at: Time?)
    }

    /// A value arrived at `now`.
    ///
    /// With no emission scheduled, it is held and an emission scheduled — at once when no value went out yet or the
    /// last went out `interval` or more ago, else `interval` after the last — and one unit of demand is set aside
    /// for it; with no demand it is dropped. With an emission scheduled, it replaces the held value when `latest`,
    /// and is dropped otherwise.
    mutating func receive(_ value: Value, now: Time) -> ValueAction {
        guard isSubscribed else { return .none(released: value) }
        if isEmissionScheduled {
            guard latest else { return .none(released: value) }
            let replaced = pendingValue
            pendingValue = value
            return .none(released: replaced)
        }
        guard demand > 0 else { return .none(released: value) }
        demand -= 1
        pendingValue = value
        isEmissionScheduled = true
        guard let lastEmission else { return .scheduleEmission(at: nil) }
        let earliest = lastEmission.advanced(by: interval)
        return .scheduleEmission(at: earliest > now ? earliest : nil)
    }

    /// The upstream completed: the completion goes out right after the held value, or at once (on the scheduler)
    /// when none is held. Returns whether the caller must schedule an emission for it.
    mutating func receive(completion: Subscribers.Completion<Failure>) -> Bool {
        guard case .subscribed(_, let downstream) = phase else { return false }
        phase = .draining(downstream)
        pendingCompletion = completion
        guard !isEmissionScheduled else { return false }
        isEmissionScheduled = true
        return true
    }

    // MARK: Scheduled events

    /// The scheduled emission runs at `now` (`nil` once the upstream completed: no later value is measured from this
    /// one): hand back the held value and whom to deliver it to. `nil` when the subscription was cancelled meanwhile.
    /// The completion, if any, is taken after the value went out (`emissionDelivered`).
    mutating func emissionDue(now: Time?) -> (downstream: Downstream, value: Value?)? {
        guard isEmissionScheduled, let downstream, !isFinished else { return nil }
        isEmissionScheduled = false
        let value = pendingValue
        pendingValue = nil
        if value != nil, let now {
            lastEmission = now
        }
        return (downstream, value)
    }

    /// The emission's value went out and the downstream answered `additional`: hand back the completion to deliver
    /// now, unless a newer emission (scheduled from inside the downstream) will deliver it, or the subscription was
    /// cancelled.
    mutating func emissionDelivered(
        adding additional: Subscribers.Demand
    )
        -> (downstream: Downstream, completion: Subscribers.Completion<Failure>)?
    {
        if isSubscribed {
            demand += additional
            return nil
        }
        guard case .draining(let downstream) = phase, !isEmissionScheduled,
            let completion = pendingCompletion
        else { return nil }
        pendingCompletion = nil
        phase = .finished
        return (downstream, completion)
    }

    // MARK: Downstream events

    /// The downstream asked for more values.
    mutating func add(demand additional: Subscribers.Demand) {
        guard isSubscribed else { return }
        demand += additional
    }

    /// What cancelling lets go of; the caller cancels `upstream` outside the lock.
    struct Cancellation {
        var upstream: (any Subscription)?
        var released: (downstream: Downstream?, value: Value?)
    }

    /// The downstream cancelled: a scheduled emission finds nothing to do, and nothing is delivered from now on.
    mutating func cancel() -> Cancellation {
        var cancellation = Cancellation(released: (downstream, pendingValue))
        if case .subscribed(let upstream, _) = phase {
            cancellation.upstream = upstream
        }
        phase = .finished
        pendingValue = nil
        pendingCompletion = nil
        return cancellation
    }

    private var isFinished: Bool {
        if case .finished = phase { return true }
        return false
    }
}
