import Cadence

/// Why a step failed, in the step's own terms, as data: ``StepText/describe(_:)-(StepReason)`` writes the clause.
///
/// A step says what it sought and what it received instead; values travel as `Any` and are printed only when a
/// message is rendered, so a step never builds a sentence.
enum StepReason {
    /// `"expected <sought>, received <received>"`.
    case received(Received, expected: Sought)
    /// `"<sought> differs: expected 2, received 5"`.
    case differs(Sought, expected: Any, received: Any)
    /// A skipping step's `"skipped 2 values, then expected <sought>, received <received>"`.
    case skipped(Int, then: Received, expected: Sought)
    /// `"expected nothing for 5 ticks, received 1 synchronously (…)"`: an event with no virtual clock.
    case synchronously(Received, expected: Sought)
    /// For want of an event, what never came, for the driver to complete with why it gave up: `"value 3 of 3 (3)"`.
    case missing(Sought)
    /// A skipping step's missing value: `"the value (3), after 2 skipped values,"`.
    case missingAfterSkipping(Sought, skipped: Int)
    /// For want of an event, what the step still expected, as its timeline shows it (a step that could not say more).
    case unmet(StepExpectation)
    /// A marble diagram's step: an event arrived where the diagram expects nothing more.
    case marbleUnexpected(MarbleEventName)
    /// A marble diagram's step: the expected event arrived `distance` ticks off the diagram's `tick`.
    case marbleOffTime(MarbleEventName, tick: Int64, distance: Int64, late: Bool)
    /// A marble diagram's step: another event arrived first (`early`) or instead of the one expected at `tick`.
    case marbleInstead(MarbleEventName, tick: Int64, received: MarbleEventName, early: Bool)
    /// A marble diagram's step: the event expected at `tick` never came (completed by the driver).
    case marbleMissing(MarbleEventName, tick: Int64)
    /// `toEmit(satisfying:)`: the value did not pass the check, for the reasons it gave.
    case failedCheck(Any, problems: [String])
}

/// What a step sought, as a reason names it.
enum Sought {
    /// A value as printed: `2`.
    case value(Any)
    /// `"value 2 of 3"`, `"the value"` or `"a value"`.
    case ordinal(StepText.Ordinal, Int)
    /// `"value 2 of 3 (2)"`.
    case ordinalValue(StepText.Ordinal, Int, Any)
    /// `"the value (3)"`.
    case theValue(Any)
    /// `"a value matching the predicate"`.
    case matchingValue
    /// `"a value that passes the check"`.
    case passingValue
    /// `"finished"`.
    case finished
    /// `"the finish"`.
    case theFinish
    /// `"a failure"`, `"failure(APIError.offline)"`, `"a failure matching the predicate"`.
    case failure(FailureExpectation)
    /// `"nothing through tick 299"`, `"nothing for 5 ticks"`, `"nothing for 250 ms"`.
    case quiet(through: Int64?, window: Duration, synchronousOnly: Bool)
}

/// What a step received instead of what it sought.
indirect enum Received {
    case value(Any)
    case finished
    /// A failure with its error.
    case failure(Any)
    /// A second subscription: `"a second subscription"`.
    case secondSubscription
    /// A subscription as the timeline names it: `"subscription"`.
    case subscription
    /// An event that broke the subscription contract.
    case violating(Received, ContractViolation)

    /// The event as a value step names it (a subscription is a second one).
    init<Output, Failure>(_ event: PublisherEvent<Output, Failure>) {
        switch event {
        case let .value(value): self = .value(value)
        case .subscription: self = .secondSubscription
        case let .completion(completion): self.init(completion)
        }
    }

    init<Failure>(_ completion: Subscribers.Completion<Failure>) {
        switch completion {
        case .finished: self = .finished
        case let .failure(error): self = .failure(error)
        }
    }

    /// The event as the timeline names it (a subscription is just that).
    init<Output, Failure>(timeline event: PublisherEvent<Output, Failure>) {
        if case .subscription = event { self = .subscription } else { self.init(event) }
    }

    /// The event as the timeline names it, with what was wrong with it if it broke the contract.
    init<Output, Failure>(timed event: TimedEvent<Output, Failure>) {
        let received = Received(timeline: event.event)
        self = event.violation.map { .violating(received, $0) } ?? received
    }
}

/// The failure a failing step expects, as data.
enum FailureExpectation {
    /// Any failure.
    case any
    /// A failure with an equal error.
    case equal(any Error)
    /// A failure whose error satisfies a predicate.
    case matching
}

/// A marble diagram's event as a reason names it.
enum MarbleEventName {
    /// A value the diagram names by `key` (its value, nil when `values` lacks it): `b (2)`.
    case keyed(Character, Any?)
    /// A value no key names.
    case value(Any)
    case finished
    /// A failure: with its error, or nil for the diagram's `#` without one (`"a failure"`).
    case failure(Any?)
    case secondSubscription
}

/// What a step expected of an event, for the timeline's expected column.
enum StepExpectation {
    /// A value, printed.
    case value(Any)
    /// `"(nothing)"`: the step had all it wanted.
    case nothing
    /// `"(any value)"`.
    case anyValue
    /// `"(a match)"`.
    case match
    /// `"(skipped)"`.
    case skipped
    /// `"finished"`.
    case finished
    /// `"failure"`, `"failure(APIError.offline)"`, `"failure(where: …)"`.
    case failure(FailureExpectation)
    /// What a window step expected (see ``Sought/quiet(through:window:synchronousOnly:)``).
    case quiet(through: Int64?, window: Duration, synchronousOnly: Bool)
    /// A marble diagram's event, with the tick it was due at when it never came: `b (2) at tick 3`.
    case marble(MarbleEventName, at: Int64?)
    /// An action's: nothing to show.
    case none
    /// `"a live subscription"`.
    case liveSubscription
    /// `"(a valid step)"`.
    case validStep
}

/// A step's arguments as the call wrote them, as data: ``StepText/call(_:_:_:)`` writes them.
enum StepArguments {
    case none
    /// `[1, 2]`, or `1` for a step written with one value.
    case values([Any], single: Bool)
    /// One value: `3`.
    case value(Any)
    /// `count: 3`.
    case count(Int)
    /// `where: { … }`.
    case predicate
    /// `satisfying: { … }`.
    case check
    /// `with: APIError.offline`, `where: { … }`, or nothing.
    case failure(FailureExpectation)
    /// `for: .ticks(5)`.
    case window(Duration)
    /// `"-a-(b|)", values: ["a": 1, "b": 2], error: APIError.offline`.
    case marbles(String, values: [(key: Character, value: Any)], error: Any?)
    /// `.max(1)`.
    case demand(Subscribers.Demand)
}

/// Why an action could not act on the subscription, as data.
enum ActionProblem {
    /// What the action would have done.
    enum Action {
        case request
        case cancel
    }

    case neverSubscribed(Action)
    case alreadyCancelled(Action)
    case alreadyEnded(Action)
    /// The publisher had completed (``Received/finished`` or ``Received/failure(_:)``) at `time`.
    case completed(Received, time: EventTime, Action)
}
