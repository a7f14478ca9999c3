import Cadence
import Testing

@Suite("Subscribers.Sink")
struct SinkTests {
    final class Witness {}

    @Test func requestsUnlimitedAndReceivesEverything() {
        let upstream = DrivenPublisher<Int, TestError>()
        var values: [Int] = []
        var completions: [Subscribers.Completion<TestError>] = []
        let cancellable = upstream.sink(
            receiveCompletion: { completions.append($0) }, receiveValue: { values.append($0) })

        #expect(upstream.subscription.requests == [.unlimited])
        upstream.send(1)
        upstream.send(2)
        upstream.send(completion: .failure(.oops))
        #expect(values == [1, 2])
        #expect(completions == [.failure(.oops)])
        withExtendedLifetime(cancellable) {}
    }

    @Test func receiveValueOnlyFormForPublishersThatNeverFail() {
        var values: [String] = []
        let cancellable = Just("x").sink { values.append($0) }
        #expect(values == ["x"])
        withExtendedLifetime(cancellable) {}
    }

    @Test func completionReleasesTheClosures() {
        let upstream = DrivenPublisher<Int, Never>()
        weak var weakWitness: Witness?
        var cancellable: AnyCancellable?
        do {
            let witness = Witness()
            weakWitness = witness
            cancellable = upstream.sink { _ in withExtendedLifetime(witness) {} }
        }
        #expect(weakWitness != nil)
        upstream.send(completion: .finished)
        #expect(weakWitness == nil)
        withExtendedLifetime(cancellable) {}
    }

    @Test func cancelCancelsUpstreamAndReleasesTheClosures() {
        let upstream = DrivenPublisher<Int, Never>()
        weak var weakWitness: Witness?
        var values: [Int] = []
        let sink: Subscribers.Sink<Int, Never>
        do {
            let witness = Witness()
            weakWitness = witness
            sink = Subscribers.Sink(
                receiveCompletion: { _ in },
                receiveValue: {
                    withExtendedLifetime(witness) {}
                    values.append($0)
                })
        }
        upstream.subscribe(sink)
        upstream.send(1)
        sink.cancel()
        #expect(upstream.subscription.cancelCount == 1)
        #expect(weakWitness == nil)
        _ = sink.receive(2)
        #expect(values == [1])
    }

    @Test func cancelledBeforeItsSubscriptionItKeepsItsClosuresUntilTheSubscriptionArrivesAndIsCancelled() {
        weak var weakWitness: Witness?
        var values: [Int] = []
        let sink: Subscribers.Sink<Int, Never>
        do {
            let witness = Witness()
            weakWitness = witness
            sink = Subscribers.Sink(
                receiveCompletion: { _ in },
                receiveValue: { value in
                    withExtendedLifetime(witness) {}
                    values.append(value)
                })
        }
        sink.cancel()
        #expect(weakWitness != nil) // as Combine's: nothing to cancel yet, the closures stay
        _ = sink.receive(1)
        #expect(values == []) // but the sink has ended: a cancel is never lost
        let late = DrivenPublisher<Int, Never>()
        late.subscribe(sink)
        #expect(late.subscription.cancelCount == 1)
        #expect(late.subscription.requests == [])
        #expect(weakWitness == nil)
    }

    @Test func cancellingTheTokenCancelsTheSubscription() {
        let upstream = DrivenPublisher<Int, Never>()
        var cancellable: AnyCancellable? = upstream.sink { _ in }
        #expect(upstream.subscription.cancelCount == 0)
        cancellable = nil
        #expect(upstream.subscription.cancelCount == 1)
        #expect(cancellable == nil)
    }

    @Test func cancellingAFinishedSinkDoesNotReachItsSubscriptionAndASecondCancelIsANoOp() {
        let upstream = DrivenPublisher<Int, Never>()
        var completions = 0
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in completions += 1 }, receiveValue: { _ in })
        upstream.subscribe(sink)
        upstream.send(completion: .finished)
        sink.cancel()
        #expect(upstream.subscription.cancelCount == 0)

        let other = DrivenPublisher<Int, Never>()
        let cancelled = Subscribers.Sink<Int, Never>(
            receiveCompletion: { _ in completions += 1 }, receiveValue: { _ in })
        other.subscribe(cancelled)
        cancelled.cancel()
        cancelled.cancel()
        _ = AnyCancellable(cancelled)
        #expect(other.subscription.cancelCount == 1)
        cancelled.receive(completion: .finished)
        #expect(completions == 1)
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let first = DrivenPublisher<Int, Never>()
        let second = DrivenPublisher<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        first.subscribe(sink)
        second.subscribe(sink)
        #expect(first.subscription.cancelCount == 0)
        #expect(second.subscription.cancelCount == 1)
        #expect(second.subscription.requests.isEmpty)
        sink.cancel()
    }

    @Test func describesItselfAsSink() {
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        #expect(sink.description == "Sink")
        #expect(sink.playgroundDescription as? String == "Sink")
        #expect(sink.customMirror.children.isEmpty)
    }
}
