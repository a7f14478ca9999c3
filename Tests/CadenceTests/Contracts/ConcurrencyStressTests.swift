import Cadence
import Dispatch
import Testing

/// Bounded stress tests, for ThreadSanitizer, of the subscriptions whose own suites drive them from one thread only:
/// concurrent requests, a cancel racing the values, and the exact count of values that demand allows.
@Suite("Concurrent requests and cancellation")
struct ConcurrencyStressTests {
    @Test func sequenceDeliversExactlyTheDemandOfConcurrentRequestsInOrder() {
        for _ in 0..<50 {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            (0..<1_000).publisher.subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<25 { subscriber.request(.max(1)) }
            }
            #expect(subscriber.values == Array(0..<100))
            #expect(subscriber.completions.isEmpty)
        }
    }

    @Test func sequenceFinishesOnceWhenConcurrentRequestsExhaustIt() {
        for _ in 0..<50 {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            (0..<30).publisher.subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 4) { _ in
                for _ in 0..<10 { subscriber.request(.max(1)) }
            }
            #expect(subscriber.values == Array(0..<30))
            #expect(subscriber.completions == [.finished])
        }
    }

    @Test func sequenceCancelRacingUnlimitedDemandStopsAndNeverFinishes() {
        for _ in 0..<50 {
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .none)
            (0..<10_000).publisher.subscribe(subscriber)
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    subscriber.request(.unlimited)
                } else {
                    subscriber.cancel()
                }
            }
            let values = subscriber.values
            #expect(values == Array(0..<values.count))
            // A finish only after every value; a cancel may still win between the last value and the finish.
            #expect(subscriber.completions.count <= (values.count == 10_000 ? 1 : 0))
        }
    }

    @Test func collectByCountConcurrentRequestsAndValuesDeliverWholeBatchesInOrder() {
        for _ in 0..<50 {
            let upstream = DrivenPublisher<Int, Never>()
            let subscriber = TestSubscriber<[Int], Never>(initialDemand: .max(1))
            upstream.collect(2).subscribe(subscriber)
            let connection = upstream.subscription
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    // A well-behaved upstream: it sends only what has been requested.
                    var sent = 0
                    while sent < 20 {
                        if connection.totalDemand > .max(sent) {
                            _ = connection.downstream.receive(sent)
                            sent += 1
                        }
                    }
                    connection.downstream.receive(completion: .finished)
                } else {
                    for _ in 0..<9 { subscriber.request(.max(1)) }
                }
            }
            #expect(subscriber.values == stride(from: 0, to: 20, by: 2).map { [$0, $0 + 1] })
            #expect(subscriber.completions == [.finished])
            #expect(upstream.subscription.requests.reduce(.none, +) == .max(20))
        }
    }

    @Test func reduceCancelRacingTheUpstreamFinishDeliversAtMostOnce() {
        for _ in 0..<100 {
            let upstream = DrivenPublisher<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1))
            upstream.reduce(0, +).subscribe(subscriber)
            let connection = upstream.subscription
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    for value in 1...10 { _ = connection.downstream.receive(value) }
                    connection.downstream.receive(completion: .finished)
                } else {
                    subscriber.cancel()
                }
            }
            let events = subscriber.events
            #expect(events == [.subscription] || events == [.subscription, .value(55), .completion(.finished)])
        }
    }

    /// Under ThreadSanitizer: a stateless transform (`prefix(while:)`, `tryMap`: `State` is empty) receiving values
    /// while requests arrive on another thread is reported as a race unless the empty state is left alone.
    @Test func statelessTransformValuesRacingRequestsAreClean() {
        for _ in 0..<100 {
            let upstream = DrivenPublisher<Int, Never>()
            let subscriber = TestSubscriber<Int, Never>(initialDemand: .max(1), onValue: { _ in .max(1) })
            upstream.prefix { _ in true }.subscribe(subscriber)
            let connection = upstream.subscription
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    for value in 0..<100 { _ = connection.downstream.receive(value) }
                } else {
                    for _ in 0..<100 { subscriber.request(.max(1)) }
                }
            }
            #expect(subscriber.values == Array(0..<100))
        }
    }

    @Test func sinkCancelRacingValuesStopsThem() {
        for _ in 0..<100 {
            let upstream = DrivenPublisher<Int, Never>()
            let received = ReleaseOutsideLockTests.Recorded<Int>()
            let token = upstream.sink { received.append($0) }
            let connection = upstream.subscription
            let sendable = UncheckedSendable(token)
            DispatchQueue.concurrentPerform(iterations: 2) { lane in
                if lane == 0 {
                    for value in 0..<100 { _ = connection.downstream.receive(value) }
                } else {
                    sendable.value.cancel()
                }
            }
            let values = received.all
            #expect(values == Array(0..<values.count))
            #expect(connection.cancelCount == 1)
            // After the cancel returned, nothing more arrives.
            _ = connection.downstream.receive(1_000)
            #expect(received.all == values)
        }
    }

    @Test func asyncPublisherCancelRacingValuesEndsTheLoop() async {
        for _ in 0..<50 {
            let upstream = DrivenPublisher<Int, Never>()
            let task = Task {
                var received: [Int] = []
                for await value in upstream.values {
                    received.append(value)
                }
                return received
            }
            // Feed values as they are requested, racing the task's cancellation.
            let feeder = Task.detached {
                var next = 0
                while next < 1_000, !Task.isCancelled {
                    guard let connection = upstream.subscriptions.last else {
                        await Task.yield()
                        continue
                    }
                    if connection.isCancelled { break }
                    let requested = connection.requests.count
                    if requested > next {
                        _ = connection.downstream.receive(next)
                        next += 1
                    } else {
                        await Task.yield()
                    }
                }
            }
            await Task.yield()
            task.cancel()
            let received = await task.value
            feeder.cancel()
            await feeder.value
            #expect(received == Array(0..<received.count))
            #expect(upstream.subscription.cancelCount == 1)
        }
    }
}
