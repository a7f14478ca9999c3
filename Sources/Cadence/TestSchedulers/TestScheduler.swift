/// A scheduler whose time is a view of a ``VirtualClock``: nothing it is given runs until the clock is driven.
///
/// Production code keeps taking the scheduler it always took — `AnySchedulerOf<DispatchQueue>`, say — and a test
/// hands it `DispatchQueue.test`:
///
/// ```swift
/// let scheduler = DispatchQueue.test
/// let model = SearchModel(scheduler: scheduler.eraseToAnyScheduler())
/// model.query = "swift"
/// scheduler.advance(by: .milliseconds(299))   // the 300 ms debounce has not fired
/// scheduler.advance(by: .milliseconds(1))     // it has
/// ```
///
/// Every test scheduler created while a clock is bound to ``VirtualClock/current`` uses that clock, so all of a test's
/// schedulers share one timeline and advancing one advances all; with none bound, each gets a clock of its own.
///
/// Time maps onto the clock's ticks (1 tick = 1 ms) through ``VirtualTimeConvertible``; times and intervals finer than
/// a tick round up to the next tick. Tolerance is ignored: virtual time is exact.
public struct TestScheduler<SchedulerTimeType: VirtualTimeConvertible, SchedulerOptions>: Scheduler, Sendable {
    /// The timeline this scheduler is a view of.
    public let clock: VirtualClock
    /// On a clock that explores schedules, the number of this scheduler's lane: its actions keep their order, as on
    /// a serial queue, while another scheduler's due at the same tick may go before them. 0 on every other clock.
    @usableFromInline let lane: UInt32

    /// A scheduler on `clock`; by default the task's current clock, or a new one when none is bound.
    public init(clock: VirtualClock? = nil) {
        let clock = clock ?? VirtualClock.current ?? VirtualClock()
        self.clock = clock
        lane = clock.chooser == nil ? 0 : clock.takeSchedulerLane(label: "TestScheduler")
    }

    /// A scheduler on the task's current clock, written as `label` (`DispatchQueue.test`) in an exploration's report.
    init(label: String) {
        let clock = VirtualClock.current ?? VirtualClock()
        self.clock = clock
        lane = clock.chooser == nil ? 0 : clock.takeSchedulerLane(label: label)
    }

    /// The clock's current time.
    public var now: SchedulerTimeType { SchedulerTimeType(virtualTick: clock.now.ticks) }

    /// Zero: virtual time runs every action exactly when it is due.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    // The one-shot forms are inlinable, so that the module calling them specialises them for its scheduler's time:
    // generic, checking the tolerance alone asked the time type's witnesses (its stride's zero and `<`) for about
    // 220 instructions on every action scheduled, more than putting the action on the timeline.

    /// Runs `action` at the current tick, after the work already due at it, when the clock is next driven.
    @inlinable
    public func schedule(options _: SchedulerOptions?, _ action: @escaping () -> Void) {
        clock.enqueueOnce(.now, lane: lane, action, origin: "TestScheduler.schedule(options:_:)")
    }

    /// Runs `action` at `date`, or at the current tick when `date` has passed.
    @inlinable
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options _: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        checkTolerance(tolerance, origin: "TestScheduler.schedule(after:tolerance:options:_:)")
        clock.enqueueOnce(
            .tick(date.virtualTick), lane: lane, action, origin: "TestScheduler.schedule(after:tolerance:options:_:)"
        )
    }

    /// Runs `action` at `date` and then every `interval` until cancelled.
    ///
    /// A positive interval finer than a tick rounds up to one tick; an interval of zero or less is reported and
    /// treated as one tick; a negative tolerance, or one larger than the interval, is reported and ignored.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options _: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        let origin = "TestScheduler.schedule(after:interval:tolerance:options:_:)"
        checkTolerance(tolerance, interval: interval, origin: origin)
        return clock.schedule(
            at: date.virtualTick,
            everyTicks: SchedulerTimeType.virtualTicks(in: interval),
            isNotPositive: interval <= 0,
            describedAs: "\(interval)",
            lane: lane == 0 ? .clock : .scheduler(lane),
            action,
            origin: origin
        )
    }

    /// Reports a negative tolerance (a one-shot action's only check: it has no interval). Not an optional interval
    /// shared with the repeating form: even specialised, an optional of the stride asked the runtime for its metadata
    /// on every action scheduled.
    @inlinable
    func checkTolerance(_ tolerance: SchedulerTimeType.Stride, origin: String) {
        if tolerance < 0 { reportNegative(tolerance, origin: origin) }
    }

    /// Reports a negative tolerance, or one larger than a positive `interval`.
    private func checkTolerance(
        _ tolerance: SchedulerTimeType.Stride, interval: SchedulerTimeType.Stride, origin: String
    ) {
        if tolerance < 0 {
            reportNegative(tolerance, origin: origin)
        } else if interval > 0, tolerance > interval {
            clock.reporter.report(
                "\(origin) was given a tolerance (\(tolerance)) larger than its interval (\(interval)); virtual "
                    + "time ignores tolerance and runs the action exactly every interval."
            )
        }
    }

    @usableFromInline
    func reportNegative(_ tolerance: SchedulerTimeType.Stride, origin: String) {
        clock.reporter.report(
            "\(origin) was given a negative tolerance (\(tolerance)); a tolerance must not be negative, and "
                + "virtual time ignores it."
        )
    }

    /// Advances the clock by `stride` (by default, runs what is due now), running everything that falls due.
    public func advance(by stride: SchedulerTimeType.Stride = 0) {
        clock.advance(
            byTicks: SchedulerTimeType.virtualTicks(in: stride), limit: VirtualClock.defaultActionLimit,
            origin: "TestScheduler.advance(by:)"
        )
    }

    /// Advances the clock to `date`, running everything due by then.
    public func advance(to date: SchedulerTimeType) {
        clock.advance(
            toTick: date.virtualTick, limit: VirtualClock.defaultActionLimit, origin: "TestScheduler.advance(to:)"
        )
    }

    /// Runs the clock until nothing is left to run (bounded: see ``VirtualClock/run(limit:)-7an50``).
    public func run() {
        clock.drain(through: nil, limit: VirtualClock.defaultActionLimit, origin: "TestScheduler.run()")
    }
}

/// A test scheduler with the time and options types of the scheduler `S` it stands in for.
public typealias TestSchedulerOf<S: Scheduler> = TestScheduler<S.SchedulerTimeType, S.SchedulerOptions>
where S.SchedulerTimeType: VirtualTimeConvertible

/// A test scheduler whose time is a plain tick count of its clock.
public typealias VirtualScheduler = TestScheduler<VirtualTime, Never>

extension VirtualClock {
    /// A scheduler on this clock whose time is a plain tick count.
    public var scheduler: VirtualScheduler { VirtualScheduler(clock: self) }
}
