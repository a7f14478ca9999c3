import Cadence

/// What a ``TimeContractSubscriber`` saw, kept apart from the subscriber so that it can be read after the subscriber
/// has been released.
final class TimeContractLog {
    var values: [String] = []
    var completions: [String] = []
    var granted = Subscribers.Demand.none
    var violations: [String] = []
    var isCancelled = false
    /// The clock's tick of every event, for the failure message.
    var timeline: [String] = []
}

/// A subscriber that requests and answers demand as the script says, records into a ``TimeContractLog`` and checks,
/// as each event arrives, that it never gets more values than it asked for, nothing after its completion or its
/// cancel, and at most one completion. Like `Sink`, it lets go of its subscription when it completes or cancels, so
/// a weak reference to it goes nil once the operator has released it.
final class TimeContractSubscriber: Subscriber {
    typealias Input = String
    typealias Failure = any Error

    let log: TimeContractLog
    private let clock: VirtualClock
    private var subscription: (any Subscription)?
    /// What to return from `receive(_:)`; called with the number of values so far. May call back into the pipeline
    /// (a re-entrant send upstream, a request, a cancel).
    var onValue: (TimeContractSubscriber) -> Subscribers.Demand = { _ in .none }

    init(log: TimeContractLog, clock: VirtualClock) {
        self.log = log
        self.clock = clock
    }

    func receive(subscription: any Subscription) {
        if self.subscription != nil { log.violations.append("a second subscription") }
        self.subscription = subscription
    }

    func receive(_ input: String) -> Subscribers.Demand {
        log.timeline.append("\(clock.now.ticks): \(input)")
        if !log.completions.isEmpty { log.violations.append("value \(input) after the completion") }
        if log.isCancelled { log.violations.append("value \(input) after cancel") }
        log.values.append(input)
        if log.granted != .unlimited, Subscribers.Demand.max(log.values.count) > log.granted {
            log.violations.append("value #\(log.values.count) (\(input)) beyond the \(log.granted) granted")
        }
        let demand = onValue(self)
        if !log.isCancelled {
            log.granted += demand
        }
        return log.isCancelled ? .none : demand
    }

    func receive(completion: Subscribers.Completion<any Error>) {
        let text: String
        switch completion {
        case .finished: text = "finished"
        case .failure(let error): text = "failure(\(error))"
        }
        log.timeline.append("\(clock.now.ticks): \(text)")
        if !log.completions.isEmpty { log.violations.append("a second completion (\(text))") }
        if log.isCancelled { log.violations.append("completion \(text) after cancel") }
        log.completions.append(text)
        subscription = nil
    }

    func request(_ demand: Subscribers.Demand) {
        guard !log.isCancelled, log.completions.isEmpty, let subscription else { return }
        log.granted += demand
        subscription.request(demand)
    }

    /// Cancels the subscription, if it has one that has not ended (with `subscribe(on:)` it may not have got it yet).
    func cancel() {
        guard !log.isCancelled, log.completions.isEmpty, let subscription else { return }
        log.isCancelled = true
        self.subscription = nil
        subscription.cancel()
    }
}

/// Drives a `DrivenPublisher` as a well-behaved upstream would: it sends only what its subscriber requested.
final class TimeContractSource {
    private(set) var publisher = DrivenPublisher<Int, TestError>()
    private(set) var sent = 0
    private(set) var isCompleted = false

    /// Whether the subscriber has demand for another value.
    var canSend: Bool {
        guard !isCompleted, let subscription = publisher.subscriptions.last, !subscription.isCancelled else {
            return false
        }
        return subscription.totalDemand > .max(sent)
    }

    /// Sends the next value, if the subscriber asked for it.
    func sendIfRequested() {
        guard canSend else { return }
        sent += 1
        publisher.send(sent)
    }

    /// Completes, once someone has subscribed (with `subscribe(on:)`, not before the scheduler ran the subscribe).
    func complete(_ completion: Subscribers.Completion<TestError>) {
        guard !isCompleted, !publisher.subscriptions.isEmpty else { return }
        isCompleted = true
        publisher.send(completion: completion)
    }

    /// How often the operator cancelled its upstream (0 before anyone subscribed).
    var cancelCount: Int { publisher.subscriptions.last?.cancelCount ?? 0 }

    /// Lets go of the publisher, and with it of the operator's subscription, for a fresh one: as in Combine, a
    /// subscription that ended keeps its subscriber until the upstream lets go of it too.
    func letGoOfTheSubscription() {
        publisher = DrivenPublisher<Int, TestError>()
    }
}
