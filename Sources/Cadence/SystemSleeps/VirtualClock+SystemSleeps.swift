import CadenceRuntimeHooks
import CadenceSupport

extension VirtualClock {
    /// Whether this build and runtime let a session take the sleeps of its tasks on `ContinuousClock` and
    /// `SuspendingClock` onto its virtual clock.
    package static var systemSleepSupport: SystemSleepSupport {
        #if canImport(ObjectiveC)
        return .notInAppleSDKs
        #elseif compiler(>=6.3)
        return SessionExecutor.isAvailable ? .available : .runtimeTooOld
        #else
        return .runtimeTooOld
        #endif
    }

    /// Whether ``systemSleepSupport`` is ``SystemSleepSupport/available``.
    package static var canVirtualizeSystemSleeps: Bool { systemSleepSupport == .available }

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
        executor.virtualizeSystemSleeps(
            with: { [weak self] wake, ticks, sleeper in
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
                // Woken, cancelled as the clock ends, or ended by a stall report: whichever comes first, once.
                let settled = Locked(false)
                let settle: @Sendable () -> Bool = {
                    settled.withLock { done in
                        defer { done = true }
                        return !done
                    }
                }
                let task = sleeper.map { cadence_job_task_id($0) } ?? 0
                let forget: @Sendable () -> Void = { [weak self] in
                    if task != 0 { self?.sleepingTasks.withLock { _ = $0.removeValue(forKey: task) } }
                }
                let scheduled = self.enqueue(
                    .ticksFromNow(ticks), interval: 0, lane: .wakeUp(task: task),
                    {
                        guard settle() else { return }
                        forget()
                        executor.wake(wake)
                        if let sleeper { cadence_release_task(sleeper) }
                    },
                    onEnd: {
                        guard settle() else { return }
                        forget()
                        Self.cancel(sleeper, thenRun: wake)
                    },
                    origin: "Task.sleep (or a sleep on ContinuousClock or SuspendingClock)"
                )
                // The session's stall check sees this sleep as it sees one on the clock itself, and can end it.
                if let sleeper, task != 0 {
                    let since = self.now.ticks
                    let deadline = since &+ ticks
                    let retained = RetainedTask(task: sleeper)
                    /// Forgets the sleep and hands its wake-up to the runtime, which finds the sleep over.
                    let dropSleep: @Sendable () -> Void = {
                        scheduled.cancel()
                        forget()
                        cadence_release_task(retained.task)
                        executor.wake(wake)
                    }
                    self.sleepingTasks.withLock {
                        $0[task] = SleepingTask(
                            deadline: deadline,
                            end: {
                                guard settle() else { return }
                                cadence_cancel_task(retained.task)
                                dropSleep()
                            },
                            // A task cancelled while asleep throws at once, past the clock: its sleep is pending no more.
                            endedByCancellation: {
                                if settle() { dropSleep() }
                            },
                            since: since,
                            origin: "Task.sleep (or a sleep on ContinuousClock or SuspendingClock)"
                        )
                    }
                }
            },
            taskResumed: { [weak self] task in
                // A task asleep here comes back only when its sleep ends: by the clock (which forgets it first) or by a
                // cancellation.
                guard let sleep = self?.sleepingTasks.withLock({ $0[task] }) else { return }
                sleep.endedByCancellation?()
            })
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

/// A task `cadence_retain_current_task` retained, handed to the closure that ends its sleep (on any thread: the runtime's
/// task functions are thread-safe).
private struct RetainedTask: @unchecked Sendable {
    let task: UnsafeMutableRawPointer
}
