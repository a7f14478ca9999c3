import Cadence
import Dispatch
import Testing

@Suite("Publishers.Buffer")
struct BufferTests {
    typealias Source = DrivenPublisher<Int, TestError>

    struct Fixture {
        let upstream = Source()
        let subscriber: TestSubscriber<Int, TestError>

        init(
            size: Int = 3, prefetch: Publishers.PrefetchStrategy = .byRequest,
            whenFull: Publishers.BufferingStrategy<TestError> = .dropNewest,
            initialDemand: Subscribers.Demand = .none,
            onValue: @escaping (Int) -> Subscribers.Demand = { _ in .none }
        ) {
            subscriber = TestSubscriber(initialDemand: initialDemand, onValue: onValue)
            upstream.buffer(size: size, prefetch: prefetch, whenFull: whenFull).subscribe(subscriber)
        }
    }

    @Test func keepFullRequestsTheSizeAndOneMorePerDeliveredValue() {
        let fixture = Fixture(size: 3, prefetch: .keepFull, initialDemand: .max(1))
        #expect(fixture.upstream.subscription.requests == [.max(3)])
        #expect(fixture.upstream.send(1) == .max(1))
        #expect(fixture.upstream.send(2) == .none)
        #expect(fixture.upstream.send(3) == .none)
        #expect(fixture.subscriber.values == [1])
        fixture.subscriber.request(.max(2))
        #expect(fixture.subscriber.values == [1, 2, 3])
        #expect(fixture.upstream.subscription.requests == [.max(3), .max(2)])
    }

    @Test func byRequestRequestsUnlimited() {
        let fixture = Fixture(prefetch: .byRequest, initialDemand: .max(1))
        #expect(fixture.upstream.subscription.requests == [.unlimited])
        #expect(fixture.upstream.send(1) == .none)
        #expect(fixture.upstream.send(2) == .none)
        fixture.subscriber.request(.max(1))
        #expect(fixture.subscriber.values == [1, 2])
        #expect(fixture.upstream.subscription.requests == [.unlimited])
    }

    @Test func requestsUpstreamBeforeHandingTheSubscriptionDownstream() {
        let upstream = Source(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(5))
        upstream.buffer(size: 2, prefetch: .keepFull, whenFull: .dropOldest).subscribe(subscriber)
        #expect(subscriber.events == [])
        upstream.subscription.deliver()
        #expect(subscriber.events == [.subscription])
        #expect(upstream.subscription.requests == [.max(2)])
    }

    @Test func unlimitedDemandPassesValuesStraightThrough() {
        let fixture = Fixture(size: 2, prefetch: .keepFull, initialDemand: .unlimited)
        for value in 1...5 {
            #expect(fixture.upstream.send(value) == .max(1))
        }
        fixture.upstream.send(completion: .finished)
        #expect(
            fixture.subscriber.events == [
                .subscription, .value(1), .value(2), .value(3), .value(4), .value(5),
                .completion(.finished),
            ])
    }

    @Test func dropNewestKeepsTheFirstValues() {
        let fixture = Fixture(size: 3, whenFull: .dropNewest)
        for value in 1...5 {
            fixture.upstream.send(value)
        }
        fixture.subscriber.request(.max(5))
        #expect(fixture.subscriber.values == [1, 2, 3])
        #expect(!fixture.upstream.subscription.isCancelled)
    }

    @Test func dropOldestKeepsTheLastValues() {
        let fixture = Fixture(size: 3, whenFull: .dropOldest)
        for value in 1...5 {
            fixture.upstream.send(value)
        }
        fixture.subscriber.request(.max(5))
        #expect(fixture.subscriber.values == [3, 4, 5])
    }

    @Test func customErrorCancelsTheUpstreamAndFailsAfterTheBufferedValues() {
        let fixture = Fixture(size: 3, whenFull: .customError { .other })
        for value in 1...5 {
            fixture.upstream.send(value)
        }
        #expect(fixture.upstream.subscription.cancelCount == 1)
        #expect(fixture.subscriber.events == [.subscription])
        fixture.subscriber.request(.max(3))
        #expect(
            fixture.subscriber.events == [
                .subscription, .value(1), .value(2), .value(3),
                .completion(.failure(.other)),
            ])
    }

    @Test func keepFullStillAsksTheUpstreamItCancelledOnOverflowToRefillWhatWentOut() {
        let fixture = Fixture(size: 3, prefetch: .keepFull, whenFull: .customError { .other })
        for value in 1...5 {
            fixture.upstream.send(value)
        }
        #expect(fixture.upstream.subscription.cancelCount == 1)
        fixture.subscriber.request(.max(3))
        #expect(
            fixture.subscriber.events == [
                .subscription, .value(1), .value(2), .value(3),
                .completion(.failure(.other)),
            ])
        // As Combine's: a request for the values that went out, though the upstream was cancelled.
        #expect(fixture.upstream.subscription.requests == [.max(3), .max(3)])
    }

    @Test func keepFullAsksAFinishedUpstreamForNothingMore() {
        let fixture = Fixture(size: 3, prefetch: .keepFull)
        fixture.upstream.send(1)
        fixture.upstream.send(completion: .finished)
        fixture.subscriber.request(.max(2))
        #expect(fixture.subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(fixture.upstream.subscription.requests == [.max(3)])
    }

    @Test func finishedWaitsForTheBufferAndForDemand() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.upstream.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription])
        fixture.subscriber.request(.max(1))
        #expect(fixture.subscriber.events == [.subscription, .value(1)])
        fixture.subscriber.request(.max(1))
        #expect(fixture.subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func failureWithoutDemandGoesOutAtOnceDroppingBufferedValues() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.upstream.send(completion: .failure(.oops))
        #expect(fixture.subscriber.events == [.subscription, .completion(.failure(.oops))])
        fixture.subscriber.request(.max(1))
        fixture.upstream.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func demandReturnedByTheDownstreamDrainsTheBuffer() {
        let fixture = Fixture(size: 5, prefetch: .keepFull, onValue: { $0 < 3 ? .max(1) : .none })
        for value in 1...5 {
            fixture.upstream.send(value)
        }
        fixture.subscriber.request(.max(1))
        #expect(fixture.subscriber.values == [1, 2, 3])
        #expect(fixture.upstream.subscription.requests == [.max(5), .max(3)])
    }

    @Test func cancelCancelsTheUpstreamAndDropsTheBuffer() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.subscriber.cancel()
        fixture.subscriber.cancel()
        #expect(fixture.upstream.subscription.cancelCount == 1)
        fixture.subscriber.request(.max(2))
        _ = fixture.upstream.subscription.downstream.receive(2)
        fixture.upstream.subscription.downstream.receive(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription])
    }

    @Test(arguments: [SubscriptionEnding.cancel, .finish])
    func theDownstreamStaysAfterTheEndUntilTheSubscriptionGoes(ending: SubscriptionEnding) {
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: ending) {
            $0.buffer(size: 2, prefetch: .keepFull, whenFull: .dropNewest)
        }
    }

    @Test func aSecondUpstreamSubscriptionIsCancelled() {
        let fixture = Fixture()
        let extra = Source()
        extra.subscribe(fixture.upstream.subscription.downstream)
        #expect(extra.subscription.isCancelled)
        #expect(extra.subscription.requests == [])
        #expect(fixture.subscriber.subscriptions == 1)
    }

    @Test func prefetchStrategyIsHashable() {
        let strategies: Set<Publishers.PrefetchStrategy> = [.keepFull, .byRequest, .keepFull]
        #expect(strategies.count == 2)
        #expect(Publishers.PrefetchStrategy.keepFull != .byRequest)
    }

    @Test func descriptionsNameBuffer() throws {
        let fixture = Fixture()
        fixture.upstream.send(4)
        let subscription = try #require(fixture.subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "Buffer")
        #expect(
            (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String
                == "Buffer")
        let mirror = try #require((subscription as? any CustomReflectable)?.customMirror)
        #expect(mirror.children.map(\.label) == ["values", "state", "downstreamDemand", "terminal"])
        #expect(mirror.children.first?.value as? [Int] == [4])
        #expect(mirror.children.map { String(describing: $0.value) }.dropFirst() == ["subscribed", "max(0)", "nil"])
        #expect(fixture.upstream.subscription.downstream.description == "Buffer")
    }

    @Test func requestsRacingValuesNeverOverlapOrReorder() {
        let count = 2_000
        let upstream = Source()
        let subscriber = FlatteningCheckingSubscriber<Int>(
            initialDemand: .max(1), demandPerValue: Subscribers.Demand.none)
        upstream.buffer(size: count, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        DispatchQueue.concurrentPerform(iterations: 2) { thread in
            if thread == 0 {
                for value in 0..<count {
                    upstream.send(value)
                }
                upstream.send(completion: .finished)
            } else {
                for _ in 0..<count {
                    subscriber.request(.max(1))
                }
            }
        }
        subscriber.request(.max(1))
        #expect(subscriber.overlaps == 0)
        #expect(subscriber.values == Array(0..<count))
        #expect(subscriber.completions == [.finished])
    }

    /// As in Combine, `request(.none)` is no misuse here: it adds no demand and does not trap.
    @Test func requestingNoneAddsNoDemandAndDoesNotTrap() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.buffer(size: 1, prefetch: .byRequest, whenFull: .dropNewest).subscribe(subscriber)
        subscriber.request(.none)
        upstream.send(1)
        #expect(subscriber.values == [])
        subscriber.request(.max(1))
        #expect(subscriber.values == [1])
    }

    // MARK: Calls back into the buffer from its .customError closure

    #if !canImport(Combine) // Combine traps here too, with a message of its own
    /// Combine makes the custom error under its lock: a closure that makes the upstream send to the buffer again,
    /// on the same thread, traps there. Cadence stops too, and says why.
    @Test func aCustomErrorClosureThatMakesTheUpstreamSendAgainTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, TestError>()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.buffer(
                size: 1, prefetch: .byRequest,
                whenFull: .customError {
                    upstream.send(3)
                    return .other
                }
            ).subscribe(subscriber)
            upstream.send(1)
            upstream.send(2)
        }
        #expect(
            result?.standardErrorText.contains(
                "Buffer: receive(_:) was called from inside its .customError closure on the same thread") == true)
    }

    /// Only the thread inside the closure is checked: a value another thread sends meanwhile is taken as usual.
    /// (Combine's would wait for the closure, which here waits for it: the test cannot run on Combine.)
    @Test func aValueFromAnotherThreadWhileTheCustomErrorIsMadeIsTakenAsUsual() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        let calls = LockedBox(0)
        upstream.buffer(
            size: 1, prefetch: .byRequest,
            whenFull: .customError {
                guard
                    calls.mutate({ calls in
                        calls += 1
                        return calls
                    }) == 1
                else { return .other }
                let done = DispatchSemaphore(value: 0)
                DispatchQueue.global().async {
                    upstream.send(3)
                    done.signal()
                }
                done.wait()
                return .other
            }
        ).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        #expect(upstream.subscription.cancelCount == 1)
        subscriber.request(.max(5))
        // The buffer was still full when 3 arrived on the other thread: that overflow was checked as usual.
        #expect(calls.value >= 1)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.failure(.other))])
    }
    #endif
}
