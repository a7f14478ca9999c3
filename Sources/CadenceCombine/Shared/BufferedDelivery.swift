import CadenceSupport

/// The lock-guarded delivery state of an operator that merges values from several sources into one downstream
/// (merge's upstreams, flatMap's inner publishers): the downstream's demand, the values waiting for it with the
/// index of the source that sent each, and the delivery token.
///
/// The token serialises delivery: the thread that holds it calls the downstream, with the lock released; a thread
/// with a value to deliver while another holds the token, or while there is no demand, buffers it and leaves. The
/// buffer keeps arrival order, so a value never overtakes an older one. A source whose value was buffered is asked
/// for its next one (`.max(1)`) only once that value has gone out, unless the demand is unlimited.
///
/// With a token that nests re-entrant values (flatMap's), a value that arrives on the holder's own thread from
/// inside its call to the downstream — the downstream made a source send — goes out at once, nested in that call,
/// when nothing is buffered and there is demand: Combine's flatMap delivers it so, and answers its source `.max(1)`.
struct BufferedDelivery<Value> {
    /// What a value that has just arrived does.
    enum Arrival {
        /// The caller holds the token and delivers the value itself; the demand for it has been taken. `unlimited`
        /// says whether the demand was unlimited (then the source is asked for nothing more).
        case deliverNow(unlimited: Bool)
        /// The caller's thread holds the token and is inside a call to the downstream: it delivers the value nested
        /// in that call; the demand for it has been taken.
        case deliverNested(unlimited: Bool)
        /// The value was buffered and the caller holds the token: it must drain.
        case drain
        /// The value was buffered; the token holder, or more demand, will deliver it.
        case wait
    }

    var demand = Subscribers.Demand.none
    private(set) var buffer = RingBuffer<(source: Int, value: Value)>()
    /// The owner's token, shared with it so the holder can reach it without the lock.
    let token: DeliveryToken

    init(token: DeliveryToken) {
        self.token = token
    }

    /// Whether a thread holds the token.
    var isDelivering: Bool { token.isHeld }

    /// Takes the token if it is free; when another thread holds it, leaves the work to it and returns `false`.
    func takeToken() -> Bool {
        guard token.take() else { return false }
        token.recordHolder()
        return true
    }

    /// When another thread holds the token, leaves the work to it and returns `true`.
    func leaveToDeliverer() -> Bool {
        token.leaveWorkIfHeld()
    }

    func releaseToken() {
        token.release()
    }

    /// Adds the downstream's demand; returns whether it has just become unlimited.
    mutating func add(_ additional: Subscribers.Demand) -> Bool {
        let wasUnlimited = demand == .unlimited
        demand += additional
        return !wasUnlimited && demand == .unlimited
    }

    /// Takes in a value from the source at `source`: delivers it at once when nothing is waiting, nobody delivers
    /// and there is demand, buffers it otherwise.
    ///
    /// Inlined into the hosts, which run unspecialised: a call to it would cost them a look-up of the metadata of
    /// `BufferedDelivery<Value>` on every value. Buffering, the less common way, is the call.
    @inline(__always)
    mutating func arrive(_ value: Value, from source: Int) -> Arrival {
        if demand > 0, buffer.isEmpty, token.take() {
            token.recordHolder()
            let unlimited = demand == .unlimited
            demand -= 1
            return .deliverNow(unlimited: unlimited)
        }
        return hold(value, from: source)
    }

    /// Delivers nested a value that arrived on the delivering thread, or buffers one that cannot go out at once;
    /// says whether the caller must drain.
    @inline(never)
    private mutating func hold(_ value: Value, from source: Int) -> Arrival {
        if demand > 0, buffer.isEmpty, token.isHeldForNestingByCurrentThread {
            let unlimited = demand == .unlimited
            demand -= 1
            return .deliverNested(unlimited: unlimited)
        }
        buffer.append((source, value))
        guard demand > 0, token.take() else { return .wait }
        token.recordHolder()
        return .drain
    }

    /// The oldest buffered value, if the downstream has demand for it, with that demand taken. `refill` says whether
    /// its source must be asked for one more value once it has gone out (the demand is finite).
    mutating func next() -> (source: Int, value: Value, refill: Bool)? {
        guard demand > 0, let next = buffer.popFirst() else { return nil }
        demand -= 1
        return (next.source, next.value, demand != .unlimited)
    }

    /// Drops the buffered values and hands them back, so they can be released outside the lock.
    mutating func takeBuffer() -> RingBuffer<(source: Int, value: Value)> {
        defer { buffer = RingBuffer() }
        return buffer
    }

    /// Drops the buffered values, handing them back so the caller can let them go after leaving its lock.
    @discardableResult
    mutating func removeBuffered() -> RingBuffer<(source: Int, value: Value)> {
        defer { buffer.removeAll() }
        return buffer
    }
}

/// An operator subscription that delivers through a `BufferedDelivery`; it supplies what differs between operators
/// (when delivery stops, which source to ask for more), and gets the delivery loop.
protocol BufferedDeliveryHost: AnyObject {
    associatedtype Downstream: Subscriber

    /// Guards `delivery` and the host's own state.
    var lock: UnfairLock { get }
    var delivery: BufferedDelivery<Downstream.Input> { get set }
    /// The token `delivery` holds, reachable without the lock (`delivery` is not).
    var deliveryToken: DeliveryToken { get }

    /// Called with the lock and the token held before each value: the downstream to deliver to, or `nil` after
    /// having ended the delivery (a completion was due, or the subscription was cancelled): the token given back, the
    /// lock released and any completion delivered.
    func downstreamForDeliveryLocked() -> Downstream?

    /// The subscription of the source at `source`, to ask for one more value after one of its values went out.
    /// Called with the lock held.
    func subscriptionLocked(forSource source: Int) -> (any Subscription)?

    /// Called with the lock and the token held when no value can be delivered now: gives the token back, finishes
    /// the downstream if every source has finished, and returns with the lock released.
    func endDeliveryLocked()
}

extension BufferedDeliveryHost {
    /// Delivers a value that has just arrived from `source`, or buffers it; returns the demand for its source.
    /// Called with the lock held, and only while the downstream takes values; returns with the lock released.
    /// Inlined into each host, where `delivery` is a stored property and not a protocol requirement whose accessor
    /// needs the metadata of `BufferedDelivery<Value>` looked up at run time on every value.
    @inline(__always)
    func deliverLocked(
        _ value: Downstream.Input, from source: Int, to downstream: Downstream
    )
        -> Subscribers.Demand
    {
        switch delivery.arrive(value, from: source) {
        case .wait:
            lock.unlock()
            return .none
        case .drain:
            drainLocked()
            return .none
        case .deliverNow(let unlimited):
            lock.unlock()
            let more = downstream.receive(value)
            // Nothing to add to the demand and nothing left to do: give the token back without the lock.
            if more == .none || unlimited, deliveryToken.releaseIfNothingLeft() {
                return unlimited ? .none : .max(1)
            }
            lock.lock()
            deliveryToken.clearWork()
            delivery.demand += more
            drainLocked()
            return unlimited ? .none : .max(1)
        case .deliverNested(let unlimited):
            deliverNestedLocked(value, to: downstream)
            return unlimited ? .none : .max(1)
        }
    }

    /// Delivers a value nested in this thread's own call to the downstream, which holds the token; the demand the
    /// downstream answers is left to that call, which sees it before it lets the token go. Called with the lock
    /// held; returns with it released. Out of line: only a re-entrant value comes here.
    @inline(never)
    func deliverNestedLocked(_ value: Downstream.Input, to downstream: Downstream) {
        lock.unlock()
        let more = downstream.receive(value)
        guard more > 0 else { return }
        lock.lock()
        delivery.demand += more
        _ = deliveryToken.leaveWorkIfHeld()
        lock.unlock()
    }

    /// Delivers buffered values while there is demand, asking each one's source for the next, then ends the
    /// delivery. Called with the lock and the token held; returns with neither.
    func drainLocked() {
        while let downstream = downstreamForDeliveryLocked() {
            guard let next = delivery.next() else {
                endDeliveryLocked()
                return
            }
            let refill = next.refill ? subscriptionLocked(forSource: next.source) : nil
            lock.unlock()
            let more = downstream.receive(next.value)
            if let refill {
                deliveryToken.withoutNesting { refill.request(.max(1)) }
            }
            lock.lock()
            deliveryToken.clearWork()
            delivery.demand += more
        }
    }
}
