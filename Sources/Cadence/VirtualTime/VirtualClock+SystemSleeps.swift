import CadenceRuntimeHooks

extension VirtualClock {
    /// Whether this runtime lets a session take the sleeps of its tasks on `ContinuousClock` and `SuspendingClock`
    /// onto its virtual clock: it needs the scheduling executors of Swift 6.3 (macOS 26.4, iOS 26.4 on Apple's
    /// systems), through which every such sleep asks the executor it runs on to wake it.
    package static var canVirtualizeSystemSleeps: Bool {
        #if compiler(>=6.3)
        if #available(macOS 26.4, iOS 26.4, tvOS 26.4, watchOS 26.4, visionOS 26.4, *) {
            return VirtualTimeExecutor.isAvailable
        }
        #endif
        return false
    }

    /// From now until the session ends, a sleep of one of the session's tasks on `ContinuousClock` or
    /// `SuspendingClock` — `Task.sleep(for:)`, `Task.sleep(nanoseconds:)`, `ContinuousClock().sleep(for:)` — is a
    /// sleep on this clock: the advance that reaches its deadline wakes it. The length of such a sleep is its deadline
    /// less the system clock's time when the sleep reaches Cadence, rounded up to a whole tick.
    ///
    /// A sleep whose deadline has passed ends at once. A sleep still pending when the clock ends is cancelled: the
    /// sleeper throws `CancellationError`, as one on the clock itself does.
    ///
    /// - Returns: false, doing nothing, on a clock of no session or where ``canVirtualizeSystemSleeps`` is false.
    package func virtualizeSystemSleeps() -> Bool {
        guard Self.canVirtualizeSystemSleeps, let executor else { return false }
        executor.virtualizeSystemSleeps { [weak self] wake, ticks, sleeper in
            guard let self else {
                Self.cancel(sleeper, thenRun: wake)
                return
            }
            // A deadline already reached ends the sleep at once, as on the clock itself.
            guard ticks > 0 else {
                executor.wake(wake)
                if let sleeper { cadence_release_task(sleeper) }
                return
            }
            _ = self.enqueue(
                .ticksFromNow(ticks), interval: 0,
                {
                    executor.wake(wake)
                    if let sleeper { cadence_release_task(sleeper) }
                },
                onEnd: { Self.cancel(sleeper, thenRun: wake) },
                origin: "Task.sleep (or a sleep on ContinuousClock or SuspendingClock)"
            )
        }
        return true
    }

    /// Cancels the sleeping task, so that its sleep throws `CancellationError`, then hands the job that would have
    /// woken it to the runtime (it finds the sleep cancelled and only cleans up).
    private static func cancel(_ sleeper: UnsafeMutableRawPointer?, thenRun wake: UnownedJob) {
        if let sleeper {
            cadence_cancel_task(sleeper)
            cadence_release_task(sleeper)
        }
        cadence_enqueue_global(unsafeBitCast(wake, to: UnsafeMutableRawPointer.self))
    }
}
