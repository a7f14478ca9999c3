import Cadence
import Testing

@Suite("Publishers.Zip")
struct ZipTests {
    typealias Numbers = DrivenPublisher<Int, TestError>
    typealias Letters = DrivenPublisher<String, TestError>

    private func makeZip(
        initialDemand: Subscribers.Demand = .unlimited,
        onValue: @escaping (String) -> Subscribers.Demand = { _ in .none }
    ) -> (Numbers, Letters, TestSubscriber<String, TestError>) {
        let numbers = Numbers()
        let letters = Letters()
        let subscriber = TestSubscriber<String, TestError>(initialDemand: initialDemand, onValue: onValue)
        numbers.zip(letters) { "\($0)\($1)" }.subscribe(subscriber)
        return (numbers, letters, subscriber)
    }

    @Test func pairsTheNthValueOfEachUpstream() {
        let (numbers, letters, subscriber) = makeZip()
        #expect(numbers.send(1) == .none)
        #expect(numbers.send(2) == .none)
        #expect(subscriber.values.isEmpty)
        #expect(letters.send("a") == .none)
        #expect(subscriber.values == ["1a"])
        #expect(letters.send("b") == .none)
        #expect(letters.send("c") == .none)
        #expect(numbers.send(3) == .none)
        #expect(subscriber.events == [.subscription, .value("1a"), .value("2b"), .value("3c")])
    }

    @Test func emitsTuples() {
        var received: [String] = []
        _ = Just(1).zip(Just("one")).sink { number, word in received.append("\(number) \(word)") }
        #expect(received == ["1 one"])
    }

    @Test func passesEveryRequestToEveryUpstream() {
        let (numbers, letters, subscriber) = makeZip(initialDemand: .max(2))
        #expect(numbers.subscription.requests == [.max(2)])
        #expect(letters.subscription.requests == [.max(2)])
        subscriber.request(.max(3))
        #expect(numbers.subscription.requests == [.max(2), .max(3)])
        #expect(letters.subscription.requests == [.max(2), .max(3)])
    }

    /// As Combine's (OpenCombine's `ZipTests.testUpstreamExceedsDemand` records it): the value that completes a tuple
    /// sends it at once, even beyond the demand, when upstreams send more than they were asked for.
    @Test func sendsATupleAsSoonAsItIsCompleteEvenBeyondTheDemand() {
        let (numbers, letters, subscriber) = makeZip(initialDemand: .max(1))
        numbers.send(1)
        letters.send("a")
        numbers.send(2)
        numbers.send(3)
        #expect(subscriber.values == ["1a"])
        letters.send("b")
        #expect(subscriber.values == ["1a", "2b"])
        letters.send("c")
        #expect(subscriber.values == ["1a", "2b", "3c"])
        subscriber.request(.max(1))
        #expect(subscriber.values == ["1a", "2b", "3c"])
        #expect(numbers.subscription.requests == [.max(1), .max(1)])
        #expect(letters.subscription.requests == [.max(1), .max(1)])
    }

    /// With no demand at all, a complete tuple still goes out, and the demand the downstream returns goes back to
    /// the upstream whose value completed it (OpenCombine's `ZipTests.testIncreasedDemand`).
    @Test func aTupleGoesOutWithNoDemandAndItsReturnedDemandGoesBack() {
        let (numbers, letters, subscriber) = makeZip(initialDemand: .none, onValue: { _ in .max(1) })
        #expect(numbers.send(1) == .none)
        #expect(letters.send("a") == .max(1))
        #expect(subscriber.values == ["1a"])
    }

    @Test func demandReturnedByTheDownstreamReachesEveryUpstream() {
        let (numbers, letters, subscriber) = makeZip(initialDemand: .max(1), onValue: { _ in .max(2) })
        #expect(numbers.send(1) == .none)
        // The upstream that completed the tuple gets the new demand as its return value, the other one a request.
        #expect(letters.send("a") == .max(2))
        #expect(numbers.subscription.requests == [.max(1), .max(2)])
        #expect(letters.subscription.requests == [.max(1)])
        #expect(subscriber.values == ["1a"])
    }

    @Test func aRequestMadeWhileReceivingIsReturnedToTheTriggeringUpstream() {
        let numbers = Numbers()
        let letters = Letters()
        var subscriber: TestSubscriber<String, TestError>?
        subscriber = TestSubscriber(
            initialDemand: .max(1),
            onValue: { _ in
                subscriber?.request(.max(5))
                return .none
            })
        numbers.zip(letters) { "\($0)\($1)" }.subscribe(subscriber!)
        #expect(letters.send("a") == .none)
        #expect(numbers.send(1) == .max(5))
        #expect(numbers.subscription.requests == [.max(1)])
        #expect(letters.subscription.requests == [.max(1), .max(5)])
        #expect(subscriber?.values == ["1a"])
    }

    @Test func finishesAtOnceWhenAnUpstreamFinishesWithNothingWaiting() {
        let (numbers, letters, subscriber) = makeZip()
        letters.send("a")
        numbers.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
        #expect(letters.subscription.cancelCount == 1)
        #expect(numbers.subscription.cancelCount == 0)
        numbers.send(1)
        letters.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .completion(.finished)])
    }

    @Test func finishesAfterTheLastPossibleTuple() {
        let (numbers, letters, subscriber) = makeZip()
        numbers.send(1)
        numbers.send(2)
        numbers.send(completion: .finished)
        #expect(subscriber.events == [.subscription])
        letters.send("a")
        #expect(subscriber.events == [.subscription, .value("1a")])
        letters.send("b")
        #expect(subscriber.events == [.subscription, .value("1a"), .value("2b"), .completion(.finished)])
        #expect(letters.subscription.cancelCount == 1)
    }

    @Test func finishesOnceAnUpstreamThatFinishedHasNoValueLeft() {
        let (numbers, letters, subscriber) = makeZip(initialDemand: .max(1))
        numbers.send(1)
        numbers.send(2)
        numbers.send(3)
        letters.send("a")
        letters.send("b")
        letters.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value("1a"), .value("2b"), .completion(.finished)])
    }

    @Test func failsAtOnceAndCancelsTheUpstreams() {
        let (numbers, letters, subscriber) = makeZip()
        numbers.send(1)
        letters.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(numbers.subscription.cancelCount == 1)
        // Combine cancels the failing upstream too.
        #expect(letters.subscription.cancelCount == 1)
        letters.send("a")
        numbers.send(completion: .failure(.other))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func anUpstreamThatFinishesWhileSubscribingFinishesAfterTheSubscription() {
        let empty = CombiningImmediatelyFinishingPublisher<Int, TestError>()
        let letters = Letters()
        let subscriber = TestSubscriber<(Int, String), TestError>()
        empty.zip(letters).subscribe(subscriber)
        #expect(subscriber.events.map(\.description) == ["subscription", "finished"])
        #expect(letters.subscription.cancelCount == 1)
        #expect(empty.subscription.cancelCount == 0)
    }

    @Test func cancelCancelsBothUpstreamsOnce() {
        let (numbers, letters, subscriber) = makeZip()
        numbers.send(1)
        subscriber.cancel()
        subscriber.cancel()
        letters.send("a")
        #expect(numbers.subscription.cancelCount == 1)
        #expect(letters.subscription.cancelCount == 1)
        #expect(subscriber.events == [.subscription])
    }

    @Test(arguments: [SubscriptionEnding.cancel, .finish, .fail])
    func theDownstreamStaysAfterTheEndUntilTheSubscriptionGoes(ending: SubscriptionEnding) {
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: ending) {
            $0.zip(Empty<String, TestError>(completeImmediately: false))
        }
    }

    @Test(arguments: [SubscriptionEnding.cancel, .finish, .fail])
    func zip3AndZip4KeepTheirDownstreamAfterTheEndToo(ending: SubscriptionEnding) {
        let never = Empty<String, TestError>(completeImmediately: false)
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: ending) { $0.zip(never, never) }
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: ending) { $0.zip(never, never, never) }
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let (numbers, _, subscriber) = makeZip()
        let extra = Numbers.TestSubscription(AnySubscriber<Int, TestError>())
        numbers.subscription.downstream.receive(subscription: extra)
        #expect(extra.isCancelled)
        #expect(subscriber.events == [.subscription])
    }

    @Test func isEquatableAndKeepsItsUpstreams() {
        let zip = Publishers.Zip(Just(1), Just("a"))
        #expect(zip == Publishers.Zip(Just(1), Just("a")))
        #expect(zip != Publishers.Zip(Just(2), Just("a")))
        #expect(zip.a == Just(1) && zip.b == Just("a"))
        let transformed: Publishers.Map<Publishers.Zip<Just<Int>, Just<String>>, String> = Just(1).zip(Just("a")) {
            "\($0)\($1)"
        }
        #expect(transformed.upstream == zip)
    }

    @Test func describesItselfAsZip() throws {
        let (numbers, _, subscriber) = makeZip()
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Zip")
        #expect((subscription as? CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Zip")
        #expect(
            Mirror(reflecting: subscription).children.map(\.label) == [
                "downstream", "upstreamSubscriptions", "demand", "buffered",
            ])
        #expect(String(describing: numbers.subscription.downstream) == "Zip")
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNoneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<(Int, Int), Never>(initialDemand: .none)
            Just(1).zip(Just(2)).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "Zip")
    }
    #endif

    @Test func concurrentUpstreamsProduceEveryTupleOnceInOrder() {
        let upstreams = (0..<3).map { _ in CombiningStressPublisher<Int, Never>() }
        let subscriber = CombiningProbeSubscriber<(Int, Int, Int), Never>(
            initialDemand: .max(2), demandPerValue: .max(1))
        upstreams[0].zip(upstreams[1], upstreams[2]).subscribe(subscriber)
        let count = 3_000
        combiningRunConcurrently(upstreams.map { upstream in { upstream.run(Array(0..<count)) } })
        let values = subscriber.values
        #expect(values.count == count)
        #expect(values.map(\.0) == Array(0..<count))
        #expect(values.allSatisfy { $0.0 == $0.1 && $0.1 == $0.2 })
        #expect(subscriber.overlaps == 0)
        #expect(subscriber.excess == 0)
        #expect(subscriber.completions.count == 1)
    }

    @Test func concurrentCancelStopsDeliveryAndCancelsEveryUpstream() {
        let upstreams = (0..<2).map { _ in CombiningStressPublisher<Int, Never>() }
        let subscriber = CombiningProbeSubscriber<(Int, Int), Never>(initialDemand: .unlimited, demandPerValue: .none)
        upstreams[0].zip(upstreams[1]).subscribe(subscriber)
        let countAtCancel = combiningCancelWhileRunning(upstreams, subscriber)
        #expect(upstreams.allSatisfy { $0.isCancelled })
        #expect(subscriber.values.count <= countAtCancel + 1)
        #expect(subscriber.values.allSatisfy { $0.0 == $0.1 })
        #expect(subscriber.completions.isEmpty)
        #expect(subscriber.overlaps == 0)
    }
}
