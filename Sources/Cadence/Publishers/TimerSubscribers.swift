import CadenceSupport

/// The subscribers attached to one timer publisher (Foundation's `Timer.TimerPublisher` on Linux, and
/// ``SchedulerTimerPublisher`` everywhere), and the fan-out of its ticks to them.
///
/// Every connection of the publisher sends its ticks here; each tick goes to every attached subscriber that has
/// demand for it, in the order they subscribed. A subscriber without demand misses the tick: ticks are never buffered.
/// Cancelling a connection detaches every subscriber attached at that moment (`detachAll()`), as Combine's timer does.
final class TimerSubscribers<Tick>: Sendable {
    private let attached = Locked<[TimerSubscriptionBase<Tick>]>([])

    /// Attaches `downstream` and hands it its subscription, named `name` in its trap message and, when
    /// `describesItself`, in its `description` and mirror (Foundation's timer subscription on Apple platforms has
    /// neither).
    func attach<Downstream: Subscriber>(_ downstream: Downstream, name: String, describesItself: Bool = true)
    where Downstream.Input == Tick, Downstream.Failure == Never {
        let subscription: TimerSubscription<Downstream> =
            describesItself
            ? DescribedTimerSubscription(downstream: downstream, name: name, owner: self)
            : TimerSubscription(downstream: downstream, name: name, owner: self)
        attached.withLock { $0.append(subscription) }
        downstream.receive(subscription: subscription)
    }

    /// Sends one tick to every attached subscriber that has demand for it.
    func send(_ tick: Tick) {
        let receivers = attached.withLock { $0 }
        for receiver in receivers {
            receiver.receiveTick(tick)
        }
    }

    /// Detaches every attached subscriber: none of them receives anything more.
    func detachAll() {
        let detached = attached.withLock { attached in
            defer { attached = [] }
            return attached
        }
        for subscription in detached {
            subscription.detach()
        }
    }

    /// Forgets a subscription that was cancelled.
    func remove(_ subscription: TimerSubscriptionBase<Tick>) {
        let removed: TimerSubscriptionBase<Tick>? = attached.withLock { attached in
            guard let index = attached.firstIndex(where: { $0 === subscription }) else { return nil }
            return attached.remove(at: index)
        }
        withExtendedLifetime(removed) {} // released here, outside the lock
    }
}

/// A timer subscription seen without its downstream's type, so that ``TimerSubscribers`` can hold several kinds.
class TimerSubscriptionBase<Tick> {
    /// Delivers `tick` if the downstream has demand for it; otherwise the tick is dropped.
    func receiveTick(_ tick: Tick) {}

    /// Ends the subscription because its connection was cancelled: releases the downstream, delivers nothing more.
    func detach() {}
}

/// The state of one timer subscription, as a pure state machine: the storage performs what each transition returns,
/// outside its lock.
struct TimerSubscriptionState<Downstream> {
    /// The downstream, until the subscription is cancelled or detached.
    private(set) var downstream: Downstream?
    /// What the downstream has requested and not yet received.
    private(set) var demand = Subscribers.Demand.none
    /// Whether a tick is on its way to the downstream right now.
    private var isDelivering = false

    init(downstream: Downstream) {
        self.downstream = downstream
    }

    /// A tick arrived: it goes to the downstream only if the downstream has demand and is not still receiving the
    /// previous tick (two connections on a concurrent scheduler, or a tick fired from inside the downstream).
    mutating func tick() -> Downstream? {
        guard let downstream, demand > 0, !isDelivering else { return nil }
        demand -= 1
        isDelivering = true
        return downstream
    }

    /// The downstream received the tick and asked for `more`.
    mutating func delivered(asking more: Subscribers.Demand) {
        isDelivering = false
        if downstream != nil {
            demand += more
        }
    }

    /// The downstream requested `more`.
    mutating func request(_ more: Subscribers.Demand) {
        if downstream != nil {
            demand += more
        }
    }

    /// The subscription ends; returns the downstream to release outside the lock, or `nil` if it had already ended.
    mutating func end() -> Downstream? {
        defer {
            downstream = nil
            demand = .none
        }
        return downstream
    }
}

/// One subscriber's subscription to a timer publisher.
///
/// Demand is the subscriber's own: a tick goes out only against demand the subscriber requested, and a tick that
/// finds no demand is dropped for this subscriber (it is not delivered later). Cancelling detaches the subscriber
/// from the publisher and releases it.
class TimerSubscription<Downstream: Subscriber>: TimerSubscriptionBase<Downstream.Input>, Subscription
where Downstream.Failure == Never {
    fileprivate let state: Locked<TimerSubscriptionState<Downstream>>
    fileprivate let name: String
    // Only read after init; the publisher's subscriber list owns the subscription, not the other way round.
    private weak var owner: TimerSubscribers<Downstream.Input>?

    init(downstream: Downstream, name: String, owner: TimerSubscribers<Downstream.Input>) {
        state = Locked(TimerSubscriptionState(downstream: downstream))
        self.name = name
        self.owner = owner
    }

    override func receiveTick(_ tick: Downstream.Input) {
        guard let downstream = state.withLock({ $0.tick() }) else { return }
        let more = downstream.receive(tick)
        state.withLock { $0.delivered(asking: more) }
    }

    override func detach() {
        let released = state.withLock { $0.end() }
        withExtendedLifetime(released) {} // released here, outside the lock
    }

    func request(_ demand: Subscribers.Demand) {
        state.withLock { $0.request(demand) }
    }

    func cancel() {
        guard let released = state.withLock({ $0.end() }) else { return }
        owner?.remove(self)
        withExtendedLifetime(released) {} // released here, outside the lock
    }
}

/// A timer subscription that describes itself by its name, with its downstream and demand as its mirror's children.
final class DescribedTimerSubscription<Downstream: Subscriber>: TimerSubscription<Downstream>, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Failure == Never {
    var description: String { name }

    var customMirror: Mirror {
        let (downstream, demand) = state.withLock { ($0.downstream, $0.demand) }
        return Mirror(self, children: ["downstream": downstream as Any, "demand": demand])
    }

    var playgroundDescription: Any { description }
}
