/// What one `switchToLatest()` subscription knows, and how each event changes it: no lock, no calls out.
///
/// Inner publishers are numbered in the order the upstream sent them; only the latest (`current`) is listened to, and
/// an event carrying an older index does nothing. One caller at a time is the *emitter* (`isEmitting`) and calls the
/// downstream; a value that arrives meanwhile waits in `queue`, its demand already taken. A value beyond the demand
/// is a broken rule, on which Combine traps. Every transition hands back what
/// the caller must do once it has left the lock, and anything it lets go of (queued values), so that those are
/// released outside the lock too. As Combine's, the subscription keeps its downstream after a cancel or a
/// completion, for as long as it lives.
struct SwitchToLatestStateMachine<Downstream: Subscriber> {
    typealias Value = Downstream.Input
    typealias Failure = Downstream.Failure

    /// The latest inner publisher: its index, and its subscription once it arrived.
    struct Current {
        let index: UInt64
        var subscription: (any Subscription)?
    }

    let downstream: Downstream
    /// Whether the downstream was cancelled or given its completion (or will be, by the emitter): it gets nothing more.
    private var hasEnded = false
    private var upstream = SingleUpstreamLink.awaiting
    private var upstreamFinished = false
    private(set) var current: Current?
    /// The latest inner publisher after it ended — it finished, or the upstream's failure cancelled it — while no
    /// newer one came. As in Combine, a subscription it hands over late is taken (and asked for the demand), and,
    /// while the upstream runs, a value it sends late goes through; its completions are ignored. Unlike Combine's,
    /// nothing goes through after the downstream's completion: a value still on its way from the inner publisher the
    /// upstream's failure cancelled would otherwise follow that failure.
    private(set) var ended: Current?
    /// Whether the downstream cancelled, or an inner publisher failed (which cancels the upstream): from then on no
    /// late event goes through.
    private var isCancelled = false
    private var nextIndex: UInt64 = 0
    /// What the downstream requested and has not received yet, less the queued values.
    private(set) var demand = Subscribers.Demand.none
    /// Values waiting for the emitter, oldest first; their demand is taken.
    private(set) var queue = RingBuffer<Value>()
    private(set) var isEmitting = false
    private(set) var isTerminated = false
    /// A completion decided while another caller was emitting; the emitter delivers it after the queue.
    private(set) var pendingCompletion: Subscribers.Completion<Failure>?

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// What the emitter does next, with the lock released.
    enum DrainStep {
        /// Deliver `value` (its demand is taken), then report the downstream's answer with `delivered(_:)`.
        case deliver(Downstream, Value)
        /// Ask `subscription` for `demand`, then go on with `nextDrainStep()`.
        case requestMore(from: any Subscription, Subscribers.Demand)
        /// Stop emitting and deliver the completion.
        case complete(Downstream, Subscribers.Completion<Failure>)
        /// Stop emitting: nothing can go out now.
        case stop
    }

    /// The end of the subscription decided by a completion: what to let go, cancel and deliver outside the lock, in
    /// that order.
    struct Termination {
        var dropped = RingBuffer<Value>()
        var cancelling: (any Subscription)?
        /// The downstream to complete now, or `nil` when the emitter delivers the completion once it is done.
        var downstream: Downstream?
        var completion: Subscribers.Completion<Failure>
    }

    // MARK: Upstream events

    /// The upstream's subscription arrived: whether to keep it (`false`: the caller cancels it).
    mutating func receiveUpstream(subscription: any Subscription) -> Bool {
        !isTerminated && upstream.attach(subscription)
    }

    /// The upstream sent a new inner publisher: hands back the index to subscribe to it with, and the previous inner
    /// publisher's subscription to cancel; `nil` once terminated.
    mutating func receiveUpstreamPublisher() -> (index: UInt64, previous: (any Subscription)?)? {
        guard !isTerminated else { return nil }
        let previous = current?.subscription ?? ended.take()?.subscription
        let index = nextIndex
        nextIndex += 1
        current = Current(index: index)
        return (index, previous)
    }

    /// The upstream completed: a failure ends everything, a finish ends the subscription once the current inner
    /// publisher finished too. A failure cancels the current inner publisher, whose late events are then those of an
    /// `ended` one. A completion the upstream sends again after its first went out goes out again, as in Combine (a
    /// finish only when no inner publisher runs).
    mutating func receiveUpstream(completion: Subscribers.Completion<Failure>) -> Termination? {
        guard !isTerminated else {
            guard !isCancelled, hasEnded, !isEmitting else { return nil }
            switch completion {
            case .finished:
                guard current == nil, ended?.subscription == nil else { return nil }
                return Termination(downstream: downstream, completion: completion)
            case .failure:
                let late = ended?.subscription
                ended?.subscription = nil
                return Termination(cancelling: late, downstream: downstream, completion: completion)
            }
        }
        upstream = .completed
        switch completion {
        case .finished:
            upstreamFinished = true
            guard current == nil else { return nil }
            return Termination(downstream: complete(with: .finished), completion: .finished)
        case .failure:
            let inner = current.take()
            ended = inner.map { Current(index: $0.index) }
            let dropped = takeQueue()
            return Termination(
                dropped: dropped, cancelling: inner?.subscription,
                downstream: complete(with: completion), completion: completion)
        }
    }

    // MARK: Inner publisher events

    /// The inner publisher at `index` handed its subscription: the demand to ask of it (none when zero), or `nil` when
    /// the caller must cancel it (it is not the latest, one arrived already, or the subscription ended).
    mutating func receiveInner(subscription: any Subscription, at index: UInt64) -> Subscribers.Demand? {
        if !isTerminated, let current, current.index == index, current.subscription == nil {
            self.current?.subscription = subscription
            return demand
        }
        guard !isCancelled, current == nil, let ended, ended.index == index, ended.subscription == nil else {
            return nil
        }
        self.ended?.subscription = subscription
        return demand
    }

    /// What to do with a value from an inner publisher.
    enum InnerValueAction {
        /// Nothing now: it was ignored (an older publisher, or the subscription ended), or queued for the emitter.
        case none
        /// Deliver it: the caller became the emitter, and reports the downstream's answer with
        /// `innerDelivered(_:at:)`.
        case deliver(Downstream)
        /// The downstream did not ask for it: a broken rule, on which Combine traps.
        case unrequested
    }

    /// The inner publisher at `index` sent `value`, which takes one of the demand.
    mutating func receiveInner(_ value: Value, at index: UInt64) -> InnerValueAction {
        guard !isTerminated, current?.index == index else { return receiveLate(value, at: index) }
        guard demand > 0 else { return .unrequested }
        demand -= 1
        guard !isEmitting, queue.isEmpty else {
            queue.append(value) // another caller emits
            return .none
        }
        isEmitting = true
        return .deliver(downstream)
    }

    /// A value from an inner publisher that is not the running latest one: it goes through, with no emitter busy,
    /// when it comes from the `ended` one while the subscription runs, as in Combine.
    private mutating func receiveLate(_ value: Value, at index: UInt64) -> InnerValueAction {
        guard !isTerminated, current == nil, ended?.index == index, demand > 0, !isEmitting, queue.isEmpty else {
            return .none
        }
        demand -= 1
        isEmitting = true
        return .deliver(downstream)
    }

    /// The downstream took the value of the inner publisher at `index` and answered `more`: the answer for that
    /// inner publisher, and the emitter's next step (asking the latest inner publisher for `more` when the upstream
    /// switched meanwhile).
    mutating func innerDelivered(
        _ more: Subscribers.Demand, at index: UInt64
    )
        -> (answer: Subscribers.Demand, next: DrainStep)
    {
        var answer = Subscribers.Demand.none
        if more > 0 {
            demand += more
            if current?.index == index || (current == nil && ended?.index == index) {
                answer = more
            } else if let latest = current?.subscription { // the publisher switched meanwhile
                return (answer, .requestMore(from: latest, more))
            }
        }
        return (answer, nextDrainStep())
    }

    /// What to do with an inner publisher's completion.
    enum InnerCompletionAction {
        /// Nothing: an older publisher's, or the subscription ended, or the upstream has not finished yet.
        case none
        /// The subscription ends.
        case terminate(Termination)
        /// The latest inner publisher completed before it handed over its subscription: a broken rule, on which
        /// Combine traps.
        case beforeSubscription
    }

    /// The inner publisher at `index` completed: a failure ends everything, a finish ends the subscription when the
    /// upstream finished too.
    mutating func receiveInner(
        completion: Subscribers.Completion<Failure>, at index: UInt64
    )
        -> InnerCompletionAction
    {
        guard !isTerminated, let latest = current, latest.index == index else { return .none }
        guard latest.subscription != nil else { return .beforeSubscription }
        current = nil
        switch completion {
        case .finished:
            ended = Current(index: index)
            guard upstreamFinished else { return .none }
            return .terminate(Termination(downstream: complete(with: .finished), completion: .finished))
        case .failure:
            isCancelled = true
            let upstreamSubscription = upstream.close()
            let dropped = takeQueue()
            return .terminate(
                Termination(
                    dropped: dropped, cancelling: upstreamSubscription,
                    downstream: complete(with: completion), completion: completion))
        }
    }

    // MARK: Downstream events

    /// The downstream asked for more: hands back the current inner publisher's subscription to forward the request
    /// to, and whether the caller became the emitter (queued values or a completion wait; it drains after
    /// forwarding); `nil` once the downstream was cancelled or completed.
    mutating func request(_ additional: Subscribers.Demand) -> (inner: (any Subscription)?, drains: Bool)? {
        guard !hasEnded else { return nil }
        demand += additional
        let inner = current?.subscription ?? ended?.subscription
        guard !isEmitting, !queue.isEmpty || pendingCompletion != nil else { return (inner, false) }
        isEmitting = true
        return (inner, true)
    }

    /// What cancelling lets go of (outside the lock) and cancels.
    struct Cancellation {
        var released: RingBuffer<Value>
        var inner: (any Subscription)?
        var upstream: (any Subscription)?
    }

    /// The downstream cancelled: nothing is delivered from now on; `nil` when it had ended already.
    mutating func cancel() -> Cancellation? {
        let late = ended.take()?.subscription
        guard !hasEnded else {
            isCancelled = true
            return late.map { Cancellation(released: RingBuffer(), inner: $0) }
        }
        isTerminated = true
        hasEnded = true
        isCancelled = true
        let released = queue
        pendingCompletion = nil
        queue.removeAll()
        return Cancellation(released: released, inner: current.take()?.subscription ?? late, upstream: upstream.close())
    }

    // MARK: Emitting

    /// The emitter delivered a queued value and the downstream answered `more`: the next step.
    mutating func delivered(_ more: Subscribers.Demand) -> DrainStep {
        guard more > 0 else { return nextDrainStep() }
        demand += more
        guard !isTerminated, let inner = current?.subscription else { return nextDrainStep() }
        return .requestMore(from: inner, more)
    }

    /// Called while emitting: the next queued value (its demand was taken when it was queued), or the end of the
    /// emitter's turn (with the completion, when one waits and the queue is empty).
    mutating func nextDrainStep() -> DrainStep {
        if !hasEnded, let value = queue.popFirst() {
            return .deliver(downstream, value)
        }
        isEmitting = false
        guard queue.isEmpty, let completion = pendingCompletion.take() else { return .stop }
        hasEnded = true
        return .complete(downstream, completion)
    }

    /// Empties the queue and hands its values back, to be let go outside the lock.
    private mutating func takeQueue() -> RingBuffer<Value> {
        defer { queue.removeAll() }
        return queue
    }

    /// Stops taking events and returns the downstream to complete now, or `nil` when the completion must wait: for
    /// the emitter to finish its current value, or, when finishing, for the queued values to go out. A failure drops
    /// the queue.
    private mutating func complete(with completion: Subscribers.Completion<Failure>) -> Downstream? {
        isTerminated = true
        if case .failure = completion {
            queue.removeAll()
        }
        if isEmitting || !queue.isEmpty {
            pendingCompletion = completion
            return nil
        }
        hasEnded = true
        return downstream
    }
}
