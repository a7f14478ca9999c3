/// What one `flatMap(maxPublishers:_:)` subscription knows, and how each event changes it: no lock, no calls out.
///
/// Inner publishers are numbered in the order the upstream's values made them. Values go to the downstream through
/// `delivery` (a ``BufferedDelivery``: whoever holds its token alone calls the downstream; see `BufferedDeliveryHost`
/// for the delivery loop). Every transition hands back what the caller must do once it has left the lock, and anything
/// it lets go of (buffered values, the downstream), so that those are released outside the lock too.
struct FlatMapStateMachine<Downstream: Subscriber> {
    typealias Value = Downstream.Input
    typealias Failure = Downstream.Failure

    /// Where the subscription stands with one inner publisher.
    enum InnerLink {
        case awaiting
        case subscribed(any Subscription)

        var subscription: (any Subscription)? {
            if case .subscribed(let subscription) = self { return subscription }
            return nil
        }
    }

    private let maxPublishers: Subscribers.Demand
    var delivery: BufferedDelivery<Value>
    private(set) var downstream: Downstream?
    private var upstream = SingleUpstreamLink.awaiting
    private var upstreamFinished = false
    private(set) var inners: [Int: InnerLink] = [:]
    private var nextInnerIndex = 0
    private(set) var isTerminated = false
    /// A completion that arrived while another thread was delivering; the token holder delivers it.
    private(set) var pendingCompletion: Subscribers.Completion<Failure>?

    init(downstream: Downstream, maxPublishers: Subscribers.Demand, token: DeliveryToken) {
        self.downstream = downstream
        self.maxPublishers = maxPublishers
        delivery = BufferedDelivery(token: token)
    }

    /// The end of the subscription decided by a failure or by the last finish: what to let go, cancel and complete
    /// outside the lock, in that order.
    struct Termination {
        var dropped = RingBuffer<(source: Int, value: Value)>()
        var cancelling: [any Subscription] = []
        var upstream: (any Subscription)?
        /// The downstream to complete now, or `nil` when the token holder delivers the completion once its current
        /// value went out.
        var downstream: Downstream?
        var completion: Subscribers.Completion<Failure>
    }

    // MARK: Upstream events

    /// The upstream's subscription arrived: whether to keep it (`false`: the caller cancels it).
    mutating func receiveUpstream(subscription: any Subscription) -> Bool {
        !isTerminated && upstream.attach(subscription)
    }

    /// The upstream sent a value: the index of the inner publisher the caller makes of it, or `nil` once terminated.
    mutating func receiveUpstreamValue() -> Int? {
        guard !isTerminated else { return nil }
        let index = nextInnerIndex
        nextInnerIndex += 1
        inners[index] = .awaiting
        return index
    }

    /// The upstream completed: a failure ends everything; a finish ends the subscription when no inner publisher is
    /// left and nothing waits for delivery.
    mutating func receiveUpstream(completion: Subscribers.Completion<Failure>) -> Termination? {
        guard !isTerminated else { return nil }
        upstream = .completed
        switch completion {
        case .finished:
            upstreamFinished = true
            guard inners.isEmpty, delivery.buffer.isEmpty, !delivery.leaveToDeliverer() else { return nil }
            return Termination(downstream: terminate(with: .finished), completion: .finished)
        case .failure:
            let subscriptions = inners.values.compactMap(\.subscription)
            inners = [:]
            let dropped = delivery.removeBuffered()
            return Termination(dropped: dropped, cancelling: subscriptions, downstream: terminate(with: completion),
                               completion: completion)
        }
    }

    // MARK: Inner publisher events

    /// The inner publisher at `index` handed its subscription: the demand to ask of it, or `nil` when the caller must
    /// cancel it.
    mutating func receiveInner(subscription: any Subscription, at index: Int) -> Subscribers.Demand? {
        guard !isTerminated, case .awaiting? = inners[index] else { return nil }
        inners[index] = .subscribed(subscription)
        return delivery.demand == .unlimited ? .unlimited : .max(1)
    }

    /// The downstream a value of an inner publisher goes to, or `nil` when it is to be ignored.
    var downstreamForValues: Downstream? {
        guard !isTerminated else { return nil }
        return downstream
    }

    enum InnerCompletionAction {
        case none
        /// Ask the upstream for one more value, in place of the inner publisher that finished.
        case requestFromUpstream(any Subscription)
        case terminate(Termination)
    }

    /// The inner publisher at `index` completed: a failure ends everything; a finish ends the subscription when it
    /// was the last one after the upstream finished, and makes room for one more inner publisher otherwise.
    mutating func receiveInner(completion: Subscribers.Completion<Failure>, at index: Int) -> InnerCompletionAction {
        guard !isTerminated, inners.removeValue(forKey: index) != nil else { return .none }
        switch completion {
        case .finished:
            if upstreamFinished && inners.isEmpty && delivery.buffer.isEmpty {
                // When another thread holds the token, it finishes the downstream when it is done.
                guard !delivery.leaveToDeliverer() else { return .none }
                return .terminate(Termination(downstream: terminate(with: .finished), completion: .finished))
            }
            guard maxPublishers != .unlimited, let upstreamSubscription = upstream.subscription else { return .none }
            return .requestFromUpstream(upstreamSubscription)
        case .failure:
            let subscriptions = inners.values.compactMap(\.subscription)
            inners = [:]
            let upstreamSubscription = upstream.close()
            let dropped = delivery.removeBuffered()
            return .terminate(Termination(dropped: dropped, cancelling: subscriptions, upstream: upstreamSubscription,
                                          downstream: terminate(with: completion), completion: completion))
        }
    }

    // MARK: Downstream events

    /// The downstream asked for more: the inner publishers to ask for `.unlimited` (the demand has just become
    /// unlimited), and whether the caller took the delivery token and must drain; `nil` once terminated.
    mutating func request(_ additional: Subscribers.Demand) -> (unlimitedInners: [any Subscription], drains: Bool)? {
        guard !isTerminated else { return nil }
        let unlimitedInners = delivery.add(additional) ? inners.values.compactMap(\.subscription) : []
        return (unlimitedInners, delivery.takeToken())
    }

    /// What cancelling lets go of (outside the lock) and cancels.
    struct Cancellation {
        var released: (downstream: Downstream?, buffered: RingBuffer<(source: Int, value: Value)>,
                       inners: [Int: InnerLink])
        var inners: [any Subscription]
        var upstream: (any Subscription)?
    }

    /// The downstream cancelled: nothing is delivered from now on (a completion still on its way to the token holder
    /// is dropped too); `nil` when the downstream was gone already.
    mutating func cancel() -> Cancellation? {
        guard downstream != nil else { return nil }
        isTerminated = true
        let released = (downstream, delivery.removeBuffered(), inners)
        downstream = nil
        pendingCompletion = nil
        let subscriptions = inners.values.compactMap(\.subscription)
        inners = [:]
        return Cancellation(released: released, inners: subscriptions, upstream: upstream.close())
    }

    // MARK: Delivering (with the token held)

    enum DeliveryTurn {
        /// Go on delivering to this downstream.
        case deliver(to: Downstream)
        /// The token was given back: deliver `completion` (when one waits) to `downstream`, and stop.
        case end(Downstream?, Subscribers.Completion<Failure>?)
    }

    /// Before each value the token holder delivers: the downstream to deliver to, or the end of delivery (the
    /// subscription terminated or was cancelled).
    mutating func deliveryTurn() -> DeliveryTurn {
        if !isTerminated, let downstream {
            return .deliver(to: downstream)
        }
        delivery.releaseToken()
        return .end(downstream.take(), pendingCompletion.take())
    }

    /// The subscription of the inner publisher at `source`, to ask for one more value.
    func subscription(forSource source: Int) -> (any Subscription)? {
        inners[source]?.subscription
    }

    /// Nothing can be delivered now: gives the token back, and hands back the downstream to finish when every
    /// source has finished and nothing waits.
    mutating func endDelivery() -> Downstream? {
        delivery.releaseToken()
        guard upstreamFinished, inners.isEmpty, delivery.buffer.isEmpty else { return nil }
        isTerminated = true
        return downstream.take()
    }

    /// Marks the subscription terminated and returns the downstream to complete now, or `nil` when the token holder
    /// will deliver the completion once its current value went out.
    private mutating func terminate(with completion: Subscribers.Completion<Failure>) -> Downstream? {
        isTerminated = true
        delivery.removeBuffered()
        if delivery.leaveToDeliverer() {
            pendingCompletion = completion
            return nil
        }
        defer { downstream = nil }
        return downstream
    }
}
