import CadenceSupport

/// A publisher that plays a script on a virtual clock: the input of a test, written as a marble diagram or as a list
/// of `(tick, event)`, that records every subscription it hands out (`subscriptions`).
///
/// - A **hot** one (`VirtualClock.hot(_:values:)`) plays its script once, on
///   the clock's ticks counted from when it was made, to whoever is subscribed when each event is due, as a
///   `PassthroughSubject` would: a value that finds a subscriber without demand is dropped for that subscriber, and a
///   subscriber that comes after the completion gets the completion at once.
/// - A **cold** one (`VirtualClock.cold(_:values:)`) plays its script to each
///   subscriber on its own, counted from the tick it subscribed, as a `Deferred` publisher would: a value that finds
///   no demand waits for it, and the completion waits behind the values.
///
/// Either honours demand unless made with `ignoringDemand()`, a deliberately misbehaving copy that sends every
/// event when it is due whatever the demand, for testing operators and subscribers against a publisher that breaks
/// the contract.
///
/// ```swift
/// let taps = clock.hot("--t----t", values: ["t": ()])
/// let model = ForgotPasswordViewModel(submitTapped: taps.eraseToAnyPublisher(), api: api)
/// expect(model.resetRequestAccepted, on: clock).toEmit(count: 1, within: .ticks(4))
/// #expect(taps.subscriptionDiagrams == ["^"])
/// ```
public final class TestPublisher<Output, Failure: Error>: Publisher, @unchecked Sendable {
    // The script and the clock are immutable; everything that changes is behind `state` or the probe's lock.

    /// One event of a script.
    public enum Event {
        case value(Output)
        case finished
        case failure(Failure)

        var completion: Subscribers.Completion<Failure>? {
            switch self {
            case .value: nil
            case .finished: .finished
            case let .failure(error): .failure(error)
            }
        }
    }

    /// Whether the publisher plays its script once for everyone, or once for each subscriber.
    public enum Temperature: Sendable {
        case hot
        case cold
    }

    public let temperature: Temperature
    /// The script: events with their ticks, counted from when the publisher was made (hot) or from each subscription
    /// (cold), in order.
    public let script: [(tick: Int64, event: Event)]
    /// Whether the publisher keeps to the demand its subscribers signal (see `ignoringDemand()`).
    public let honoursDemand: Bool
    let probe: SubscriptionProbe
    private let state = Locked(HotState())

    /// What a hot publisher shares between its subscribers.
    private struct HotState {
        var live: [TestPublisherSubscriptionBase<Output, Failure>] = []
        var completion: Subscribers.Completion<Failure>?
    }

    init(_ temperature: Temperature, script: [(tick: Int64, event: Event)], clock: VirtualClock, honoursDemand: Bool) {
        self.temperature = temperature
        self.script = script
        self.honoursDemand = honoursDemand
        probe = SubscriptionProbe(clock: clock)
        if temperature == .hot { scheduleHotScript() }
    }

    /// The clock the script plays on.
    public var clock: VirtualClock { probe.clock }

    /// Every subscription handed out so far, in order.
    public var subscriptions: [SubscriptionRecord] { probe.all }

    /// Each subscription as a marble diagram counted from the tick the publisher was made: `"^--!"` for one made at
    /// once and cancelled (or completed) three ticks later, `"--^"` for one made two ticks later and still live.
    public var subscriptionDiagrams: [String] { probe.all.map { $0.diagram(from: probe.origin) } }

    /// Checks `subscriptionDiagrams` against `diagrams`, and reports a failure listing every subscription when they
    /// differ.
    ///
    /// ```swift
    /// input.expectSubscriptions(["^--!", "---^"])
    /// ```
    public func expectSubscriptions(
        _ diagrams: [String],
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        probe.expect(
            diagrams, name: temperature == .hot ? "hot" : "cold",
            at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// A copy that sends every event when it is due, whatever the demand — a publisher that breaks the contract, to
    /// test what an operator or a subscriber does with one. A hot copy plays its script again, from now.
    public func ignoringDemand() -> TestPublisher {
        TestPublisher(temperature, script: script, clock: clock, honoursDemand: false)
    }

    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let index = probe.subscribed()
        let subscription = TestPublisherSubscription(
            downstream: subscriber, probe: probe, index: index, honoursDemand: honoursDemand,
            buffers: temperature == .cold
        ) { [weak self] subscription in
            self?.state.withLock { $0.live.removeAll { $0 === subscription } }
        }
        switch temperature {
        case .hot:
            let completion = state.withLock { state in
                if state.completion == nil { state.live.append(subscription) }
                return state.completion
            }
            subscriber.receive(subscription: subscription)
            if let completion { subscription.deliver(.completion(completion)) }
        case .cold:
            subscriber.receive(subscription: subscription)
            playColdScript(to: subscription)
        }
    }

    /// Schedules each tick of a hot script on the clock, counted from now; every event goes to the subscribers live
    /// when it is due.
    private func scheduleHotScript() {
        let origin = clock.now.ticks
        for (tick, events) in Self.byTick(script) {
            clock.schedule(at: VirtualClock.Instant(ticks: origin + tick)) { [self] in
                for event in events {
                    let receivers = state.withLock { state -> [TestPublisherSubscriptionBase<Output, Failure>] in
                        guard state.completion == nil else { return [] }
                        if let completion = event.completion { state.completion = completion }
                        return state.live
                    }
                    for receiver in receivers { receiver.deliver(.event(event)) }
                }
            }
        }
    }

    /// Plays a cold script to one subscription: its tick-0 events at once, the others on their ticks.
    private func playColdScript(to subscription: TestPublisherSubscriptionBase<Output, Failure>) {
        let origin = clock.now.ticks
        for (tick, events) in Self.byTick(script) {
            if tick <= 0 {
                for event in events { subscription.deliver(.event(event)) }
                continue
            }
            clock.schedule(at: VirtualClock.Instant(ticks: origin + tick)) { [weak subscription] in
                for event in events { subscription?.deliver(.event(event)) }
            }
        }
    }

    /// The script's events grouped by tick, in order.
    private static func byTick(_ script: [(tick: Int64, event: Event)]) -> [(Int64, [Event])] {
        var groups: [(Int64, [Event])] = []
        for (tick, event) in script {
            if let last = groups.last, last.0 == tick {
                groups[groups.count - 1].1.append(event)
            } else {
                groups.append((tick, [event]))
            }
        }
        return groups
    }
}

/// A test publisher's subscription seen without its subscriber's type.
class TestPublisherSubscriptionBase<Output, Failure: Error> {
    /// What reaches a subscription: an event of the script, or a hot publisher's completion for a late subscriber.
    enum Delivery {
        case event(TestPublisher<Output, Failure>.Event)
        case completion(Subscribers.Completion<Failure>)
    }

    func deliver(_ delivery: Delivery) {}
}

/// One subscriber's subscription to a ``TestPublisher``: it keeps the subscriber's demand and, for a cold publisher,
/// the values waiting for it.
final class TestPublisherSubscription<Downstream: Subscriber>: TestPublisherSubscriptionBase<
    Downstream.Input, Downstream.Failure
>, Subscription
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure

    private struct State {
        var downstream: Downstream?
        var demand = Subscribers.Demand.none
        /// Events due but not yet sent (a cold publisher's values waiting for demand, and what follows them).
        var waiting: [TestPublisher<Output, Failure>.Event] = []
        /// Whether a call is sending the waiting events: a request from inside `receive(_:)` only adds demand.
        var draining = false
    }

    private let state: Locked<State>
    private let probe: SubscriptionProbe
    private let index: Int
    private let honoursDemand: Bool
    /// Whether values that find no demand wait for it (cold) or are dropped (hot).
    private let buffers: Bool
    private let onEnd: (TestPublisherSubscriptionBase<Output, Failure>) -> Void

    init(
        downstream: Downstream, probe: SubscriptionProbe, index: Int, honoursDemand: Bool, buffers: Bool,
        onEnd: @escaping (TestPublisherSubscriptionBase<Output, Failure>) -> Void
    ) {
        state = Locked(State(downstream: downstream))
        self.probe = probe
        self.index = index
        self.honoursDemand = honoursDemand
        self.buffers = buffers
        self.onEnd = onEnd
    }

    override func deliver(_ delivery: Delivery) {
        switch delivery {
        case let .completion(completion):
            finish(completion)
        case let .event(event):
            let queued = state.withLock { state -> Bool in
                guard state.downstream != nil else { return false }
                if !buffers, honoursDemand, case .value = event, state.demand == .none { return false }
                state.waiting.append(event)
                return true
            }
            if queued { drain() }
        }
    }

    func request(_ demand: Subscribers.Demand) {
        probe.requested(demand, by: index)
        let live = state.withLock { state -> Bool in
            guard state.downstream != nil else { return false }
            state.demand += demand
            return true
        }
        if live { drain() }
    }

    func cancel() {
        let released = state.withLock { state -> Downstream? in
            defer {
                state.downstream = nil
                state.waiting = []
            }
            return state.downstream
        }
        guard released != nil else { return }
        probe.ended(index, cancelled: true)
        onEnd(self)
    }

    /// Sends the waiting events the demand allows (all of them when the publisher ignores demand), in order, outside
    /// the lock; a completion goes as soon as it is first in line.
    private func drain() {
        while true {
            let next = state.withLock { state -> (Downstream, TestPublisher<Output, Failure>.Event)? in
                guard !state.draining, let downstream = state.downstream, let first = state.waiting.first else {
                    return nil
                }
                if case .value = first, honoursDemand, state.demand == .none { return nil }
                state.waiting.removeFirst()
                if case .value = first, state.demand > .none { state.demand -= 1 }
                state.draining = true
                return (downstream, first)
            }
            guard let (downstream, event) = next else { return }
            switch event {
            case let .value(value):
                let more = downstream.receive(value)
                state.withLock { state in
                    state.draining = false
                    if state.downstream != nil { state.demand += more }
                }
            case .finished, .failure:
                state.withLock { $0.draining = false }
                finish(event.completion!)
                return
            }
        }
    }

    /// Ends the subscription with `completion`, once.
    private func finish(_ completion: Subscribers.Completion<Failure>) {
        let downstream = state.withLock { state -> Downstream? in
            defer {
                state.downstream = nil
                state.waiting = []
            }
            return state.downstream
        }
        guard let downstream else { return }
        probe.ended(index, cancelled: false)
        onEnd(self)
        downstream.receive(completion: completion)
    }
}
