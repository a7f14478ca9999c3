/// One step of an expectation chain, as a pure matcher over the events the chain has not consumed yet.
///
/// A step never drives anything itself: a driver (virtual time, synchronous, or wall-clock) hands it the unconsumed
/// events that arrived inside the step's window and says whether more could still arrive; the step answers whether
/// it is satisfied (and how many events it consumed), still waiting, or failed (and why, as a ``StepReason``). What it
/// says is data: `Messages/` writes the sentences, only when a failure message is rendered, so passing steps cost no
/// string work.
///
/// Each step family defines its step as a value of its own type in its file under `Steps/`; the chain keeps it in a
/// ``ChainStep`` with the call's name, timing and location.
protocol ExpectationStep<Output, Failure> {
    associatedtype Output
    associatedtype Failure: Error

    /// What the step does; ``StepKind/match`` unless the step says otherwise.
    var kind: StepKind { get }
    /// The step's arguments as the call wrote them (read only to render a message).
    var arguments: StepArguments { get }
    /// Matches `events` — unconsumed, non-subscription, contract-abiding, inside the window — given whether more
    /// events could still arrive inside the window.
    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome
    /// ``evaluate(_:isFinal:)`` for a driver that showed the step the first `known` of `events` before and was told
    /// `.pending`. A step that matches events one by one, in order, and answers `.pending` only when it matched all it
    /// was shown, starts at `known`: a step that waits through many ticks looks at each event once, not once a tick.
    /// By default the step looks at all of `events` again.
    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool, known: Int) -> StepOutcome
    /// What the step expected of the `index`-th of the `count` events it consumed, for the timeline.
    func expectation(at index: Int, of count: Int) -> StepExpectation
    /// What the step expected next when nothing (or the wrong thing) arrived after it had consumed `consumed` events.
    func missing(after consumed: Int) -> StepExpectation
    /// Acts on the subscription (``StepKind/action`` steps only): nil when it could, else why not.
    func act(on expectation: PublisherExpectation<Output, Failure>) -> ActionProblem?
}

extension ExpectationStep {
    var kind: StepKind { .match }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool, known: Int) -> StepOutcome {
        evaluate(events, isFinal: isFinal)
    }

    func act(on expectation: PublisherExpectation<Output, Failure>) -> ActionProblem? { nil }
}

/// What a step does.
enum StepKind {
    /// Matches events; settles as soon as it can.
    case match
    /// Matches events over its whole window: it settles only when the window has passed (`toEmitNothing`,
    /// `toMatch`).
    case window
    /// Acts on the subscription and consumes nothing (`thenRequest`, `thenCancel`, `thenIgnoreRest`).
    case action
}

/// A step in its chain: the step, and the call that wrote it.
struct ChainStep<Output, Failure: Error> {
    /// The step.
    let step: any ExpectationStep<Output, Failure>
    /// The call's name: `"toEmit"`, `"thenFinish"`.
    let name: String
    /// How the call was told to wait, as written (`within:` or `timeout:`).
    let timing: StepTiming
    /// How long the step may wait, from the time it starts; nil to wait until the clock is idle.
    let window: Duration?
    /// Where the step was written.
    let location: SourceCodeLocation

    init(
        _ step: any ExpectationStep<Output, Failure>,
        name: String,
        timing: StepTiming = .within(nil),
        window: Duration?,
        location: SourceCodeLocation
    ) {
        self.step = step
        self.name = name
        self.timing = timing
        self.window = window
        self.location = location
    }

    var kind: StepKind { step.kind }

    /// The step's outcome for `events`, of which it matched the first `known` while pending.
    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, _ isFinal: Bool, known: Int = 0) -> StepOutcome {
        step.evaluate(events, isFinal: isFinal, known: known)
    }

    /// What the step expected next after `consumed` events.
    func missing(_ consumed: Int) -> StepExpectation { step.missing(after: consumed) }
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
    /// What went wrong, as data: at an event, the end of the sentence `"<call> failed: <reason> at tick 1"`; for want
    /// of an event, what was missing, which the driver completes with why it gave up.
    var reason: StepReason
    /// How many of the shown events the step had matched before it diverged.
    var matched: Int
    /// Whether the event after the matched ones is the divergent one (false: the step failed for want of an event).
    var atEvent: Bool
    /// The expected and received values when they differ, for a field-by-field difference under the timeline.
    var difference: (expected: Any, received: Any)?
    /// At an event on a virtual clock: how many ticks before the end of its window it came, which the message puts
    /// after the event's time (`"… received "swift" at tick 150, 150 ticks early"`).
    var earlyBy: Int64?
    /// Both marble diagrams, which `toMatch` adds under the timeline (before any difference).
    var detail: MarbleComparison?

    init(
        _ reason: StepReason,
        matched: Int,
        atEvent: Bool,
        difference: (expected: Any, received: Any)? = nil,
        earlyBy: Int64? = nil,
        detail: MarbleComparison? = nil
    ) {
        self.reason = reason
        self.matched = matched
        self.atEvent = atEvent
        self.difference = difference
        self.earlyBy = earlyBy
        self.detail = detail
    }
}
