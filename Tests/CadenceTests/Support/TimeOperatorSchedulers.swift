import Cadence

/// A virtual-time scheduler with `String` options that logs every scheduling call, so a test can pin which of the
/// scheduler's methods an operator uses, with which dates, intervals, tolerances and options; it counts the reads of
/// `now` apart.
struct RecordingTestScheduler: Scheduler, Sendable {
    typealias SchedulerTimeType = VirtualTime
    typealias SchedulerOptions = String

    let base: TestScheduler<VirtualTime, String>
    let log = LockedBox<[String]>([])
    /// How many times `now` was read (the log's own timestamps are not counted).
    let nowReads = LockedBox(0)

    init(clock: VirtualClock) {
        base = TestScheduler(clock: clock)
    }

    var now: VirtualTime {
        nowReads.mutate { $0 += 1 }
        return base.now
    }

    var minimumTolerance: VirtualTime.Stride { base.minimumTolerance }

    func schedule(options: String?, _ action: @escaping () -> Void) {
        log.append("schedule(options: \(options ?? "nil")) at \(base.now)")
        base.schedule(options: options, action)
    }

    func schedule(
        after date: VirtualTime, tolerance: VirtualTime.Stride, options: String?,
        _ action: @escaping () -> Void
    ) {
        log.append("schedule(after: \(date), tolerance: \(tolerance), options: \(options ?? "nil")) at \(base.now)")
        base.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    func schedule(
        after date: VirtualTime, interval: VirtualTime.Stride, tolerance: VirtualTime.Stride,
        options: String?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        log.append(
            "schedule(after: \(date), interval: \(interval), tolerance: \(tolerance), "
                + "options: \(options ?? "nil")) at \(base.now)"
        )
        return base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
}

/// A virtual-time scheduler whose repeating actions cannot be cancelled — the cancellable it returns does nothing —
/// to check that an operator's stale timers, left running, deliver nothing.
struct NonCancellingTestScheduler: Scheduler, Sendable {
    typealias SchedulerTimeType = VirtualTime
    typealias SchedulerOptions = Never

    let base: VirtualScheduler

    var now: VirtualTime { base.now }

    var minimumTolerance: VirtualTime.Stride { base.minimumTolerance }

    func schedule(options: Never?, _ action: @escaping () -> Void) {
        base.schedule(options: options, action)
    }

    func schedule(
        after date: VirtualTime, tolerance: VirtualTime.Stride, options: Never?,
        _ action: @escaping () -> Void
    ) {
        base.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    func schedule(
        after date: VirtualTime, interval: VirtualTime.Stride, tolerance: VirtualTime.Stride,
        options: Never?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        _ = base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
        return AnyCancellable {}
    }
}
