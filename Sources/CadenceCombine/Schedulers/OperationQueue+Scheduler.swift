import CadenceSupport
import Foundation

extension OperationQueue: Scheduler {
    /// The scheduler time type used by the operation queue: a `Date`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable, DateBackedSchedulerTime {
        /// The date represented by this type.
        public var date: Date

        /// Creates an operation queue time type instance from a date.
        public init(_ date: Date) {
            self.date = date
        }

        /// An interval of time in seconds, a `TimeInterval`.
        ///
        /// As in Combine, ``magnitude`` is the signed interval itself, literals count seconds, and the product of two
        /// strides multiplies their seconds.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Codable, TimeIntervalSchedulerStride
        {
            /// A floating-point literal counts seconds.
            public typealias FloatLiteralType = TimeInterval
            /// An integer literal counts seconds.
            public typealias IntegerLiteralType = TimeInterval
            /// The type of ``magnitude``: seconds.
            public typealias Magnitude = TimeInterval

            /// The value of this time interval in seconds (negative for a negative interval).
            public var magnitude: TimeInterval

            /// The value of this time interval in seconds.
            public var timeInterval: TimeInterval { magnitude }

            /// An interval of `timeInterval` seconds.
            public init(_ timeInterval: TimeInterval) {
                magnitude = timeInterval
            }
        }
    }

    /// Options that affect the operation of the operation queue scheduler; there are none.
    public struct SchedulerOptions {}

    /// `Date()`.
    public var now: SchedulerTimeType { SchedulerTimeType(Date()) }

    /// Zero seconds.
    public var minimumTolerance: SchedulerTimeType.Stride { 0 }

    /// Adds `action` to the queue as a `BlockOperation`.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let transfer = SchedulerActionTransfer(action)
        addOperation(BlockOperation { transfer.run() })
    }

    /// Adds `action` to the queue now, as an operation that becomes ready at `date`.
    ///
    /// As in Combine, the waiting operation is on the queue from the start: it counts in `operationCount`,
    /// `cancelAllOperations()` cancels it and `waitUntilAllOperationsAreFinished()` waits for it, while the operations
    /// behind it run as usual. `tolerance` is not used.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let transfer = SchedulerActionTransfer(action)
        addOperation(OperationQueue.operation(readyAt: date.date) { transfer.run() })
    }

    /// Runs `action` on the queue at `date` and then every `interval`, until the returned cancellable is cancelled
    /// (or released).
    ///
    /// Each run is one operation on the queue, added when the previous one has run and ready at the next due date
    /// (`date + n × interval`; a run that is late does not make the next ones bunch up: the next is due no earlier
    /// than when the late one ran). Cancelling cancels the waiting operation; `cancelAllOperations()` also ends the
    /// repetition, since the cancelled operation never runs to add the next one.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        let repetition = RepeatingOperations(queue: self, interval: interval.timeInterval, action: action)
        repetition.enqueue(at: date.date)
        return AnyCancellable(repetition)
    }

    /// An operation that runs `block` and is not ready until `date` (or until cancelled, so that it can finish unrun).
    fileprivate static func operation(readyAt date: Date, _ block: @escaping @Sendable () -> Void) -> Operation {
        let operation = DelayedOperation(block)
        let delay = date.timeIntervalSinceNow
        if delay > 0 {
            DispatchQueue.global().asyncAfter(wallDeadline: .now() + delay) { [weak operation] in
                operation?.becomeDue()
            }
        } else {
            operation.becomeDue()
        }
        return operation
    }
}

/// An operation that waits on its queue, not ready, until it falls due. As in Combine, it is a `Cancellable`:
/// `cancel()` takes it off the queue unrun.
///
/// Readiness is the operation's own (`isReady`), not a dependency: in swift-corelibs-foundation an operation's
/// dependency keeps only an unowned reference to it, which a dependency started after the operation was cancelled
/// and released would follow. The timer that makes it due holds it weakly, so a cancelled operation goes at once.
private final class DelayedOperation: Operation, Cancellable, @unchecked Sendable { // `lock` guards its two vars
    private let lock = UnfairLock()
    private var isDue = false
    private var block: (@Sendable () -> Void)?

    init(_ block: @escaping @Sendable () -> Void) {
        self.block = block
        super.init()
    }

    override var isReady: Bool {
        lock.lock()
        let isDue = isDue
        lock.unlock()
        return super.isReady && (isDue || isCancelled)
    }

    func becomeDue() {
        willChangeValue(forKey: "isReady")
        lock.lock()
        isDue = true
        lock.unlock()
        didChangeValue(forKey: "isReady")
    }

    override func main() {
        lock.lock()
        let block = block
        self.block = nil
        lock.unlock()
        block?()
    }

    override func cancel() {
        lock.lock()
        let released = block
        block = nil
        lock.unlock()
        withExtendedLifetime(released) {}
        super.cancel()
    }
}

/// The operations of one repeating action on an operation queue: each run adds the next.
private final class RepeatingOperations: Cancellable, Sendable {
    private struct State {
        var action: SchedulerActionTransfer?
        var waiting: Operation?
        var due = Date.distantPast
    }

    private let state: Locked<State>
    private let queue: OperationQueue
    private let interval: TimeInterval

    init(queue: OperationQueue, interval: TimeInterval, action: @escaping () -> Void) {
        self.queue = queue
        self.interval = interval
        state = Locked(State(action: SchedulerActionTransfer(action)))
    }

    /// Adds the operation for the run due at `date`, unless cancelled.
    func enqueue(at date: Date) {
        let operation = state.withLock { state -> Operation? in
            guard state.action != nil else { return nil }
            state.due = date
            let operation = OperationQueue.operation(readyAt: date) { [self] in run() }
            state.waiting = operation
            return operation
        }
        if let operation { queue.addOperation(operation) }
    }

    private func run() {
        guard let action = state.withLock({ $0.action }) else { return }
        action.run()
        let next = state.withLock { state in max(state.due.addingTimeInterval(interval), Date()) }
        enqueue(at: next)
    }

    func cancel() {
        let (action, waiting) = state.withLock { state in
            defer {
                state.action = nil
                state.waiting = nil
            }
            return (state.action, state.waiting)
        }
        waiting?.cancel()
        withExtendedLifetime(action) {}
    }
}
