/// The events an operator took from its upstream and hands to its downstream later, each from an action it put on a
/// scheduler (delay, timeout): kept in arrival order and delivered one at a time. Pure state, guarded by the
/// operator's lock.
///
/// Every appended event gets one scheduled action. An action that runs makes the oldest waiting event *due*; whoever
/// finds nobody delivering takes it, delivers it outside the lock, then asks for the next due event — so deliveries
/// never overlap, even when actions run on several threads or re-entrantly (an `ImmediateScheduler` runs an action
/// inside the call that schedules it, so a downstream that makes its upstream send from `receive(_:)` lands here).
///
/// Once the queue has been emptied by ``removeAll()`` or ``replaceAll(with:)`` nothing more may be appended: the
/// actions of the dropped events still run, and find nothing to deliver.
struct ScheduledDeliveryQueue<Event> {
    private var events = RingBuffer<Event>()
    private var dueCount = 0

    /// Whether someone is delivering an event right now (outside the lock).
    private(set) var isDelivering = false

    init() {}

    /// How many events wait for delivery.
    var count: Int { events.count }

    /// Keeps `event` until its scheduled action has run.
    mutating func append(_ event: Event) {
        events.append(event)
    }

    /// One scheduled action ran: returns the event its caller must deliver now, or nil when a delivery is under way
    /// (that deliverer takes the newly due event next) or nothing is left.
    mutating func actionRan() -> Event? {
        dueCount += 1
        return isDelivering ? nil : takeDue()
    }

    /// The caller finished delivering its event: returns the next due event for it to deliver, or nil, which ends its
    /// turn.
    mutating func deliveryEnded() -> Event? {
        takeDue()
    }

    /// Drops every waiting event and makes `event` the only one, due at once. Returns the event the caller must
    /// deliver now — nil when a delivery is under way, whose deliverer takes `event` next — and the dropped events,
    /// to release outside the lock.
    mutating func replaceAll(with event: Event) -> (deliverNow: Event?, dropped: RingBuffer<Event>) {
        var dropped = RingBuffer<Event>()
        swap(&dropped, &events)
        events.append(event)
        dueCount = 1
        return (isDelivering ? nil : takeDue(), dropped)
    }

    /// Drops every waiting event and returns them, to release outside the lock.
    mutating func removeAll() -> RingBuffer<Event> {
        var dropped = RingBuffer<Event>()
        swap(&dropped, &events)
        dueCount = 0
        return dropped
    }

    private mutating func takeDue() -> Event? {
        guard dueCount > 0, let event = events.popFirst() else {
            if events.isEmpty { dueCount = 0 }
            isDelivering = false
            return nil
        }
        dueCount -= 1
        isDelivering = true
        return event
    }
}
