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

    var pendingCount: Int { deliveries.count }

    mutating func receive(subscription: any Subscription) -> SubscriptionAction {
        guard let downstream, upstream.attach(subscription) else { return .cancel(subscription) }
        return .forward(downstream)
    }

    /// Whether the caller must schedule one delivery action.
    mutating func receive(_ event: Event) -> Bool {
        guard downstream != nil, !upstreamCompleted, upstream.subscription != nil else { return false }
        if case .completion = event {
            upstreamCompleted = true
            _ = upstream.close()
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

    /// The upstream to pass a request to, if it is still held.
    func request() -> (any Subscription)? {
        downstream == nil ? nil : upstream.subscription
    }

    /// Ends everything: the upstream to cancel, and what to release outside the lock.
    mutating func cancel() -> (upstream: (any Subscription)?, released: (Downstream?, RingBuffer<Event>)) {
        let released = downstream
        downstream = nil
        return (upstream.close(), (released, deliveries.removeAll()))
    }

    private mutating func action(for event: Event?) -> DeliveryAction {
        guard let downstream, let event else { return .none }
        switch event {
        case .value(let value):
            return .value(downstream, value)
        case .completion(let completion):
            self.downstream = nil
            return .completion(downstream, completion)
        }
    }
}
