// Not on Apple platforms: their SDKs ship the standard library's public interfaces only, where this SPI import brings
// nothing and `SchedulingExecutor` does not exist (`.ci/apple-sim` compiles against such interfaces to keep it so).
#if compiler(>=6.3) && !canImport(ObjectiveC)
// `SchedulingExecutor` is Swift 6.3's (still behind this SPI): a sleep on `ContinuousClock` or `SuspendingClock` asks
// the current scheduling executor — the running actor's, else the thread's task executor, else the default one — to
// run the job that wakes it at its deadline. The executors a session's jobs run on (`MainActorExecutor` for the main
// actor, `SessionTaskExecutor` for everything else) answer, so the session can take such sleeps onto its virtual
// clock; every other sleep goes on to the runtime's default executor as before.
@_spi(ExperimentalScheduling) import _Concurrency

@available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
extension SessionTaskExecutor: SchedulingExecutor {
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        let now = clock.now
        SystemSleeps.enqueue(UnownedJob(job), at: instant, now: now, tolerance: tolerance, clock: clock)
    }
}

@available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
extension MainActorExecutor: SchedulingExecutor {
    func enqueue<C: Clock>(_ job: consuming ExecutorJob, at instant: C.Instant, tolerance: C.Duration?, clock: C) {
        let now = clock.now
        SystemSleeps.enqueue(UnownedJob(job), at: instant, now: now, tolerance: tolerance, clock: clock)
    }
}

/// Where a sleep that reaches one of Cadence's executors goes.
@available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *)
private enum SystemSleeps {
    /// Onto the virtual clock of the sleeping task's session, if it virtualises the system's clocks; else to the
    /// runtime's default executor, as if Cadence were not there.
    static func enqueue<C: Clock>(
        _ job: UnownedJob, at instant: C.Instant, now: C.Instant, tolerance: C.Duration?, clock: C
    ) {
        if let ticks = virtualTicks(from: now, until: instant, on: clock),
            SessionExecutor.scheduleSystemSleep(job, afterTicks: ticks)
        {
            return
        }
        if let scheduling = globalConcurrentExecutor as? any SchedulingExecutor {
            scheduling.enqueue(ExecutorJob(job), at: instant, tolerance: tolerance, clock: clock)
        } else {
            // A default executor that cannot wait (none on the platforms Cadence runs on): the sleep ends now rather
            // than never.
            globalConcurrentExecutor.enqueue(ExecutorJob(job))
        }
    }

    /// The ticks from `now` until `instant` of the continuous or suspending clock, rounded up; nil for any other
    /// clock.
    static func virtualTicks<C: Clock>(from now: C.Instant, until instant: C.Instant, on clock: C) -> Int64? {
        guard clock is ContinuousClock || clock is SuspendingClock,
            let delay = now.duration(to: instant) as? Duration
        else { return nil }
        return Duration.virtualTicks(in: delay)
    }
}
#endif
