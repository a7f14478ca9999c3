import CadenceSupport

/// The subscriber and subscription of `encode(encoder:)` and `decode(type:decoder:)`: it transforms each value with
/// a throwing coder call and, when the call throws, cancels the upstream and fails with the coding error.
///
/// Demand passes straight through to the upstream. One lock acquisition per value, to check that the stream has not
/// ended. As in Combine, the downstream and the coder call stay with the subscription for its whole life, ended or not,
/// and a cancel before the upstream's subscription arrived is ignored.
final class CodingSubscription<Input, UpstreamFailure: Error, Downstream: Subscriber>: Subscriber, Subscription,
    CustomStringConvertible, CustomReflectable, CustomPlaygroundDisplayConvertible
where Downstream.Failure == any Error {
    typealias Failure = UpstreamFailure

    // `lock` guards `upstream` and `isFinished`.
    private let lock = UnfairLock()
    private var upstream: (any Subscription)?
    private var isFinished = false
    private let downstream: Downstream
    private let transform: (Input) throws -> Downstream.Input
    let description: String

    init(downstream: Downstream, name: String, transform: @escaping (Input) throws -> Downstream.Input) {
        self.downstream = downstream
        self.description = name
        self.transform = transform
    }

    func receive(subscription: any Subscription) {
        lock.lock()
        guard upstream == nil, !isFinished else {
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
        guard !isFinished else {
            lock.unlock()
            return .none
        }
        lock.unlock()
        let output: Downstream.Input
        do {
            output = try transform(input)
        } catch {
            lock.lock()
            guard !isFinished else {
                lock.unlock()
                return .none
            }
            isFinished = true
            let upstream = self.upstream
            self.upstream = nil
            lock.unlock()
            upstream?.cancel()
            downstream.receive(completion: .failure(error))
            return .none
        }
        return downstream.receive(output)
    }

    func receive(completion: Subscribers.Completion<UpstreamFailure>) {
        lock.lock()
        guard !isFinished else {
            lock.unlock()
            return
        }
        isFinished = true
        // Released after the lock.
        let upstream = self.upstream
        self.upstream = nil
        lock.unlock()
        withExtendedLifetime(upstream) {}
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
        // Before the upstream's subscription arrived there is nothing to cancel, and, as in Combine, a subscription
        // that arrives later is still taken.
        guard !isFinished, let upstream else {
            lock.unlock()
            return
        }
        self.upstream = nil
        isFinished = true
        lock.unlock()
        upstream.cancel()
    }

    var customMirror: Mirror {
        lock.lock()
        defer { lock.unlock() }
        return Mirror(
            self,
            children: ["downstream": downstream, "finished": isFinished, "upstreamSubscription": upstream as Any])
    }

    var playgroundDescription: Any { description }
}
