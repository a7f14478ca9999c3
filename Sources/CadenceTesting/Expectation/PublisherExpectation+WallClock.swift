/// Wall-clock mode: the driver behind the steps' `async` forms, which take a `timeout:`.
///
/// A wall-clock step waits in real time for events from a publisher on a real scheduler (a `DispatchQueue`, another
/// thread, an `AsyncSequence`): it evaluates what has arrived, and while it is still pending it suspends — without
/// blocking a thread — until the next event arrives or its timeout runs out. It decides as soon as the outcome is
/// certain: a completion (or a subscription cancelled with `thenCancel()`) that rules the step out fails it at once,
/// not when the timeout runs out. The timeout counts from when the step starts.
///
/// A step's window is wall-clock time in this mode too: `toEmitNothing(timeout:)` waits out its whole timeout.
///
/// Wall-clock steps never advance a virtual clock, even when the expectation has one; a chain checked with them is
/// timed on the wall clock all the same — its timeouts judge, and its messages show, when the events arrived, not the
/// ticks of a clock that nobody runs. Test a publisher on virtual time with the synchronous steps (`within:`).
///
/// A step that gave up says why, completing the missing event:
///
/// ```text
/// toEmit([1, 2], timeout: .milliseconds(200)) failed: value 2 of 2 (2) did not arrive within the 200 ms timeout.
/// toFinish(timeout: .seconds(1)) failed: the finish had not arrived when the task waiting for it was cancelled.
/// thenEmit(3, timeout: .seconds(1)) failed: the value (3) never arrived: the publisher had already completed.
/// thenEmit(3, timeout: .seconds(1)) failed: the value (3) never arrived: the subscription was cancelled.
/// ```
///
/// A step that fails at an event names the event's time since `expect`: `"… received finished at +3.2 ms"`. A
/// timeout that runs out while the subscriber has no demand left says so (`"; the subscriber had no demand left
/// (.max(2) requested in all) — request more with thenRequest(_:)"`).
extension PublisherExpectation {
    /// Runs `step` in wall-clock time: appends it to the chain and, unless an earlier step failed, waits until it
    /// decides, at most `timeout` (which must not be negative).
    func perform(_ step: ChainStep<Output, Failure>, timeout: Duration) async {
        let (index, skip) = append(step, wallClock: true)
        if skip { return }
        if step.kind == .action {
            act(step, index: index)
            return
        }
        await wait(for: step, index: index, timeout: timeout)
    }

    /// Why a wall-clock step stopped waiting without being decided by an event.
    private enum GaveUp {
        /// The timeout (or the window) ran out.
        case timeout(Duration)
        /// The task waiting for the step was cancelled.
        case taskCancelled
        /// The publisher had completed: nothing more can arrive.
        case completed
        /// The subscription was cancelled (`thenCancel()`): nothing more can arrive.
        case subscriptionCancelled
    }

    /// Evaluates `step` each time an event arrives until it decides, its time is up, or the task is cancelled.
    private func wait(for step: ChainStep<Output, Failure>, index: Int, timeout: Duration) async {
        let waiter = WallClockWaiter()
        // Installed before the first read of the events: every event not in that read wakes the waiter later.
        let observer = recorder.observe { [weak waiter] event in waiter?.eventArrived(event) }
        defer { recorder.stopObserving(observer) }
        let limit = step.kind == .window ? (step.window ?? timeout) : min(step.window ?? timeout, timeout)
        let started = ContinuousClock.now
        // Events are timed from when `expect` subscribed; the deadline is on the same scale.
        let deadline = (started - recorder.start) + limit
        let wakeUp = started + min(limit, Self.longestWait)
        let timer = Task.detached {
            do {
                try await Task.sleep(until: wakeUp, clock: .continuous)
                waiter.deadlinePassed()
            } catch {
                // Cancelled: the step decided first.
            }
        }
        defer { timer.cancel() }

        var progress = StepProgress()
        while true {
            guard
                let waitFrom = look(
                    at: step, index: index, waiter: waiter, started: started, limit: limit,
                    deadline: deadline, progress: &progress)
            else { return }
            await waiter.wait(forEventAt: waitFrom)
        }
    }

    /// Shows the wall-clock `step` the events so far and settles it if it can: returns nil when it was satisfied or
    /// failed (the failure recorded), else the index of the event to wait for. Like the virtual-time driver's
    /// `settle`, it looks at each event a bounded number of times (`progress`), and lets the events go on return.
    private func look(
        at step: ChainStep<Output, Failure>,
        index: Int,
        waiter: WallClockWaiter,
        started: ContinuousClock.Instant,
        limit: Duration,
        deadline: Duration,
        progress: inout StepProgress
    ) -> Int? {
        // Read before the events: a completion or cancellation seen here is already among them.
        let status = waiter.status
        let timeUp = status.deadlinePassed || ContinuousClock.now - started >= limit
        let (completed, cancelled) = recorder.state.withLock { ($0.completed, $0.cancelled) }
        let (cursor, pending) = unconsumed()
        if cursor != progress.cursor || timeUp { progress = StepProgress(cursor: cursor) }
        // Once time is up, the deadline hides later events: every event is looked at again, once.
        let visible = Self.visible(
            pending, through: timeUp ? .elapsed(deadline) : nil, from: timeUp ? nil : progress.visibleEnd,
            onWallClock: true
        )
        // Events that arrived after the deadline are not the step's: nor is a completion among them.
        let hiddenByDeadline = visible.events.endIndex < pending.endIndex && !visible.stoppedAtViolation
        let gaveUp: GaveUp? =
            if completed, !hiddenByDeadline {
                .completed
            } else if cancelled, !hiddenByDeadline {
                .subscriptionCancelled
            } else if timeUp {
                .timeout(limit)
            } else {
                nil
            }
        let final = gaveUp != nil || visible.stoppedAtViolation
        switch step.evaluate(visible.events, final, known: timeUp ? 0 : progress.known) {
        case let .satisfied(consumed):
            consume(consumed, from: cursor, step: index)
            return nil
        case let .failed(divergence):
            consume(divergence.matched, from: cursor, step: index)
            fail(
                step: index,
                failure(
                    of: step, index: index, divergence, cursor: cursor, visible: visible,
                    gaveUp: gaveUp ?? .timeout(limit)), onWallClock: true)
            return nil
        case .pending:
            guard final || status.cancelled else {
                progress.visibleEnd = visible.events.endIndex
                progress.known = visible.events.count
                return pending.endIndex
            }
            // Cancelled while pending: what the step would have missed had nothing more arrived.
            let divergence =
                !final && step.kind == .match
                ? lacking(step, visible.events)
                : StepDivergence(.unmet(step.missing(0)), matched: 0, atEvent: false)
            consume(divergence.matched, from: cursor, step: index)
            fail(
                step: index,
                failure(
                    of: step, index: index, divergence, cursor: cursor, visible: visible,
                    gaveUp: gaveUp ?? .taskCancelled), onWallClock: true)
            return nil
        }
    }

    /// The longest a wall-clock step sleeps at once (a year): longer timeouts are as good as endless, and sleeping
    /// for them could overflow the runtime's timer.
    private static var longestWait: Duration { .seconds(365 * 24 * 3600) }

    /// The chain failure for `divergence` of the wall-clock `step`, with why it gave up.
    private func failure(
        of step: ChainStep<Output, Failure>,
        index: Int,
        _ divergence: StepDivergence,
        cursor: Int,
        visible: VisibleEvents,
        gaveUp: GaveUp
    ) -> ChainFailure {
        failure(of: step, index: index, divergence, cursor: cursor, visible: visible, timesEventsOnWallClock: true) {
            switch gaveUp {
            case .taskCancelled: .taskCancelled(window: step.kind == .window)
            case .completed: .completed
            case .subscriptionCancelled: .subscriptionCancelled
            case .timeout where !recorder.hasSubscribed: .noSubscription(hasClock: true)
            case let .timeout(limit): .timeout(limit, dueTick: clock?.nextDueTick, noDemand: exhaustedDemand())
            }
        }
    }
}
