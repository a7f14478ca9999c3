import CadenceSupport

/// One subscription to a ``TestPublisher`` or a ``ProbedPublisher``, as its probe saw it: when it was made, every
/// `request(_:)` with its demand, and when it ended — cancelled by the subscriber, or completed by the publisher.
/// Ticks are the clock's.
///
/// ```swift
/// #expect(input.subscriptions == [SubscriptionRecord(subscribed: 0, requests: [(0, .unlimited)], cancelled: 3)])
/// ```
public struct SubscriptionRecord: Equatable, CustomStringConvertible {
    /// One `request(_:)`.
    public struct Request: Equatable {
        /// The tick it was made on.
        public var tick: Int64
        /// What it asked for.
        public var demand: Subscribers.Demand

        public init(tick: Int64, demand: Subscribers.Demand) {
            self.tick = tick
            self.demand = demand
        }
    }

    /// The tick the subscriber received its subscription on.
    public var subscribed: Int64
    /// Every request, in order.
    public var requests: [Request]
    /// The tick the subscriber cancelled on; nil if it did not (before the publisher completed).
    public var cancelled: Int64?
    /// The tick the publisher sent its completion on; nil if it did not (before the subscriber cancelled).
    public var completed: Int64?

    public init(
        subscribed: Int64, requests: [(tick: Int64, demand: Subscribers.Demand)] = [], cancelled: Int64? = nil,
        completed: Int64? = nil
    ) {
        self.subscribed = subscribed
        self.requests = requests.map { Request(tick: $0.tick, demand: $0.demand) }
        self.cancelled = cancelled
        self.completed = completed
    }

    /// The tick the subscription ended on, either way; nil while it is live.
    public var ended: Int64? { cancelled ?? completed }

    /// `"subscribed at tick 0, requested unlimited at tick 0, cancelled at tick 3"`.
    public var description: String {
        var parts = ["subscribed at tick \(subscribed)"]
        parts += requests.map { "requested \($0.demand.cadenceText) at tick \($0.tick)" }
        if let cancelled { parts.append("cancelled at tick \(cancelled)") }
        if let completed { parts.append("completed at tick \(completed)") }
        return parts.joined(separator: ", ")
    }

    /// The subscription as a marble diagram from `origin`: `-` for each tick before it, `^` on the tick it was made,
    /// `-` while it lasted and `!` on the tick it ended (cancelled or completed); `(^!)` for both on one tick. A live
    /// subscription's diagram ends at its `^`: `"--^"`.
    public func diagram(from origin: Int64) -> String {
        let lead = String(repeating: "-", count: Int(max(0, subscribed - origin)))
        guard let ended else { return lead + "^" }
        if ended <= subscribed { return lead + "(^!)" }
        return lead + "^" + String(repeating: "-", count: Int(ended - subscribed - 1)) + "!"
    }
}

extension Subscribers.Demand {
    /// `"unlimited"`, `"max(3)"`: a demand as a record describes it.
    fileprivate var cadenceText: String {
        self == .unlimited ? "unlimited" : "max(\(max ?? 0))"
    }
}

/// The subscriptions one publisher handed out, recorded as they happen; shared by a ``TestPublisher`` and the
/// subscriptions it makes, or by a ``ProbedPublisher`` and its.
final class SubscriptionProbe: @unchecked Sendable { // `records` is guarded by its lock; `clock` is immutable
    let clock: VirtualClock
    /// The tick diagrams count from.
    let origin: Int64
    private let records = Locked<[SubscriptionRecord]>([])

    init(clock: VirtualClock) {
        self.clock = clock
        origin = clock.now.ticks
    }

    var all: [SubscriptionRecord] { records.withLock { $0 } }

    /// Records a new subscription; returns its index.
    func subscribed() -> Int {
        let tick = clock.now.ticks
        return records.withLock { records in
            records.append(SubscriptionRecord(subscribed: tick))
            return records.count - 1
        }
    }

    func requested(_ demand: Subscribers.Demand, by index: Int) {
        let tick = clock.now.ticks
        records.withLock { $0[index].requests.append(SubscriptionRecord.Request(tick: tick, demand: demand)) }
    }

    /// Records the end of subscription `index`, once: the first of a cancel and a completion.
    func ended(_ index: Int, cancelled: Bool) {
        let tick = clock.now.ticks
        records.withLock { records in
            guard records[index].ended == nil else { return }
            if cancelled { records[index].cancelled = tick } else { records[index].completed = tick }
        }
    }

    /// Checks the subscriptions against `diagrams`, reporting a difference at `location`.
    func expect(_ diagrams: [String], name: String, at location: SourceCodeLocation) {
        let records = all
        let received = records.map { $0.diagram(from: origin) }
        guard received != diagrams else { return }
        FailureReporter.resolved.report(
            ExpectationFailure(
                message: TestDoubleText.subscriptionsDiffer(
                    name, expected: diagrams, received: received, origin: origin, records: records),
                location: location
            ))
    }
}
