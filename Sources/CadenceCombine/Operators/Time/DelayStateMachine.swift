/// Delay's state, with no side effects: each transition says what the caller must do outside the lock.
struct DelayStateMachine<Output, Failure: Error, Downstream> {
    enum Event {
        case value(Output)
        case completion(Subscribers.Completion<Failure>)
    }

    enum SubscriptionAction {
        /// Hand the operator to the downstream as its subscription.
        case forward(Downstream)
        /// A second subscription, or one after cancel: cancel it.
        case cancel(any Subscription)
    }

    enum DeliveryAction {
        case none
        case value(Downstream, Output)
        case completion(Downstream, Subscribers.Completion<Failure>)
    }

    private(set) var downstream: Downstream?
    private var upstream = SingleUpstreamLink.awaiting
    private var deliveries = ScheduledDeliveryQueue<Event>()
    private var upstreamCompleted = false

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    mutating func receive(subscription: any Subscription) -> SubscriptionAction {
        guard let downstream, upstream.attach(subscription) else { return .cancel(subscription) }
        return .forward(downstream)
    }

    /// Whether the caller must schedule one delivery action.
    ///
    /// The upstream's subscription is kept until its completion has been delivered, as in Combine: the demand the
    /// downstream returns for a value delivered meanwhile still reaches the upstream.
    mutating func receive(_ event: Event) -> Bool {
        guard downstream != nil, !upstreamCompleted, upstream.subscription != nil else { return false }
        if case .completion = event {
            upstreamCompleted = true
        }
        deliveries.append(event)
        return true
    }

    mutating func deliveryActionRan() -> DeliveryAction {
        guard downstream != nil else { return .none }
        return action(for: deliveries.actionRan())
    }

    /// A delayed value reached the downstream, which answered `demand`: the upstream to ask for it (if any), and
    /// what to deliver next.
    mutating func valueDelivered(demand: Subscribers.Demand) -> (request: (any Subscription)?, next: DeliveryAction) {
        guard downstream != nil else { return (nil, .none) }
        let request = demand > 0 ? upstream.subscription : nil
        return (request, action(for: deliveries.deliveryEnded()))
    }

    /// The upstream to pass a request to: none once the upstream has completed, as in Combine.
    func request() -> (any Subscription)? {
        downstream == nil || upstreamCompleted ? nil : upstream.subscription
    }

    /// Ends everything: the upstream to cancel, and what to release outside the lock.
    ///
    /// As in Combine, a cancel before the upstream's subscription arrived does nothing — it returns nil, and that
    /// subscription still reaches the downstream — and one after the upstream completed does not cancel the upstream.
    mutating func cancel() -> (upstream: (any Subscription)?, released: (Downstream?, RingBuffer<Event>))? {
        guard !upstream.isAwaiting else { return nil }
        let released = downstream
        downstream = nil
        let subscription = upstream.close()
        return (upstreamCompleted ? nil : subscription, (released, deliveries.removeAll()))
    }

    private mutating func action(for event: Event?) -> DeliveryAction {
        guard let downstream, let event else { return .none }
        switch event {
        case .value(let value):
            return .value(downstream, value)
        case .completion(let completion):
            self.downstream = nil
            _ = upstream.close()
            return .completion(downstream, completion)
        }
    }
}
