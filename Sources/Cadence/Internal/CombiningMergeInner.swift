#if !canImport(Combine)

/// The subscription behind `Publishers.Merge` … `Publishers.Merge8` and `Publishers.MergeMany`.
///
/// Demand, as in Combine: each upstream is asked for `.max(1)` when it subscribes (`.unlimited` once the downstream
/// has asked for `.unlimited`). A value that arrives while the downstream has demand goes straight through and the
/// upstream gets `.max(1)` back from `receive(_:)`; a value that arrives without demand waits in a buffer, and its
/// upstream is asked for `.max(1)` again only when that value has been delivered. So at most one value per upstream
/// waits here while the demand is finite.
///
/// Delivery is serialised by a token (`delivering`): the thread that holds it delivers the buffered values one by one
/// with the lock released; any other thread that has something to deliver buffers it and leaves. The buffer keeps
/// arrival order, so a value never overtakes an older one.
///
/// Completion: the first failure cancels the other upstreams and fails the downstream at once (buffered values are
/// dropped); the downstream finishes when every upstream has finished and the buffered values have been delivered.
final class MergeInner<Downstream: Subscriber>: Subscription, IndexedSideHost, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure
    typealias SideIndex = Int
    typealias SideInput = Output
    typealias SideFailure = Failure

    private struct Buffered {
        let index: Int
        let value: Output
    }

    // `lock` guards every stored var below.
    private let lock = UnfairLock()
    private var downstream: Downstream?
    private var subscriptions: [(any Subscription)?]
    private var subscribed: [Bool]
    private var completed: [Bool]
    private var finishedCount = 0
    private var demand = Subscribers.Demand.none
    private var buffer = RingBuffer<Buffered>()
    private var delivering = false
    private var pendingFailure: Failure?
    private var terminated = false

    init(downstream: Downstream, upstreamCount: Int) {
        self.downstream = downstream
        subscriptions = Array(repeating: nil, count: upstreamCount)
        subscribed = Array(repeating: false, count: upstreamCount)
        completed = Array(repeating: false, count: upstreamCount)
    }

    /// The subscriber to attach to the upstream at `index`.
    func side(_ index: Int) -> IndexedSide<MergeInner> {
        IndexedSide(index: index, host: self)
    }

    /// Finishes at once when there is no upstream at all (an empty `MergeMany`).
    func finishIfNoUpstream() {
        lock.lock()
        guard subscriptions.isEmpty, !delivering else {
            lock.unlock()
            return
        }
        delivering = true
        drainLocked()
    }

    // MARK: Upstream events

    func receive(subscription: any Subscription, at index: Int) {
        lock.lock()
        guard !terminated, pendingFailure == nil, !subscribed[index] else {
            lock.unlock()
            subscription.cancel()
            return
        }
        subscribed[index] = true
        subscriptions[index] = subscription
        let initial: Subscribers.Demand = demand == .unlimited ? .unlimited : .max(1)
        lock.unlock()
        subscription.request(initial)
    }

    func receive(_ value: Output, at index: Int) -> Subscribers.Demand {
        lock.lock()
        guard !terminated, pendingFailure == nil, !completed[index], let downstream else {
            lock.unlock()
            return .none
        }
        if delivering || demand == .none || !buffer.isEmpty {
            buffer.append(Buffered(index: index, value: value))
            guard !delivering, demand > 0 else {
                lock.unlock()
                return .none
            }
            delivering = true
            drainLocked()
            return .none
        }
        delivering = true
        let unlimited = demand == .unlimited
        if !unlimited {
            demand -= 1
        }
        lock.unlock()
        let more = downstream.receive(value)
        lock.lock()
        demand += more
        drainLocked()
        return unlimited ? .none : .max(1)
    }

    func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        lock.lock()
        guard !terminated, pendingFailure == nil, !completed[index] else {
            lock.unlock()
            return
        }
        completed[index] = true
        switch completion {
        case .finished:
            finishedCount += 1
            subscriptions[index] = nil
            guard finishedCount == subscriptions.count, !delivering else {
                lock.unlock()
                return
            }
            delivering = true
            drainLocked()
        case .failure(let error):
            subscriptions[index] = nil
            let others = subscriptions
            subscriptions = Array(repeating: nil, count: others.count)
            if delivering {
                pendingFailure = error
                lock.unlock()
                others.forEach { $0?.cancel() }
                return
            }
            terminated = true
            let released = (downstream, buffer)
            downstream = nil
            buffer = RingBuffer()
            lock.unlock()
            others.forEach { $0?.cancel() }
            released.0?.receive(completion: .failure(error))
            withExtendedLifetime(released) {}
        }
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        demand.assertPositive(in: "Merge")
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        let wasUnlimited = self.demand == .unlimited
        self.demand += demand
        let unlimiting = !wasUnlimited && self.demand == .unlimited ? subscriptions : []
        lock.unlock()
        unlimiting.forEach { $0?.request(.unlimited) }
        lock.lock()
        guard !delivering else {
            lock.unlock()
            return
        }
        delivering = true
        drainLocked()
    }

    func cancel() {
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        terminated = true
        pendingFailure = nil
        let upstreams = subscriptions
        subscriptions = Array(repeating: nil, count: upstreams.count)
        let released = (downstream, buffer)
        downstream = nil
        buffer = RingBuffer()
        lock.unlock()
        upstreams.forEach { $0?.cancel() }
        withExtendedLifetime(released) {}
    }

    // MARK: Delivery

    /// Delivers what can be delivered, then gives the token back. Called with the lock and the token held; returns
    /// with neither.
    private func drainLocked() {
        while true {
            if let failure = pendingFailure {
                pendingFailure = nil
                terminated = true
                delivering = false
                let released = (downstream, buffer)
                downstream = nil
                buffer = RingBuffer()
                lock.unlock()
                released.0?.receive(completion: .failure(failure))
                withExtendedLifetime(released) {}
                return
            }
            guard !terminated, let downstream else {
                delivering = false
                lock.unlock()
                return
            }
            if demand > 0, !buffer.isEmpty {
                let next = buffer.removeFirst()
                var refill: (any Subscription)?
                if demand != .unlimited {
                    demand -= 1
                    refill = subscriptions[next.index]
                }
                lock.unlock()
                let more = downstream.receive(next.value)
                refill?.request(.max(1))
                lock.lock()
                demand += more
                continue
            }
            if finishedCount == subscriptions.count, buffer.isEmpty {
                terminated = true
                delivering = false
                self.downstream = nil
                lock.unlock()
                downstream.receive(completion: .finished)
                return
            }
            delivering = false
            lock.unlock()
            return
        }
    }

    // MARK: Reflection

    var description: String { "Merge" }

    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        return Mirror(self, children: [
            "downstream": downstream as Any,
            "upstreamSubscriptions": subscriptions,
            "demand": demand,
            "buffered": buffer.count,
        ])
    }

    var playgroundDescription: Any { description }
}

#endif
