import Cadence
import Testing

@Suite("AsyncPublisher")
struct AsyncPublisherTests {
    @Test func requestsOneValuePerNext() async {
        let upstream = TestPublisher<Int, Never>()
        let task = Task {
            var iterator = upstream.values.makeAsyncIterator()
            var received: [Int] = []
            while let value = await iterator.next() {
                received.append(value)
            }
            return received
        }
        #expect(await publishersWaitUntil { upstream.subscriptions.first?.requests.count == 1 })
        #expect(upstream.subscription.requests == [.max(1)])
        upstream.send(1)
        #expect(await publishersWaitUntil { upstream.subscription.requests.count == 2 })
        upstream.send(2)
        #expect(await publishersWaitUntil { upstream.subscription.requests.count == 3 })
        upstream.send(completion: .finished)
        #expect(await task.value == [1, 2])
        #expect(upstream.subscription.requests == [.max(1), .max(1), .max(1)])
        #expect(!upstream.subscription.isCancelled)
    }

    @Test func valuesOfANeverFailingPublisherDoNotThrow() {
        #expect(type(of: Just(1).values) == AsyncPublisher<Just<Int>>.self)
        #expect(type(of: Fail<Int, TestError>(error: .oops).values) == AsyncThrowingPublisher<Fail<Int, TestError>>.self)
    }

    @Test func subscribesWhenTheIteratorIsMadeButRequestsOnlyOnNext() {
        let upstream = TestPublisher<Int, Never>()
        let iterator = upstream.values.makeAsyncIterator()
        #expect(upstream.subscriptions.count == 1)
        #expect(upstream.subscription.requests.isEmpty)
        _ = iterator
    }

    @Test func iteratesASynchronousPublisher() async {
        var received: [Int] = []
        for await value in (1...5).publisher.values {
            received.append(value)
        }
        #expect(received == [1, 2, 3, 4, 5])
    }

    @Test func finishedPublisherGivesNilAgain() async {
        var iterator = Just(7).values.makeAsyncIterator()
        #expect(await iterator.next() == 7)
        #expect(await iterator.next() == nil)
        #expect(await iterator.next() == nil)
    }

    @Test func valuesSentWithoutARequestAreNotLost() async {
        let upstream = TestPublisher<Int, Never>()
        var iterator = upstream.values.makeAsyncIterator()
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(await iterator.next() == 1)
        #expect(await iterator.next() == nil)
        #expect(upstream.subscription.requests.isEmpty)
    }

    @Test func cancellingTheWaitingTaskCancelsTheSubscriptionAndReturnsNil() async {
        let upstream = TestPublisher<Int, Never>()
        let task = Task {
            var iterator = upstream.values.makeAsyncIterator()
            let first = await iterator.next()
            let second = await iterator.next()
            return [first, second]
        }
        #expect(await publishersWaitUntil { upstream.subscriptions.first?.requests.count == 1 })
        task.cancel()
        #expect(await task.value == [nil, nil])
        #expect(upstream.subscription.cancelCount == 1)
        #expect(upstream.subscription.requests == [.max(1)])
    }

    @Test func anAlreadyCancelledTaskGetsNil() async {
        let upstream = TestPublisher<Int, Never>()
        let task = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            var iterator = upstream.values.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(await task.value == nil)
        #expect(upstream.subscription.isCancelled)
        #expect(upstream.subscription.requests.isEmpty)
    }

    @Test func droppingTheIteratorCancelsTheSubscription() {
        let upstream = TestPublisher<Int, Never>()
        do {
            let iterator = upstream.values.makeAsyncIterator()
            _ = iterator
        }
        #expect(upstream.subscription.cancelCount == 1)
    }

    @Test func aSubscriptionArrivingLateGetsThePendingRequest() async {
        let upstream = TestPublisher<Int, Never>(sendsSubscriptionAtOnce: false)
        let task = Task {
            var iterator = upstream.values.makeAsyncIterator()
            return await iterator.next()
        }
        #expect(await publishersWaitUntil { upstream.subscriptions.count == 1 })
        try? await Task.sleep(for: .milliseconds(10))
        upstream.subscription.deliver()
        #expect(await publishersWaitUntil { upstream.subscription.requests == [.max(1)] })
        upstream.send(3)
        #expect(await task.value == 3)
    }

    @Test func cancelRacingValuesResumesExactlyOnce() async {
        for round in 0..<200 {
            let upstream = TestPublisher<Int, Never>()
            let task = Task {
                var iterator = upstream.values.makeAsyncIterator()
                return await iterator.next()
            }
            #expect(await publishersWaitUntil { upstream.subscriptions.first?.requests.count == 1 })
            async let send = upstream.send(round)
            task.cancel()
            _ = await send
            let result = await task.value
            #expect(result == nil || result == round)
        }
    }

    #if !canImport(Combine)  // pins a Cadence decision that Combine does not share
    @Test func concurrentNextCallsTrap() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = TestPublisher<Int, Never>()
            let iterator = upstream.values.makeAsyncIterator()
            nonisolated(unsafe) var first = iterator
            nonisolated(unsafe) var second = iterator
            Task { _ = await first.next() }
            _ = await publishersWaitUntil { upstream.subscription.requests.count == 1 }
            _ = await second.next()
        }
        #expect(
            result?.standardErrorText.contains(
                "AsyncPublisher.Iterator: next() was called while another call to next() is waiting") == true)
    }
    #endif
}

@Suite("AsyncThrowingPublisher")
struct AsyncThrowingPublisherTests {
    @Test func requestsOneValuePerNextAndThrowsTheFailure() async {
        let upstream = TestPublisher<Int, TestError>()
        let task = Task {
            var iterator = upstream.values.makeAsyncIterator()
            let first = try await iterator.next()
            do {
                _ = try await iterator.next()
                return (first, nil as TestError?, try await iterator.next())
            } catch {
                return (first, error as? TestError, try await iterator.next())
            }
        }
        #expect(await publishersWaitUntil { upstream.subscriptions.first?.requests.count == 1 })
        upstream.send(1)
        #expect(await publishersWaitUntil { upstream.subscription.requests.count == 2 })
        upstream.send(completion: .failure(.oops))
        let outcome = try? await task.value
        #expect(outcome?.0 == 1)
        #expect(outcome?.1 == .oops)
        #expect(outcome?.2 == nil)
        #expect(upstream.subscription.requests == [.max(1), .max(1)])
    }

    @Test func aFailureWhileNobodyWaitsIsThrownByTheNextNext() async throws {
        var iterator = Fail<Int, TestError>(error: .other).values.makeAsyncIterator()
        await #expect(throws: TestError.other) { try await iterator.next() }
        #expect(try await iterator.next() == nil)
    }

    @Test func finishesWithNil() async throws {
        var received: [Int] = []
        for try await value in Record<Int, TestError>(output: [1, 2], completion: .finished).values {
            received.append(value)
        }
        #expect(received == [1, 2])
    }

    @Test func cancellingTheWaitingTaskReturnsNilAndCancelsTheSubscription() async throws {
        let upstream = TestPublisher<Int, TestError>()
        let task = Task {
            var iterator = upstream.values.makeAsyncIterator()
            return try await iterator.next()
        }
        #expect(await publishersWaitUntil { upstream.subscriptions.first?.requests.count == 1 })
        task.cancel()
        #expect(try await task.value == nil)
        #expect(upstream.subscription.cancelCount == 1)
    }
}
