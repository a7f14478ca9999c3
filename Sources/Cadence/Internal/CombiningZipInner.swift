#if !canImport(Combine)

/// Typed queues for the values each upstream of a zip has produced and the downstream has not yet received.
protocol ZipStorage {
    associatedtype Output
    init()
    /// Whether the upstream at `index` has a value waiting.
    func hasValue(at index: Int) -> Bool
    /// How many values the upstream at `index` has waiting.
    func count(at index: Int) -> Int
    /// Removes the oldest value of every upstream, as one tuple; only when each has one.
    mutating func removeTuple() -> Output
}

extension ZipStorage {
    func isComplete(arity: Int) -> Bool {
        (0..<arity).allSatisfy(hasValue(at:))
    }
}

struct ZipStorage2<A, B>: ZipStorage {
    var a = RingBuffer<A>()
    var b = RingBuffer<B>()

    func count(at index: Int) -> Int { index == 0 ? a.count : b.count }

    func hasValue(at index: Int) -> Bool { count(at: index) > 0 }

    mutating func removeTuple() -> (A, B) { (a.removeFirst(), b.removeFirst()) }
}

struct ZipStorage3<A, B, C>: ZipStorage {
    var a = RingBuffer<A>()
    var b = RingBuffer<B>()
    var c = RingBuffer<C>()

    func count(at index: Int) -> Int {
        switch index {
        case 0: a.count
        case 1: b.count
        default: c.count
        }
    }

    func hasValue(at index: Int) -> Bool { count(at: index) > 0 }

    mutating func removeTuple() -> (A, B, C) { (a.removeFirst(), b.removeFirst(), c.removeFirst()) }
}

struct ZipStorage4<A, B, C, D>: ZipStorage {
    var a = RingBuffer<A>()
    var b = RingBuffer<B>()
    var c = RingBuffer<C>()
    var d = RingBuffer<D>()

    func count(at index: Int) -> Int {
        switch index {
        case 0: a.count
        case 1: b.count
        case 2: c.count
        default: d.count
        }
    }

    func hasValue(at index: Int) -> Bool { count(at: index) > 0 }

    mutating func removeTuple() -> (A, B, C, D) {
        (a.removeFirst(), b.removeFirst(), c.removeFirst(), d.removeFirst())
    }
}

/// The subscription behind `Publishers.Zip`, `Zip3` and `Zip4`.
///
/// Demand, as in Combine: every `request(_:)` of the downstream is passed to every upstream, and so is the demand
/// the downstream returns from `receive(_:)` (to the upstream whose value completed the tuple, as the return value of
/// its `receive(_:)`; to the others through `request(_:)`). Values wait in one queue per upstream until each upstream
/// has one; a tuple goes out only while the downstream has demand.
///
/// The downstream receives its subscription once every upstream has been subscribed to. It finishes as soon as an
/// upstream that has finished has no value left waiting (no further tuple is possible), cancelling the upstreams that
/// have not finished; the first failure cancels the upstreams that have not finished (the failing one included, as
/// Combine does) and fails the downstream at once.
///
/// Delivery is serialised by a token, as in `MergeInner`: the thread holding it delivers with the lock released.
final class ZipInner<Storage: ZipStorage, Downstream: Subscriber>: Subscription, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Storage.Output {
    typealias Failure = Downstream.Failure

    // `lock` guards every stored var below.
    private let lock = UnfairLock()
    private var downstream: Downstream?
    private var storage = Storage()
    private var subscriptions: [(any Subscription)?]
    private var subscribed: [Bool]
    private var finished: [Bool]
    private var demand = Subscribers.Demand.none
    private var requested = Subscribers.Demand.none
    private var forward = Subscribers.Demand.none
    // Held from creation until `start()` has handed the downstream its subscription.
    private var delivering = true
    private var pendingFailure: Failure?
    private var terminated = false
    private let arity: Int

    init(downstream: Downstream, arity: Int) {
        self.downstream = downstream
        self.arity = arity
        subscriptions = Array(repeating: nil, count: arity)
        subscribed = Array(repeating: false, count: arity)
        finished = Array(repeating: false, count: arity)
    }

    /// The subscriber to attach to the upstream at `index`; `enqueue` appends one of its values to its queue.
    func side<Input>(_ index: Int, _ enqueue: @escaping (inout Storage, Input) -> Void)
        -> ZipSide<Storage, Downstream, Input>
    {
        ZipSide(index: index, inner: self, enqueue: enqueue)
    }

    /// Hands the downstream its subscription, then delivers whatever happened while the upstreams subscribed.
    func start() {
        lock.lock()
        let downstream = self.downstream
        lock.unlock()
        downstream?.receive(subscription: self)
        lock.lock()
        _ = drainLocked(triggeredBy: nil)
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
        let alreadyRequested = requested
        lock.unlock()
        if alreadyRequested > 0 {
            subscription.request(alreadyRequested)
        }
    }

    func receive<Input>(
        _ value: Input, at index: Int, enqueue: (inout Storage, Input) -> Void
    ) -> Subscribers.Demand {
        lock.lock()
        guard !terminated, pendingFailure == nil, !finished[index] else {
            lock.unlock()
            return .none
        }
        enqueue(&storage, value)
        guard !delivering else {
            lock.unlock()
            return .none
        }
        delivering = true
        return drainLocked(triggeredBy: index)
    }

    func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        lock.lock()
        guard !terminated, pendingFailure == nil, !finished[index] else {
            lock.unlock()
            return
        }
        finished[index] = true
        switch completion {
        case .finished:
            subscriptions[index] = nil
            guard !delivering else {
                lock.unlock()
                return
            }
            delivering = true
            _ = drainLocked(triggeredBy: nil)
        case .failure(let error):
            let upstreams = subscriptions
            subscriptions = Array(repeating: nil, count: arity)
            if delivering {
                pendingFailure = error
                lock.unlock()
                upstreams.forEach { $0?.cancel() }
                return
            }
            terminated = true
            let released = (downstream, storage)
            downstream = nil
            storage = Storage()
            lock.unlock()
            upstreams.forEach { $0?.cancel() }
            released.0?.receive(completion: .failure(error))
            withExtendedLifetime(released) {}
        }
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        demand.assertPositive(in: "Zip")
        lock.lock()
        guard !terminated else {
            lock.unlock()
            return
        }
        self.demand += demand
        if delivering {
            forward += demand
            lock.unlock()
            return
        }
        requested += demand
        let upstreams = subscriptions
        lock.unlock()
        upstreams.forEach { $0?.request(demand) }
        lock.lock()
        guard !delivering else {
            lock.unlock()
            return
        }
        delivering = true
        _ = drainLocked(triggeredBy: nil)
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
        subscriptions = Array(repeating: nil, count: arity)
        let released = (downstream, storage)
        downstream = nil
        storage = Storage()
        lock.unlock()
        upstreams.forEach { $0?.cancel() }
        withExtendedLifetime(released) {}
    }

    // MARK: Delivery

    /// Delivers what can be delivered, forwards the demand gathered meanwhile, then gives the token back. Called with
    /// the lock and the token held; returns with neither. Returns the demand for the upstream at `triggeredBy`, which
    /// gets it from its `receive(_:)` instead of through `request(_:)`.
    private func drainLocked(triggeredBy trigger: Int?) -> Subscribers.Demand {
        while true {
            if let failure = pendingFailure {
                pendingFailure = nil
                terminated = true
                delivering = false
                let released = (downstream, storage)
                downstream = nil
                storage = Storage()
                lock.unlock()
                released.0?.receive(completion: .failure(failure))
                withExtendedLifetime(released) {}
                return .none
            }
            guard !terminated, let downstream else {
                delivering = false
                lock.unlock()
                return .none
            }
            if demand > 0, storage.isComplete(arity: arity) {
                let tuple = storage.removeTuple()
                if demand != .unlimited {
                    demand -= 1
                }
                lock.unlock()
                let more = downstream.receive(tuple)
                lock.lock()
                if more > 0 {
                    demand += more
                    forward += more
                }
                continue
            }
            if (0..<arity).contains(where: { finished[$0] && !storage.hasValue(at: $0) }) {
                terminated = true
                delivering = false
                let unfinished = subscriptions
                subscriptions = Array(repeating: nil, count: arity)
                let released = storage
                self.downstream = nil
                storage = Storage()
                lock.unlock()
                unfinished.forEach { $0?.cancel() }
                downstream.receive(completion: .finished)
                withExtendedLifetime(released) {}
                return .none
            }
            let gathered = forward
            forward = .none
            delivering = false
            guard gathered > 0 else {
                lock.unlock()
                return .none
            }
            requested += gathered
            let upstreams = subscriptions
            lock.unlock()
            for (index, upstream) in upstreams.enumerated() where index != trigger {
                upstream?.request(gathered)
            }
            return trigger == nil ? .none : gathered
        }
    }

    // MARK: Reflection

    var description: String { "Zip" }

    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        return Mirror(self, children: [
            "downstream": downstream as Any,
            "upstreamSubscriptions": subscriptions,
            "demand": demand,
            "buffered": (0..<arity).map(storage.count(at:)),
        ])
    }

    var playgroundDescription: Any { description }
}

/// The subscriber that `ZipInner` attaches to the upstream at one index.
struct ZipSide<Storage: ZipStorage, Downstream: Subscriber, Input>: Subscriber, CustomStringConvertible,
    CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Storage.Output {
    typealias Failure = Downstream.Failure

    let index: Int
    let inner: ZipInner<Storage, Downstream>
    let enqueue: (inout Storage, Input) -> Void
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) {
        inner.receive(subscription: subscription, at: index)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        inner.receive(input, at: index, enqueue: enqueue)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        inner.receive(completion: completion, at: index)
    }

    var description: String { "Zip" }

    var customMirror: Mirror { Mirror(self, children: ["parentSubscription": inner.combineIdentifier]) }

    var playgroundDescription: Any { description }
}

#endif
