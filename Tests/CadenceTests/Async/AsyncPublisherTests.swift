import Cadence
import Testing

@Suite("AsyncPublisher")
struct AsyncPublisherTests {
    @Test func requestsOneValuePerNext() async {
        let upstream = DrivenPublisher<Int, Never>()
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
        #expect(
            type(of: Fail<Int, TestError>(error: .oops).values) == AsyncThrowingPublisher<Fail<Int, TestError>>.self)
    }

    @Test func subscribesWhenTheIteratorIsMadeButRequestsOnlyOnNext() {
        let upstream = DrivenPublisher<Int, Never>()
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

    #if !canImport(Combine) // Combine traps here too, with a message of its own
    @Test func aValueNobodyAskedForTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = DrivenPublisher<Int, Never>()
            let iterator = upstream.values.makeAsyncIterator()
            upstream.send(1)
            withExtendedLifetime(iterator) {}
        }
        #expect(
            result?.standardErrorText.contains(
                "AsyncPublisher: received a value it did not request; a publisher must not send more values than its "
                    + "subscriber requested") == true)
    }
    #endif

    /// As in Combine, a value before the subscription ends every waiting `next()` with `nil`; the demand they asked
    /// for is still requested when the subscription comes.
    @Test func aValueBeforeTheSubscriptionEndsTheWaitingCalls() async {
        let upstream = DrivenPublisher<Int, Never>(sendsSubscriptionAtOnce: false)
        let iterator = upstream.values.makeAsyncIterator()
        nonisolated(unsafe) var waiting = iterator
        let returned = LockedBox<[Int?]>([])
        let task = Task { returned.append(await waiting.next()) }
        // Sent until the call has been waiting for it: a value that finds nobody waiting changes nothing.
        #expect(
            await publishersWaitUntil {
                _ = upstream.subscription.downstream.receive(1)
                return !returned.value.isEmpty
            })
        await task.value
        #expect(returned.value == [nil])
        upstream.subscription.deliver()
        #expect(upstream.subscription.requests == [.max(1)])
        withExtendedLifetime(iterator) {}
    }

    @Test func cancellingTheWaitingTaskCancelsTheSubscriptionAndReturnsNil() async {
        let upstream = DrivenPublisher<Int, Never>()
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
        let upstream = DrivenPublisher<Int, Never>()
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
        let upstream = DrivenPublisher<Int, Never>()
        do {
            let iterator = upstream.values.makeAsyncIterator()
            _ = iterator
        }
        #expect(upstream.subscription.cancelCount == 1)
    }

    @Test func aSubscriptionArrivingLateGetsThePendingRequest() async {
        let upstream = DrivenPublisher<Int, Never>(sendsSubscriptionAtOnce: false)
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
            let upstream = DrivenPublisher<Int, Never>()
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

    /// As in Combine, `next()` may be waiting in several tasks at once (here through copies of one iterator): each
    /// asks for one more value, and the values go to the calls in the order they were made.
    @Test func concurrentNextCallsGetTheValuesInTurn() async {
        let upstream = DrivenPublisher<Int, Never>()
        let iterator = upstream.values.makeAsyncIterator()
        nonisolated(unsafe) var first = iterator
        nonisolated(unsafe) var second = iterator
        let firstTask = Task { await first.next() }
        #expect(await publishersWaitUntil { upstream.subscription.requests.count == 1 })
        let secondTask = Task { await second.next() }
        #expect(await publishersWaitUntil { upstream.subscription.requests.count == 2 })
        upstream.send(1)
        upstream.send(2)
        #expect(await firstTask.value == 1)
        #expect(await secondTask.value == 2)
        #expect(upstream.subscription.requests == [.max(1), .max(1)])
    }

    /// Cancelling one of several waiting calls ends the iteration: every waiting call returns `nil`, and the
    /// subscription is cancelled once.
    @Test func cancellingOneOfSeveralWaitingCallsEndsThemAll() async {
        let upstream = DrivenPublisher<Int, Never>()
        let iterator = upstream.values.makeAsyncIterator()
        nonisolated(unsafe) var first = iterator
        nonisolated(unsafe) var second = iterator
        let firstTask = Task { await first.next() }
        let secondTask = Task { await second.next() }
        #expect(await publishersWaitUntil { upstream.subscription.requests.count == 2 })
        firstTask.cancel()
        #expect(await firstTask.value == nil)
        #expect(await secondTask.value == nil)
        #expect(upstream.subscription.cancelCount == 1)
    }
}

@Suite("AsyncThrowingPublisher")
struct AsyncThrowingPublisherTests {
    @Test func requestsOneValuePerNextAndThrowsTheFailure() async {
        let upstream = DrivenPublisher<Int, TestError>()
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

    /// With several calls waiting, the failure goes to the oldest one and the others return `nil`.
    @Test func theFailureGoesToTheOldestWaitingCall() async throws {
        let upstream = DrivenPublisher<Int, TestError>()
        let iterator = upstream.values.makeAsyncIterator()
        nonisolated(unsafe) var first = iterator
        nonisolated(unsafe) var second = iterator
        let firstTask = Task { try await first.next() }
        #expect(await publishersWaitUntil { upstream.subscription.requests.count == 1 })
        let secondTask = Task { try await second.next() }
        #expect(await publishersWaitUntil { upstream.subscription.requests.count == 2 })
        upstream.send(completion: .failure(.oops))
        await #expect(throws: TestError.oops) { try await firstTask.value }
        #expect(try await secondTask.value == nil)
    }

    @Test func finishesWithNil() async throws {
        var received: [Int] = []
        for try await value in Record<Int, TestError>(output: [1, 2], completion: .finished).values {
            received.append(value)
        }
        #expect(received == [1, 2])
    }

    @Test func cancellingTheWaitingTaskReturnsNilAndCancelsTheSubscription() async throws {
        let upstream = DrivenPublisher<Int, TestError>()
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
