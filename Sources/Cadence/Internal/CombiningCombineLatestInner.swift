#if !canImport(Combine)

/// The latest value of each upstream of a combineLatest, typed.
protocol CombineLatestStorage {
    associatedtype Output
    init()
    /// The tuple of the latest values, once every upstream has produced one.
    var combined: Output? { get }
}

struct CombineLatestStorage2<A, B>: CombineLatestStorage {
    var a: A?
    var b: B?

    var combined: (A, B)? {
        guard let a, let b else { return nil }
        return (a, b)
    }
}

struct CombineLatestStorage3<A, B, C>: CombineLatestStorage {
    var a: A?
    var b: B?
    var c: C?

    var combined: (A, B, C)? {
        guard let a, let b, let c else { return nil }
        return (a, b, c)
    }
}

struct CombineLatestStorage4<A, B, C, D>: CombineLatestStorage {
    var a: A?
    var b: B?
    var c: C?
    var d: D?

    var combined: (A, B, C, D)? {
        guard let a, let b, let c, let d else { return nil }
        return (a, b, c, d)
    }
}

/// The subscription behind `Publishers.CombineLatest`, `CombineLatest3` and `CombineLatest4`.
///
/// Demand, as in Combine: every `request(_:)` of the downstream is passed to every upstream, and so is the demand
/// the downstream returns from `receive(_:)` (to the upstream whose value produced the output, as the return value of
/// its `receive(_:)`; to the others through `request(_:)`). It keeps only the latest value of each upstream: a value
/// that arrives while the downstream has no demand replaces the previous one and produces no output.
///
/// The downstream receives its subscription once every upstream has been subscribed to. It finishes when every
/// upstream has finished; the first failure cancels the other upstreams and fails the downstream at once.
///
/// Delivery is serialised by a token, as in `MergeInner`: the thread holding it delivers with the lock released. A
/// value that arrives while another thread delivers is combined and sent as soon as that delivery returns, if the
/// downstream still has demand.
final class CombineLatestInner<Storage: CombineLatestStorage, Downstream: Subscriber>: Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Storage.Output {
    typealias Failure = Downstream.Failure

    // `lock` guards every stored var below.
    private let lock = UnfairLock()
    private var downstream: Downstream?
    private var storage = Storage()
    private var subscriptions: [(any Subscription)?]
    private var subscribed: [Bool]
    private var completed: [Bool]
    private var finishedCount = 0
    private var demand = Subscribers.Demand.none
    private var requested = Subscribers.Demand.none
    private var forward = Subscribers.Demand.none
    private var hasNewCombination = false
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
        completed = Array(repeating: false, count: arity)
    }

    /// The subscriber to attach to the upstream at `index`; `store` makes one of its values the latest.
    func side<Input>(_ index: Int, _ store: @escaping (inout Storage, Input) -> Void)
        -> CombineLatestSide<Storage, Downstream, Input>
    {
        CombineLatestSide(index: index, inner: self, store: store)
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
        _ value: Input, at index: Int, store: (inout Storage, Input) -> Void
    ) -> Subscribers.Demand {
        lock.lock()
        guard !terminated, pendingFailure == nil, !completed[index] else {
            lock.unlock()
            return .none
        }
        store(&storage, value)
        hasNewCombination = true
        guard !delivering else {
            lock.unlock()
            return .none
        }
        delivering = true
        return drainLocked(triggeredBy: index)
    }

    func receive(completion: Subscribers.Completion<Failure>, at index: Int) {
        lock.lock()
        guard !terminated, pendingFailure == nil, !completed[index] else {
            lock.unlock()
            return
        }
        completed[index] = true
        subscriptions[index] = nil
        switch completion {
        case .finished:
            finishedCount += 1
            guard !delivering else {
                lock.unlock()
                return
            }
            delivering = true
            _ = drainLocked(triggeredBy: nil)
        case .failure(let error):
            let others = subscriptions
            subscriptions = Array(repeating: nil, count: arity)
            if delivering {
                pendingFailure = error
                lock.unlock()
                others.forEach { $0?.cancel() }
                return
            }
            terminated = true
            let released = (downstream, storage)
            downstream = nil
            storage = Storage()
            lock.unlock()
            others.forEach { $0?.cancel() }
            released.0?.receive(completion: .failure(error))
            withExtendedLifetime(released) {}
        }
    }

    // MARK: Subscription

    func request(_ demand: Subscribers.Demand) {
        demand.assertPositive(in: "CombineLatest")
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

    /// Delivers the latest combination if there is a new one and demand for it, finishes when every upstream has,
    /// forwards the demand gathered meanwhile, then gives the token back. Called with the lock and the token held;
    /// returns with neither. Returns the demand for the upstream at `triggeredBy`, which gets it from its
    /// `receive(_:)` instead of through `request(_:)`.
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
            if hasNewCombination {
                hasNewCombination = false
                if demand > 0, let combined = storage.combined {
                    if demand != .unlimited {
                        demand -= 1
                    }
                    lock.unlock()
                    let more = downstream.receive(combined)
                    lock.lock()
                    if more > 0 {
                        demand += more
                        forward += more
                    }
                    continue
                }
            }
            if finishedCount == arity {
                terminated = true
                delivering = false
                let released = storage
                self.downstream = nil
                storage = Storage()
                lock.unlock()
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

    var description: String { "CombineLatest" }

    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        return Mirror(self, children: [
            "downstream": downstream as Any,
            "upstreamSubscriptions": subscriptions,
            "demand": demand,
            "latest": storage,
        ])
    }

    var playgroundDescription: Any { description }
}

/// The subscriber that `CombineLatestInner` attaches to the upstream at one index.
struct CombineLatestSide<Storage: CombineLatestStorage, Downstream: Subscriber, Input>: Subscriber,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Input == Storage.Output {
    typealias Failure = Downstream.Failure

    let index: Int
    let inner: CombineLatestInner<Storage, Downstream>
    let store: (inout Storage, Input) -> Void
    let combineIdentifier = CombineIdentifier()

    func receive(subscription: any Subscription) {
        inner.receive(subscription: subscription, at: index)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        inner.receive(input, at: index, store: store)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        inner.receive(completion: completion, at: index)
    }

    var description: String { "CombineLatest" }

    var customMirror: Mirror { Mirror(self, children: ["parentSubscription": inner.combineIdentifier]) }

    var playgroundDescription: Any { description }
}

#endif
