import CadenceSupport
/// The subscriber and subscription of `encode(encoder:)` and `decode(type:decoder:)`: it transforms each value with
/// a throwing coder call and, when the call throws, cancels the upstream and fails with the coding error.
///
/// Demand passes straight through to the upstream. One lock acquisition per value, to check that the stream has not
/// ended.
final class CodingSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Failure == any Error {
    typealias Failure = UpstreamFailure

    // `lock` guards `upstream`, `isFinished` and `downstream`, which is nil once the subscription has finished or
    // been cancelled.
    private let lock = UnfairLock()
    private var upstream: (any Subscription)?
    private var isFinished = false
    private var downstream: Downstream?
    private let transform: (Input) throws -> Downstream.Input
    let description: String

    init(downstream: Downstream, name: String, transform: @escaping (Input) throws -> Downstream.Input) {
        self.downstream = downstream
        self.description = name
        self.transform = transform
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard upstream == nil, !isFinished, let downstream else {
            lock.unlock()
            subscription.cancel()
            return
        }
        upstream = subscription
        lock.unlock()
        downstream.receive(subscription: self)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        lock.lock()
        guard !isFinished, let downstream else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        let output: Downstream.Input
        do {
            output = try transform(input)
        } catch {
            lock.lock()
            guard !self.isFinished else {
                lock.unlock()
                return .none
            }
            self.isFinished = true
            let upstream = self.upstream
            self.upstream = nil
            self.downstream = nil
            lock.unlock()
            upstream?.cancel()
            downstream.receive(completion: .failure(error))
            return .none
        }
        return downstream.receive(output)
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        lock.lock()
        guard !isFinished, let downstream else {
            lock.unlock()
            return
        }
        isFinished = true
        upstream = nil
        self.downstream = nil
        lock.unlock()
        downstream.receive(completion: completion.eraseError)
    }

    func request(_ demand: Subscribers.Demand) {
        lock.lock()
        let upstream = self.upstream
        lock.unlock()
        upstream?.request(demand)
    }

    func cancel() {
        lock.lock()
        let upstream = self.upstream
        // Released after the lock: the downstream's `deinit` may cancel this subscription again.
        let released = downstream
        self.upstream = nil
        downstream = nil
        isFinished = true
        lock.unlock()
        upstream?.cancel()
        withExtendedLifetime(released) {}
    }

    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        return Mirror(
            self,
            children: ["downstream": downstream as Any, "finished": isFinished, "upstreamSubscription": upstream as Any])
    }

    var playgroundDescription: Any { description }
}

