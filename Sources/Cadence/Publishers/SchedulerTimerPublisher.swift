import CadenceSupport

extension Scheduler {
    /// Returns a publisher that repeatedly emits this scheduler's time on the given interval: Foundation's
    /// `Timer.publish`, on any scheduler.
    ///
    /// ```swift
    /// let ticks = scheduler.timerPublisher(every: .seconds(1)).autoconnect()
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The time interval on which to publish events.
    ///   - tolerance: The allowed timing variance when emitting events. Defaults to `nil`, which uses the scheduler's
    ///     `minimumTolerance`.
    ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
    /// - Returns: A connectable publisher of the scheduler's time at each tick.
    public func timerPublisher(
        every interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride? = nil,
        options: SchedulerOptions? = nil
    ) -> SchedulerTimerPublisher<Self> {
        SchedulerTimerPublisher(every: interval, tolerance: tolerance, scheduler: self, options: options)
    }
}

/// A publisher that repeatedly emits a scheduler's time on a given interval: Foundation's `Timer.TimerPublisher`
/// on any scheduler, so a timer driven by a ``TestScheduler`` runs on virtual time.
///
/// Production code takes the scheduler; the test hands it a test scheduler and moves time itself:
///
/// ```swift
/// let scheduler = VirtualScheduler()
/// var ticks: [VirtualTime] = []
/// let cancellable = scheduler.timerPublisher(every: .ticks(10))
///     .autoconnect()
///     .sink { ticks.append($0) }
/// scheduler.advance(by: .ticks(25))   // ticks == [tick 10, tick 20]
/// cancellable.cancel()                // the timer's scheduled work is cancelled
/// ```
///
/// It behaves as Foundation's timer publisher does:
/// - It is a connectable publisher: nothing is scheduled until `connect()`, which schedules a repeating action
///   with `schedule(after: now + interval, interval:tolerance:options:)` — the first tick comes one `interval`
///   after the connection. `autoconnect()` connects for the first subscriber and cancels when the last one leaves.
/// - Each tick emits the scheduler's `now` as the tick runs; on a test scheduler that is exactly the tick's
///   scheduled time.
/// - Several subscribers share one connection: each tick goes to every subscriber attached at that moment, in the
///   order they subscribed.
/// - Demand is each subscriber's own. A tick that arrives when a subscriber has no outstanding demand is dropped
///   for that subscriber — not buffered, not delivered later. So is a tick that fires while the same subscriber is
///   still receiving the previous one (two connections on a concurrent scheduler): a subscriber is never called
///   concurrently.
/// - Each `connect()` schedules a timer of its own. Cancelling a connection cancels its scheduled action and
///   detaches every subscriber attached at that moment: they receive nothing more, and no completion (a timer
///   never completes).
/// - The interval and tolerance are the scheduler's to check: a ``TestScheduler`` reports an interval below one
///   tick, or a tolerance larger than the interval, through its clock's reporter, and never hangs.
///
/// Each subscription's `description` is `"Timer"`.
///
/// It is a type of Cadence's own, outside Combine's `Publishers` namespace, where Cadence adds no name: a library's
/// own `Publishers.Timer` (combine-schedulers' and CombineExt's have one) compiles beside `import Cadence`.
public final class SchedulerTimerPublisher<Context: Scheduler>: ConnectablePublisher {
    /// The kind of values published by this publisher: the scheduler's time at each tick.
    public typealias Output = Context.SchedulerTimeType
    /// The kind of errors this publisher might publish.
    public typealias Failure = Never

    /// The interval on which the timer fires.
    public let interval: Context.SchedulerTimeType.Stride
    /// The allowed timing variance of each tick; `nil` uses the scheduler's `minimumTolerance`.
    public let tolerance: Context.SchedulerTimeType.Stride?
    /// The scheduler on which the timer runs.
    public let scheduler: Context
    /// Scheduler options passed to the timer.
    public let options: Context.SchedulerOptions?

    private let subscribers = TimerSubscribers<Context.SchedulerTimeType>()

    /// Creates a publisher that repeatedly emits the scheduler's time on the given interval.
    ///
    /// - Parameters:
    ///   - interval: The interval on which to publish events.
    ///   - tolerance: The allowed timing variance when emitting events. Defaults to `nil`, which uses the
    ///     scheduler's `minimumTolerance`.
    ///   - scheduler: The scheduler on which the timer runs.
    ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
    public init(
        every interval: Context.SchedulerTimeType.Stride,
        tolerance: Context.SchedulerTimeType.Stride? = nil,
        scheduler: Context,
        options: Context.SchedulerOptions? = nil
    ) {
        self.interval = interval
        self.tolerance = tolerance
        self.scheduler = scheduler
        self.options = options
    }

    /// Attaches the subscriber; it receives ticks once the publisher is connected and it has requested some.
    public func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        subscribers.attach(subscriber, name: "Timer")
    }

    /// Schedules the repeating timer and returns the connection; cancelling it cancels the scheduled action.
    public func connect() -> any Cancellable {
        let scheduler = self.scheduler
        let subscribers = self.subscribers
        let scheduled = scheduler.schedule(
            after: scheduler.now.advanced(by: interval),
            interval: interval,
            tolerance: tolerance ?? scheduler.minimumTolerance,
            options: options
        ) {
            subscribers.send(scheduler.now)
        }
        return TimerConnection(scheduled: scheduled, subscribers: subscribers)
    }
}

/// One connection of a ``SchedulerTimerPublisher``: the repeating action it scheduled.
private final class TimerConnection<Tick>: Cancellable {
    // The lock guards the scheduled action until the first `cancel()` takes it.
    private let scheduled: Locked<(any Cancellable)?>
    private let subscribers: TimerSubscribers<Tick>

    init(scheduled: any Cancellable, subscribers: TimerSubscribers<Tick>) {
        self.scheduled = Locked(scheduled)
        self.subscribers = subscribers
    }

    func cancel() {
        guard let scheduled = scheduled.withLock({ $0.take() }) else { return }
        scheduled.cancel()
        subscribers.detachAll()
    }
}
