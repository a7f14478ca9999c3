#if canImport(Combine)
import Combine
#endif

extension PublisherExpectation {
    /// How many clock actions one step runs at most while it waits without a budget, before it gives up.
    static var stepActionLimit: Int { VirtualClock.defaultActionLimit }

    /// How many clock actions a failed step with a budget runs, after its deadline, to see whether what it waited for
    /// came late.
    static var lookaheadActionLimit: Int { 10_000 }

    /// Runs `step` now: appends it to the chain and, unless an earlier step failed, drives the clock until it decides.
    func perform(_ step: ExpectationStep<Output, Failure>) {
        let (index, skip) = chain.withLock { chain -> (Int, Bool) in
            chain.steps.append(step)
            return (chain.steps.count - 1, chain.failure != nil)
        }
        if skip { return }
        if step.kind == .action {
            step.act?(self)
            return
        }
        drive(step, index: index)
    }

    /// Records that step `index` failed.
    func fail(step index: Int, _ failure: ChainFailure) {
        chain.withLock { chain in
            if chain.failure == nil { chain.failure = failure }
        }
    }

    /// Marks the first `count` events from the cursor as consumed by step `index`.
    private func consume(_ count: Int, from cursor: Int, step index: Int) {
        chain.withLock { chain in
            for event in cursor ..< cursor + count { chain.consumedBy[event] = index }
            chain.cursor = cursor + count
        }
    }

    /// The events not yet consumed, after skipping (and consuming) leading contract-abiding subscriptions.
    private func unconsumed() -> (cursor: Int, events: ArraySlice<TimedEvent<Output, Failure>>) {
        var cursor = chain.withLock { $0.cursor }
        let events = recorder.events
        while cursor < events.count, case .subscription = events[cursor].event, events[cursor].violation == nil {
            cursor += 1
        }
        chain.withLock { $0.cursor = max($0.cursor, cursor) }
        return (cursor, events[cursor...])
    }

    /// Drives `clock` (or, with none, looks only at what has arrived) until `step` decides.
    private func drive(_ step: ExpectationStep<Output, Failure>, index: Int) {
        let start = clock?.now.ticks
        let deadline: Int64? = step.window.flatMap { window in
            start.map { start in
                let (sum, overflow) = start.addingReportingOverflow(VirtualTicks.count(in: window))
                return overflow ? .max : sum
            }
        }
        var actionsRun = 0
        while true {
            let (cursor, pending) = unconsumed()
            let visible = Self.visible(pending, through: deadline)
            let final = isFinal(deadline: deadline)
            let outcome = step.evaluate(visible.events, final || visible.stoppedAtViolation)
            switch outcome {
            case let .satisfied(consumed):
                consume(consumed, from: cursor, step: index)
                return
            case let .failed(divergence):
                consume(divergence.matched, from: cursor, step: index)
                fail(step: index, failure(of: step, divergence, cursor: cursor, visible: visible, deadline: deadline))
                return
            case .pending:
                if final || visible.stoppedAtViolation {
                    // A step must decide once nothing more can arrive; treat indecision as a missing event.
                    let divergence = StepDivergence(step.missing(0), matched: 0, atEvent: false)
                    fail(step: index, failure(of: step, divergence, cursor: cursor, visible: visible, deadline: deadline))
                    return
                }
            }
            guard let clock else { return }
            let next = clock.nextDueTick
            let target: Int64
            if let deadline {
                target = next.map { min($0, deadline) } ?? deadline
            } else if let next {
                target = next
            } else {
                continue
            }
            let (ran, stopped) = clock.runActions(through: target, limit: Self.stepActionLimit - actionsRun)
            actionsRun += ran
            if stopped || actionsRun >= Self.stepActionLimit, !isFinal(deadline: deadline) {
                let (cursor, pending) = unconsumed()
                let visible = Self.visible(pending, through: deadline)
                if case let .satisfied(consumed) = step.evaluate(visible.events, false) {
                    consume(consumed, from: cursor, step: index)
                    return
                }
                let divergence = StepDivergence(step.missing(visible.events.count), matched: 0, atEvent: false)
                var failure = failure(of: step, divergence, cursor: cursor, visible: visible, deadline: deadline)
                failure.reason = "\(divergence.reason) never arrived: the clock still had work due after running "
                    + "\(actionsRun.formatted) actions (at tick \(clock.now.ticks)) — an endless timer, or work that "
                    + "keeps rescheduling itself? Give the step a budget with within:"
                fail(step: index, failure)
                return
            }
        }
    }

    /// Whether no more events can arrive inside a step's window without the test doing something.
    private func isFinal(deadline: Int64?) -> Bool {
        guard let clock else { return true }
        let next = clock.nextDueTick
        if let deadline {
            return clock.now.ticks >= deadline && (next.map { $0 > deadline } ?? true)
        }
        return next == nil
    }

    /// The events a step may look at: those inside its window, up to (not including) the first contract violation.
    static func visible(
        _ events: ArraySlice<TimedEvent<Output, Failure>>,
        through deadline: Int64?
    ) -> (events: ArraySlice<TimedEvent<Output, Failure>>, stoppedAtViolation: Bool) {
        var end = events.startIndex
        while end < events.endIndex {
            let event = events[end]
            if let deadline, let tick = event.tick, tick > deadline { return (events[..<end], false) }
            if event.violation != nil { return (events[..<end], true) }
            end += 1
        }
        return (events, false)
    }

    /// The chain failure for `divergence` of `step`, with the reason completed by when and why the step gave up.
    private func failure(
        of step: ExpectationStep<Output, Failure>,
        _ divergence: StepDivergence,
        cursor: Int,
        visible: (events: ArraySlice<TimedEvent<Output, Failure>>, stoppedAtViolation: Bool),
        deadline: Int64?
    ) -> ChainFailure {
        let index = chain.withLock { $0.steps.count - 1 }
        let divergentIndex = cursor + divergence.matched
        if divergence.atEvent {
            let event = recorder.events[divergentIndex]
            return ChainFailure(
                step: index, reason: "\(divergence.reason)\(Self.at(event.time))", event: divergentIndex,
                expected: step.missing(divergence.matched), gaveUpAt: nil, difference: divergence.difference,
                detail: divergence.detail
            )
        }
        if visible.stoppedAtViolation {
            let violatingIndex = visible.events.endIndex
            let event = recorder.events[violatingIndex]
            return ChainFailure(
                step: index,
                reason: "\(divergence.reason) never arrived: \(Self.describe(violation: event))",
                event: violatingIndex, expected: step.missing(divergence.matched), gaveUpAt: nil, difference: nil,
                detail: divergence.detail
            )
        }
        let now = recorder.now
        var reason = divergence.reason
        if !recorder.hasSubscribed {
            reason += " never arrived: the publisher never sent a subscription"
        } else if let clock {
            if let deadline, let window = step.window {
                reason += " did not arrive within \(VirtualTicks.describe(window)) (by tick \(deadline))"
                reason += lateArrival(of: step, cursor: cursor, deadline: deadline)
            } else {
                reason += " never arrived: the clock went idle at tick \(clock.now.ticks) with nothing scheduled"
            }
        } else {
            reason += " never arrived: nothing more was delivered synchronously, and there is no virtual clock to "
                + "advance (pass one with on:, or bind VirtualClock.current)"
        }
        return ChainFailure(
            step: index, reason: reason, event: nil, expected: step.missing(divergence.matched), gaveUpAt: now,
            difference: nil, detail: divergence.detail
        )
    }

    /// After a step with a budget failed for want of an event: runs the clock on (boundedly) and, if the step would
    /// have been satisfied late, says when.
    private func lateArrival(of step: ExpectationStep<Output, Failure>, cursor: Int, deadline: Int64) -> String {
        guard let clock, step.kind == .match else { return "" }
        var ran = 0
        while ran < Self.lookaheadActionLimit, let next = clock.nextDueTick {
            ran += clock.runActions(through: next, limit: Self.lookaheadActionLimit - ran).ran
            let events = recorder.events[cursor...]
            let visible = Self.visible(events, through: nil)
            switch step.evaluate(visible.events, true) {
            case let .satisfied(consumed) where consumed > 0:
                let tick = events[cursor + consumed - 1].tick ?? deadline
                return "; it arrived at tick \(tick), \(VirtualTicks.describe(.milliseconds(tick - deadline))) late"
            case .failed where recorder.eventCount > cursor:
                return ""
            default:
                continue
            }
        }
        return ""
    }

    /// `" at tick 5"`, `" at +12 ms"`, or nothing for an event delivered synchronously with no clock.
    static func at(_ time: EventTime) -> String {
        switch time {
        case .tick: " at \(time)"
        case .elapsed: ""
        }
    }

    /// Says how `event` broke the subscription contract.
    static func describe(violation event: TimedEvent<Output, Failure>) -> String {
        let what = EventText.received(event.event)
        let when = at(event.time)
        switch event.violation {
        case let .beyondDemand(requested):
            return "the publisher sent \(what)\(when) beyond the demand requested (\(EventText.demand(requested)) "
                + "in all), which breaks the subscription contract"
        case .valueAfterCompletion:
            return "the publisher sent \(what)\(when) after it had completed, which breaks the subscription contract"
        case .secondCompletion:
            return "the publisher completed a second time (\(what)\(when)), which breaks the subscription contract"
        case .afterCancel:
            return "the publisher sent \(what)\(when) after the subscription was cancelled"
        case .beforeSubscription:
            return "the publisher sent \(what)\(when) before it sent a subscription, which breaks the subscription "
                + "contract"
        case .secondSubscription:
            return "the publisher sent a second subscription\(when) (it was cancelled), which breaks the "
                + "subscription contract"
        case nil:
            return "\(what)\(when)"
        }
    }
}

extension Int {
    /// `1000000` as `"1,000,000"`.
    var formatted: String {
        let digits = String(magnitude)
        var result = ""
        for (offset, digit) in digits.enumerated() {
            if offset > 0, (digits.count - offset) % 3 == 0 { result.append(",") }
            result.append(digit)
        }
        return self < 0 ? "-" + result : result
    }
}
