/// Limits on how long a step drives its clock, bindable for the extent of a task so tests of the limits run fast.
enum DrivingLimits {
    /// How many clock actions one step runs at most while it waits, before it gives up (an endless timer would keep
    /// it waiting forever); ``VirtualClock/defaultActionLimit`` unless bound otherwise.
    @TaskLocal static var stepActions = VirtualClock.defaultActionLimit

    /// How many clock actions a failed wait with a budget runs, after its deadline, to see whether what it waited for
    /// came late: a budget step of the chain, or a wait of the XCTest shims (`wait(for:advancing:by:)`).
    static let lookaheadActions = 10_000
}

extension PublisherExpectation {
    /// How many clock actions one step runs at most while it waits, before it gives up.
    static var stepActionLimit: Int { DrivingLimits.stepActions }

    /// How many clock actions a failed step with a budget runs, after its deadline, to see whether what it waited for
    /// came late.
    static var lookaheadActionLimit: Int { DrivingLimits.lookaheadActions }

    /// Runs `step` now: appends it to the chain and, unless an earlier step failed, drives the clock until it decides.
    func perform(_ step: ChainStep<Output, Failure>) {
        let (index, skip) = append(step)
        if skip { return }
        if step.kind == .action {
            act(step, index: index)
            return
        }
        drive(step, index: index)
    }

    /// Runs the action `step` (step `index`), failing the chain when it could not act.
    func act(_ step: ChainStep<Output, Failure>, index: Int) {
        guard let problem = step.step.act(on: self) else { return }
        fail(
            step: index,
            ChainFailure(
                step: index, reason: .action(problem), event: nil, expected: .liveSubscription,
                gaveUpAt: recorder.now, difference: nil
            ))
    }

    /// Records that step `index` failed.
    func fail(step index: Int, _ failure: ChainFailure, onWallClock: Bool = false) {
        chain.withLock { chain in
            guard chain.failure == nil else { return }
            chain.failure = failure
            chain.failedOnWallClock = onWallClock
        }
        // The failure is reported when the chain ends, which may be on another thread.
        reporter.startRelay()
    }

    /// Marks the first `count` events from the cursor as consumed by step `index`.
    func consume(_ count: Int, from cursor: Int, step index: Int) {
        chain.withLock { chain in
            for event in cursor..<cursor + count { chain.consumedBy[event] = index }
            chain.cursor = cursor + count
        }
    }

    /// The events not yet consumed, after skipping leading subscriptions: the one that keeps the contract, and a
    /// second one (cancelled at once, it changes nothing the steps check; it stays unconsumed, for the chain's end
    /// to report).
    func unconsumed() -> (cursor: Int, events: ArraySlice<TimedEvent<Output, Failure>>) {
        var cursor = chain.withLock { $0.cursor }
        let events = recorder.events
        while cursor < events.count, events[cursor].kind == .subscription,
            events[cursor].violation == nil || events[cursor].violation == .secondSubscription
        {
            cursor += 1
        }
        chain.withLock { $0.cursor = max($0.cursor, cursor) }
        return (cursor, events[cursor..<events.endIndex])
    }

    /// Drives `clock` (or, with none, looks only at what has arrived) until `step` decides.
    ///
    /// The step starts at the clock's `now`. With a budget its deadline is that tick plus the budget, inclusive:
    /// work due at the deadline runs, and `.ticks(0)` runs only the work already due now. The clock moves one due
    /// tick at a time, running all the work due at it, and stops at the tick where the step settles, or at the
    /// deadline; with no budget it runs until the step settles or nothing is left to run, at most
    /// ``stepActionLimit`` actions (an endless timer is reported, not waited on). Only a step that failed for want of
    /// an event with a budget runs the clock on past its deadline, to say whether the event came late (see
    /// `lateArrival(of:cursor:deadline:)`).
    func drive(_ step: ChainStep<Output, Failure>, index: Int) {
        let start = clock?.now.ticks
        let deadline: Int64? = step.window.flatMap { window in
            start.map { start in
                let (sum, overflow) = start.addingReportingOverflow(VirtualTicks.count(in: window))
                return overflow ? .max : sum
            }
        }
        var actionsRun = 0
        var progress = StepProgress()
        while true {
            letTasksRun(step)
            if settle(step, index: index, deadline: deadline, progress: &progress) { return }
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
                gaveUp(step, index: index, afterRunning: actionsRun, on: clock, deadline: deadline)
                return
            }
        }
    }

    /// Shows `step` the events that arrived since it started and settles it if it can: returns true when it was
    /// satisfied or failed (the failure recorded), false while it waits for more. `progress` carries what earlier
    /// looks learnt, so that each event is looked at a bounded number of times however many ticks the step waits:
    /// how far the events were found visible, and how many the step matched while pending. The events are read
    /// here and let go on return, so the clock's work, which appends to them, never copies them.
    private func settle(
        _ step: ChainStep<Output, Failure>, index: Int, deadline: Int64?, progress: inout StepProgress
    ) -> Bool {
        let (cursor, pending) = unconsumed()
        if cursor != progress.cursor { progress = StepProgress(cursor: cursor) }
        let visible = Self.visible(pending, through: deadline.map(EventTime.tick), from: progress.visibleEnd)
        progress.visibleEnd = visible.events.endIndex
        let final = isFinal(deadline: deadline)
        let outcome = step.evaluate(visible.events, final || visible.stoppedAtViolation, known: progress.known)
        switch outcome {
        case let .satisfied(consumed):
            consume(consumed, from: cursor, step: index)
            return true
        case let .failed(divergence):
            consume(divergence.matched, from: cursor, step: index)
            fail(
                step: index,
                failure(
                    of: step, index: index, divergence, cursor: cursor, visible: visible, deadline: deadline
                ))
            return true
        case .pending:
            if final || visible.stoppedAtViolation {
                // A step must decide once nothing more can arrive; treat indecision as a missing event.
                let divergence = StepDivergence(.unmet(step.missing(0)), matched: 0, atEvent: false)
                fail(
                    step: index,
                    failure(
                        of: step, index: index, divergence, cursor: cursor, visible: visible, deadline: deadline
                    ))
                return true
            }
            progress.known = visible.events.count
            return false
        }
    }

    /// What a waiting step's earlier looks at the events learnt (see `settle(_:index:deadline:progress:)`).
    struct StepProgress {
        /// The first unconsumed event when they looked.
        var cursor = -1
        /// The end of the events found visible: every event from `cursor` up to it arrived inside the window and
        /// kept the contract. Nil before the first look.
        var visibleEnd: Int?
        /// How many of the visible events the step had matched when it last answered `.pending`.
        var known = 0
    }

    /// Lets the test's tasks that are ready to run run until each is suspended again, when the step runs inside a job
    /// of its clock's session (see `VirtualClock.runReadyTasks(origin:)`): before the step first looks at the events,
    /// and after each tick's work.
    private func letTasksRun(_ step: ChainStep<Output, Failure>) {
        clock?.runReadyTasks(origin: StepText.call(step.name, step.step.arguments, step.timing))
    }

    /// Settles `step` after it ran out of clock actions with work still due inside its window: satisfied by what
    /// arrived, failed at a divergent event, or failed for want of one — a runaway clock.
    private func gaveUp(
        _ step: ChainStep<Output, Failure>,
        index: Int,
        afterRunning actionsRun: Int,
        on clock: VirtualClock,
        deadline: Int64?
    ) {
        let (cursor, pending) = unconsumed()
        let visible = Self.visible(pending, through: deadline.map(EventTime.tick))
        let divergence: StepDivergence
        switch step.evaluate(visible.events, false) {
        case let .satisfied(consumed):
            consume(consumed, from: cursor, step: index)
            return
        case let .failed(atEvent):
            divergence = atEvent
        case .pending:
            divergence = lacking(step, visible.events)
        }
        consume(divergence.matched, from: cursor, step: index)
        var failure = failure(
            of: step, index: index, divergence, cursor: cursor, visible: visible, deadline: nil
        )
        if !divergence.atEvent, step.kind == .window {
            failure.reason = .runawayWindow(
                end: deadline ?? clock.now.ticks, actions: actionsRun, tick: clock.now.ticks
            )
        } else if !divergence.atEvent {
            failure.reason = .missing(
                divergence.reason,
                because: .runawayClock(
                    actions: actionsRun, tick: clock.now.ticks, hasBudget: deadline != nil, noDemand: exhaustedDemand()
                ))
        }
        fail(step: index, failure)
    }

    /// What a pending step still lacks, as it would say if nothing more could arrive: the events it matched and what
    /// it still waited for — or, when it cannot say, what it expected first.
    func lacking(
        _ step: ChainStep<Output, Failure>, _ events: ArraySlice<TimedEvent<Output, Failure>>
    ) -> StepDivergence {
        if case let .failed(lacking) = step.evaluate(events, true), !lacking.atEvent { return lacking }
        return StepDivergence(.unmet(step.missing(0)), matched: 0, atEvent: false)
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

    /// The events a step may look at: those that arrived by `deadline` (a tick on a virtual clock, a time since
    /// `expect` on the wall clock; nil for all), up to (not including) the first contract violation.
    /// Events before `from` (when given) are known to be visible and are not looked at again.
    static func visible(
        _ events: ArraySlice<TimedEvent<Output, Failure>>, through deadline: EventTime?, from known: Int? = nil,
        onWallClock: Bool = false
    ) -> VisibleEvents {
        var end = known.map { min(max($0, events.startIndex), events.endIndex) } ?? events.startIndex
        while end < events.endIndex {
            let event = events[end]
            if let deadline, (onWallClock ? .elapsed(event.elapsed) : event.time).isLater(than: deadline) {
                return (events[..<end], false)
            }
            if event.violation != nil { return (events[..<end], true) }
            end += 1
        }
        return (events, false)
    }

    /// The events a step may look at, and whether they stop short of one that broke the contract.
    typealias VisibleEvents = (events: ArraySlice<TimedEvent<Output, Failure>>, stoppedAtViolation: Bool)

    /// The chain failure for `divergence` of `step`, with why the step gave up.
    private func failure(
        of step: ChainStep<Output, Failure>,
        index: Int,
        _ divergence: StepDivergence,
        cursor: Int,
        visible: VisibleEvents,
        deadline: Int64?
    ) -> ChainFailure {
        failure(of: step, index: index, divergence, cursor: cursor, visible: visible, timesEventsOnWallClock: false) {
            // When the step gave up: before a budgeted step runs the clock on to see whether the event came late.
            let noDemand = exhaustedDemand()
            if let clock {
                if let deadline, let window = step.window {
                    return .budget(
                        window: window, deadline: deadline, subscribed: recorder.hasSubscribed,
                        late: lateArrival(of: step, cursor: cursor, deadline: deadline), noDemand: noDemand
                    )
                }
                if !recorder.hasSubscribed { return .noSubscription(hasClock: true) }
                if let noDemand { return .noDemand(requested: noDemand) }
                return .idleClock(tick: clock.now.ticks, noDemand: nil)
            }
            if !recorder.hasSubscribed { return .noSubscription(hasClock: false) }
            if let noDemand { return .noDemand(requested: noDemand) }
            // A step without timeout: after wall-clock steps: it looked once and did not wait.
            if chain.withLock({ $0.usesWallClock }) { return .notWaitingOnWallClock }
            return .nothingSynchronous
        }
    }

    /// The chain failure for `divergence` of `step`, for either driver: at the divergent event, at the event that
    /// broke the contract, or else for want of an event, for the reason `cause` gives (asked only then).
    /// `timesEventsOnWallClock` says whether the sentence names an event's wall-clock time (`"at +3.2 ms"`); the
    /// virtual-time driver names ticks only.
    func failure(
        of step: ChainStep<Output, Failure>,
        index: Int,
        _ divergence: StepDivergence,
        cursor: Int,
        visible: VisibleEvents,
        timesEventsOnWallClock: Bool,
        cause: () -> MissingCause
    ) -> ChainFailure {
        let expected = step.missing(divergence.matched)
        if divergence.atEvent {
            let divergentIndex = cursor + divergence.matched
            let event = recorder.events[divergentIndex]
            let time: EventTime? =
                if timesEventsOnWallClock {
                    .elapsed(event.elapsed)
                } else if case .tick = event.time {
                    event.time
                } else {
                    nil
                }
            return ChainFailure(
                step: index, reason: .atEvent(divergence.reason, time: time, earlyBy: divergence.earlyBy),
                event: divergentIndex, expected: expected, gaveUpAt: nil, difference: divergence.difference,
                detail: divergence.detail
            )
        }
        if visible.stoppedAtViolation {
            let violatingIndex = visible.events.endIndex
            let event = recorder.events[violatingIndex]
            return ChainFailure(
                step: index, reason: .missing(divergence.reason, because: .contractBreak(ContractBreak(event))),
                event: violatingIndex, expected: expected, gaveUpAt: nil, difference: nil, detail: divergence.detail
            )
        }
        let now = timesEventsOnWallClock ? .elapsed(recorder.elapsedNow) : recorder.now
        return ChainFailure(
            step: index, reason: .missing(divergence.reason, because: cause()), event: nil, expected: expected,
            gaveUpAt: now, difference: nil, detail: divergence.detail
        )
    }

    /// All the demand the subscriber requested, when the live subscription has none outstanding — so the publisher
    /// may not send a value; else nil.
    func exhaustedDemand() -> Subscribers.Demand? {
        let (live, outstanding, requested) = recorder.state.withLock { state in
            (state.subscription != nil && !state.cancelled, state.outstanding, state.requested)
        }
        guard live, outstanding == .none else { return nil }
        return requested
    }

    /// After a step with a budget failed for want of an event: runs the clock on (boundedly) and, if the step would
    /// have been satisfied late, says when.
    ///
    /// This is the one time a step runs the clock past its window: what it runs would otherwise have run at the next
    /// step, which a failed chain does not run.
    private func lateArrival(
        of step: ChainStep<Output, Failure>, cursor: Int, deadline: Int64
    ) -> LateArrival? {
        guard let clock else { return nil }
        if step.kind == .window { return nextEvent(after: step, on: clock) }
        guard step.kind == .match else { return nil }
        var ran = 0
        var progress = StepProgress()
        while ran < Self.lookaheadActionLimit, let next = clock.nextDueTick {
            ran += clock.runActions(through: next, limit: Self.lookaheadActionLimit - ran).ran
            letTasksRun(step)
            switch lateOutcome(of: step, cursor: cursor, progress: &progress) {
            case let .satisfied(tick):
                let tick = tick ?? deadline
                return .arrived(tick: tick, late: tick - deadline)
            case .ruledOut:
                return nil
            case .waiting:
                continue
            }
        }
        return nil
    }

    /// What `step` makes of the events after `cursor` while the clock runs on past its deadline (see
    /// `lateArrival(of:cursor:deadline:)`); like `settle(_:index:deadline:progress:)`, it looks at each event a
    /// bounded number of times, and lets the events go on return.
    private func lateOutcome(
        of step: ChainStep<Output, Failure>, cursor: Int, progress: inout StepProgress
    ) -> LateOutcome {
        var start = cursor
        let events = recorder.events
        while start < events.count, case .subscription = events[start].event, events[start].violation == nil {
            start += 1
        }
        if start != progress.cursor { progress = StepProgress(cursor: start) }
        let visible = Self.visible(events[start...], through: nil, from: progress.visibleEnd)
        progress.visibleEnd = visible.events.endIndex
        switch step.evaluate(visible.events, false, known: progress.known) {
        case let .satisfied(consumed) where consumed > 0:
            return .satisfied(tick: events[start + consumed - 1].tick)
        case .failed:
            return .ruledOut
        case .satisfied:
            return visible.stoppedAtViolation ? .ruledOut : .waiting
        case .pending:
            if visible.stoppedAtViolation { return .ruledOut }
            progress.known = visible.events.count
            return .waiting
        }
    }

    /// What the events after a failed step's deadline say of it so far.
    private enum LateOutcome {
        /// The step would have been satisfied by an event at this tick.
        case satisfied(tick: Int64?)
        /// It would have failed anyway, or a contract break ends the look.
        case ruledOut
        /// Nothing decides yet.
        case waiting
    }

    /// After a window step (`toMatch`) failed for want of an event: runs the clock on (boundedly) to the next event
    /// and returns what it was and when, or nil if none came. A window step matches a whole timeline, so the event
    /// that came later is named, not judged.
    private func nextEvent(after step: ChainStep<Output, Failure>, on clock: VirtualClock) -> LateArrival? {
        let seen = recorder.events.count
        var ran = 0
        while ran < Self.lookaheadActionLimit, let next = clock.nextDueTick {
            ran += clock.runActions(through: next, limit: Self.lookaheadActionLimit - ran).ran
            letTasksRun(step)
            let later = recorder.events.dropFirst(seen).first { event in
                if case .subscription = event.event { false } else { true }
            }
            if let event = later {
                return .nextEvent(Received(event.event), time: event.time)
            }
        }
        return nil
    }
}

extension EventTime {
    /// Whether this time comes after `other` on the same scale; times on different scales (a tick and a time since
    /// `expect`) are not ordered.
    func isLater(than other: EventTime) -> Bool {
        switch (self, other) {
        case let (.tick(a), .tick(b)): a > b
        case let (.elapsed(a), .elapsed(b)): a > b
        default: false
        }
    }
}
