import CadenceSupport

/// The subscription behind `Publishers.Merge` … `Publishers.Merge8` and `Publishers.MergeMany`.
///
/// Demand, as in Combine: each upstream is asked for `.max(1)` when it subscribes (`.unlimited` once the downstream
/// has asked for `.unlimited`). A value that arrives while the downstream has demand goes straight through and the
/// upstream gets `.max(1)` back from `receive(_:)`; a value that arrives without demand waits in a buffer, and its
/// upstream is asked for `.max(1)` again only when that value has been delivered. So at most one value per upstream
/// waits here while the demand is finite.
///
/// Delivery is serialised by the token of a `BufferedDelivery`: the thread that holds it delivers the buffered values
/// one by one with the lock released; any other thread that has something to deliver buffers it and leaves.
///
/// Completion: the first failure cancels the other upstreams and fails the downstream at once (buffered values are
/// dropped); the downstream finishes when every upstream has finished and the buffered values have been delivered.
final class MergeInner<Downstream: Subscriber>: Subscription, IndexedSideHost, BufferedDeliveryHost,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
{
    typealias Output = Downstream.Input
    typealias Failure = Downstream.Failure
    typealias SideIndex = Int
    typealias SideInput = Output
    typealias SideFailure = Failure

    // `lock` guards `delivery` and every stored var below; `deliveryToken` is atomic.
    let lock = UnfairLock()
    let deliveryToken: DeliveryToken
    var delivery: BufferedDelivery<Output>
    private var downstream: Downstream?
    private var upstreams: UpstreamSubscriptions
    private var pendingFailure: Failure?
    private var terminated = false

    init(downstream: Downstream, upstreamCount: Int) {
        self.downstream = downstream
        upstreams = UpstreamSubscriptions(count: upstreamCount)
        let token = DeliveryToken()
        deliveryToken = token
        delivery = BufferedDelivery(token: token)
    }

    /// The subscriber to attach to the upstream at `index`.
    func side(_ index: Int) -> IndexedSide<MergeInner> {
        IndexedSide(index: index, host: self)
    }

    /// Finishes at once when there is no upstream at all (an empty `MergeMany`).
    func finishIfNoUpstream() {
        lock.lock()
        guard upstreams.count == 0, delivery.takeToken() else {
            lock.unlock()
            return
        }
        drainLocked()
    }

    // MARK: Upstream events

    func receive(subscription: any Subscription, at index: Int) {
        lock.lock()
        guard !terminated, pendingFailure == nil, upstreams.attach(subscription, at: index) else {
            lock.unlock()
            subscription.cancel()
            return
        }
        let initial: Subscribers.Demand = delivery.demand == .unlimited ? .unlimited : .max(1)
        lock.unlock()
        subscription.request(initial)
    }

    func receive(_ value: Output, at index: Int) -> Subscribers.Demand {
        lock.lock()
        guard !terminated, pendingFailure == nil, !upstreams.isCompleted(index), let downstream else {
            lock.unlock()
            return .none
        }
        return deliverLocked(value, from: index, to: downstream)
    }

    func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        lock.lock()
        guard !terminated, pendingFailure == nil, upstreams.markCompleted(index) else {
            lock.unlock()
            return
        }
        switch completion {
        case .finished:
            upstreams.markFinished(index)
            guard upstreams.allFinished, delivery.takeToken() else {
                lock.unlock()
                return
            }
            drainLocked()
        case .failure(let error):
            upstreams.forget(index)
            let others = upstreams.takeAll()
            if delivery.leaveToDeliverer() {
                pendingFailure = error
                lock.unlock()
                others.forEach { $0?.cancel() }
                return
            }
            terminated = true
            let released = (downstream, delivery.takeBuffer())
            downstream = nil
            lock.unlock()
            others.forEach { $0?.cancel() }
            released.0?.receive(completion: .failure(error))
            withExtendedLifetime(released) {}
        }
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        let unlimiting = delivery.add(demand) ? upstreams.subscriptions : []
        lock.unlock()
        unlimiting.forEach { $0?.request(.unlimited) }
        lock.lock()
        guard delivery.takeToken() else {
            lock.unlock()
            return
        }
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
        let running = upstreams.takeAll()
        let released = (downstream, delivery.takeBuffer())
        downstream = nil
        lock.unlock()
        running.forEach { $0?.cancel() }
        withExtendedLifetime(released) {}
    }

    // MARK: Delivery

    func downstreamForDeliveryLocked() -> Downstream? {
        if let failure = pendingFailure {
            pendingFailure = nil
            terminated = true
            delivery.releaseToken()
            let released = (downstream, delivery.takeBuffer())
            downstream = nil
            lock.unlock()
            released.0?.receive(completion: .failure(failure))
            withExtendedLifetime(released) {}
            return nil
        }
        guard !terminated, let downstream else {
            delivery.releaseToken()
            lock.unlock()
            return nil
        }
        return downstream
    }

    func subscriptionLocked(forSource source: Int) -> (any Subscription)? {
        upstreams[source]
    }

    func endDeliveryLocked() {
        delivery.releaseToken()
        guard upstreams.allFinished, delivery.buffer.isEmpty, let downstream else {
            lock.unlock()
            return
        }
        terminated = true
        self.downstream = nil
        lock.unlock()
        downstream.receive(completion: .finished)
    }

    // MARK: Reflection

    var description: String { "Merge" }

    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        return Mirror(
            self,
            children: [
                "downstream": downstream as Any,
                "upstreamSubscriptions": upstreams.subscriptions,
                "demand": delivery.demand,
                "buffered": delivery.buffer.count,
            ])
    }

    var playgroundDescription: Any { description }
}
