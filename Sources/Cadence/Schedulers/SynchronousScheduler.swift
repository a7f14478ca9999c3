import Foundation

/// A scheduler that runs every action at once, on the calling thread, with the time and options types of another
/// scheduler: for code that takes `AnySchedulerOf<DispatchQueue>` (or `RunLoop`, `OperationQueue`) and whose timing a
/// test or a preview does not care about.
///
/// ```swift
/// let model = SearchModel(scheduler: .immediate)   // AnySchedulerOf<DispatchQueue>
/// model.query = "swift"                           // the 300 ms debounce fires at once
/// ```
///
/// Its ``now`` is always tick `0` of the time type, a delayed action runs at once, and a repeating action runs once.
/// Combine's own `ImmediateScheduler` does the same with time types of its own; combine-schedulers calls this type
/// `ImmediateScheduler<SchedulerTimeType, SchedulerOptions>`, and ``ImmediateSchedulerOf`` keeps its other spelling.
public struct SynchronousScheduler<SchedulerTimeType: VirtualTimeConvertible, SchedulerOptions>: Scheduler, Sendable {
    /// A scheduler that runs every action at once.
    public init() {}

    /// Tick `0` of the time type (see ``VirtualTimeConvertible``), always.
    public var now: SchedulerTimeType { SchedulerTimeType(virtualTick: 0) }

    /// Zero.
    public var minimumTolerance: SchedulerTimeType.Stride { .zero }

    /// Runs `action` now.
    public func schedule(options _: SchedulerOptions?, _ action: @escaping () -> Void) {
        action()
    }

    /// Runs `action` now, whatever `date` says.
    public func schedule(
        after _: SchedulerTimeType,
        tolerance _: SchedulerTimeType.Stride,
        options _: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        action()
    }

    /// Runs `action` once, now; the returned cancellable has nothing left to cancel.
    public func schedule(
        after _: SchedulerTimeType,
        interval _: SchedulerTimeType.Stride,
        tolerance _: SchedulerTimeType.Stride,
        options _: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        action()
        return AnyCancellable {}
    }
}

/// A ``SynchronousScheduler`` with the time and options types of the scheduler `S` it stands in for.
public typealias ImmediateSchedulerOf<S: Scheduler> = SynchronousScheduler<S.SchedulerTimeType, S.SchedulerOptions>
where S.SchedulerTimeType: VirtualTimeConvertible

extension DispatchQueue {
    /// A scheduler with `DispatchQueue`'s time that runs every action at once (see ``SynchronousScheduler``).
    public static var immediate: ImmediateSchedulerOf<DispatchQueue> {
        ImmediateSchedulerOf<DispatchQueue>()
    }
}

extension RunLoop {
    /// A scheduler with `RunLoop`'s time that runs every action at once (see ``SynchronousScheduler``).
    public static var immediate: ImmediateSchedulerOf<RunLoop> {
        ImmediateSchedulerOf<RunLoop>()
    }
}

extension OperationQueue {
    /// A scheduler with `OperationQueue`'s time that runs every action at once (see ``SynchronousScheduler``).
    public static var immediate: ImmediateSchedulerOf<OperationQueue> {
        ImmediateSchedulerOf<OperationQueue>()
    }
}

extension AnyScheduler
where SchedulerTimeType == DispatchQueue.SchedulerTimeType, SchedulerOptions == DispatchQueue.SchedulerOptions {
    /// `DispatchQueue.immediate`, erased: for code that takes `AnySchedulerOf<DispatchQueue>`.
    public static var immediate: Self { DispatchQueue.immediate.eraseToAnyScheduler() }
}

extension AnyScheduler
where SchedulerTimeType == RunLoop.SchedulerTimeType, SchedulerOptions == RunLoop.SchedulerOptions {
    /// `RunLoop.immediate`, erased: for code that takes `AnySchedulerOf<RunLoop>`.
    public static var immediate: Self { RunLoop.immediate.eraseToAnyScheduler() }
}

extension AnyScheduler
where SchedulerTimeType == OperationQueue.SchedulerTimeType, SchedulerOptions == OperationQueue.SchedulerOptions {
    /// `OperationQueue.immediate`, erased: for code that takes `AnySchedulerOf<OperationQueue>`.
    public static var immediate: Self { OperationQueue.immediate.eraseToAnyScheduler() }
}
