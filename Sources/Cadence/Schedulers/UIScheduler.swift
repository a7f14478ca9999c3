import Foundation

/// A scheduler for work that must run on the main queue: an action scheduled from the main queue (the main actor)
/// runs at once, without the hop to the next turn of the queue that `DispatchQueue.main` makes; from anywhere else it
/// goes onto the main queue. Delayed and repeating actions go onto the main queue.
///
/// ```swift
/// apiClient.search(query)
///     .receive(on: UIScheduler.shared)   // on the main thread, with no extra hop when already there
///     .sink { model.results = $0 }
/// ```
///
/// It has `DispatchQueue`'s time and options, so it erases to `AnySchedulerOf<DispatchQueue>`.
public struct UIScheduler: Scheduler, Sendable {
    public typealias SchedulerTimeType = DispatchQueue.SchedulerTimeType
    public typealias SchedulerOptions = DispatchQueue.SchedulerOptions

    /// The scheduler.
    public static let shared = UIScheduler()

    /// Marks the main queue, so that code running on it knows (on Linux, once the main thread has handed the main
    /// queue to dispatch's workers, `Thread.isMainThread` is false there).
    private static let mainQueueKey = DispatchSpecificKey<Bool>()

    private init() {
        DispatchQueue.main.setSpecific(key: Self.mainQueueKey, value: true)
    }

    /// The main queue's now.
    public var now: SchedulerTimeType { DispatchQueue.main.now }

    /// The main queue's minimum tolerance.
    public var minimumTolerance: SchedulerTimeType.Stride { DispatchQueue.main.minimumTolerance }

    /// Runs `action` at once on the main queue, else puts it there.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        if DispatchQueue.getSpecific(key: Self.mainQueueKey) == true {
            action()
        } else {
            DispatchQueue.main.schedule(options: options, action)
        }
    }

    /// Puts `action` on the main queue, due at `date`.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        DispatchQueue.main.schedule(after: date, tolerance: tolerance, options: options, action)
    }

    /// Puts `action` on the main queue, due at `date` and then every `interval`.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        DispatchQueue.main.schedule(after: date, interval: interval, tolerance: tolerance, options: options, action)
    }
}
