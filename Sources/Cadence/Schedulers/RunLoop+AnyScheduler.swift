import Foundation

extension RunLoop {
    /// Wraps this run loop's scheduler in an ``AnyScheduler``, so code can take `AnySchedulerOf<RunLoop>` and tests can
    /// pass `RunLoop.test`.
    ///
    /// `RunLoop` is not `Sendable`: most of its API belongs to the thread that runs it. Its `Scheduler` methods are the
    /// exception this relies on — Combine's own `receive(on: RunLoop.main)` calls them from whichever thread the
    /// upstream sends on, and they only hand work to the run loop (a block to perform, a timer to fire), which
    /// Foundation does safely from any thread. The erased scheduler calls nothing else on the run loop.
    public func eraseToAnyScheduler() -> AnySchedulerOf<RunLoop> {
        nonisolated(unsafe) let runLoop = self
        return AnyScheduler(
            minimumTolerance: { runLoop.minimumTolerance },
            now: { runLoop.now },
            scheduleImmediately: { options, action in runLoop.schedule(options: options, action) },
            delayed: { date, tolerance, options, action in
                runLoop.schedule(after: date, tolerance: tolerance, options: options, action)
            },
            interval: { date, interval, tolerance, options, action in
                runLoop.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
            }
        )
    }
}
