/// The state of one `collect(_:options:)` subscription and every transition it makes, without locks or calls out:
/// each `mutating` transition returns what the storage (`CollectByTimeSubscription`) must do once it has left the
/// lock — start or cancel a timer, schedule a drain, talk to the upstream, deliver to the downstream.
///
/// Values collect in `window`. A window closes into `ready` (closed groups, oldest first) when the count is reached
/// (`.byTimeOrCount`), or on a timer tick when it is not empty and the downstream has demand left for it; at a tick
/// without such demand it stays open and keeps collecting, so nothing is dropped and no group outruns demand.
/// Groups leave `ready` only from a drain, which runs on the scheduler, one emitter at a time.
struct CollectByTimeStateMachine<Input, Downstream: Subscriber> where Downstream.Input == [Input] {
    typealias Failure = Downstream.Failure

    enum Phase {
        case awaitingSubscription
        case active(any Subscription)
        /// The upstream completed; the completion waits on the scheduler behind the groups still to go out.
        case completing(Subscribers.Completion<Failure>)
        case terminal
    }

    /// What to do when the upstream's subscription arrives.
    enum SubscriptionAction {
        /// Start the timer of the first window (when there is an interval), then hand the downstream its subscription.
        case start(timerGeneration: UInt64, downstream: Downstream)
        /// A second subscription, or one after cancel: cancel it.
        case cancel(any Subscription)
    }

    /// What to do after one upstream value.
    struct ValueAction {
        /// The answer to the upstream.
        var demand: Subscribers.Demand = .none
        /// The count was reached: the window closed, so the timer restarts (cancel this one, start a new one).
        var restart: (cancel: (any Cancellable)?, generation: UInt64)?
        var scheduleDrain = false
    }

    /// What to do after the upstream's completion.
    struct CompletionAction {
        var cancelTimer: (any Cancellable)?
        var scheduleDrain = false
    }

    /// What to do after the downstream's request.
    struct RequestAction {
        var upstream: (any Subscription)?
        var upstreamDemand = Subscribers.Demand.none
        var scheduleDrain = false
    }

    /// What to do after the downstream's cancel: cancel these, then let go of the rest outside the lock.
    struct CancelAction {
        var upstream: (any Subscription)?
        var timer: (any Cancellable)?
        var released: (Downstream?, [Input], RingBuffer<[Input]>)
    }

    /// One step of a drain.
    enum DrainStep {
        /// Send this group; report what the downstream answered with `delivered(answer:)`.
        case deliver([Input], Downstream)
        /// Send the completion; the subscription is over (the dropped groups are let go outside the lock).
        case complete(Subscribers.Completion<Failure>, Downstream, dropped: RingBuffer<[Input]>)
        /// Nothing more to do for now: stop emitting, and ask the upstream for this much.
        case idle(upstream: (any Subscription)?, demand: Subscribers.Demand)
    }

    /// The group size of `.byTimeOrCount`; nil for `.byTime`.
    let count: Int?
    private(set) var phase = Phase.awaitingSubscription
    private(set) var downstream: Downstream?
    private(set) var window: [Input] = []
    private(set) var ready = RingBuffer<[Input]>()
    private(set) var demand = Subscribers.Demand.none
    private var timer: (any Cancellable)?
    private var timerGeneration: UInt64 = 0
    private var isEmitting = false
    private var isDrainScheduled = false
    /// Demand the downstream answered during the current drain, to request from the upstream when it ends.
    private var answeredUpstreamDemand = Subscribers.Demand.none

    init(count: Int?, downstream: Downstream) {
        self.count = count
        self.downstream = downstream
    }

    private var upstream: (any Subscription)? {
        if case .active(let subscription) = phase { return subscription }
        return nil
    }

    private var isActive: Bool { upstream != nil }

    // MARK: Upstream events

    mutating func subscriptionReceived(_ subscription: any Subscription) -> SubscriptionAction {
        guard case .awaitingSubscription = phase, let downstream else { return .cancel(subscription) }
        phase = .active(subscription)
        timerGeneration &+= 1
        return .start(timerGeneration: timerGeneration, downstream: downstream)
    }

    /// Keeps the timer just started for `generation`; hands it back when it is already stale (the window restarted
    /// again, or the subscription ended meanwhile) for the caller to cancel.
    mutating func timerStarted(_ started: any Cancellable, generation: UInt64) -> (any Cancellable)? {
        guard generation == timerGeneration, isActive else { return started }
        let previous = timer
        timer = started
        return previous
    }

    mutating func valueReceived(_ input: Input) -> ValueAction {
        guard isActive else { return ValueAction() }
        window.append(input)
        guard let count else { return ValueAction(demand: .max(1)) }
        guard window.count >= count else { return ValueAction() }
        ready.append(window)
        window = []
        timerGeneration &+= 1
        let previous = timer
        timer = nil
        return ValueAction(restart: (previous, timerGeneration), scheduleDrain: claimDrainIfUseful())
    }

    mutating func completionReceived(_ completion: Subscribers.Completion<Failure>) -> CompletionAction {
        guard isActive else { return CompletionAction() }
        switch completion {
        case .finished:
            if !window.isEmpty { ready.append(window) }
        case .failure:
            break
        }
        window = []
        phase = .completing(completion)
        timerGeneration &+= 1
        let previous = timer
        timer = nil
        return CompletionAction(cancelTimer: previous, scheduleDrain: claimDrainIfUseful())
    }

    // MARK: Downstream events

    mutating func requested(_ additional: Subscribers.Demand) -> RequestAction {
        switch phase {
        case .active(let subscription):
            demand += additional
            // `.byTime` keeps one value asked for whatever the downstream wants; `.byTimeOrCount` asks for a full
            // group per group requested, as Combine documents.
            let upstreamDemand = count.map { additional * $0 } ?? .max(1)
            return RequestAction(
                upstream: subscription, upstreamDemand: upstreamDemand,
                scheduleDrain: claimDrainIfUseful())
        case .completing:
            demand += additional
            return RequestAction(scheduleDrain: claimDrainIfUseful())
        case .awaitingSubscription, .terminal:
            return RequestAction()
        }
    }

    mutating func cancelled() -> CancelAction {
        let upstream = self.upstream
        let released = (downstream, window, ready)
        let timer = self.timer
        phase = .terminal
        downstream = nil
        window = []
        ready = RingBuffer()
        self.timer = nil
        timerGeneration &+= 1
        return CancelAction(upstream: upstream, timer: timer, released: released)
    }

    // MARK: Scheduled work

    /// A timer tick for `generation`: closes the window when it holds values and the downstream has demand left for
    /// one more group. Returns whether to drain (false for a stale or ended timer).
    mutating func timerFired(generation: UInt64) -> Bool {
        guard generation == timerGeneration, isActive else { return false }
        if !window.isEmpty, demand > ready.count {
            ready.append(window)
            window = []
        }
        return !ready.isEmpty
    }

    /// A drain starts — a scheduled drain action (`scheduled`), or a timer tick draining inline; false when another
    /// thread is emitting (it will see everything this one would).
    mutating func drainStarted(scheduled: Bool) -> Bool {
        if scheduled { isDrainScheduled = false }
        guard !isEmitting else { return false }
        isEmitting = true
        return true
    }

    /// The next thing the emitter does.
    mutating func nextDrainStep() -> DrainStep {
        guard let downstream else {
            isEmitting = false
            return .idle(upstream: nil, demand: .none)
        }
        if demand > 0, let group = ready.popFirst() {
            demand -= 1
            return .deliver(group, downstream)
        }
        if case .completing(let completion) = phase {
            let isDue: Bool
            switch completion {
            case .finished: isDue = ready.isEmpty
            case .failure: isDue = true
            }
            if isDue {
                let dropped = ready
                ready = RingBuffer()
                phase = .terminal
                self.downstream = nil
                isEmitting = false
                return .complete(completion, downstream, dropped: dropped)
            }
        }
        isEmitting = false
        let upstreamDemand = answeredUpstreamDemand
        answeredUpstreamDemand = .none
        guard upstreamDemand > 0, let upstream else { return .idle(upstream: nil, demand: .none) }
        return .idle(upstream: upstream, demand: upstreamDemand)
    }

    /// The downstream answered `answer` to the group the last step delivered.
    mutating func delivered(answer: Subscribers.Demand) {
        guard downstream != nil, answer > 0 else { return }
        demand += answer
        if let count {
            answeredUpstreamDemand += answer * count
        }
    }

    // MARK: Helpers

    /// Marks a drain as scheduled and returns true, unless one is already waiting.
    private mutating func claimDrain() -> Bool {
        guard !isDrainScheduled else { return false }
        isDrainScheduled = true
        return true
    }

    /// As `claimDrain()`, but only when a drain would deliver something.
    private mutating func claimDrainIfUseful() -> Bool {
        let hasWork = (demand > 0 && !ready.isEmpty) || isCompletionDue
        return hasWork && claimDrain()
    }

    private var isCompletionDue: Bool {
        guard case .completing(let completion) = phase else { return false }
        switch completion {
        case .finished: return ready.isEmpty
        case .failure: return true
        }
    }
}
