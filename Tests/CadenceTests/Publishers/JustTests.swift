import Cadence
import Testing

@Suite("Just")
struct JustTests {
    @Test func deliversItsValueThenFinishesOnFirstDemand() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(42).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])

        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])

        subscriber.request(.max(1))
        #expect(subscriber.events == [.subscription, .value(42), .completion(.finished)])
    }

    @Test func replaysToEverySubscriber() {
        let just = Just("a")
        let first = TestSubscriber<String, Never>()
        let second = TestSubscriber<String, Never>()
        just.subscribe(first)
        just.subscribe(second)
        #expect(first.values == ["a"])
        #expect(second.values == ["a"])
        #expect(just.output == "a")
        #expect(just == Just("a"))
    }

    @Test func cancelBeforeDemandDeliversNothing() {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(1).subscribe(subscriber)
        subscriber.cancel()
        subscriber.request(.unlimited)
        #expect(subscriber.events == [.subscription])
    }

    @Test func describesItselfAsJust() throws {
        let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
        Just(1).subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(String(describing: subscription) == "Just")
        #expect(((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String) == "Just")
        let mirror = Mirror(reflecting: subscription)
        // As in Combine, the value is the one child, unlabelled.
        #expect(mirror.children.map(\.label) == [nil])
        #expect(mirror.children.first?.value as? Int == 1)
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func requestingNothingTrapsNamingTheRule() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            Just(1).subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "Just")
    }
    #endif
}
