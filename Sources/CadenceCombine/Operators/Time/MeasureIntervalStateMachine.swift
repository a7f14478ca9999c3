/// MeasureInterval's state, with no side effects: each transition says what the caller must do outside the lock.
///
/// `Time` is the scheduler's time; the caller reads the scheduler's `now` before it takes the lock.
struct MeasureIntervalStateMachine<Time: Strideable, Downstream> {
    private var downstream: Downstream?
    private var upstream = SingleUpstreamLink.awaiting
    private var lastEvent: Time?

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// The downstream to hand the subscription to, or nil when the caller must cancel the subscription.
    mutating func receive(subscription: any Subscription, at now: Time) -> Downstream? {
        guard let downstream, upstream.attach(subscription) else { return nil }
        lastEvent = now
        return downstream
    }

    /// Whether a value arriving now would be measured: the caller reads the scheduler's time only then, as Combine
    /// does.
    var isMeasuring: Bool {
        downstream != nil && upstream.subscription != nil && lastEvent != nil
    }

    /// A value arrived at `now`: the downstream, the interval to send it and the upstream to pass its answer to.
    mutating func receiveValue(
        at now: Time
    ) -> (downstream: Downstream, interval: Time.Stride, upstream: any Subscription)? {
        guard let downstream, let upstream = upstream.subscription, let lastEvent else { return nil }
        self.lastEvent = now
        return (downstream, lastEvent.distance(to: now), upstream)
    }

    /// The downstream to complete, which the state lets go of.
    mutating func receiveCompletion() -> Downstream? {
        guard upstream.subscription != nil else { return nil }
        _ = upstream.close()
        lastEvent = nil
        defer { downstream = nil }
        return downstream
    }

    func request() -> (any Subscription)? {
        downstream == nil ? nil : upstream.subscription
    }

    /// The upstream to cancel and the downstream to release, outside the lock. As in Combine, a cancel before the
    /// upstream's subscription arrived does nothing: that subscription still reaches the downstream.
    mutating func cancel() -> (upstream: (any Subscription)?, released: Downstream?) {
        guard !upstream.isAwaiting else { return (nil, nil) }
        lastEvent = nil
        defer { downstream = nil }
        return (upstream.close(), downstream)
    }
}
