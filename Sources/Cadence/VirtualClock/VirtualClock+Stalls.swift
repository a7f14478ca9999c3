import CadenceSupport

extension VirtualClock {
    /// A task asleep on a session's clock, on the clock itself or on a system clock the session takes onto it: until
    /// when, what ends the sleep early with `CancellationError`, and — for a sleep on a system clock, which its task's
    /// cancellation ends past the clock — what forgets the sleep once its task is back. It also says, for a session's
    /// report of the tasks its body left asleep, since when the task sleeps, in what, and where when that is known.
    package struct SleepingTask: Sendable {
        package let deadline: Int64
        let end: @Sendable () -> Void
        var endedByCancellation: (@Sendable () -> Void)? = nil
        /// The tick the task fell asleep at.
        package var since: Int64 = 0
        /// What the task sleeps in: `"VirtualClock.sleep(until:tolerance:)"`, or a sleep on a system clock.
        package var origin = ""
        /// Where the task called the clock's `sleep(for:)`, when it called it on a `VirtualClock` itself; nil when it
        /// slept through a `Clock` it does not know is virtual, which passes no location.
        package var location: SourceCodeLocation? = nil
    }

    /// The tasks asleep on a session's clock now, earliest deadline first (then first asleep first); a sleep the stall
    /// check ended is not one, though its task may not be back yet.
    package var sleepingTasksNow: [SleepingTask] {
        let ended = sleepsEndedByStall.withLock { $0 }
        return sleepingTasks.withLock { sleeps in sleeps.filter { ended[$0.key] != $0.value.since }.map(\.value) }
            .sorted { ($0.deadline, $0.since) < ($1.deadline, $1.since) }
    }

    /// Lets the session's executor ask whether the session's body — or any task of the session, while the body waits
    /// on something else — sleeps on this clock while nothing else of the session can run: nothing would ever advance
    /// the clock. It then ends those sleeps instead of letting the test hang.
    /// Whether the session found its test stalled, reported it and ended the sleeps with `CancellationError`: that
    /// error, thrown on out of the test, is the same failure, reported already.
    package var hasEndedStalledSleeps: Bool { endedStalledSleeps.withLock { $0 } }

    func watchForStalls() {
        executor?.watchForStalls(
            SessionExecutor.StallWatch(
                anySleeps: { [weak self] in self?.sleepingTasks.withLock { !$0.isEmpty } ?? false },
                breakStall: { [weak self] task in self?.breakStall(ofBody: task) }
            ))
    }

    /// Reports that the test waits with nothing to advance the clock, then ends the sleeps on the clock with
    /// `CancellationError`: the body's own, when it sleeps, else every task's.
    private func breakStall(ofBody body: UInt64) {
        let now = now.ticks
        if let asleep = sleepingTasks.withLock({ $0[body] }) {
            endedStalledSleeps.withLock { $0 = true }
            sleepsEndedByStall.withLock { $0[body] = asleep.since }
            reporter.report(
                "The test has slept on the virtual clock until tick \(asleep.deadline) (it is tick \(now)) for a "
                    + "second of real time with none of its tasks ready to run, so nothing of the test can advance the "
                    + "clock and it would wait forever. Drive the clock from the test instead — start the sleeping "
                    + "work in a Task, then await clock.advance(by:) or clock.run() — or let the work sleep on a clock "
                    + "of its own. The sleep was ended with CancellationError."
            )
            asleep.end()
            return
        }
        let sleeps = sleepingTasks.withLock { $0 }
        let asleep = sleeps.values.sorted { $0.deadline < $1.deadline }
        guard let first = asleep.first else { return }
        sleepsEndedByStall.withLock { ended in
            for (task, sleep) in sleeps { ended[task] = sleep.since }
        }
        let tasks = asleep.count == 1 ? "1 task sleeps" : "\(asleep.count) tasks sleep"
        let until = asleep.count == 1 ? "until tick \(first.deadline)" : "the first until tick \(first.deadline)"
        endedStalledSleeps.withLock { $0 = true }
        reporter.report(
            "The test has waited for a second of real time with none of its tasks ready to run while \(tasks) on "
                + "the virtual clock (\(until); it is tick \(now)), so nothing of the test can advance the clock and "
                + "it would wait forever. Is the test awaiting work that sleeps (a task's value, a function that "
                + "sleeps)? Start that work in a Task, then await clock.advance(by:) or clock.run() before awaiting "
                + "its result. \(asleep.count == 1 ? "The sleep was" : "The sleeps were") ended with "
                + "CancellationError."
        )
        for sleep in asleep { sleep.end() }
    }
}
