import CadenceSupport

/// One stretch of virtual time — a test case under `.virtualTime`, or a `withVirtualTime` body — and what happens
/// when it ends.
///
/// A session owns a fresh ``VirtualClock`` and ``ExpectationScope``. While the body runs it binds the clock as
/// ``VirtualClock/current`` (so `DispatchQueue.test`, every `TestScheduler` and `expect` share it), a clock-misuse
/// reporter that records into the test as ``FailureReporter/current``, and the scope as
/// ``ExpectationScope/current``. When the body returns it runs the work due at that tick, reports the work still left
/// on the clock (unless `leftovers` is ``Leftovers/allowed``), drains the clock — running leftover work for at most
/// `horizon` of virtual time and ``actionLimit`` actions — then finishes the scope (late over-fulfilment), reports
/// work still pending, and ends the clock. When the body throws it only ends the clock and lets the error through.
struct VirtualTimeSession: Sendable {
    /// How many actions the drain runs at most before it gives up on a clock that never idles: a hundred thousand,
    /// far more than a test's leftover work, and few enough that a timer repeating every tick costs a fraction of a
    /// second, not seconds.
    static let actionLimit = 100_000

    /// How the session is written, for messages: `".virtualTime"` or `"withVirtualTime"`.
    let api: String
    /// What the session wraps, for messages: `"test body"` or `"body"`.
    let bodyName: String
    let horizon: Duration
    /// Whether work left on the clock when the body returns fails the test.
    let leftovers: Leftovers
    /// What the sleeps of the session's tasks on the system's clocks do (asynchronous sessions only).
    let systemClocks: SystemClocks
    /// Where the session's own reports go: clock misuse, a bad horizon, and unless leftovers are allowed the work the
    /// body left behind.
    let failures: FailureReporter
    /// Where the session's notes go — the "clock still busy" note when leftovers are allowed — at warning level when
    /// the test framework has one.
    let notes: FailureReporter
    /// Where the session's own reports are located: the `@Test`, or the `withVirtualTime` call.
    let location: SourceCodeLocation
    let clock: VirtualClock
    let scope: ExpectationScope
    /// The session's failures, with misuse located at the session: the clock's reporter, and ``FailureReporter/current``
    /// while the body runs, for the schedulers and operators.
    let misuse: FailureReporter

    init(
        api: String,
        bodyName: String,
        horizon: Duration,
        leftovers: Leftovers,
        systemClocks: SystemClocks = .real,
        failures: FailureReporter,
        notes: FailureReporter,
        location: SourceCodeLocation,
        chooser: ScheduleChooser? = nil,
        endedRun: String? = nil
    ) {
        self.api = api
        self.bodyName = bodyName
        self.horizon = horizon
        self.leftovers = leftovers
        self.systemClocks = systemClocks
        self.failures = failures
        self.notes = notes
        self.location = location
        misuse = failures.forSession(at: location)
        clock = VirtualClock(reporter: misuse, sessionExecutor: true, chooser: chooser, endedRun: endedRun)
        scope = ExpectationScope()
    }

    // MARK: Running

    /// Runs `body` on the session's clock and scope, then drains and reports; ends the clock either way.
    func run<R>(_ body: (VirtualClock) throws -> R) rethrows -> R {
        defer { clock.end() }
        return try VirtualClock.$current.withValue(clock) {
            try FailureReporter.$current.withValue(misuse) {
                try ExpectationScope.$current.withValue(scope) {
                    let result = try body(clock)
                    finish()
                    return result
                }
            }
        }
    }

    /// Runs `body` on the session's clock and scope, with the tasks it starts on the session's executor, then drains
    /// and reports; ends the clock and the executor either way.
    ///
    /// The body itself runs on the executor too: the session parks the calling task once before the body, and it
    /// resumes as the session's first job. Once the body returns and the clock is drained, the clock ends (waking
    /// its sleepers with `CancellationError`), the tasks run until idle once more, and the session reports its tasks
    /// still ready to run (handed back to the runtime, cancelled) or still alive.
    func run<R>(
        isolation: isolated (any Actor)?,
        _ body: (VirtualClock) async throws -> R
    ) async rethrows -> R {
        let onMainActor = isolation.map { $0 === MainActor.shared } ?? false
        let executor = clock.executor.flatMap { $0.begin(onMainActor: onMainActor) ? $0 : nil }
        if systemClocks == .virtual, executor == nil || !clock.virtualizeSystemSleeps() {
            report(.systemClocksStayReal(VirtualClock.systemSleepSupport), to: failures)
        }
        await executor?.waitUntilIdle(origin: "Starting \(api)")
        var membership = executor.map { _ in SessionExecutor.Membership() }
        let result: R
        do {
            result = try await SessionExecutor.$current.withValue(
                membership,
                operation: {
                    try await VirtualClock.$current.withValue(
                        clock,
                        operation: {
                            try await FailureReporter.$current.withValue(
                                misuse,
                                operation: {
                                    try await ExpectationScope.$current.withValue(
                                        scope,
                                        operation: {
                                            let result = try await body(clock)
                                            await finish()
                                            return result
                                        }, isolation: isolation)
                                }, isolation: isolation)
                        }, isolation: isolation)
                }, isolation: isolation)
        } catch {
            clock.end()
            executor?.end()
            throw error
        }
        clock.end()
        guard let executor else { return result }
        let left = await executor.endWhenIdle()
        let reported = executor.hasReportedRunaway
        weak let member = membership
        membership = nil
        if left > 0 {
            // Reported already by the test's own wait, as still running: one task, one report.
            if !reported { report(.tasksStillReady(jobs: left), to: failures) }
        } else if member != nil {
            report(.tasksStillAlive(fails: fails), to: fails ? failures : notes)
        }
        return result
    }

    // MARK: Finishing

    /// Whether work left behind fails the test.
    private var fails: Bool { leftovers == .fail }

    /// Notes that the body has returned, runs the work due then, reports the work left behind, drains the clock up to
    /// the horizon, reports late events, then reports any work still pending.
    func finish() {
        scope.noteBodyReturned()
        let (returnedAt, horizonTick) = horizonTick()
        let due = drain(through: returnedAt, limit: Self.actionLimit)
        let leftBehind = !due.stoppedOnLimit && reportLeftBehind(returnedAt: returnedAt)
        let drained =
            due.stoppedOnLimit ? due : drain(through: horizonTick, limit: Self.actionLimit - due.ran, after: due.ran)
        report(drained: drained, returnedAt: returnedAt, horizonTick: horizonTick, leftBehind: leftBehind)
    }

    /// Notes that the body has returned, lets the session's tasks run until idle and runs the work due then, reports
    /// the work left behind, drains the clock up to the horizon — letting the tasks run until idle before each tick's
    /// work and after it — reports late events, then reports any work still pending.
    nonisolated(nonsending) func finish() async {
        scope.noteBodyReturned()
        let (returnedAt, horizonTick) = horizonTick()
        // A task that never suspends is reported once, by what the session finds left when it ends: no waiter.
        let due = await clock.runTasksAndActions(
            through: returnedAt, limit: Self.actionLimit, movingTimeToTarget: false, waiter: nil
        )
        let leftBehind = !due.stoppedOnLimit && reportLeftBehind(returnedAt: returnedAt)
        var drained = due
        if !due.stoppedOnLimit {
            let rest = await clock.runTasksAndActions(
                through: horizonTick, limit: Self.actionLimit - due.ran, movingTimeToTarget: false, waiter: nil
            )
            drained = (due.ran + rest.ran, rest.stoppedOnLimit)
        }
        report(drained: drained, returnedAt: returnedAt, horizonTick: horizonTick, leftBehind: leftBehind)
    }

    /// Reports, unless leftovers are allowed, the tasks asleep on the clock and the actions scheduled on it once the
    /// work due when the body returned has run; returns whether there were any.
    private func reportLeftBehind(returnedAt: Int64) -> Bool {
        guard fails else { return false }
        let actions = clock.pendingActions
        let tasks = clock.sleepingTasksNow.map { task in
            SessionProblem.SleepingTask(
                origin: task.origin, location: task.location, since: task.since, until: task.deadline
            )
        }
        guard !tasks.isEmpty || !actions.isEmpty else { return false }
        report(
            .leftBehind(
                returnedAt: returnedAt, tasks: tasks, actions: actions.filter { !$0.repeats }.map(\.due),
                repeating: actions.filter(\.repeats).map(\.due)
            ), to: failures)
        return true
    }

    /// The tick the body returned at and the last tick the drain may reach; reports a negative horizon.
    private func horizonTick() -> (returnedAt: Int64, horizonTick: Int64) {
        let returnedAt = clock.now.ticks
        if horizon < .zero {
            report(.negativeHorizon(horizon, returnedAt: returnedAt), to: failures)
        }
        let (sum, overflow) = returnedAt.addingReportingOverflow(VirtualTicks.count(in: max(horizon, .zero)))
        return (returnedAt, overflow ? Int64.max : sum)
    }

    /// Finishes the scope (late over-fulfilment), then reports the work the drain left pending — unless it was
    /// reported already as left behind.
    private func report(
        drained: (ran: Int, stoppedOnLimit: Bool), returnedAt: Int64, horizonTick: Int64, leftBehind: Bool
    ) {
        let (ran, stoppedOnLimit) = drained
        scope.finish()
        var pending = clock.pendingDueTicks
        // Work due inside the horizon that the drain did not run was scheduled after the drain found the clock idle:
        // by a task the body started and that was still running (it woke, then slept again on another thread).
        let stragglers = stoppedOnLimit ? [] : pending.filter { $0 <= horizonTick }
        if !stragglers.isEmpty {
            pending.removeAll { $0 <= horizonTick }
            report(.stragglers(ticks: stragglers), to: fails ? failures : notes)
        }
        guard !pending.isEmpty, !leftBehind else { return }
        let busy: SessionProblem.Busy =
            stoppedOnLimit
            ? .actionLimit(ran: ran, returnedAt: returnedAt, stoppedAt: clock.now.ticks)
            : .horizon(max(horizon, .zero), returnedAt: returnedAt)
        // The sleeps among them are tasks left asleep, not actions: said apart, so a lone sleep is not taken for a
        // repeating timer.
        // Both lists are sorted: one pass takes each sleep's tick out of the pending ticks.
        var actions: [Int64] = []
        var sleeps: [Int64] = []
        let sleepTicks = clock.pendingSleepTicks
        var next = 0
        for tick in pending {
            while next < sleepTicks.count, sleepTicks[next] < tick { next += 1 }
            if next < sleepTicks.count, sleepTicks[next] == tick {
                sleeps.append(tick)
                next += 1
            } else {
                actions.append(tick)
            }
        }
        report(.neverRan(ticks: actions, sleeps: sleeps, busy: busy, fails: fails), to: fails ? failures : notes)
    }

    /// Reports `problem` to `reporter`, at the session's location.
    private func report(_ problem: SessionProblem.Kind, to reporter: FailureReporter) {
        let message = SessionText.message(SessionProblem(api: api, bodyName: bodyName, kind: problem))
        reporter.report(ExpectationFailure(message: message, location: location))
    }

    /// Runs the clock's work due by `horizonTick`, moving time only to each action's due tick, for at most `limit`
    /// actions more than the `after` that already ran.
    ///
    /// - Returns: how many actions ran in all, and whether it stopped on the limit with work due by `horizonTick`
    ///   waiting.
    private func drain(through horizonTick: Int64, limit: Int, after: Int = 0) -> (ran: Int, stoppedOnLimit: Bool) {
        var ran = 0
        while let next = clock.nextDueTick, next <= horizonTick {
            if ran >= limit { return (after + ran, true) }
            let (count, _) = clock.runActions(through: next, limit: limit - ran)
            ran += count
        }
        return (after + ran, false)
    }
}
