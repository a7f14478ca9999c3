import Cadence

/// Why a step failed, as data: what the step and the driver found, for ``ChainText`` to write.
///
/// A step says what it matched and what it lacked (`StepDivergence`); the driver says when and why it stopped
/// waiting. Nothing here is English: a passing chain never builds a sentence, and a failing one builds it once, when it
/// is reported.
enum FailureReason {
    /// The step diverged at an event: what the step found (`"value 2 of 3 differs: expected 2, received 5"`), the
    /// time of the event (nil to leave it out: an event delivered synchronously), and how many ticks before the end of
    /// a window it came (`"150 ticks early"`).
    case atEvent(StepReason, time: EventTime?, earlyBy: Int64?)
    /// The step waited for an event that never came: what the step missed (`"value 3 of 3 (3)"`) and why the
    /// driver stopped waiting.
    case missing(StepReason, because: MissingCause)
    /// A window step (`toMatch`) could not be checked to its end: the clock still had work due after running
    /// `actions` actions, at `tick`, with the window ending at `end`.
    case runawayWindow(end: Int64, actions: Int, tick: Int64)
    /// A step that could not run at all, for how it was written (a negative budget, an empty list).
    case rejected(StepProblem)
    /// An action on a subscription that could not be taken (a cancel after the publisher completed).
    case action(ActionProblem)
    /// `record()` ran: it always fails, after recording `events` events.
    case recorded(events: Int)
}

/// Why a driver stopped waiting for an event.
enum MissingCause {
    /// The publisher broke the subscription contract first; the step saw nothing after the break.
    case contractBreak(ContractBreak)
    /// The step's budget ran out at `deadline`.
    case budget(window: Duration, deadline: Int64, subscribed: Bool, late: LateArrival?, noDemand: Subscribers.Demand?)
    /// The publisher never sent a subscription; `hasClock` tells whether time could have been moved.
    case noSubscription(hasClock: Bool)
    /// The subscriber had no demand left (`requested` in all), so the publisher could not send a value.
    case noDemand(requested: Subscribers.Demand)
    /// The virtual clock ran out of work at `tick`.
    case idleClock(tick: Int64, noDemand: Subscribers.Demand?)
    /// No virtual clock, and nothing more arrived synchronously.
    case nothingSynchronous
    /// A step without `timeout:` after wall-clock steps looked once and did not wait.
    case notWaitingOnWallClock
    /// The clock still had work due after `actions` actions, at `tick` — an endless timer.
    case runawayClock(actions: Int, tick: Int64, hasBudget: Bool, noDemand: Subscribers.Demand?)
    /// The wall-clock step's `timeout:` passed; `dueTick` is the tick of work the expectation's virtual clock still
    /// had due.
    case timeout(Duration, dueTick: Int64?, noDemand: Subscribers.Demand?)
    /// The task that awaited the wall-clock step was cancelled.
    case taskCancelled(window: Bool)
    /// The publisher had already completed.
    case completed
    /// The subscription was cancelled.
    case subscriptionCancelled
}

/// How an event broke the subscription contract, with what it was and when.
struct ContractBreak {
    /// The event: a value, a completion, or a subscription.
    let event: Received
    let time: EventTime
    let violation: ContractViolation?

    init<Output, Failure>(_ event: TimedEvent<Output, Failure>) {
        self.event = Received(timeline: event.event)
        time = event.time
        violation = event.violation
    }
}

/// What a budgeted step learned by running the clock past its deadline.
enum LateArrival {
    /// What it waited for arrived at `tick`, `late` ticks after the deadline.
    case arrived(tick: Int64, late: Int64)
    /// A window step: the next event came at `time`.
    case nextEvent(Received, time: EventTime)
}
