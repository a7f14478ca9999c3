import Cadence
import Foundation
import Testing

/// A sequence that counts up to a bound and records how many times its iterator was advanced.
private final class CountingSequence: Sequence, CustomStringConvertible, @unchecked Sendable {
    // `lock` guards `advances`.
    private let lock = TestLock()
    private var advances = 0
    let upperBound: Int

    init(upperBound: Int) {
        self.upperBound = upperBound
    }

    var advanceCount: Int { lock.withLock { advances } }

    var description: String { "CountingSequence" }

    func makeIterator() -> AnyIterator<Int> {
        var current = 0
        return AnyIterator { [self] in
            lock.withLock { advances += 1 }
            defer { current += 1 }
            return current < upperBound ? current : nil
        }
    }
}

@Suite("Publishers.Sequence")
struct SequenceTests {
    @Test func publishesEveryElementThenFinishes() {
        let subscriber = TestSubscriber<Int, Never>()
        [1, 2, 3].publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3), .completion(.finished)])
    }

    @Test func emptySequenceFinishesAtOnceWithTheEmptySubscription() {
        let sequence = CountingSequence(upperBound: 0)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        sequence.publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(subscriber.subscription.map { String(describing: $0) } == "Empty")
        #expect(sequence.advanceCount == 1)
    }

    @Test func nothingIsDeliveredBeforeARequest() {
        let sequence = CountingSequence(upperBound: 5)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        sequence.publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        #expect(sequence.advanceCount == 1) // it reads one element ahead, like Combine
    }

    @Test func honoursDemandExactly() {
        let sequence = CountingSequence(upperBound: 6)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
        sequence.publisher.subscribe(subscriber)
        #expect(subscriber.values == [0])
        subscriber.request(.max(2))
        #expect(subscriber.values == [0, 1, 2])
        #expect(subscriber.completions.isEmpty)
        subscriber.request(.max(3))
        #expect(
            subscriber.events == [
                .subscription, .value(0), .value(1), .value(2), .value(3), .value(4), .value(5), .completion(.finished),
            ])
        #expect(sequence.advanceCount == 7)
    }

    @Test func finishesRightAfterTheLastRequestedElement() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(3))
        [7, 8, 9].publisher.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(7), .value(8), .value(9), .completion(.finished)])
    }

    @Test func demandReturnedFromReceiveIsHonoured() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1)) { $0 > 3 || $0 == 0 ? .none : .max(2) }
        (0..<10).publisher.subscribe(subscriber)
        #expect(subscriber.values == [0])
        subscriber.request(.max(1))
        #expect(subscriber.values == [0, 1, 2, 3, 4, 5, 6, 7])
        #expect(subscriber.completions.isEmpty)
    }

    @Test func demandReturnedAsUnlimitedDeliversTheRest() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1)) { $0 == 1 ? .unlimited : .none }
        (0..<5).publisher.subscribe(subscriber)
        #expect(subscriber.values == [0])
        subscriber.request(.max(1))
        #expect(
            subscriber.events == [
                .subscription, .value(0), .value(1), .value(2), .value(3), .value(4), .completion(.finished),
            ])
    }

    @Test func requestForNoneIsIgnoredLikeCombine() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        (0..<3).publisher.subscribe(subscriber)
        subscriber.request(.none)
        #expect(subscriber.events == [.subscription])
        subscriber.request(.max(1))
        #expect(subscriber.values == [0])
    }

    @Test func reentrantRequestsNeitherRecurseNorDeliverTwice() {
        let depth = PublishersTestBox(0)
        let maxDepth = PublishersTestBox(0)
        let subscription = PublishersTestBox<(any Subscription)?>(nil)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none) { _ in
            let current = depth.withLock {
                $0 += 1
                return $0
            }
            maxDepth.withLock { $0 = max($0, current) }
            subscription.value?.request(.max(1))
            depth.withLock { $0 -= 1 }
            return .none
        }
        (0..<10_000).publisher.subscribe(subscriber)
        subscription.value = subscriber.subscription
        subscriber.request(.max(1))
        #expect(subscriber.values == Array(0..<10_000))
        #expect(subscriber.completions.count == 1)
        #expect(maxDepth.value == 1)
        subscription.value = nil
    }

    @Test func cancelStopsIterationAndDelivery() {
        let sequence = CountingSequence(upperBound: 10)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(2))
        sequence.publisher.subscribe(subscriber)
        #expect(subscriber.values == [0, 1])
        subscriber.cancel()
        subscriber.request(.max(5))
        #expect(subscriber.events == [.subscription, .value(0), .value(1)])
        #expect(sequence.advanceCount == 3)
    }

    @Test func cancelFromInsideReceiveStopsAnUnlimitedRun() {
        let subscription = PublishersTestBox<(any Subscription)?>(nil)
        let sequence = CountingSequence(upperBound: 100)
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none) { value in
            if value == 2 { subscription.value?.cancel() }
            return .none
        }
        sequence.publisher.subscribe(subscriber)
        subscription.value = subscriber.subscription
        subscriber.request(.unlimited)
        #expect(subscriber.events == [.subscription, .value(0), .value(1), .value(2)])
        #expect(sequence.advanceCount == 3) // under unlimited demand it stops reading ahead
        subscriber.request(.max(1))
        #expect(subscriber.values == [0, 1, 2])
    }

    @Test func cancelReleasesTheDownstream() {
        weak var weakSubscriber: TestSubscriber<Int, Never>?
        var subscription: (any Subscription)?
        do {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            weakSubscriber = subscriber
            (0..<3).publisher.subscribe(subscriber)
            subscription = subscriber.subscription
            subscriber.releaseSubscription()
        }
        #expect(weakSubscriber != nil)
        subscription?.cancel()
        #expect(weakSubscriber == nil)
    }

    @Test func descriptionIsTheSequenceWhileActiveThenSequence() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        (1...5).publisher.subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect(subscription.map { String(describing: $0) } == "1...5")
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "1...5")
        let mirror = subscription.map { Mirror(reflecting: $0) }
        #expect(mirror?.children.map(\.label) == ["sequence"])
        #expect(mirror?.children.first.map { String(describing: $0.value) } == "1...5")
        subscriber.request(.unlimited)
        #expect(subscription.map { String(describing: $0) } == "Sequence")
    }

    @Test func concurrentRequestsDeliverEachElementOnceInOrder() async {
        let count = 20_000
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        (0..<count).publisher.subscribe(subscriber)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<4 {
                group.addTask {
                    for _ in 0..<(count / 4) { subscriber.request(.max(1)) }
                }
            }
        }
        #expect(subscriber.values == Array(0..<count))
        #expect(subscriber.completions.count == 1)
    }

    @Test func equatableAndInit() {
        #expect(Publishers.Sequence<[Int], Never>(sequence: [1, 2]) == [1, 2].publisher)
        #expect(Publishers.Sequence<[Int], TestError>(sequence: [1]) != Publishers.Sequence(sequence: [2]))
        #expect([1, 2].publisher.sequence == [1, 2])
    }

    @Test func failureTypeIsTheGenericParameter() {
        let subscriber = TestSubscriber<Int, TestError>()
        Publishers.Sequence<[Int], TestError>(sequence: [4]).subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(4), .completion(.finished)])
    }
}
