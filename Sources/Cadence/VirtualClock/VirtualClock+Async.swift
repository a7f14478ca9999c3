extension VirtualClock {
    /// Moves time forward by `duration`, letting the test's tasks run until each is suspended again before time moves,
    /// and again after each tick's due work.
    ///
    /// On the clock of a session — `@Test(.virtualTime)`, `@Suite(.virtualTime)`, `await withVirtualTime { clock in }`
    /// — whose tasks run on the session's serial executor (see Guides/AsyncAwait.md), this call first runs every
    /// one of them that is ready until it suspends — on the clock, on a continuation nobody has resumed yet — or
    /// finishes; then, tick by tick up to the target, it runs the work due
    /// on that tick (waking sleepers, running scheduled actions, first scheduled first) and again lets every task
    /// that is ready run; then it moves `now` to the target and returns. No yields, no sleeps, no polling:
    ///
    /// ```swift
    /// loader.start()                          // Task { log "start"; sleep 1 s; log "one"; sleep 1 s; log "two" }
    /// await clock.advance(by: .zero)          // log == ["start"]
    /// await clock.advance(by: .seconds(1))    // log == ["start", "one"]
    /// await clock.run()                       // log == ["start", "one", "two"]
    /// ```
    ///
    /// A task that never suspends and never finishes (a loop of `Task.yield()`) would keep the test busy forever: the
    /// wait gives up after a hundred thousand jobs, reports it, and goes on.
    ///
    /// A clock made outside a session (`VirtualClock()`, `DispatchQueue.test`) knows no tasks of its own, so it waits
    /// as swift-clocks' `TestClock` users expect, deterministically, until no task of the whole process is ready to
    /// run: every job no session takes is counted while such a clock is alive, and the clock waits for each one queued
    /// since it was made. A task that is about to sleep on the clock gets there before time moves; a job already
    /// running or queued when the clock was made — another test's long synchronous body — could not be on its way to
    /// it, and is not waited for. Work that never settles — a task that never suspends, another test's work running in
    /// parallel, a job blocked for five seconds — is reported with the sleeps the clock saw, and time moves on. Under
    /// parallel tests, prefer a session's clock, which waits on its own tasks only.
    nonisolated(nonsending) public func advance(
        by duration: Duration = .zero, limit: Int = VirtualClock.defaultActionLimit
    ) async {
        let origin = "VirtualClock.advance(by:)"
        await drive(
            through: target(byTicks: Duration.virtualTicks(in: duration), origin: origin), limit: limit,
            origin: origin)
    }

    /// Moves time forward to `deadline`, letting the test's tasks run before time moves and after each tick's due
    /// work (see `advance(by:limit:)`).
    nonisolated(nonsending) public func advance(
        to deadline: Instant, limit: Int = VirtualClock.defaultActionLimit
    ) async {
        let origin = "VirtualClock.advance(to:)"
        await drive(through: target(toTick: deadline.ticks, origin: origin), limit: limit, origin: origin)
    }

    /// Runs the test's tasks and the clock's work, moving time to each action's due tick, until every task is
    /// suspended off the clock or finished and nothing is left scheduled (bounded as `run(limit:)` is).
    nonisolated(nonsending) public func run(limit: Int = VirtualClock.defaultActionLimit) async {
        await drive(through: nil, limit: limit, origin: "VirtualClock.run()")
    }

    /// Runs the test's tasks and the clock's work as ``run(limit:)-8ekw4`` does, tick by tick, for at most `timeout`
    /// of real time: work still scheduled then — a repeating timer, a task that sleeps again each time it wakes — is
    /// reported and left pending. swift-clocks' `TestClock.run(timeout:)` spells it so.
    ///
    /// ```swift
    /// await clock.run(timeout: .seconds(1))
    /// ```
    nonisolated(nonsending) public func run(timeout: Duration) async {
        let origin = "VirtualClock.run(timeout:)"
        let deadline = ContinuousClock.now.advanced(by: timeout)
        while true {
            await drive(through: now.ticks, limit: Self.defaultActionLimit, origin: origin)
            guard let next = nextDueTick else { return }
            guard ContinuousClock.now < deadline else {
                return reporter.report(
                    "\(origin) gave up after \(timeout) of real time at tick \(now.ticks), with work still scheduled "
                        + "from tick \(next) on: a repeating timer or a task that sleeps again each time it wakes keeps "
                        + "the clock busy. Advance by a duration instead, or end that work."
                )
            }
            await drive(through: next, limit: Self.defaultActionLimit, origin: origin)
        }
    }

    /// Drives the clock to `target` (until idle when nil), letting the session's tasks run between ticks; reports a
    /// bad limit and a stop on the limit as `origin`.
    nonisolated(nonsending) package func drive(through target: Int64?, limit: Int, origin: String) async {
        let limit = validated(limit: limit, origin: origin)
        let firstSequence = state.withLock { $0.nextSequence }
        let (ran, stoppedOnLimit) = await runTasksAndActions(
            through: target, limit: limit, movingTimeToTarget: true, waiter: "await \(origin)"
        )
        if stoppedOnLimit { reportStop(afterRunning: ran, origin: origin, since: firstSequence) }
    }

    /// Lets the session's tasks that are ready to run run until each is suspended again, synchronously — when called
    /// from one of the session's jobs (see `SessionExecutor.runReadyJobs(origin:)`); elsewhere, and on a clock of
    /// no session, it does nothing.
    package func runReadyTasks(origin: @autoclosure () -> String) {
        executor?.runReadyJobs(origin: origin())
    }

    /// Lets the session's tasks run until idle, then runs the actions due on the next tick and lets the tasks run
    /// again, tick by tick through `target` (all of them when nil), for at most `limit` actions; then moves time to
    /// `target` when told to. Reports nothing but a runaway task (as `waiter`; nil reports none).
    ///
    /// Without a session executor it is the synchronous ``runActions(through:limit:)``.
    ///
    /// - Returns: how many actions ran, and whether it stopped on `limit` with work due by `target` still waiting.
    nonisolated(nonsending) package func runTasksAndActions(
        through target: Int64?,
        limit: Int,
        movingTimeToTarget: Bool,
        waiter: String?
    ) async -> (ran: Int, stoppedOnLimit: Bool) {
        guard executor != nil || settleEpoch != nil else {
            if movingTimeToTarget { return runActions(through: target, limit: limit) }
            var ran = 0
            while let next = nextDueTick, target.map({ next <= $0 }) ?? true {
                if ran >= limit { return (ran, true) }
                ran += runActions(through: next, limit: limit - ran).ran
            }
            return (ran, false)
        }
        var ran = 0
        await waitForTasks(origin: waiter)
        while let next = nextDueTick, target.map({ next <= $0 }) ?? true {
            if ran >= limit { return (ran, true) }
            ran += runActions(through: next, limit: limit - ran).ran
            await waitForTasks(origin: waiter)
        }
        if movingTimeToTarget, let target { state.withLock { $0.now = max($0.now, target) } }
        return (ran, false)
    }

    /// Lets the tasks run until each is suspended: the session's, on its executor; on a clock made outside a session,
    /// every task of the process (see ``SettleWatch``), reporting as `origin` a wait that gave up (nil reports none).
    nonisolated(nonsending) package func waitForTasks(origin: String?) async {
        if let executor { return await executor.waitUntilIdle(origin: origin) }
        guard let settleEpoch else { return }
        let outcome = await SettleWatch.settle(since: settleEpoch)
        guard let origin, outcome != .settled else { return }
        reportUnsettled(outcome, origin: origin)
    }

    /// Reports a wait of a clock made outside a session that gave up, as `origin`, naming the sleeps the clock saw.
    private func reportUnsettled(_ outcome: SettleWatch.Outcome, origin: String) {
        let sleeps = pendingSleepTicks
        let saw =
            sleeps.isEmpty
            ? "no task asleep on it"
            : "\(sleeps.count == 1 ? "1 task" : "\(sleeps.count) tasks") asleep on it until "
                + (sleeps.count == 1 ? "tick \(sleeps[0])" : "ticks " + sleeps.map(String.init).joined(separator: ", "))
        let why: String
        switch outcome {
        case .settled:
            return
        case let .busy(jobs):
            why =
                "after \(jobs.formatted) jobs ran, work was still running: a task that never suspends (a loop of "
                + "Task.yield()?), or another test's work running in parallel, keeps the process busy"
        case let .stuck(running):
            why =
                "for \(SettleWatch.stuckAfterSeconds) s of real time no job returned, with "
                + "\(running == 1 ? "1 job" : "\(running) jobs") running: a job blocked on a semaphore, a lock or a "
                + "synchronous wait never lets the process settle"
        }
        reporter.report(
            "\(origin) stopped waiting for the tasks to reach their sleeps at tick \(now.ticks), with \(saw): a clock "
                + "made outside a session waits until no task of the process is ready to run, and \(why). Time moved "
                + "on without waiting for the rest. Run the test in withVirtualTime or under the .virtualTime trait, "
                + "whose clock waits on the test's own tasks only."
        )
    }
}

extension TestScheduler {
    /// Advances the clock by `stride`, letting the test's tasks run before time moves and after each tick's due work
    /// (see `VirtualClock.advance(by:limit:)`).
    public func advance(by stride: SchedulerTimeType.Stride = 0) async {
        let origin = "TestScheduler.advance(by:)"
        await clock.drive(
            through: clock.target(byTicks: SchedulerTimeType.virtualTicks(in: stride), origin: origin),
            limit: VirtualClock.defaultActionLimit, origin: origin
        )
    }

    /// Advances the clock to `date`, letting the test's tasks run before time moves and after each tick's due work.
    public func advance(to date: SchedulerTimeType) async {
        let origin = "TestScheduler.advance(to:)"
        await clock.drive(
            through: clock.target(toTick: date.virtualTick, origin: origin),
            limit: VirtualClock.defaultActionLimit, origin: origin
        )
    }

    /// Runs the test's tasks and the clock's work until both are idle (bounded: see
    /// ``VirtualClock/run(limit:)-7an50``).
    public func run() async {
        await clock.drive(through: nil, limit: VirtualClock.defaultActionLimit, origin: "TestScheduler.run()")
    }
}
