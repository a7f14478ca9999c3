extension VirtualClock {
    /// A task asleep on a session's clock: until when, and the hand-over that wakes it.
    struct SleepingTask: Sendable {
        let deadline: Int64
        let sleeper: Sleeper
    }

    /// Lets the session's executor ask whether the session's body sleeps on this clock while nothing else of the
    /// session can run — nothing would ever advance the clock — and end that sleep instead of letting the test hang.
    func watchForStalls() {
        executor?.watchForStalls(VirtualTimeExecutor.StallWatch(
            sleepsUntil: { [weak self] task in self?.sleepingTasks.withLock { $0[task]?.deadline } },
            breakStall: { [weak self] task in self?.breakStall(ofSleepingTask: task) }
        ))
    }

    /// Reports that the body sleeps on the clock with nothing to advance it, then ends its sleep with
    /// `CancellationError`.
    private func breakStall(ofSleepingTask task: UInt64) {
        guard let asleep = sleepingTasks.withLock({ $0[task] }) else { return }
        reporter.report(
            "The test has slept on the virtual clock until tick \(asleep.deadline) (it is tick \(now.ticks)) for "
                + "a second of real time with none of its tasks ready to run, so nothing of the test can advance the "
                + "clock and it would wait forever. Drive the clock from the test instead — start the sleeping work "
                + "in a Task, then await clock.advance(by:) or clock.run() — or let the work sleep on a clock of its "
                + "own. The sleep was ended with CancellationError."
        )
        asleep.sleeper.cancel()
    }
}
