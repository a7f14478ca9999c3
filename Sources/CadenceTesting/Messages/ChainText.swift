import Cadence

/// Every sentence of an expectation chain's failure messages, written from what the steps and the drivers found.
///
/// The drivers hand over a ``FailureReason``; the chain's end hands over the events no step consumed. This is where
/// they become English: the reason after `"<call> failed: "`, the headlines of the chain's end, and the pieces they
/// share. ``FailureMessage`` lays them out with the chain and the timeline.
enum ChainText {
    // MARK: Step failures

    /// The reason a step failed, without the leading `"<call> failed: "` and without the full stop.
    static func reason(_ reason: FailureReason) -> String {
        switch reason {
        case let .atEvent(clause, time, earlyBy):
            return StepText.describe(clause) + (time.map { " at \($0)" } ?? "")
                + (earlyBy.map { ", \(StepText.early(by: $0))" } ?? "")
        case let .missing(what, cause):
            return missing(StepText.describe(what), because: cause)
        case let .runawayWindow(end, actions, tick):
            return "its window could not be checked to its end (tick \(end)): the clock still had work due after "
                + "running \(actions.formatted) actions (at tick \(tick)) — an endless timer, or work that keeps "
                + "rescheduling itself? Cancel it, or check a shorter window"
        case let .rejected(problem):
            return StepText.describe(problem)
        case let .action(problem):
            return StepText.describe(problem)
        case let .recorded(events):
            return "it recorded \(ChainText.count(events, "event")), written below as steps and as a marble diagram to "
                + "paste in its place (record() always fails, so that it is not left in)"
        }
    }

    /// `"<what> never arrived: <why>"`, or the wall-clock and budget forms of it.
    private static func missing(_ what: String, because cause: MissingCause) -> String {
        switch cause {
        case let .contractBreak(event):
            return "\(what) never arrived: \(contractBreak(event))"
        case let .budget(window, deadline, subscribed, late, noDemand):
            var text = "\(what) did not arrive within \(VirtualTicks.describe(window)) (by tick \(deadline))"
            if !subscribed { text += ", and the publisher had not sent a subscription by then" }
            switch late {
            case let .arrived(tick, late)?:
                return text + "; it arrived at tick \(tick), \(VirtualTicks.describe(.milliseconds(late))) late"
            case let .nextEvent(event, time)?:
                return text + "; the next event, \(StepText.describe(event)), came\(at(time))"
            case nil:
                return text + demandNote(noDemand)
            }
        case let .noSubscription(hasClock):
            return "\(what) never arrived: the publisher never sent a subscription"
                + (hasClock
                    ? ""
                    : ", and there is no virtual clock to advance (pass one with on:, or bind "
                        + "VirtualClock.current)")
        case let .noDemand(requested):
            // Demand, not time, is what held the value back: say that first.
            return "\(what) never arrived: \(noDemand(requested))"
        case let .idleClock(tick, noDemand):
            let text = "\(what) never arrived: the clock went idle at tick \(tick) with nothing scheduled"
            // Without a want of demand to blame, the likeliest cause is work the clock cannot see.
            guard noDemand == nil else { return text + demandNote(noDemand) }
            return text + " — " + realSchedulerHint
        case .nothingSynchronous:
            return "\(what) never arrived: nothing more was delivered synchronously, and there is no virtual clock "
                + "to advance (pass one with on:, or bind VirtualClock.current)"
        case .notWaitingOnWallClock:
            return "\(what) never arrived: it had not arrived when the step looked, and a step without timeout: does "
                + "not wait on the wall clock — give it a timeout:, as the chain's earlier steps have"
        case let .runawayClock(actions, tick, hasBudget, noDemand):
            let advice = hasBudget ? "give the step a shorter budget" : "give the step a budget with within:"
            return "\(what) never arrived: the clock still had work due after running \(actions.formatted) actions "
                + "(at tick \(tick)) — an endless timer, or work that keeps rescheduling itself? Cancel it, or "
                + advice + demandNote(noDemand)
        case let .timeout(limit, dueTick, noDemand):
            var text = "\(what) did not arrive within the \(WallClockText.describe(limit)) timeout"
            if let dueTick {
                text +=
                    "; the expectation's virtual clock has work due at tick \(dueTick), which wall-clock steps "
                    + "never run — for virtual time, drop timeout: (and give a budget with within:)"
            }
            return text + demandNote(noDemand)
        case let .taskCancelled(window):
            return window
                ? "the task waiting for its window to pass was cancelled"
                : "\(what) had not arrived when the task waiting for it was cancelled"
        case .completed:
            return "\(what) never arrived: the publisher had already completed"
        case .subscriptionCancelled:
            return "\(what) never arrived: the subscription was cancelled"
        }
    }

    /// `"the subscriber had no demand left (.max(2) requested in all) — request more with thenRequest(_:)"`.
    static func noDemand(_ requested: Subscribers.Demand) -> String {
        "the subscriber had no demand left (\(EventText.demand(requested)) requested in all) — request more with "
            + "thenRequest(_:)"
    }

    /// `"; <no demand>"` when the subscriber had no demand left, else nothing.
    private static func demandNote(_ requested: Subscribers.Demand?) -> String {
        requested.map { "; \(noDemand($0))" } ?? ""
    }

    /// Says how an event broke the subscription contract.
    static func contractBreak(_ event: ContractBreak) -> String {
        let what = StepText.describe(event.event)
        let when = at(event.time)
        switch event.violation {
        case let .beyondDemand(requested):
            return "the publisher sent \(what)\(when) beyond the demand requested (\(EventText.demand(requested)) "
                + "in all), which breaks the subscription contract (rule 1.1)"
        case .valueAfterCompletion:
            return "the publisher sent \(what)\(when) after it had completed, which breaks the subscription contract "
                + "(rule 1.7)"
        case .secondCompletion:
            return "the publisher completed a second time (\(what)\(when)), which breaks the subscription contract "
                + "(rule 1.7)"
        case .afterCancel:
            return "the publisher sent \(what)\(when) after the subscription was cancelled (rule 1.8)"
        case .beforeSubscription:
            return "the publisher sent \(what)\(when) before it sent a subscription, which breaks the subscription "
                + "contract (rule 1.9)"
        case .secondSubscription:
            return "the publisher sent a second subscription\(when) (it was cancelled), which breaks the "
                + "subscription contract (rule 2.12)"
        case nil:
            return "\(what)\(when)"
        }
    }

    /// `" at tick 5"`, or nothing for an event delivered synchronously with no clock (or timed on the wall clock).
    static func at(_ time: EventTime) -> String {
        switch time {
        case .tick: " at \(time)"
        case .elapsed: ""
        }
    }

    // MARK: The chain's end

    /// `"expect(Just<Int>) failed: the publisher never sent a subscription, so nothing could be checked."`
    static func neverSubscribed(expectCall: String) -> String {
        "\(expectCall) failed: the publisher never sent a subscription, so nothing could be checked."
    }

    /// `"expect(Just<Int>) received 1 event no step expected: finished."`
    static func unexpected(expectCall: String, events: [ContractBreak]) -> String {
        "\(expectCall) received \(count(events.count, "event")) no step expected: \(list(events))."
    }

    /// `"expect(Flood) ignores the rest of its events with thenIgnoreRest(), but not a broken contract: <the breaks>."`
    static func brokenContract(expectCall: String, events: [ContractBreak]) -> String {
        "\(expectCall) ignores the rest of its events with thenIgnoreRest(), but not a broken contract: "
            + "\(list(events))."
    }

    /// `"expect(Just<Int>) received 1 event after its chain had ended: 4 at tick 3."`
    static func late(expectCall: String, events: [ContractBreak]) -> String {
        "\(expectCall) received \(count(events.count, "event")) after its chain had ended: \(list(events))."
    }

    /// Why an idle clock may not be the whole story: what a publisher schedules on a real scheduler never runs on
    /// virtual time (`receive(on: RunLoop.main)` under `swift test`, a `URLSession` data task).
    static let realSchedulerHint = "work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time"

    /// `"1 event"`, `"2 events"`.
    static func count(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    }

    /// `"4 at tick 3, finished at tick 3"` — the first three, then `", and 2 more"`.
    static func list(_ events: [ContractBreak]) -> String {
        let shown = events.prefix(3).map { event in
            event.violation != nil ? contractBreak(event) : StepText.describe(event.event) + at(event.time)
        }
        let more = events.count > 3 ? ", and \(events.count - 3) more" : ""
        return shown.joined(separator: ", ") + more
    }
}
