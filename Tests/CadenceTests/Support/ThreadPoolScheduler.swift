import Cadence
import Dispatch
import Foundation

/// A scheduler that runs every one-shot action at once on a global-queue thread, so that the actions of one operator
/// overlap; its time stands still at tick 0 and its repeating actions never run. For stress tests of operators that
/// deliver from scheduled actions (delay, timeout): `group` tells when every action has run.
struct ThreadPoolScheduler: Scheduler {
    let group = DispatchGroup()

    var now: VirtualTime { VirtualTime(tick: 0) }

    var minimumTolerance: VirtualTime.Stride { 0 }

    func schedule(options _: Never?, _ action: @escaping () -> Void) {
        run(action)
    }

    func schedule(
        after _: VirtualTime, tolerance _: VirtualTime.Stride, options _: Never?, _ action: @escaping () -> Void
    ) {
        run(action)
    }

    func schedule(
        after _: VirtualTime,
        interval _: VirtualTime.Stride,
        tolerance _: VirtualTime.Stride,
        options _: Never?,
        _: @escaping () -> Void
    ) -> Cancellable {
        AnyCancellable {}
    }

    private func run(_ action: @escaping () -> Void) {
        let action = UncheckedSendable(action)
        DispatchQueue.global().async(group: group) { action.value() }
    }
}

/// A subscriber that counts how often a delivery began while another was still under way: a serial operator must
/// never let that happen. Each value is held for a tenth of a millisecond to give overlaps a chance.
final class SerialDeliveryCheckingSubscriber<Input>: Subscriber, @unchecked Sendable {
    typealias Failure = Never

    // `lock` guards every stored var below.
    private let lock = TestLock()
    private var inside = 0
    private var overlapCount = 0
    private var valuesStorage: [Input] = []
    private var eventsAfterCompletion = 0
    private var completionCount = 0

    func receive(subscription: any Subscription) {
        subscription.request(.unlimited)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        enter()
        lock.withLock {
            valuesStorage.append(input)
            if completionCount > 0 { eventsAfterCompletion += 1 }
        }
        usleep(100)
        leave()
        return .none
    }

    func receive(completion _: Subscribers.Completion<Never>) {
        enter()
        lock.withLock {
            if completionCount > 0 { eventsAfterCompletion += 1 }
            completionCount += 1
        }
        leave()
    }

    private func enter() {
        lock.withLock {
            inside += 1
            if inside > 1 { overlapCount += 1 }
        }
    }

    private func leave() {
        lock.withLock { inside -= 1 }
    }

    var overlaps: Int { lock.withLock { overlapCount } }
    var values: [Input] { lock.withLock { valuesStorage } }
    var completions: Int { lock.withLock { completionCount } }
    var lateEvents: Int { lock.withLock { eventsAfterCompletion } }
}
