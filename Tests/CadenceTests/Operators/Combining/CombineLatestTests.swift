import Cadence
import Testing

@Suite("Publishers.CombineLatest")
struct CombineLatestTests {
    typealias Numbers = DrivenPublisher<Int, TestError>
    typealias Letters = DrivenPublisher<String, TestError>

    private func makeCombineLatest(
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping (String) -> Subscribers.Demand = { _ in .none }
    ) -> (Numbers, Letters, TestSubscriber<String, TestError>) {
        let numbers = Numbers()
        let letters = Letters()
        let subscriber = TestSubscriber<String, TestError>(initialDemand: initialDemand, onValue: onValue)
        numbers.combineLatest(letters) { "\($0)\($1)" }.subscribe(subscriber)
        return (numbers, letters, subscriber)
    }

    @Test func emitsTheLatestValuesOnceEveryUpstreamHasProduced() {
        let (numbers, letters, subscriber) = makeCombineLatest()
        #expect(numbers.send(1) == .none)
        #expect(numbers.send(2) == .none)
        #expect(subscriber.values.isEmpty)
        #expect(letters.send("a") == .none)
        #expect(numbers.send(3) == .none)
        #expect(letters.send("b") == .none)
        #expect(subscriber.events == [.subscription, .value("2a"), .value("3a"), .value("3b")])
    }

    @Test func emitsTuples() {
        var received: [String] = []
        _ = Just(1).combineLatest(Just("one")).sink { number, word in received.append("\(number) \(word)") }
        #expect(received == ["1 one"])
    }

    @Test func passesEveryRequestToEveryUpstream() {
        let (numbers, letters, subscriber) = makeCombineLatest(initialDemand: .max(2))
        #expect(numbers.subscription.requests == [.max(2)])
        #expect(letters.subscription.requests == [.max(2)])
        subscriber.request(.max(3))
        #expect(numbers.subscription.requests == [.max(2), .max(3)])
        #expect(letters.subscription.requests == [.max(2), .max(3)])
    }

    @Test func valuesWithoutDemandOnlyUpdateTheLatest() {
        let (numbers, letters, subscriber) = makeCombineLatest(initialDemand: .max(1))
        numbers.send(1)
        letters.send("a")
        numbers.send(2)
        #expect(subscriber.values == ["1a"])
        // A request does not replay the combination it dropped; the next value produces one.
        subscriber.request(.max(1))
        #expect(subscriber.values == ["1a"])
        letters.send("b")
        #expect(subscriber.values == ["1a", "2b"])
        letters.send("c")
        #expect(subscriber.values == ["1a", "2b"])
    }

    @Test func demandReturnedByTheDownstreamReachesEveryUpstream() {
        let (numbers, letters, subscriber) = makeCombineLatest(initialDemand: .max(1), onValue: { _ in .max(2) })
        #expect(numbers.send(1) == .none)
        #expect(letters.send("a") == .max(2))
        #expect(numbers.subscription.requests == [.max(1), .max(2)])
        #expect(letters.subscription.requests == [.max(1)])
        #expect(numbers.send(2) == .max(2))
        #expect(subscriber.values == ["1a", "2a"])
    }

    @Test func finishesWhenEveryUpstreamHasFinished() {
        let (numbers, letters, subscriber) = makeCombineLatest()
        numbers.send(1)
        letters.send("a")
        numbers.send(completion: .finished)
        #expect(subscriber.completions.isEmpty)
        letters.send("b")
        letters.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("1a"), .value("1b"), .completion(.finished)])
        #expect(numbers.subscription.cancelCount == 0)
        #expect(letters.subscription.cancelCount == 0)
    }

    @Test func finishesEvenIfAnUpstreamNeverProduced() {
        let (numbers, letters, subscriber) = makeCombineLatest()
        numbers.send(1)
        numbers.send(completion: .finished)
        letters.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func anUpstreamThatFinishesWhileSubscribingWaitsForTheOthers() {
        let empty = CombiningImmediatelyFinishingPublisher<Int, TestError>()
        let letters = Letters()
        let subscriber = TestSubscriber<(Int, String), TestError>()
        empty.combineLatest(letters).subscribe(subscriber)
        #expect(subscriber.events.map(\.description) == ["subscription"])
        letters.send("a")
        letters.send(completion: .finished)
        #expect(subscriber.events.map(\.description) == ["subscription", "finished"])
    }

    @Test func failsAtOnceAndCancelsTheOthers() {
        let (numbers, letters, subscriber) = makeCombineLatest()
        numbers.send(1)
        letters.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(numbers.subscription.cancelCount == 1)
        #expect(letters.subscription.cancelCount == 0)
        numbers.send(2)
        numbers.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func cancelCancelsBothUpstreamsOnce() {
        let (numbers, letters, subscriber) = makeCombineLatest()
        numbers.send(1)
        subscriber.cancel()
        subscriber.cancel()
        letters.send("a")
        #expect(numbers.subscription.cancelCount == 1)
        #expect(letters.subscription.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func isEquatableAndKeepsItsUpstreams() {
        let combined = Publishers.CombineLatest(Just(1), Just("a"))
        #expect(combined == Publishers.CombineLatest(Just(1), Just("a")))
        #expect(combined != Publishers.CombineLatest(Just(2), Just("a")))
        #expect(combined.a == Just(1) && combined.b == Just("a"))
        let transformed: Publishers.Map<Publishers.CombineLatest<Just<Int>, Just<String>>, String> =
            Just(1).combineLatest(Just("a")) { "\($0)\($1)" }
        #expect(transformed.upstream == combined)
    }

    @Test func describesItselfAsCombineLatest() throws {
        let (numbers, _, subscriber) = makeCombineLatest()
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "CombineLatest")
        #expect(
            (subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "CombineLatest")
        #expect(
            Mirror(reflecting: subscription).children.map(\.label) == [
                "downstream", "upstreamSubscriptions", "demand", "latest",
            ])
        #expect(String(describing: numbers.subscription.downstream) == "CombineLatest")
    }

    #if !canImport(Combine) // pins a Cadence decision: the suite records no trap here for Combine to match
    @Test func aZeroRequestIsPassedToEveryUpstream() {
        let (numbers, letters, subscriber) = makeCombineLatest(initialDemand: .none)
        subscriber.request(.none)
        #expect(numbers.subscription.requests == [.none])
        #expect(letters.subscription.requests == [.none])
    }
    #endif

    @Test func concurrentUpstreamsNeverOverlapNorExceedTheDemand() {
        let upstreams = (0..<2).map { _ in CombiningStressPublisher<Int, Never>() }
        let subscriber = CombiningProbeSubscriber<(Int, Int), Never>(initialDemand: .max(1), demandPerValue: .max(1))
        upstreams[0].combineLatest(upstreams[1]).subscribe(subscriber)
        let count = 3_000
        combiningRunConcurrently(upstreams.map { upstream in { upstream.run(Array(0..<count)) } })
        let values = subscriber.values
        #expect(values.count > 0)
        #expect(values.count <= 2 * count)
        #expect(subscriber.overlaps == 0)
        #expect(subscriber.excess == 0)
        #expect(subscriber.completions.count == 1)
        // Each side's latest value never goes backwards.
        #expect(zip(values, values.dropFirst()).allSatisfy { $0.0 <= $1.0 && $0.1 <= $1.1 })
    }

    @Test func concurrentCancelStopsDeliveryAndCancelsEveryUpstream() {
        let upstreams = (0..<2).map { _ in CombiningStressPublisher<Int, Never>() }
        let subscriber = CombiningProbeSubscriber<(Int, Int), Never>(initialDemand: .unlimited, demandPerValue: .none)
        upstreams[0].combineLatest(upstreams[1]).subscribe(subscriber)
        let countAtCancel = combiningCancelWhileRunning(upstreams, subscriber)
        #expect(upstreams.allSatisfy { $0.isCancelled })
        #expect(subscriber.values.count <= countAtCancel + 1)
        #expect(subscriber.completions.isEmpty)
        #expect(subscriber.overlaps == 0)
    }
}
