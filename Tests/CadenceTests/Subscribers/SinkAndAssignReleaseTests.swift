import Cadence
import Dispatch
import Foundation
import Testing

/// An object that keeps the cancellable of a sink whose closure captures the object: the retain cycle that a sink
/// breaks by releasing its closures when it completes or is cancelled.
private final class SinkCancellableOwner {
    var cancellable: AnyCancellable?
}

/// Runs `body` on another thread and reports whether it returned within `seconds` (false: it deadlocked; the thread
/// is then left blocked, and the test fails instead of hanging).
private func returns(within seconds: Double, _ body: @escaping @Sendable () -> Void) -> Bool {
    let done = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
        body()
        done.signal()
    }
    return done.wait(timeout: .now() + seconds) == .success
}

/// Adversarial tests of `Subscribers.Sink` and `Subscribers.Assign`: releasing what they hold must never run user
/// code (a deinitialiser) while their lock is held.
@Suite("Sink and Assign release what they hold outside the lock")
struct SinkAndAssignReleaseTests {
    /// On completion the sink releases its value closure; when that closure held the last reference to the object
    /// that stores the sink's cancellable, the object's deinit cancels the sink, which must not deadlock.
    @Test func completionReleasingTheLastReferenceToTheOwnerDoesNotDeadlock() {
        let released = UncheckedSendable(ReleaseWatch())
        let returned = returns(within: 5) {
            let subject = PassthroughSubject<Int, Never>()
            do {
                let owner = SinkCancellableOwner()
                released.value.watch(owner)
                owner.cancellable = subject.sink { [owner] _ in withExtendedLifetime(owner) {} }
            }
            subject.send(completion: .finished)
        }
        #expect(returned)
        #expect(released.value.isReleased)
    }

    /// The same cycle through a `Subscribers.Sink` made directly, completed by a synchronous publisher.
    @Test func synchronousCompletionReleasingTheLastReferenceToTheOwnerDoesNotDeadlock() {
        let released = UncheckedSendable(ReleaseWatch())
        let returned = returns(within: 5) {
            let sink: Subscribers.Sink<Int, Never>
            do {
                let owner = SinkCancellableOwner()
                released.value.watch(owner)
                sink = Subscribers.Sink(
                    receiveCompletion: { _ in }, receiveValue: { [owner] _ in withExtendedLifetime(owner) {} })
                owner.cancellable = AnyCancellable(sink)
            }
            Just(1).subscribe(sink) // completes at once
        }
        #expect(returned)
        #expect(released.value.isReleased)
    }

    /// `cancel()` releases the closures; when that releases the owner, whose deinit cancels the sink again through
    /// its own cancellable, the second cancel must not deadlock.
    @Test func cancelReleasingTheLastReferenceToTheOwnerDoesNotDeadlock() {
        let released = UncheckedSendable(ReleaseWatch())
        let returned = returns(within: 5) {
            let subject = PassthroughSubject<Int, Never>()
            let token: AnyCancellable
            do {
                let owner = SinkCancellableOwner()
                released.value.watch(owner)
                let sink = Subscribers.Sink<Int, Never>(
                    receiveCompletion: { _ in }, receiveValue: { [owner] _ in withExtendedLifetime(owner) {} })
                subject.subscribe(sink)
                owner.cancellable = AnyCancellable(sink)
                token = AnyCancellable(sink)
            }
            token.cancel()
        }
        #expect(returned)
        #expect(released.value.isReleased)
    }

    /// Assign releases its object after leaving its lock; the object's deinit cancelling the assign must not
    /// deadlock.
    @Test func assignCompletionReleasingTheLastReferenceToTheObjectDoesNotDeadlock() {
        final class Target {
            var value = 0
            var cancellable: AnyCancellable?
        }
        let released = UncheckedSendable(ReleaseWatch())
        let returned = returns(within: 5) {
            let subject = PassthroughSubject<Int, Never>()
            do {
                let target = Target()
                released.value.watch(target)
                target.cancellable = subject.assign(to: \.value, on: target)
            }
            subject.send(3)
            subject.send(completion: .finished)
        }
        #expect(returned)
        #expect(released.value.isReleased)
    }

    /// Cancelling from inside `receiveValue` must not release the closure while it runs, and must release it
    /// once it has returned.
    @Test func cancelInsideTheValueClosureReleasesItAfterItReturns() {
        final class Witness {}
        let upstream = DrivenPublisher<Int, Never>()
        weak var weakWitness: Witness?
        var aliveDuringCall: [Bool] = []
        var values: [Int] = []
        var sink: Subscribers.Sink<Int, Never>?
        do {
            let witness = Witness()
            weakWitness = witness
            sink = Subscribers.Sink(
                receiveCompletion: { _ in },
                receiveValue: { [witness] value in
                    values.append(value)
                    sink?.cancel()
                    aliveDuringCall.append(weakWitness != nil)
                    withExtendedLifetime(witness) {}
                })
        }
        upstream.subscribe(sink!)
        upstream.send(1)
        upstream.send(2)
        #expect(values == [1])
        #expect(aliveDuringCall == [true])
        #expect(weakWitness == nil)
        #expect(upstream.subscription.cancelCount == 1)
    }

    /// After the completion, values and a second completion reach no closure, and the closures read as no-ops.
    @Test func nothingReachesTheClosuresAfterTheCompletion() {
        var events: [String] = []
        let sink = Subscribers.Sink<Int, TestError>(
            receiveCompletion: { events.append("completion(\($0))") }, receiveValue: { events.append("value(\($0))") })
        Just(1).setFailureType(to: TestError.self).subscribe(sink)
        _ = sink.receive(2)
        sink.receive(completion: .failure(.oops))
        sink.receiveValue(3)
        sink.receiveCompletion(.finished)
        #expect(events == ["value(1)", "completion(finished)"])
    }

    /// `receiveValue` and `receiveCompletion` give the closures while the sink is live.
    @Test func theClosuresAreReadableWhileLive() {
        var events: [String] = []
        let sink = Subscribers.Sink<Int, Never>(
            receiveCompletion: { _ in events.append("completion") }, receiveValue: { events.append("value(\($0))") })
        sink.receiveValue(7)
        sink.receiveCompletion(.finished)
        sink.cancel()
        sink.receiveValue(8)
        #expect(events == ["value(7)", "completion"])
    }

    /// Values arriving on one thread while another cancels: every value delivered before the cancel returned is
    /// counted once, none arrives after the closures are released, and they are released exactly once.
    @Test func cancelRacingValuesReleasesTheClosuresOnce() {
        final class Counter: @unchecked Sendable { // `lock` guards `storage`
            private let lock = TestLock()
            private var storage = 0
            func add() { lock.withLock { storage += 1 } }
            var value: Int { lock.withLock { storage } }
        }
        for _ in 0..<50 {
            let counter = Counter()
            let released = ReleaseWatch()
            let sink: Subscribers.Sink<Int, Never>
            do {
                let witness = SinkCancellableOwner()
                released.watch(witness)
                sink = Subscribers.Sink(
                    receiveCompletion: { _ in },
                    receiveValue: { [witness] _ in
                        withExtendedLifetime(witness) {}
                        counter.add()
                    })
            }
            let box = UncheckedSendable(sink)
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    for value in 0..<500 { _ = box.value.receive(value) }
                } else {
                    usleep(50)
                    box.value.cancel()
                }
            }
            let countAfterCancel = counter.value
            _ = sink.receive(-1)
            #expect(counter.value == countAfterCancel)
            #expect(countAfterCancel <= 500)
            #expect(released.isReleased)
        }
    }

    /// A subscription arriving while another thread cancels the sink: whichever takes the sink's state first, the
    /// subscription is cancelled exactly once, and asked for at most one demand (only if the sink took it first).
    @Test func aSubscriptionRacingACancelIsCancelledExactlyOnce() {
        for _ in 0..<200 {
            let subscription = SubjectsUpstreamSubscription()
            let sink = UncheckedSendable(
                Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in }))
            DispatchQueue.concurrentPerform(iterations: 2) { thread in
                if thread == 0 {
                    sink.value.receive(subscription: subscription)
                } else {
                    sink.value.cancel()
                }
            }
            #expect(subscription.cancelCount == 1)
            #expect(subscription.requests.count <= 1)
            #expect(subscription.requests.allSatisfy { $0 == .unlimited })
        }
    }
}

/// Watches an object weakly from any thread.
private final class ReleaseWatch: @unchecked Sendable { // `lock` guards `object`
    private let lock = TestLock()
    private weak var object: AnyObject?
    private var watched = false

    func watch(_ object: AnyObject) {
        lock.withLock {
            self.object = object
            watched = true
        }
    }

    var isReleased: Bool { lock.withLock { watched && object == nil } }
}
