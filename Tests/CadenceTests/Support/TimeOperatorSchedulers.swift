import Cadence

/// A virtual-time scheduler with `String` options that logs every scheduling call, so a test can pin which of the
/// scheduler's methods an operator uses, with which dates, intervals, tolerances and options.
struct RecordingTestScheduler: Scheduler, Sendable {
    typealias SchedulerTimeType = VirtualTime
    typealias SchedulerOptions = String

    let base: TestScheduler<VirtualTime, String>
    let log = LockedBox<[String]>([])

    init(clock: VirtualClock) {
        base = TestScheduler(clock: clock)
    }

    var now: VirtualTime { base.now }

    var minimumTolerance: VirtualTime.Stride { base.minimumTolerance }

    func schedule(options: String?, _ action: @escaping () -> Void) {
        log.append("schedule(options: \(options ?? "nil")) at \(now)")
        base.schedule(options: options, action)
    }

    func schedule(after date: VirtualTime, tolerance: VirtualTime.Stride, options: String?,
                  _ action: @escaping () -> Void) {
        log.append("schedule(after: \(date), tolerance: \(tolerance), options: \(options ?? "nil")) at \(now)")
        base.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    func schedule(after date: VirtualTime, interval: VirtualTime.Stride, tolerance: VirtualTime.Stride,
                  options: String?, _ action: @escaping () -> Void) -> any Cancellable {
        log.append(
            "schedule(after: \(date), interval: \(interval), tolerance: \(tolerance), " +
            "options: \(options ?? "nil")) at \(now)"
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

    func schedule(after date: VirtualTime, tolerance: VirtualTime.Stride, options: Never?,
                  _ action: @escaping () -> Void) {
        base.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    func schedule(after date: VirtualTime, interval: VirtualTime.Stride, tolerance: VirtualTime.Stride,
                  options: Never?, _ action: @escaping () -> Void) -> any Cancellable {
        _ = base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
        return AnyCancellable {}
    }
}
