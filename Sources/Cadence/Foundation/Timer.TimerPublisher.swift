import CadenceSupport

#if !canImport(Combine)
import Foundation

extension Timer {
    /// Returns a publisher that repeatedly emits the current date on the given interval.
    ///
    /// ```swift
    /// let cancellable = Timer.publish(every: 1, on: .main, in: .common)
    ///     .autoconnect()
    ///     .sink { date in print("tick", date) }
    /// ```
    ///
    /// - Parameters:
    ///   - interval: The time interval on which to publish events. For example, a value of `0.5` publishes an event
    ///     approximately every half-second.
    ///   - tolerance: Accepted and not used, as on Apple platforms: the publisher's `tolerance` is `nil`. To set a
    ///     tolerance, create the publisher with ``TimerPublisher/init(interval:tolerance:runLoop:mode:options:)``.
    ///   - runLoop: The run loop on which the timer runs.
    ///   - mode: The run loop mode in which to run the timer.
    ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
    /// - Returns: A publisher that repeatedly emits the current date on the given interval.
    public static func publish(
        every interval: TimeInterval,
        tolerance _: TimeInterval? = nil,
        on runLoop: RunLoop,
        in mode: RunLoop.Mode,
        options: RunLoop.SchedulerOptions? = nil
    ) -> Timer.TimerPublisher {
        // Foundation's `Timer.publish` on Apple platforms drops its `tolerance`; the same code gives the same timer here.
        TimerPublisher(interval: interval, runLoop: runLoop, mode: mode, options: options)
    }

    /// A publisher that repeatedly emits the current date on a given interval.
    ///
    /// It is a connectable publisher: nothing is emitted until `connect()` starts a Foundation `Timer` on `runLoop`
    /// in `mode` (or `autoconnect()` does so for the first subscriber). The timer fires first `interval` after the
    /// connection, then every `interval`, whenever the run loop runs in that mode.
    ///
    /// - Several subscribers share one connection: each tick sends the same `Date` to every subscriber attached at
    ///   that moment, in the order they subscribed. A subscriber that attaches while the timer runs receives the
    ///   following ticks.
    /// - Demand is each subscriber's own. A tick that arrives when a subscriber has no outstanding demand is dropped
    ///   for that subscriber — it is not buffered and not delivered later — as in Combine. So is a tick that fires
    ///   while the same subscriber is still receiving the previous one (its `receive(_:)` ran the run loop): a
    ///   subscriber is never called re-entrantly.
    /// - Each `connect()` starts a timer of its own. Cancelling a connection invalidates its timer and detaches every
    ///   subscriber attached at that moment, as Combine does: they receive nothing more (and no completion — a timer
    ///   never completes), while subscribers attached later are served by later connections.
    /// - An `interval` of zero or less makes the timer fire every 0.1 millisecond, as Foundation's `Timer` does on
    ///   Apple platforms (swift-corelibs-foundation would fire once and stop).
    /// - As on Apple platforms, `Timer.publish(every:tolerance:on:in:options:)` drops its `tolerance` (the publisher's
    ///   is `nil`), while this initialiser keeps it; `connect()` sets it on the Foundation timer (`nil` as `0`).
    /// - As on Apple platforms, a subscription has no `description` or mirror of its own.
    public final class TimerPublisher: ConnectablePublisher {
        /// The kind of values published by this publisher.
        public typealias Output = Date
        /// The kind of errors this publisher might publish.
        public typealias Failure = Never

        /// The interval on which the timer fires, in seconds.
        public final let interval: TimeInterval
        /// The allowed timing variance of each tick; `nil` allows any variance.
        public final let tolerance: TimeInterval?
        /// The run loop on which the timer runs.
        public final let runLoop: RunLoop
        /// The run loop mode in which the timer runs.
        public final let mode: RunLoop.Mode
        /// Scheduler options passed to the timer.
        public final let options: RunLoop.SchedulerOptions?

        private let subscribers = TimerSubscribers<Date>()

        /// The interval a timer asked for zero or less runs at: Foundation's on Apple platforms.
        private static let shortestInterval: TimeInterval = 0.0001

        /// Creates a publisher that repeatedly emits the current date on the given interval.
        ///
        /// - Parameters:
        ///   - interval: The interval on which to publish events.
        ///   - tolerance: The allowed timing variance when emitting events. Defaults to `nil`, which allows any
        ///     variance.
        ///   - runLoop: The run loop on which the timer runs.
        ///   - mode: The run loop mode in which to run the timer.
        ///   - options: Scheduler options passed to the timer. Defaults to `nil`.
        public init(
            interval: TimeInterval,
            tolerance: TimeInterval? = nil,
            runLoop: RunLoop,
            mode: RunLoop.Mode,
            options: RunLoop.SchedulerOptions? = nil
        ) {
            self.interval = interval
            self.tolerance = tolerance
            self.runLoop = runLoop
            self.mode = mode
            self.options = options
        }

        /// Attaches the subscriber; it receives ticks once the publisher is connected and it has requested some.
        public final func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            subscribers.attach(subscriber, name: "TimerPublisher", describesItself: false)
        }

        /// Starts a timer on the run loop and returns the connection; cancelling it invalidates the timer.
        public final func connect() -> any Cancellable {
            let subscribers = self.subscribers
            let timer = Timer(timeInterval: Swift.max(interval, Self.shortestInterval), repeats: true) { _ in
                subscribers.send(Date())
            }
            timer.tolerance = tolerance ?? 0
            runLoop.add(timer, forMode: mode)
            return Connection(timer: timer, subscribers: subscribers)
        }
    }
}

extension Timer.TimerPublisher {
    /// One connection: the Foundation timer it started. Like Combine's, it has no description of its own.
    private final class Connection: Cancellable {
        // The lock guards the timer until the first `cancel()` takes it.
        private let timer: Locked<Timer?>
        private let subscribers: TimerSubscribers<Date>

        init(timer: Timer, subscribers: TimerSubscribers<Date>) {
            self.timer = Locked(timer)
            self.subscribers = subscribers
        }

        func cancel() {
            guard let timer = timer.withLock({ $0.take() }) else { return }
            timer.invalidate()
            subscribers.detachAll()
        }
    }
}

#endif
