#if canImport(Combine)
import Combine
#endif

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
/// - Work scheduled for a time already past runs at `now`: time never goes backwards.
/// - Actions run outside the clock's lock, on the thread that drives the clock, so they may schedule and cancel; any
///   thread may schedule.
/// - `run()` cannot hang: it stops after `VirtualClock.defaultActionLimit` actions (or the `limit` it is given) and
///   reports why through the clock's ``IssueReporter``.
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
        var heap = ScheduledEntryHeap()
        /// Scheduled actions that have yet to run (a repeating one counts once until cancelled).
        var pending = 0
        /// Entries still in the heap whose action was cancelled; dropped when they reach the top, or in bulk.
        var deadEntries = 0
        /// The tick at which the clock's test ended, once it has.
        var endedAt: Int64?

        mutating func takeSequence() -> UInt64 {
            defer { nextSequence &+= 1 }
            return nextSequence
        }
    }

    let state: Locked<State>
    let reporter: IssueReporter

    /// Creates a clock at tick `0` (or at `now`), reporting misuse through `reporter` — by default the task-local
    /// `VirtualClock.issueReporter` in effect where the clock is created.
    public init(now: Instant = Instant(ticks: 0), reporter: IssueReporter = VirtualClock.issueReporter) {
        state = Locked(State(now: now.ticks))
        self.reporter = reporter
    }

    deinit {
        // Scheduled work only reaches the clock's state, never the clock, so this runs even with work pending; the
        // actions are released here rather than kept alive by their own entries.
        let dropped = state.withLock { $0.heap.removeAll() }
        _ = dropped
    }

    /// The current virtual time.
    public var now: Instant { Instant(ticks: state.withLock { $0.now }) }

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
        enqueue(at: deadline.ticks, interval: 0, action, onEnd: nil, origin: "VirtualClock.schedule(at:)")
    }

    /// Schedules `action` to run once, `delay` after now.
    @discardableResult
    public func schedule(after delay: Duration, _ action: @escaping () -> Void) -> ScheduledAction {
        enqueue(at: now.advanced(by: delay).ticks, interval: 0, action, onEnd: nil, origin: "VirtualClock.schedule(after:)")
    }

    /// Schedules `action` to run at `deadline` and then every `interval` until the returned action is cancelled.
    ///
    /// An interval below one tick cannot be honoured without running forever on the same tick: the clock reports it
    /// and repeats every tick instead.
    @discardableResult
    public func schedule(
        at deadline: Instant,
        every interval: Duration,
        _ action: @escaping () -> Void
    ) -> ScheduledAction {
        let ticks = Duration.virtualTicks(in: interval)
        return schedule(at: deadline.ticks, everyTicks: ticks, action, origin: "VirtualClock.schedule(at:every:)")
    }

    /// Schedules repeating work whose interval is already in ticks, reporting an interval below one tick.
    func schedule(
        at deadline: Int64,
        everyTicks interval: Int64,
        _ action: @escaping () -> Void,
        origin: String
    ) -> ScheduledAction {
        var interval = interval
        if interval < 1 {
            reporter.report(
                "\(origin) was given a repeat interval of \(interval) ticks; an interval must be at least 1 tick " +
                "(1 ms), so the action repeats every tick instead."
            )
            interval = 1
        }
        return enqueue(at: deadline, interval: interval, action, onEnd: nil, origin: origin)
    }

    /// Puts one action on the timeline; `onEnd` runs instead of it if the clock's test ends first.
    func enqueue(
        at deadline: Int64,
        interval: Int64,
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
            let entry = ScheduledEntry(due: max(deadline, state.now), sequence: state.takeSequence(), action: scheduled)
            state.heap.insert(entry)
            state.pending += 1
            return nil
        }
        if let endedAt {
            reporter.report(
                "\(origin) was called after the clock's test ended (at tick \(endedAt)); the action " +
                "scheduled for tick \(deadline) will never run."
            )
            scheduled.takeOnEndAfterRefusal()?()
        }
        return scheduled
    }
}

// MARK: - Driving

extension VirtualClock {
    /// Moves time forward by `duration`, running every action that falls due on the way, in order.
    ///
    /// Actions scheduled by those actions run in the same advance when they fall due. A negative duration is reported
    /// and leaves time where it is.
    public func advance(by duration: Duration, limit: Int = VirtualClock.defaultActionLimit) {
        let ticks = Duration.virtualTicks(in: duration)
        let start = state.withLock { $0.now }
        if ticks < 0 {
            reporter.report(
                "VirtualClock.advance(by:) was given a negative duration (\(ticks) ticks); time never goes " +
                "backwards, so the clock stays at tick \(start)."
            )
            drain(through: start, limit: limit, origin: "VirtualClock.advance(by:)")
            return
        }
        let (target, overflow) = start.addingReportingOverflow(ticks)
        drain(through: overflow ? .max : target, limit: limit, origin: "VirtualClock.advance(by:)")
    }

    /// Moves time forward to `deadline`, running every action due by then, in order.
    ///
    /// A deadline in the past is reported; the clock then runs only what is due now and stays where it is.
    public func advance(to deadline: Instant, limit: Int = VirtualClock.defaultActionLimit) {
        let start = state.withLock { $0.now }
        if deadline.ticks < start {
            reporter.report(
                "VirtualClock.advance(to: tick \(deadline.ticks)) asks for a time before now (tick \(start)); " +
                "time never goes backwards, so the clock stays at tick \(start)."
            )
            drain(through: start, limit: limit, origin: "VirtualClock.advance(to:)")
            return
        }
        drain(through: deadline.ticks, limit: limit, origin: "VirtualClock.advance(to:)")
    }

    /// Runs scheduled work, moving time forward to each action's due tick, until nothing is left to run.
    ///
    /// An endless repeating timer, or an action that keeps rescheduling itself, would keep the clock busy forever:
    /// `run()` stops after `limit` actions and reports how far it got.
    public func run(limit: Int = VirtualClock.defaultActionLimit) {
        drain(through: nil, limit: limit, origin: "VirtualClock.run()")
    }

    /// Runs actions due at or before `target` (all of them when `target` is nil), then moves time to `target`.
    func drain(through target: Int64?, limit: Int, origin: String) {
        var ran = 0
        while let action = takeNextAction(through: target) {
            action()
            ran += 1
            if ran >= limit, hasDueWork(through: target) {
                let (now, pending) = state.withLock { ($0.now, $0.pending) }
                reporter.report(
                    "\(origin) stopped after running \(ran) actions at tick \(now), with \(pending) still " +
                    "pending: an endless repeating timer or an action that keeps rescheduling itself never lets " +
                    "the clock go idle. Advance by a bounded duration, cancel the timer, or pass a larger limit."
                )
                return
            }
        }
        if let target {
            state.withLock { $0.now = max($0.now, target) }
        }
    }

    /// Whether any live action is due at or before `target`.
    private func hasDueWork(through target: Int64?) -> Bool {
        state.withLock { state in
            state.dropDeadEntriesAtTop()
            guard let first = state.heap.first else { return false }
            return target.map { first.due <= $0 } ?? true
        }
    }

    /// Takes the next action due at or before `target` off the timeline and moves time to its due tick. A repeating
    /// action is put back for its next run before it runs, so it may cancel itself.
    private func takeNextAction(through target: Int64?) -> (() -> Void)? {
        state.withLock { state in
            state.dropDeadEntriesAtTop()
            guard let first = state.heap.first else { return nil }
            if let target, first.due > target { return nil }
            var entry = state.heap.removeFirst()
            state.now = max(state.now, entry.due)
            let scheduled = entry.action
            if scheduled.interval > 0 {
                let (next, overflow) = entry.due.addingReportingOverflow(scheduled.interval)
                if !overflow {
                    entry.due = next
                    entry.sequence = state.takeSequence()
                    state.heap.insert(entry)
                    return scheduled.action
                }
            }
            scheduled.isPending = false
            state.pending -= 1
            let action = scheduled.action
            scheduled.action = nil
            scheduled.onEnd = nil
            return action
        }
    }
}

extension VirtualClock.State {
    mutating func dropDeadEntriesAtTop() {
        while let first = heap.first, !first.action.isPending {
            _ = heap.removeFirst()
            deadEntries -= 1
        }
    }

    /// Counts one more cancelled entry, rebuilding the heap without them once they outnumber the live ones.
    mutating func noteCancelledEntry() {
        deadEntries += 1
        if deadEntries > 1024, deadEntries > heap.count / 2 {
            heap.filter { $0.action.isPending }
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
        let (count, released, endActions) = state.withLock { state in
            var count = 0
            var released: [(() -> Void)?] = []
            var endActions: [() -> Void] = []
            guard state.endedAt == nil else { return (count, released, endActions) }
            state.endedAt = state.now
            state.pending = 0
            state.deadEntries = 0
            for entry in state.heap.removeAll() where entry.action.isPending {
                count += 1
                entry.action.isPending = false
                released.append(entry.action.action)
                entry.action.action = nil
                if let onEnd = entry.action.onEnd {
                    endActions.append(onEnd)
                    entry.action.onEnd = nil
                }
            }
            return (count, released, endActions)
        }
        _ = released
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

        init(clockState: Locked<VirtualClock.State>, action: @escaping () -> Void, interval: Int64, onEnd: (() -> Void)?) {
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
                state.noteCancelledEntry()
                defer { action = nil; onEnd = nil }
                return (action, onEnd)
            }
            _ = released
        }

        /// Releases the action refused because the clock's test had ended, and hands back what to run instead.
        func takeOnEndAfterRefusal() -> (() -> Void)? {
            let (released, refusedOnEnd): ((() -> Void)?, (() -> Void)?) = clockState.withLock { _ in
                defer { action = nil; onEnd = nil }
                return (action, onEnd)
            }
            _ = released
            return refusedOnEnd
        }
    }
}
