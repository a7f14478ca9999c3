import Cadence
import Testing

@Suite("Publishers.TryCatch")
struct TryCatchTests {
    typealias Source = DrivenPublisher<Int, TestError>

    @Test func replacesAFailedUpstream() {
        let upstream = Source()
        let replacement = DrivenPublisher<Int, Never>()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryCatch { _ in replacement }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        replacement.send(2)
        replacement.send(completion: .finished)
        #expect(subscriber.events.map(\.description) == ["subscription", "value(1)", "value(2)", "finished"])
    }

    @Test func passesFinishedThroughWithoutCallingTheHandler() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryCatch { error -> Source in
            Issue.record("the handler ran for \(error)")
            return Source()
        }.subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(subscriber.events.map(\.description) == ["subscription", "value(1)", "finished"])
    }

    @Test func anErrorThrownByTheHandlerEndsTheStream() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryCatch { error -> Source in
            throw error == .oops ? TestError.other : error
        }.subscribe(subscriber)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events.map(\.description) == ["subscription", "failure(other)"])
        #expect(subscriber.completions.count == 1)
        if case .failure(let error)? = subscriber.completions.first {
            #expect(error as? TestError == .other)
        }
    }

    @Test func afterTheHandlerThrewTheFailedUpstreamsLateValuesStillGoThroughAndNothingElse() {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, any Error>()
        var calls = 0
        upstream.tryCatch { _ -> Source in
            calls += 1
            throw TestError.other
        }.subscribe(subscriber)
        upstream.send(completion: .failure(.oops))
        upstream.send(-1)
        upstream.send(completion: .failure(.oops))
        upstream.send(completion: .finished)
        #expect(subscriber.events.map(\.description) == ["subscription", "failure(other)", "value(-1)"])
        #expect(calls == 1)
        #expect(upstream.subscription.cancelCount == 0)
    }

    @Test func theReplacementsFailureReachesTheDownstream() {
        let upstream = Source()
        let replacement = Source()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryCatch { _ in replacement }.subscribe(subscriber)
        upstream.send(completion: .failure(.oops))
        replacement.send(completion: .failure(.other))
        #expect(subscriber.events.map(\.description) == ["subscription", "failure(other)"])
    }

    @Test func outstandingDemandIsCarriedOverToTheReplacement() {
        let upstream = Source()
        let replacement = Source()
        let subscriber = TestSubscriber<Int, any Error>(initialDemand: .max(3))
        upstream.tryCatch { _ in replacement }.subscribe(subscriber)
        #expect(upstream.subscription.requests == [.max(3)])
        upstream.send(1)
        upstream.send(completion: .failure(.oops))
        #expect(replacement.subscription.requests == [.max(2)])
        subscriber.request(.max(1))
        #expect(replacement.subscription.requests == [.max(2), .max(1)])
    }

    @Test func cancelCancelsTheCurrentPublisherWhoseLateValuesStillGoThrough() {
        let upstream = Source()
        let replacement = Source()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryCatch { _ in replacement }.subscribe(subscriber)
        upstream.send(completion: .failure(.oops))
        subscriber.cancel()
        #expect(replacement.subscription.cancelCount == 1)
        #expect(upstream.subscription.cancelCount == 0)
        _ = replacement.subscription.downstream.receive(5)
        replacement.subscription.downstream.receive(completion: .finished)
        #expect(subscriber.events.map(\.description) == ["subscription", "value(5)"])
    }

    @Test func descriptionsNameTryCatch() throws {
        let upstream = Source()
        let subscriber = TestSubscriber<Int, any Error>()
        upstream.tryCatch { _ in Source() }.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "TryCatch")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "TryCatch")
        #expect(upstream.subscription.downstream.description == "TryCatch")
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func zeroDemandTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let subscriber = TestSubscriber<Int, any Error>(initialDemand: .none)
            DrivenPublisher<Int, TestError>().tryCatch { _ in DrivenPublisher<Int, TestError>() }.subscribe(subscriber)
            subscriber.request(.none)
        }
        expectZeroDemandTrap(result, in: "TryCatch")
    }
    #endif
}
