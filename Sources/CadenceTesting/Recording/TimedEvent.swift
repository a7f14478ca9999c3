/// An event with the time it arrived, as `expect(_:)` recorded it.
public struct TimedEvent<Output, Failure: Error> {
    /// What happened.
    public let event: PublisherEvent<Output, Failure>
    /// When it happened.
    public let time: EventTime
    /// How the event broke the subscription contract, if it did (a value beyond demand, after completion…).
    let violation: ContractViolation?
    /// The wall-clock time since `expect(_:)` subscribed, whatever `time` is: what a chain checked with wall-clock
    /// steps shows, and times its deadlines by, even when it has a virtual clock.
    let elapsed: Duration
    /// With a virtual clock, the event's place on the clock's timeline among every recorder's events (see
    /// `VirtualClock.stamp()`); 0 without one.
    let sequence: UInt64
    /// Which kind of event it is, readable without the event's generic payload: unspecialised code that only asks
    /// "is it a subscription?" or "is it the finish?" then needs no metadata of `PublisherEvent` or its completion.
    let kind: EventKind

    /// An event at a time — to compare with what an expectation recorded: `#expect(e.events == [...])`.
    public init(_ event: PublisherEvent<Output, Failure>, at time: EventTime) {
        let elapsed: Duration = if case let .elapsed(elapsed) = time { elapsed } else { .zero }
        self.init(event, at: time, elapsed: elapsed, sequence: 0, violation: nil)
    }

    init(
        _ event: PublisherEvent<Output, Failure>,
        at time: EventTime,
        elapsed: Duration,
        sequence: UInt64,
        violation: ContractViolation?
    ) {
        self.event = event
        self.time = time
        self.elapsed = elapsed
        self.sequence = sequence
        self.violation = violation
        kind =
            switch event {
            case .subscription: .subscription
            case .value: .value
            case .completion(.finished): .finished
            case .completion(.failure): .failure
            }
    }

    /// The event as a chain timed on the wall clock shows it: at its wall-clock time.
    var onWallClock: TimedEvent {
        TimedEvent(event, at: .elapsed(elapsed), elapsed: elapsed, sequence: sequence, violation: violation)
    }

    /// Whether the event broke the subscription contract: a value beyond the demand requested, a value after the
    /// completion, a second completion, an event after cancellation or before the subscription, a second
    /// subscription.
    public var breaksContract: Bool { violation != nil }

    /// The tick of the event on its virtual clock, or nil on wall-clock time.
    public var tick: Int64? {
        if case let .tick(tick) = time { return tick }
        return nil
    }
}

extension TimedEvent: Sendable where Output: Sendable {}

/// Two timed events are equal when they are the same event at the same time (whether either broke the contract is
/// not compared: see ``TimedEvent/breaksContract``).
extension TimedEvent: Equatable where Output: Equatable, Failure: Equatable {
    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.event == rhs.event && lhs.time == rhs.time
    }
}

/// What kind of event a ``TimedEvent`` is, without its payload.
enum EventKind: UInt8, Sendable {
    case subscription
    case value
    case finished
    case failure
}

/// How a publisher broke the subscription contract with an event.
// Unchecked because Combine does not declare `Subscribers.Demand` (an integer) Sendable.
enum ContractViolation: @unchecked Sendable, Equatable {
    /// A value arrived when no demand was outstanding; `requested` is all the demand the subscriber had signalled.
    case beyondDemand(requested: Subscribers.Demand)
    /// A value arrived after the publisher had completed.
    case valueAfterCompletion
    /// A second completion arrived.
    case secondCompletion
    /// An event arrived after the expectation cancelled its subscription.
    case afterCancel
    /// An event arrived before the publisher had handed over a subscription.
    case beforeSubscription
    /// A second subscription arrived (the expectation cancelled it).
    case secondSubscription
}
