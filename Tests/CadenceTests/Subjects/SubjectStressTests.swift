import Cadence
import Dispatch
import Testing

/// A subscriber that counts what it receives and records whether two calls into it ever overlapped.
// `lock` guards the vars.
private final class OverlapCheckingSubscriber<Failure: Error>: Subscriber, @unchecked Sendable {
    typealias Input = Int

    private let lock = TestLock()
    private var inside = 0
    private var overlapped = false
    private var receivedStorage: [Int] = []
    private var completionsStorage = 0
    private var valuesAfterCompletionStorage = 0
    private var subscriptionStorage: (any Subscription)?
    private let initialDemand: Subscribers.Demand
    private let answer: Subscribers.Demand

    init(initialDemand: Subscribers.Demand = .unlimited, answer: Subscribers.Demand = .none) {
        self.initialDemand = initialDemand
        self.answer = answer
    }

    private func enter() {
        lock.withLock {
            inside += 1
            if inside > 1 { overlapped = true }
        }
    }

    private func leave() {
        lock.withLock { inside -= 1 }
    }

    func receive(subscription: any Subscription) {
        lock.withLock { subscriptionStorage = subscription }
        if initialDemand > 0 { subscription.request(initialDemand) }
    }

    func receive(_ input: Int) -> Subscribers.Demand {
        enter()
        lock.withLock {
            receivedStorage.append(input)
            if completionsStorage > 0 { valuesAfterCompletionStorage += 1 }
        }
        leave()
        return answer
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        enter()
        lock.withLock { completionsStorage += 1 }
        leave()
    }

    var subscription: (any Subscription)? { lock.withLock { subscriptionStorage } }
    var received: [Int] { lock.withLock { receivedStorage } }
    var didOverlap: Bool { lock.withLock { overlapped } }
    var completions: Int { lock.withLock { completionsStorage } }
    var valuesAfterCompletion: Int { lock.withLock { valuesAfterCompletionStorage } }
}

@Suite("Subject stress")
struct SubjectStressTests {
    static let threads = 8
    static let sendsPerThread = 2_000

    @Test func concurrentSendsReachEverySubscriberExactlyOnceAndNeverConcurrently() {
        let subject = PassthroughSubject<Int, Never>()
        let subscribers = (0..<8).map { _ in OverlapCheckingSubscriber<Never>() }
        for subscriber in subscribers { subject.subscribe(subscriber) }
        let box = SubjectsSendableBox(subject)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.sendsPerThread {
                box.value.send(thread * Self.sendsPerThread + index)
            }
        }
        let expected = Array(0..<(Self.threads * Self.sendsPerThread))
        for subscriber in subscribers {
            #expect(subscriber.received.sorted() == expected)
            #expect(!subscriber.didOverlap)
        }
    }

    @Test func concurrentSendsToACurrentValueSubject() {
        let subject = CurrentValueSubject<Int, Never>(-1)
        let subscribers = (0..<8).map { _ in OverlapCheckingSubscriber<Never>() }
        for subscriber in subscribers { subject.subscribe(subscriber) }
        let box = SubjectsSendableBox(subject)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            for index in 0..<Self.sendsPerThread {
                if index.isMultiple(of: 2) {
                    box.value.send(thread * Self.sendsPerThread + index)
                } else {
                    box.value.value = thread * Self.sendsPerThread + index
                }
            }
        }
        let expected = Array(-1..<(Self.threads * Self.sendsPerThread))
        for subscriber in subscribers {
            #expect(subscriber.received.sorted() == expected)
            #expect(!subscriber.didOverlap)
        }
    }

    @Test func demandIsNeverExceededWhileRequestsComeFromOtherThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let subscriber = OverlapCheckingSubscriber<Never>(initialDemand: .max(1))
        subject.subscribe(subscriber)
        let box = SubjectsSendableBox(subject)
        let requesters = 2
        let requestsPerRequester = 500
        DispatchQueue.concurrentPerform(iterations: Self.threads + requesters) { thread in
            if thread < requesters {
                for _ in 0..<requestsPerRequester { subscriber.subscription?.request(.max(1)) }
            } else {
                for index in 0..<Self.sendsPerThread { box.value.send(index) }
            }
        }
        #expect(subscriber.received.count <= 1 + requesters * requestsPerRequester)
        #expect(!subscriber.didOverlap)
        // Demand that was not used up is still there: one more value per outstanding request.
        let outstanding = 1 + requesters * requestsPerRequester - subscriber.received.count
        for index in 0..<(outstanding + 10) { subject.send(index) }
        #expect(subscriber.received.count == 1 + requesters * requestsPerRequester)
    }

    @Test func completionRacingSendsIsDeliveredOnceAndLast() {
        for round in 0..<20 {
            let subject = PassthroughSubject<Int, TestError>()
            let subscribers = (0..<4).map { _ in OverlapCheckingSubscriber<TestError>() }
            for subscriber in subscribers { subject.subscribe(subscriber) }
            let box = SubjectsSendableBox(subject)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for index in 0..<200 {
                    if thread == 0 && index == 100 {
                        box.value.send(completion: round.isMultiple(of: 2) ? .finished : .failure(.oops))
                    }
                    box.value.send(index)
                }
            }
            for subscriber in subscribers {
                #expect(subscriber.completions == 1)
                #expect(subscriber.valuesAfterCompletion == 0)
                #expect(!subscriber.didOverlap)
            }
        }
    }

    @Test func subscribingAndCancellingWhileSending() {
        let subject = PassthroughSubject<Int, Never>()
        let steady = OverlapCheckingSubscriber<Never>()
        subject.subscribe(steady)
        let box = SubjectsSendableBox(subject)
        DispatchQueue.concurrentPerform(iterations: Self.threads) { thread in
            if thread < 2 {
                for _ in 0..<300 {
                    let transient = OverlapCheckingSubscriber<Never>()
                    box.value.subscribe(transient)
                    transient.subscription?.cancel()
                }
            } else {
                for index in 0..<Self.sendsPerThread { box.value.send(index) }
            }
        }
        #expect(steady.received.count == (Self.threads - 2) * Self.sendsPerThread)
        #expect(!steady.didOverlap)
    }

    @Test func reentrantSendsUnderConcurrencyDoNotDeadlock() {
        let subject = PassthroughSubject<Int, Never>()
        let box = SubjectsSendableBox(subject)
        let counter = TestLock()
        nonisolated(unsafe) var echoes = 0
        let echo = SubjectsClosureSubscriber<Int, Never>(onValue: { value in
            if value >= 0 {
                counter.withLock { echoes += 1 }
                box.value.send(-1)
            }
            return .none
        })
        let watcher = OverlapCheckingSubscriber<Never>()
        subject.subscribe(echo)
        subject.subscribe(watcher)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            for index in 0..<1_000 { box.value.send(index) }
        }
        #expect(counter.withLock { echoes } == 4_000)
        #expect(watcher.received.count == 8_000)
        #expect(!watcher.didOverlap)
    }

    @Test func cancellingWhileDeliveringStillReleasesEverySubscriber() {
        for _ in 0..<20 {
            let subject = CurrentValueSubject<Int, Never>(0)
            let box = SubjectsSendableBox(subject)
            var weakSubscribers: [() -> Bool] = []
            do {
                // Each subscriber keeps its subscription: only the subject releasing it breaks that cycle.
                let subscribers = (0..<4).map { _ in OverlapCheckingSubscriber<Never>() }
                for subscriber in subscribers {
                    subject.subscribe(subscriber)
                    weak let weakSubscriber = subscriber
                    weakSubscribers.append { weakSubscriber == nil }
                }
                let cancelling = SubjectsSendableBox(subscribers)
                DispatchQueue.concurrentPerform(iterations: 4) { thread in
                    for index in 0..<300 {
                        if thread == 0 && index.isMultiple(of: 75) {
                            cancelling.value[index / 75].subscription?.cancel()
                        }
                        box.value.send(index)
                    }
                }
                for subscriber in subscribers {
                    #expect(!subscriber.didOverlap)
                    #expect(subscriber.received.count <= 1 + 4 * 300)
                }
            }
            #expect(weakSubscribers.allSatisfy { $0() })
        }
    }
}
