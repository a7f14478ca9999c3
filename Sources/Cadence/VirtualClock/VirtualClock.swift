import CadenceSupport

/// One timeline of virtual time for a test: exact integer time where **1 tick is 1 ms**, driven by the test.
///
/// Work scheduled on the clock waits in a binary heap ordered by due tick and then by the order it was scheduled, so
/// work due on the same tick runs first in, first out. Nothing runs until the test drives the clock:
///
/// ```swift
/// let clock = VirtualClock()
/// var fired: [Int64] = []
/// clock.schedule(after: .ticks(300)) { fired.append(clock.now.ticks) }
/// clock.advance(by: .ticks(299))   // fired == []
/// clock.advance(by: .ticks(1))     // fired == [300]
/// ```
///
/// - Work scheduled while the clock advances runs in the same advance when it falls due.
/// - Work scheduled for a time already past runs at `now`, after the work already due then: time never goes backwards.
/// - Durations are rounded up to whole ticks (`.microseconds(1)` is 1 tick), so work never runs early; arithmetic at
///   the ends of time saturates instead of overflowing.
/// - Cancelling scheduled work (``ScheduledAction/cancel()``) is O(1): the entry is marked dead and swept out when it
///   reaches the top of the heap, or in one O(n) pass once dead entries outnumber live ones.
/// - Actions run outside the clock's lock, on the thread that drives the clock, so they may schedule, cancel and even
///   advance the clock themselves. Any thread may schedule and cancel at any time; drive the clock (`advance`, `run`)
///   from one thread at a time.
/// - `run()` cannot hang: it stops after ``defaultActionLimit`` actions (or the `limit` it is given) and reports why
///   through the clock's `FailureReporter`. Every other misuse — a negative advance, a repeat interval of zero or less,
///   scheduling after ``end()`` — is reported the same way and survived, never trapped.
///
/// The clock is also a Swift `Clock` (see `sleep(until:tolerance:)`), and every ``TestScheduler`` is a view of one.
public final class VirtualClock: Sendable {
    /// How many actions one call of `run()`, `advance(by:)` or `advance(to:)` runs at most, unless told otherwise.
    public static let defaultActionLimit = 1_000_000

    /// The clock that test schedulers and test code use when none is passed explicitly.
    ///
    /// Bind it for the extent of a test with `VirtualClock.$current.withValue(clock) { … }`; every ``TestScheduler``
    /// created inside uses that clock, so all of the test's schedulers share one timeline. With none bound, each test
    /// scheduler makes a clock of its own.
    @TaskLocal public static var current: VirtualClock?

    struct State {
        var now: Int64
        var nextSequence: UInt64 = 0
        /// The work that can be cancelled, each with its `ScheduledAction`.
        var heap = ScheduledEntryHeap<ScheduledEntry>()
        /// The work nothing can cancel (a test scheduler's one-shot `schedule`) that came to its tick alone, each kept
        /// as its closure alone.
        var once = ScheduledEntryHeap<OnceEntry>()
        /// The rest of that work — one-shot actions that came to their tick after another one-shot action — in
        /// batches (`OnceBatch`) of one entry each, first in, first out. The three heaps share one sequence, so the
        /// next entry to run is the earliest of their first entries.
        var batches = ScheduledEntryHeap<OnceBatchEntry>()
        /// The batch still open on each of a few recent ticks, which the next one-shot action due there joins.
        var openTicks = OpenTicks()
        /// How many repeating actions are pending. While any is, one-shot actions go alone, never into a batch: a
        /// repeating action keeps the sequence it was first scheduled with, and could land on a tick between two of a
        /// batch's actions.
        var repeating = 0
        /// Scheduled actions that have yet to run (a repeating one counts once until cancelled).
        var pending = 0
        /// Entries still in the heap whose action was cancelled; dropped when they reach the top, or in bulk.
        var deadEntries = 0
        /// The tick at which the clock's test ended, once it has.
        var endedAt: Int64?
        /// On a clock that explores schedules, the lane of each entry not on the clock's own lane, by sequence; nil
        /// on every other clock, which never reads it. An entry's lane goes when its action runs for the last time;
        /// a cancelled one's stays until the clock goes, which for an exploring clock is the end of one run.
        var lanes: [UInt64: ScheduleLane]?
        /// How many test schedulers the exploring clock has numbered (their lanes).
        var schedulerLanes: UInt32 = 0

        mutating func takeSequence() -> UInt64 {
            defer { nextSequence &+= 1 }
            return nextSequence
        }
    }

    let state: Locked<State>
    /// The tasks asleep on this clock of a session, by task identifier (see `sleep(until:tolerance:)`).
    let sleepingTasks = Locked<[UInt64: SleepingTask]>([:])
    /// Whether the session found its test stalled and ended sleeps with `CancellationError`, having reported it.
    let endedStalledSleeps = Locked(false)
    /// The sleeps the stall check ended, by task, each with the tick it began: over, even while a sleep on a system
    /// clock waits for its task to come back to be forgotten.
    let sleepsEndedByStall = Locked<[UInt64: Int64]>([:])
    let reporter: FailureReporter
    /// The serial executor of the session the clock belongs to, which `await advance(by:)` waits on; nil for a clock
    /// made outside `.virtualTime` and `withVirtualTime`.
    package let executor: SessionExecutor?
    /// The epoch of a clock made outside a session that counts the process's jobs to let tasks reach their sleeps
    /// before its asynchronous drivers move time (see ``SettleWatch``): it waits for the jobs queued since it was made.
    /// Nil on a session's clock, and where the runtime gives Cadence no hooks.
    let settleEpoch: SettleWatch.Epoch?
    /// What chooses, on a clock that explores schedules, which lane's work goes first among the work due at one
    /// tick; nil (first in, first out) on every other clock.
    package let chooser: ScheduleChooser?
    /// On the clock of one run of an exploration, the run (`run 1 of withVirtualTime(explore: 50)`), for the report
    /// of a call after its end.
    let endedRun: String?

    /// Creates a clock at tick `0` (or at `now`), reporting misuse through `reporter` — by default the task-local
    /// `VirtualClock.issueReporter` in effect where the clock is created.
    public convenience init(now: Instant = Instant(ticks: 0), reporter: FailureReporter = VirtualClock.issueReporter) {
        self.init(now: now, reporter: reporter, chooser: nil)
    }

    /// Creates a clock at tick `0` (or at `now`) that runs the work of different lanes due at one tick in the order
    /// `chooser` picks (see ``ScheduleLane``); with no chooser, first in, first out.
    package init(
        now: Instant = Instant(ticks: 0), reporter: FailureReporter = VirtualClock.issueReporter,
        chooser: ScheduleChooser?
    ) {
        var initial = State(now: now.ticks)
        if chooser != nil { initial.lanes = [:] }
        state = Locked(initial)
        self.reporter = reporter
        self.chooser = chooser
        endedRun = nil
        executor = nil
        settleEpoch = SettleWatch.hold()
    }

    /// Creates a session's clock at tick `0`, whose asynchronous drivers run the session's tasks on its executor.
    ///
    /// `endedRun`, for the clock of one run of an exploration, names the run in the report of a call after its end:
    /// `run 1 of withVirtualTime(explore: 50)`.
    package init(
        reporter: FailureReporter, sessionExecutor: Bool, chooser: ScheduleChooser? = nil, endedRun: String? = nil
    ) {
        self.endedRun = endedRun
        var initial = State(now: 0)
        if chooser != nil { initial.lanes = [:] }
        let state = Locked(initial)
        self.state = state
        self.reporter = reporter
        self.chooser = chooser
        executor =
            sessionExecutor
            ? SessionExecutor(reporter: reporter, now: { state.withLock { $0.now } }, chooser: chooser)
            : nil
        settleEpoch = nil
        watchForStalls()
    }

    deinit {
        if settleEpoch != nil { SettleWatch.release() }
        // The clock's own entries reach its state, never the clock, so this runs with work pending unless that work
        // captures the clock (an operator holding a test scheduler does: then `end()` or `run()` breaks the cycle).
        // The pending actions are taken out under the lock and released after it (their captures' deinitialisers may
        // call back).
        // The table of open ticks is dropped under the lock: the batches it names are still held by `released`.
        let released: ([(() -> Void)?], ContiguousArray<OnceEntry>, ContiguousArray<OnceBatchEntry>)
        released = state.withLock { state in
            let scheduled = state.heap.removeAll().map { entry in
                let scheduled = entry.action.takeRetainedValue()
                scheduled.isPending = false
                scheduled.onEnd = nil
                defer { scheduled.action = nil }
                return scheduled.action
            }
            let batches = state.batches.removeAll()
            state.openTicks = OpenTicks()
            state.repeating = 0
            return (scheduled, state.once.removeAll(), batches)
        }
        withExtendedLifetime(released) {}
    }

    /// The current virtual time.
    public var now: Instant { Instant(ticks: state.withLock { $0.now }) }

    /// The tick now, and a number the clock has never handed out before, read together: what is stamped with them is
    /// ordered on the clock's timeline, within a tick too (the expectations' recorders stamp their events so).
    @usableFromInline
    package func stamp() -> (ticks: Int64, sequence: UInt64) {
        state.withLock { ($0.now, $0.takeSequence()) }
    }

    /// A lane number for a new test scheduler on a clock that explores schedules: 1 for the first, and so on.
    package func takeSchedulerLane(label: String) -> UInt32 {
        let lane = state.withLock { state in
            state.schedulerLanes &+= 1
            return state.schedulerLanes
        }
        chooser?.noteScheduler(lane, label: label)
        return lane
    }

    /// The number of scheduled actions that have not run yet; a repeating action counts once until it is cancelled.
    public var pendingCount: Int { state.withLock { $0.pending } }

    /// Whether the clock's test has ended (see `end()`).
    public var hasEnded: Bool { state.withLock { $0.endedAt != nil } }
}

// MARK: - Scheduling

extension VirtualClock {
    /// Schedules `action` to run once at `deadline`, or at `now` when `deadline` has passed.
    @discardableResult
    public func schedule(at deadline: Instant, _ action: @escaping () -> Void) -> ScheduledAction {
        enqueue(.tick(deadline.ticks), interval: 0, action, onEnd: nil, origin: "VirtualClock.schedule(at:)")
    }

    /// Schedules `action` to run once, `delay` after now (rounded up to a whole tick; a negative delay means now).
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> ScheduledAction {
        enqueue(
            .ticksFromNow(Duration.virtualTicks(in: delay)), interval: 0, action, onEnd: nil,
            origin: "VirtualClock.schedule(after:)"
        )
    }

    /// Schedules `action` to run at `deadline` and then every `interval` until the returned action is cancelled.
    ///
    /// The repeats are counted from the tick the action first runs: a deadline in the past runs it at `now` and then
    /// every `interval` from there (there is no burst of catch-up runs). A positive interval finer than a tick rounds up
    /// to one tick; an interval of zero or less cannot be honoured without running forever on the same tick: the clock
    /// reports it and repeats every tick instead.
    @discardableResult
    public func schedule(
        at deadline: Instant,
        every interval: Duration,
        _ action: @escaping () -> Void
    ) -> ScheduledAction {
        schedule(
            at: deadline.ticks, everyTicks: Duration.virtualTicks(in: interval), isNotPositive: interval <= .zero,
            describedAs: "\(interval)", action, origin: "VirtualClock.schedule(at:every:)"
        )
    }

    /// Schedules repeating work whose interval is already in ticks (rounded up), reporting an interval of zero or less.
    func schedule(
        at deadline: Int64,
        everyTicks interval: Int64,
        isNotPositive: Bool,
        describedAs intervalDescription: @autoclosure () -> String,
        lane: ScheduleLane = .clock,
        _ action: @escaping () -> Void,
        origin: String
    ) -> ScheduledAction {
        if isNotPositive || interval < 1 {
            reporter.report(
                "\(origin) was given a repeat interval of \(intervalDescription()); an interval must be positive, "
                    + "so the action repeats every tick (1 ms) instead."
            )
        }
        return enqueue(.tick(deadline), interval: max(interval, 1), lane: lane, action, onEnd: nil, origin: origin)
    }

    /// When an action is due: at a tick, or a number of ticks after the clock's `now` when it is scheduled.
    @usableFromInline
    enum Due: Sendable {
        case tick(Int64)
        case ticksFromNow(Int64)
        /// The clock's current tick, after the work already due at it.
        @usableFromInline static let now = Due.tick(.min)

        /// The due tick: never before `now`, saturating at the end of time.
        func resolved(now: Int64) -> Int64 {
            switch self {
            case .tick(let tick):
                return max(tick, now)
            case .ticksFromNow(let ticks):
                let (sum, overflow) = now.addingReportingOverflow(ticks)
                return overflow ? .max : max(sum, now)
            }
        }
    }

    /// Puts one action on the timeline, under one lock; `onEnd` runs instead of it if the clock's test ends first.
    ///
    /// After the test has ended the action is refused: the refusal is reported, the action released, and `onEnd` run.
    func enqueue(
        _ due: Due,
        interval: Int64,
        lane: ScheduleLane = .clock,
        _ action: @escaping () -> Void,
        onEnd: (() -> Void)?,
        origin: String
    ) -> ScheduledAction {
        let scheduled = ScheduledAction(clockState: state, action: action, interval: interval, onEnd: onEnd)
        let endedAt: Int64? = state.withLock { state in
            if let endedAt = state.endedAt {
                scheduled.isPending = false
                return endedAt
            }
            let sequence = state.takeSequence()
            state.insert(ScheduledEntry(due: due.resolved(now: state.now), sequence: sequence, retaining: scheduled))
            if state.lanes != nil, lane != .clock { state.lanes![sequence] = lane }
            state.pending += 1
            if interval > 0 { state.repeating += 1 }
            return nil
        }
        if let endedAt {
            reporter.report(
                calledAfterEnd(origin, endedAt: endedAt)
                    + (onEnd == nil ? "the action will never run." : "the sleep ends at once with CancellationError.")
            )
            scheduled.takeOnEndAfterRefusal()?()
        }
        return scheduled
    }

    /// Puts one action nothing can cancel on the timeline, under one lock, with no `ScheduledAction` around it: at the
    /// end of the batch open on its tick, if there is one.
    ///
    /// After the test has ended the action is refused: the refusal is reported and the action released.
    ///
    /// `lane` is the number of the test scheduler that schedules it, on a clock that explores schedules; 0, the clock's
    /// own lane, otherwise.
    @usableFromInline
    func enqueueOnce(_ due: Due, lane: UInt32 = 0, _ action: @escaping () -> Void, origin: String) {
        let endedAt: Int64? = state.withLock { state in
            if let endedAt = state.endedAt { return endedAt }
            if state.lanes == nil {
                state.insertOnce(due: due.resolved(now: state.now), action)
            } else {
                // Alone, never in a batch: a batch's actions would run in one order whatever their lanes.
                let sequence = state.takeSequence()
                state.once.insert(OnceEntry(due: due.resolved(now: state.now), sequence: sequence, action: action))
                if lane != 0 { state.lanes![sequence] = .scheduler(lane) }
            }
            state.pending += 1
            return nil
        }
        if let endedAt {
            reporter.report(calledAfterEnd(origin, endedAt: endedAt) + "the action will never run.")
        }
    }
}

// MARK: - Driving

extension VirtualClock {
    /// Moves time forward by `duration` (rounded up to a whole tick), running every action that falls due on the way,
    /// in order.
    ///
    /// Actions scheduled by those actions run in the same advance when they fall due. A negative duration is reported
    /// and leaves time where it is (what is due now still runs). If more than `limit` actions fall due the clock stops
    /// at the tick it reached and reports it (see ``run(limit:)-7an50``).
    public func advance(by duration: Duration, limit: Int = VirtualClock.defaultActionLimit) {
        advance(byTicks: Duration.virtualTicks(in: duration), limit: limit, origin: "VirtualClock.advance(by:)")
    }

    /// Moves time forward to `deadline`, running every action due by then, in order.
    ///
    /// A deadline in the past is reported; the clock then runs only what is due now and stays where it is.
    public func advance(to deadline: Instant, limit: Int = VirtualClock.defaultActionLimit) {
        advance(toTick: deadline.ticks, limit: limit, origin: "VirtualClock.advance(to:)")
    }

    /// Runs scheduled work, moving time forward to each action's due tick, until nothing is left to run.
    ///
    /// An endless repeating timer, or an action that keeps rescheduling itself, would keep the clock busy forever:
    /// `run()` stops once it has run `limit` actions (``defaultActionLimit``, a million, unless told otherwise) with
    /// work still left, leaves time at the tick it reached, and reports:
    ///
    /// ```text
    /// VirtualClock.run() stopped after running 1000000 actions at tick 1000000, with 1 still pending: an endless
    /// repeating timer or an action that keeps rescheduling itself never lets the clock go idle. Advance by a bounded
    /// duration, cancel the timer, or pass a larger limit.
    /// ```
    ///
    /// When none of the work left was put on the timeline during the call — more one-shot actions were scheduled
    /// beforehand than the limit lets it run — it says so instead of suspecting a timer.
    public func run(limit: Int = VirtualClock.defaultActionLimit) {
        drain(through: nil, limit: limit, origin: "VirtualClock.run()")
    }

    func advance(byTicks ticks: Int64, limit: Int, origin: String) {
        drain(through: target(byTicks: ticks, origin: origin), limit: limit, origin: origin)
    }

    func advance(toTick deadline: Int64, limit: Int, origin: String) {
        drain(through: target(toTick: deadline, origin: origin), limit: limit, origin: origin)
    }

    /// The tick an advance by `ticks` goes to: `now` (reported) for a negative count or a clock whose test has ended,
    /// saturating at the end of time.
    func target(byTicks ticks: Int64, origin: String) -> Int64 {
        let start = now.ticks
        if let ended = endedTick(origin: origin) { return ended }
        if ticks < 0 {
            reporter.report(
                "\(origin) was given a negative duration (\(counted(ticks, "tick"))); time never goes backwards, so "
                    + "the clock stays at tick \(start)."
            )
            return start
        }
        let (target, overflow) = start.addingReportingOverflow(ticks)
        return overflow ? .max : target
    }

    /// The tick an advance to `deadline` goes to: `now` (reported) for a deadline in the past.
    func target(toTick deadline: Int64, origin: String) -> Int64 {
        let start = now.ticks
        if let ended = endedTick(origin: origin) { return ended }
        if deadline < start {
            reporter.report(
                "\(origin) was given tick \(deadline), which is before now (tick \(start)); time never goes "
                    + "backwards, so the clock stays at tick \(start)."
            )
            return start
        }
        return deadline
    }

    /// The start of the report of a call of `origin` after the clock's test ended at `endedAt`, up to the `; ` before
    /// what became of the call.
    private func calledAfterEnd(_ origin: String, endedAt: Int64) -> String {
        guard let endedRun else { return "\(origin) was called after the clock's test ended (at tick \(endedAt)); " }
        return "\(origin) was called on the clock of \(endedRun), which ended with that run (at tick \(endedAt)): the "
            + "body is not re-runnable — it keeps a scheduler, a clock or a task from an earlier run outside the body. "
            + "Make what the body uses inside it, so that each run starts afresh; "
    }

    /// The tick the clock's test ended at, reported as a call of `origin` that moves time no more; nil while the test
    /// goes on.
    private func endedTick(origin: String) -> Int64? {
        guard let endedAt = state.withLock({ $0.endedAt }) else { return nil }
        reporter.report(calledAfterEnd(origin, endedAt: endedAt) + "the clock stays at tick \(endedAt).")
        return endedAt
    }

    /// Runs actions due at or before `target` (all of them when `target` is nil), then moves time to `target`.
    func drain(through target: Int64?, limit: Int, origin: String) {
        let limit = validated(limit: limit, origin: origin)
        let firstSequence = state.withLock { $0.nextSequence }
        let (ran, stoppedOnLimit) = runActions(through: target, limit: limit)
        if stoppedOnLimit { reportStop(afterRunning: ran, origin: origin, since: firstSequence) }
    }

    /// `limit`, or 1 (reported) when it is less than 1.
    func validated(limit: Int, origin: String) -> Int {
        if limit < 1 {
            reporter.report(
                "\(origin) was given a limit of \(counted(limit, "action")); a limit must be at least 1, so it is 1."
            )
            return 1
        }
        return limit
    }

    /// Reports that driving the clock stopped on its action limit with work still pending, saying whether that work
    /// keeps coming back (a repeating timer or an action that reschedules itself, put on the timeline at or after
    /// sequence number `firstSequence`, when the driving began) or was all scheduled before.
    func reportStop(afterRunning ran: Int, origin: String, since firstSequence: UInt64) {
        let (now, pending, rescheduled) = state.withLock {
            (
                $0.now, $0.pending,
                $0.heap.hasLiveEntry(sequencedFrom: firstSequence) || $0.once.hasEntry(sequencedFrom: firstSequence)
                    || $0.batches.hasEntry(sequencedFrom: firstSequence)
            )
        }
        let stopped =
            "\(origin) stopped after running \(counted(ran, "action")) at tick \(now), with \(pending) still "
            + "pending: "
        if rescheduled {
            reporter.report(
                stopped + "an endless repeating timer or an action that keeps rescheduling itself never lets "
                    + "the clock go idle. Advance by a bounded duration, cancel the timer, or pass a larger limit."
            )
        } else {
            reporter.report(
                stopped + "more work was scheduled before the call than its limit lets it run, and none of it "
                    + "repeats. Pass a larger limit, or drive the clock in steps."
            )
        }
    }

    /// Runs actions due at or before `target` (all of them when `target` is nil), at most `limit` of them, then
    /// moves time to `target` unless it stopped on the limit; reports nothing.
    ///
    /// - Returns: how many actions ran, and whether it stopped on `limit` with work due by `target` still waiting.
    package func runActions(through target: Int64?, limit: Int) -> (ran: Int, stoppedOnLimit: Bool) {
        var ran = 0
        while true {
            if ran >= limit, hasDueWork(through: target) { return (ran, true) }
            guard let action = takeNextAction(through: target) else { return (ran, false) }
            action()
            ran &+= 1
        }
    }

    /// The tick of the earliest scheduled action still waiting to run, or nil when nothing is scheduled.
    package var nextDueTick: Int64? {
        state.withLock { state in
            state.dropDeadEntriesAtTop()
            return state.firstKey?.due
        }
    }

    /// Whether any live action is due at or before `target`.
    private func hasDueWork(through target: Int64?) -> Bool {
        state.withLock { state in
            state.dropDeadEntriesAtTop()
            guard let first = state.firstKey else { return false }
            return target.map { first.due <= $0 } ?? true
        }
    }

    /// Takes the next action due at or before `target` off the timeline and moves time to its due tick; with none
    /// left, moves time to `target` in the same step (so no work scheduled meanwhile is skipped over).
    ///
    /// A repeating action is put back for its next run before it runs, so it may cancel itself.
    private func takeNextAction(through target: Int64?) -> (() -> Void)? {
        state.withLock { state in
            state.dropDeadEntriesAtTop()
            guard let first = state.next, target.map({ first.due <= $0 }) ?? true else {
                if let target { state.now = max(state.now, target) }
                return nil
            }
            if let chooser { return state.takeChosenAction(at: first.due, chooser: chooser) }
            switch first.heap {
            case .once:
                let entry = state.once.removeFirst()
                state.now = max(state.now, entry.due)
                state.pending -= 1
                return entry.action
            case .batches:
                state.now = max(state.now, first.due)
                state.pending -= 1
                let batch = state.batches.firstBatch
                let action = batch.removeFirst()
                if batch.isEmpty {
                    state.openTicks.close(batch, at: first.due)
                    _ = state.batches.removeFirst() // empty: releasing it releases no action
                }
                return action
            case .scheduled:
                break
            }
            return state.take(state.heap.removeFirst())
        }
    }
}

extension VirtualClock.State {
    /// One of the clock's three heaps.
    enum Heap {
        case scheduled, once, batches
    }

    /// Takes the action of `entry`, just taken off the heap, and moves time to its due tick. A repeating action is
    /// put back for its next run before it runs, so it may cancel itself.
    @inline(__always)
    mutating func take(_ entry: ScheduledEntry) -> (() -> Void)? {
        var entry = entry
        now = max(now, entry.due)
        let scheduled = entry.action.takeUnretainedValue()
        if scheduled.interval > 0 {
            let (next, overflow) = entry.due.addingReportingOverflow(scheduled.interval)
            if !overflow {
                // It keeps its sequence: repeating work due on the same tick runs in the order it was first
                // scheduled, as on a serial queue, whatever order it was re-armed in.
                entry.due = next
                insert(entry)
                return scheduled.action
            }
        }
        scheduled.isPending = false
        pending -= 1
        if scheduled.interval > 0 { repeating -= 1 }
        if lanes != nil { lanes![entry.sequence] = nil }
        let action = scheduled.action
        scheduled.action = nil
        scheduled.onEnd = nil
        entry.action.release() // the heap's retain; `scheduled` holds the action alive until this returns
        return action
    }

    /// On a clock that explores schedules: takes off the timeline every live entry due at `tick` (the earliest tick
    /// with work), lets `chooser` pick which lane's first entry runs — when more than one lane has work then — puts
    /// the others back as they were, and takes the chosen entry's action.
    ///
    /// A lane's entries keep their order: only a lane's first entry is a candidate. The candidates are offered in
    /// the order their entries were scheduled, so choice 0 is the first-in first-out one. One-shot actions never go
    /// into a batch on such a clock.
    mutating func takeChosenAction(at tick: Int64, chooser: ScheduleChooser) -> (() -> Void)? {
        var cancellable: [ScheduledEntry] = []
        while let key = heap.firstKey, key.due == tick {
            let entry = heap.removeFirst()
            if entry.isLive {
                cancellable.append(entry)
            } else {
                entry.action.release()
                deadEntries -= 1
            }
        }
        var fixed: [OnceEntry] = []
        while let key = once.firstKey, key.due == tick { fixed.append(once.removeFirst()) }
        // The first entry of each lane, in the order they were scheduled: an index into `cancellable` or `fixed`.
        var heads: [(lane: ScheduleLane, cancellable: Int?, fixed: Int?)] = []
        var seen: Set<ScheduleLane> = []
        var (nextCancellable, nextFixed) = (0, 0)
        while nextCancellable < cancellable.count || nextFixed < fixed.count {
            let takesCancellable =
                nextFixed == fixed.count
                || (nextCancellable < cancellable.count
                    && cancellable[nextCancellable].sequence < fixed[nextFixed].sequence)
            let sequence = takesCancellable ? cancellable[nextCancellable].sequence : fixed[nextFixed].sequence
            let lane = lanes?[sequence] ?? .clock
            if seen.insert(lane).inserted {
                heads.append((lane, takesCancellable ? nextCancellable : nil, takesCancellable ? nil : nextFixed))
            }
            if takesCancellable { nextCancellable += 1 } else { nextFixed += 1 }
        }
        let chosen = heads.count > 1 ? chooser.choose(.clock, tick: tick, among: heads.map(\.lane)) : 0
        let head = heads[chosen]
        for (index, entry) in cancellable.enumerated() where index != head.cancellable { heap.insert(entry) }
        for (index, entry) in fixed.enumerated() where index != head.fixed { once.insert(entry) }
        if let index = head.cancellable { return take(cancellable[index]) }
        let entry = fixed[head.fixed!]
        now = max(now, entry.due)
        pending -= 1
        lanes?[entry.sequence] = nil
        return entry.action
    }

    /// Puts an entry of work that can be cancelled on the timeline. A one-shot action due on the same tick later
    /// must run after it, so it closes the batch open on that tick.
    mutating func insert(_ entry: ScheduledEntry) {
        if !batches.isEmpty || !once.isEmpty { openTicks.close(entry.due) }
        heap.insert(entry)
    }

    /// Puts a one-shot action due at `due` on the timeline: at the end of the batch open on the tick; in a new batch
    /// when the tick's last entry was a lone one-shot action; else alone.
    ///
    /// While few one-shot actions wait and none is in a batch — most tests — each goes alone, and the clock never
    /// makes the table of open ticks: batches pay off for many actions, not for a handful.
    mutating func insertOnce(due: Int64, _ action: @escaping () -> Void) {
        let sequence = takeSequence()
        if repeating > 0 || (batches.isEmpty && once.count < 8) {
            // Alone, after whatever a batch open on the tick holds: the batch takes nothing more.
            if !batches.isEmpty { openTicks.close(due) }
            once.insert(OnceEntry(due: due, sequence: sequence, action: action))
            return
        }
        switch openTicks.place(at: due) {
        case .batch(let batch):
            batch.append(action, sequence: sequence)
        case .newBatch:
            let batch = OnceBatch(first: action, sequence: sequence)
            batches.insert(OnceBatchEntry(due: due, sequence: sequence, batch: batch))
            openTicks.open(batch, at: due)
        case .alone:
            once.insert(OnceEntry(due: due, sequence: sequence, action: action))
        }
    }

    /// The entry that runs next — the first entry of one of the three heaps, the one with the earliest due tick and
    /// sequence — as its heap and its key; nil when nothing is scheduled. Dead entries at the top of `heap` already
    /// dropped.
    @inline(__always)
    var next: (heap: Heap, due: Int64, sequence: UInt64)? {
        var next: (heap: Heap, due: Int64, sequence: UInt64)?
        if let first = heap.firstKey { next = (.scheduled, first.due, first.sequence) }
        if let first = once.firstKey, next == nil || Self.key(first, runsBefore: (next!.due, next!.sequence)) {
            next = (.once, first.due, first.sequence)
        }
        if let first = batches.firstKey, next == nil || Self.key(first, runsBefore: (next!.due, next!.sequence)) {
            next = (.batches, first.due, first.sequence)
        }
        return next
    }

    /// The due tick and sequence of the next entry to run, if any; dead entries at the top of `heap` already dropped.
    @inline(__always)
    var firstKey: (due: Int64, sequence: UInt64)? {
        next.map { ($0.due, $0.sequence) }
    }

    @inline(__always)
    private static func key(
        _ key: (due: Int64, sequence: UInt64), runsBefore other: (due: Int64, sequence: UInt64)
    ) -> Bool {
        key.due < other.due || (key.due == other.due && key.sequence < other.sequence)
    }

    mutating func dropDeadEntriesAtTop() {
        while let first = heap.first, !first.isLive {
            heap.removeFirst().action.release()
            deadEntries -= 1
        }
    }

    /// Counts one more cancelled entry, rebuilding the heap without them once they outnumber the live ones, so
    /// cancelling stays O(1) amortised and cancelled work never piles up.
    mutating func noteCancelledEntry() {
        deadEntries += 1
        if deadEntries > 1024, deadEntries > heap.count / 2 {
            heap.removeDead()
            deadEntries = 0
        }
    }
}

// MARK: - Ending

extension VirtualClock {
    /// Ends the clock's test: drops every pending action, resumes every task sleeping on the clock with
    /// `CancellationError`, and from now on reports any attempt to schedule instead of accepting it.
    ///
    /// Returns the number of actions that were still pending.
    @discardableResult
    public func end() -> Int {
        let (count, released, releasedBatches, endActions) = state.withLock { state in
            var count = 0
            var released: [(() -> Void)?] = []
            var releasedBatches = ContiguousArray<OnceBatchEntry>()
            var endActions: [() -> Void] = []
            guard state.endedAt == nil else { return (count, released, releasedBatches, endActions) }
            state.endedAt = state.now
            state.pending = 0
            state.repeating = 0
            state.deadEntries = 0
            for entry in state.once.removeAll() {
                count += 1
                released.append(entry.action)
            }
            if !state.batches.isEmpty {
                // The table of open ticks goes under the lock: `releasedBatches` still holds the batches it names.
                releasedBatches = state.batches.removeAll()
                state.openTicks = OpenTicks()
                for entry in releasedBatches { count += entry.batch.count }
            }
            for entry in state.heap.removeAll() {
                let scheduled = entry.action.takeRetainedValue()
                guard scheduled.isPending else { continue }
                count += 1
                scheduled.isPending = false
                released.append(scheduled.action)
                scheduled.action = nil
                if let onEnd = scheduled.onEnd {
                    endActions.append(onEnd)
                    scheduled.onEnd = nil
                }
            }
            return (count, released, releasedBatches, endActions)
        }
        withExtendedLifetime((released, releasedBatches)) {}
        for onEnd in endActions { onEnd() }
        return count
    }
}

// MARK: - Scheduled actions

extension VirtualClock {
    /// An action waiting on a virtual clock; cancelling it removes it from the timeline in O(1).
    public final class ScheduledAction: Cancellable, @unchecked Sendable {
        // Every stored `var` is guarded by the lock of the clock state the action was scheduled on.
        let clockState: Locked<VirtualClock.State>
        var action: (() -> Void)?
        var onEnd: (() -> Void)?
        let interval: Int64
        var isPending = true

        init(
            clockState: Locked<VirtualClock.State>, action: @escaping () -> Void, interval: Int64,
            onEnd: (() -> Void)?
        ) {
            self.clockState = clockState
            self.action = action
            self.interval = interval
            self.onEnd = onEnd
        }

        /// Whether the action is still waiting to run (a repeating one until it is cancelled).
        public var isScheduled: Bool { clockState.withLock { _ in isPending } }

        /// Takes the action off the timeline; it will not run. Cancelling twice, or after it ran, does nothing.
        public func cancel() {
            let released: ((() -> Void)?, (() -> Void)?) = clockState.withLock { state in
                guard isPending else { return (nil, nil) }
                isPending = false
                state.pending -= 1
                if interval > 0 { state.repeating -= 1 }
                state.noteCancelledEntry()
                defer {
                    action = nil
                    onEnd = nil
                }
                return (action, onEnd)
            }
            withExtendedLifetime(released) {}
        }

        /// Releases the action refused because the clock's test had ended, and hands back what to run instead.
        func takeOnEndAfterRefusal() -> (() -> Void)? {
            let (released, refusedOnEnd): ((() -> Void)?, (() -> Void)?) = clockState.withLock { _ in
                defer {
                    action = nil
                    onEnd = nil
                }
                return (action, onEnd)
            }
            withExtendedLifetime(released) {}
            return refusedOnEnd
        }
    }
}

/// `"1 tick"`, `"3 ticks"`, `"-1 tick"`: a count with its noun in the right number, for reported messages.
private func counted(_ count: some BinaryInteger, _ noun: String) -> String {
    count == 1 || count == -1 ? "\(count) \(noun)" : "\(count) \(noun)s"
}
