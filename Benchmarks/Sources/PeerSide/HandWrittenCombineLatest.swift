import Foundation
import OpenCombine

// OpenCombine 0.14.0 has no `combineLatest`. The combineLatest benchmark's peer is this one, written for the
// benchmark on OpenCombine's public API as a user of OpenCombine would write it: a publisher whose subscription keeps
// the latest value of each upstream under an `NSLock`, passes the downstream's demand on to both upstreams, emits a
// pair (outside the lock) each time a value arrives while both have one and the downstream has demand, finishes when
// both have finished and fails at the first failure. It does not serialise concurrent deliveries, as Combine's does:
// it is the cheaper side of the comparison.

extension Publisher {
    /// Pairs the latest values of this publisher and `other`, each time either of them emits.
    func handWrittenCombineLatest<Other: Publisher>(_ other: Other) -> HandWrittenCombineLatest<Self, Other>
    where Other.Failure == Failure {
        HandWrittenCombineLatest(a: self, b: other)
    }
}

/// A combineLatest of two publishers, on OpenCombine's public API.
struct HandWrittenCombineLatest<A: Publisher, B: Publisher>: Publisher where A.Failure == B.Failure {
    typealias Output = (A.Output, B.Output)
    typealias Failure = A.Failure

    let a: A
    let b: B

    func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
        let subscription = Pairing(downstream: subscriber)
        a.subscribe(
            AnySubscriber(
                receiveSubscription: { subscription.attach($0, side: 0) },
                receiveValue: { subscription.receive(first: $0) },
                receiveCompletion: { subscription.complete($0, side: 0) }))
        b.subscribe(
            AnySubscriber(
                receiveSubscription: { subscription.attach($0, side: 1) },
                receiveValue: { subscription.receive(second: $0) },
                receiveCompletion: { subscription.complete($0, side: 1) }))
        subscriber.receive(subscription: subscription)
    }

    // `lock` guards every var.
    private final class Pairing<Downstream: Subscriber>: Subscription, @unchecked Sendable
    where Downstream.Input == Output, Downstream.Failure == Failure {
        private let lock = NSLock()
        private var downstream: Downstream?
        private var upstreams: [Subscription?] = [nil, nil]
        private var finished = [false, false]
        private var first: A.Output?
        private var second: B.Output?
        private var demand = Subscribers.Demand.none

        init(downstream: Downstream) {
            self.downstream = downstream
        }

        func attach(_ subscription: Subscription, side: Int) {
            lock.lock()
            upstreams[side] = subscription
            lock.unlock()
        }

        func receive(first value: A.Output) -> Subscribers.Demand {
            lock.lock()
            first = value
            return emitLocked()
        }

        func receive(second value: B.Output) -> Subscribers.Demand {
            lock.lock()
            second = value
            return emitLocked()
        }

        /// Emits the pair if both sides have a value and the downstream has demand; called with the lock held,
        /// returns with it released.
        private func emitLocked() -> Subscribers.Demand {
            guard let downstream, demand > 0, let first, let second else {
                lock.unlock()
                return .none
            }
            demand -= 1
            lock.unlock()
            let more = downstream.receive((first, second))
            guard more > 0 else { return .none }
            lock.lock()
            demand += more
            let upstreams = self.upstreams
            lock.unlock()
            upstreams.forEach { $0?.request(more) }
            return .none
        }

        func complete(_ completion: Subscribers.Completion<Failure>, side: Int) {
            lock.lock()
            guard let downstream else {
                lock.unlock()
                return
            }
            finished[side] = true
            upstreams[side] = nil
            if case .finished = completion, !finished.allSatisfy({ $0 }) {
                lock.unlock()
                return
            }
            self.downstream = nil
            let others = upstreams
            upstreams = [nil, nil]
            lock.unlock()
            others.forEach { $0?.cancel() }
            downstream.receive(completion: completion)
        }

        func request(_ additional: Subscribers.Demand) {
            lock.lock()
            demand += additional
            let upstreams = self.upstreams
            lock.unlock()
            upstreams.forEach { $0?.request(additional) }
        }

        func cancel() {
            lock.lock()
            downstream = nil
            let upstreams = self.upstreams
            self.upstreams = [nil, nil]
            lock.unlock()
            upstreams.forEach { $0?.cancel() }
        }
    }
}
