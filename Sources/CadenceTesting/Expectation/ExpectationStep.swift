/// One step of an expectation chain, as a pure matcher over the events the chain has not consumed yet.
///
/// A step never drives anything itself: a driver (virtual time, synchronous, or wall-clock) hands it the unconsumed
/// events that arrived inside the step's window and says whether more could still arrive; the step answers whether
/// it is satisfied (and how many events it consumed), still waiting, or failed (and why). Its descriptions are built
/// only when a failure message is rendered, so passing steps cost no string work.
struct ExpectationStep<Output, Failure: Error> {
    /// What the step does.
    enum Kind {
        /// Matches events; settles as soon as it can.
        case match
        /// Matches events over its whole window: it settles only when the window has passed (`toEmitNothing`).
        case window
        /// Acts on the subscription and consumes nothing (`thenRequest`, `thenCancel`, `thenIgnoreRest`).
        case action
    }

    let kind: Kind
    /// The call as written, without the leading dot: `"toEmit([1, 2, 3], within: .ticks(5))"`.
    let call: () -> String
    /// How long the step may wait, from the time it starts; nil to wait until the clock is idle.
    let window: Duration?
    /// Matches `events` — unconsumed, non-subscription, contract-abiding, inside the window — given whether more
    /// events could still arrive inside the window.
    let evaluate: (_ events: ArraySlice<TimedEvent<Output, Failure>>, _ isFinal: Bool) -> StepOutcome
    /// What the step expected of the `index`-th of the `count` events it consumed, for the timeline.
    let expectation: (_ index: Int, _ count: Int) -> String
    /// What the step expected next when nothing (or the wrong thing) arrived after it had consumed `consumed` events.
    let missing: (_ consumed: Int) -> String
    /// Runs the step's action (`.action` steps only).
    let act: ((PublisherExpectation<Output, Failure>) -> Void)?
    /// Where the step was written.
    let location: SourceCodeLocation

    init(
        kind: Kind = .match,
        call: @escaping () -> String,
        window: Duration? = nil,
        location: SourceCodeLocation,
        evaluate: @escaping (ArraySlice<TimedEvent<Output, Failure>>, Bool) -> StepOutcome,
        expectation: @escaping (Int, Int) -> String,
        missing: @escaping (Int) -> String,
        act: ((PublisherExpectation<Output, Failure>) -> Void)? = nil
    ) {
        self.kind = kind
        self.call = call
        self.window = window
        self.location = location
        self.evaluate = evaluate
        self.expectation = expectation
        self.missing = missing
        self.act = act
    }
}

/// What a step made of the events it was shown.
enum StepOutcome {
    /// The step is satisfied by the first `consumed` events.
    case satisfied(consumed: Int)
    /// The step needs more events (or more time) to decide.
    case pending
    /// The step failed.
    case failed(StepDivergence)
}

/// Why and where a step failed.
struct StepDivergence {
    /// What went wrong. At an event: the end of the sentence `"<call> failed: <reason> at tick 1"`, as
    /// `"value 2 of 3 differs: expected 2, received 5"`. For want of an event: what was missing, as a noun phrase the
    /// driver completes with why it gave up: `"value 3 of 3 (3)"` → `"value 3 of 3 (3) never arrived: the clock went
    /// idle at tick 4"`.
    var reason: String
    /// How many of the shown events the step had matched before it diverged.
    var matched: Int
    /// Whether the event after the matched ones is the divergent one (false: the step failed for want of an event).
    var atEvent: Bool
    /// The expected and received values when they differ, for a field-by-field difference under the timeline.
    var difference: (expected: Any, received: Any)?
    /// At an event: a clause the driver puts after the event's time — `"150 ticks early"` makes
    /// `"… received "swift" at tick 150, 150 ticks early"`.
    var note: String?
    /// A block the step adds under the timeline (before any difference): `toMatch`'s two diagrams.
    var detail: String?

    init(
        _ reason: String,
        matched: Int,
        atEvent: Bool,
        difference: (expected: Any, received: Any)? = nil,
        note: String? = nil,
        detail: String? = nil
    ) {
        self.reason = reason
        self.matched = matched
        self.atEvent = atEvent
        self.difference = difference
        self.note = note
        self.detail = detail
    }
}
