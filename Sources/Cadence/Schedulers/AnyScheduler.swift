/// A type-erased scheduler: any scheduler with the same time and options types, behind one concrete type.
///
/// Production code stores the erased scheduler its timing needs, and a test hands it a ``TestScheduler`` in place of
/// the real one:
///
/// ```swift
/// final class SearchModel: Sendable {
///     let scheduler: AnySchedulerOf<DispatchQueue>
///     init(scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()) { … }
/// }
///
/// let scheduler = DispatchQueue.test
/// let model = SearchModel(scheduler: scheduler.eraseToAnyScheduler())
/// ```
///
/// Every requirement of `Scheduler` is forwarded to the wrapped scheduler as it is; erasing an `AnyScheduler` again
/// hands back the same scheduler rather than wrapping it twice.
///
/// **Sendable.** `AnyScheduler` is `Sendable`, soundly: it holds only `@Sendable` closures, so it wraps only a
/// scheduler that is itself `Sendable` — or closures the caller vouches for, through
/// ``init(minimumTolerance:now:scheduleImmediately:delayed:interval:)``. `DispatchQueue` and `OperationQueue` are
/// `Sendable` on Linux and on Apple platforms, and every ``TestScheduler`` is, so they erase directly. `RunLoop` is
/// not (on Linux its conformance is explicitly unavailable; Apple's Foundation declares none): a run loop belongs to
/// its thread. Its scheduler methods are safe from any thread, though, so `RunLoop` has an `eraseToAnyScheduler()` of
/// its own that relies on exactly that; any other non-`Sendable` scheduler goes through the closure initialiser,
/// capturing it in a way you have checked is safe.
public struct AnyScheduler<SchedulerTimeType: Strideable, SchedulerOptions>: Scheduler, Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible {
    let box: AnySchedulerBox<SchedulerTimeType, SchedulerOptions>

    /// Wraps `scheduler`; wrapping an `AnyScheduler` of the same types hands it back unchanged.
    public init<S: Scheduler & Sendable>(_ scheduler: S)
    where S.SchedulerTimeType == SchedulerTimeType, S.SchedulerOptions == SchedulerOptions {
        if let erased = scheduler as? AnyScheduler {
            self = erased
        } else {
            box = SchedulerBox(scheduler)
        }
    }

    /// A scheduler made of closures, one per requirement of `Scheduler`.
    ///
    /// - Parameters:
    ///   - minimumTolerance: Returns the scheduler's minimum tolerance.
    ///   - now: Returns the scheduler's current time.
    ///   - scheduleImmediately: Performs `schedule(options:_:)`.
    ///   - delayed: Performs `schedule(after:tolerance:options:_:)`.
    ///   - interval: Performs `schedule(after:interval:tolerance:options:_:)`.
    public init(
        minimumTolerance: @escaping @Sendable () -> SchedulerTimeType.Stride,
        now: @escaping @Sendable () -> SchedulerTimeType,
        scheduleImmediately: @escaping @Sendable (SchedulerOptions?, @escaping () -> Void) -> Void,
        delayed:
            @escaping @Sendable (
                SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void
            ) -> Void,
        interval:
            @escaping @Sendable (
                SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
                @escaping () -> Void
            ) -> any Cancellable
    ) {
        box = ClosureSchedulerBox(
            minimumTolerance: minimumTolerance, now: now, scheduleImmediately: scheduleImmediately,
            delayed: delayed, interval: interval
        )
    }

    /// The wrapped scheduler's current time.
    public var now: SchedulerTimeType { box.now }

    /// The wrapped scheduler's minimum tolerance.
    public var minimumTolerance: SchedulerTimeType.Stride { box.minimumTolerance }

    /// Schedules `action` on the wrapped scheduler at its next opportunity.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        box.schedule(options: options, action)
    }

    /// Schedules `action` on the wrapped scheduler after `date`.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        box.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    /// Schedules `action` on the wrapped scheduler after `date` and then every `interval`.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> any Cancellable {
        box.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
}

/// The erased scheduler: each requirement of `Scheduler`, overridden by a box that forwards it.
class AnySchedulerBox<SchedulerTimeType: Strideable, SchedulerOptions>: @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible { // no state: subclasses hold only Sendable lets
    var now: SchedulerTimeType { fatalError("AnySchedulerBox is abstract") }
    var minimumTolerance: SchedulerTimeType.Stride { fatalError("AnySchedulerBox is abstract") }

    func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        fatalError("AnySchedulerBox is abstract")
    }

    func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        fatalError("AnySchedulerBox is abstract")
    }

    func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        fatalError("AnySchedulerBox is abstract")
    }
}

/// Forwards to a `Sendable` scheduler.
private final class SchedulerBox<Base: Scheduler & Sendable>:
    AnySchedulerBox<Base.SchedulerTimeType, Base.SchedulerOptions>, @unchecked Sendable
{ // `base` is a Sendable let
    let base: Base

    init(_ base: Base) {
        self.base = base
    }

    override var now: Base.SchedulerTimeType { base.now }
    override var minimumTolerance: Base.SchedulerTimeType.Stride { base.minimumTolerance }

    override func schedule(options: Base.SchedulerOptions?, _ action: @escaping () -> Void) {
        base.schedule(options: options, action)
    }

    override func schedule(
        after date: Base.SchedulerTimeType, tolerance: Base.SchedulerTimeType.Stride,
        options: Base.SchedulerOptions?, _ action: @escaping () -> Void
    ) {
        base.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    override func schedule(
        after date: Base.SchedulerTimeType, interval: Base.SchedulerTimeType.Stride,
        tolerance: Base.SchedulerTimeType.Stride, options: Base.SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        base.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
}

/// Forwards to `@Sendable` closures.
private final class ClosureSchedulerBox<SchedulerTimeType: Strideable, SchedulerOptions>:
    AnySchedulerBox<SchedulerTimeType, SchedulerOptions>, @unchecked Sendable
where SchedulerTimeType.Stride: SchedulerTimeIntervalConvertible { // every stored property is a @Sendable closure let
    typealias Delayed =
        @Sendable (SchedulerTimeType, SchedulerTimeType.Stride, SchedulerOptions?, @escaping () -> Void)
        -> Void
    typealias Repeating =
        @Sendable (
            SchedulerTimeType, SchedulerTimeType.Stride, SchedulerTimeType.Stride, SchedulerOptions?,
            @escaping () -> Void
        ) -> any Cancellable

    let minimumToleranceBody: @Sendable () -> SchedulerTimeType.Stride
    let nowBody: @Sendable () -> SchedulerTimeType
    let scheduleBody: @Sendable (SchedulerOptions?, @escaping () -> Void) -> Void
    let delayedBody: Delayed
    let repeatingBody: Repeating

    init(
        minimumTolerance: @escaping @Sendable () -> SchedulerTimeType.Stride,
        now: @escaping @Sendable () -> SchedulerTimeType,
        scheduleImmediately: @escaping @Sendable (SchedulerOptions?, @escaping () -> Void) -> Void,
        delayed: @escaping Delayed,
        interval: @escaping Repeating
    ) {
        minimumToleranceBody = minimumTolerance
        nowBody = now
        scheduleBody = scheduleImmediately
        delayedBody = delayed
        repeatingBody = interval
    }

    override var now: SchedulerTimeType { nowBody() }
    override var minimumTolerance: SchedulerTimeType.Stride { minimumToleranceBody() }

    override func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        scheduleBody(options, action)
    }

    override func schedule(
        after date: SchedulerTimeType, tolerance: SchedulerTimeType.Stride, options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        delayedBody(date, tolerance, options, action)
    }

    override func schedule(
        after date: SchedulerTimeType, interval: SchedulerTimeType.Stride, tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?, _ action: @escaping () -> Void
    ) -> any Cancellable {
        repeatingBody(date, interval, tolerance, options, action)
    }
}

/// A type-erased scheduler with the time and options types of the scheduler `S`: `AnySchedulerOf<DispatchQueue>`.
public typealias AnySchedulerOf<S: Scheduler> = AnyScheduler<S.SchedulerTimeType, S.SchedulerOptions>

extension Scheduler where Self: Sendable {
    /// Wraps this scheduler in an ``AnyScheduler``.
    public func eraseToAnyScheduler() -> AnySchedulerOf<Self> {
        AnyScheduler(self)
    }
}

extension AnyScheduler {
    /// Returns this scheduler itself: it is already erased.
    public func eraseToAnyScheduler() -> AnyScheduler {
        self
    }
}
