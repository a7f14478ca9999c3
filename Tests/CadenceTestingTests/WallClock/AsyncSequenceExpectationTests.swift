import CadenceTesting
import Testing

/// `expect(_ sequence:)` (`Expectation/AsyncSequenceExpectation.swift`): iterating an `AsyncSequence` in a task, as far
/// as the demand allows, and ending the iteration with the chain.
@Suite(.hangGuard)
struct AsyncSequenceExpectationTests {
    @Test func anAsyncStream() async {
        let (stream, continuation) = streamAndContinuation(of: Int.self)
        await expectWallClockFailures([]) {
            let expectation = expect(stream)
            Task {
                continuation.yield(1)
                continuation.yield(2)
                continuation.finish()
            }
            await expectation.toEmit([1, 2], timeout: .seconds(600)).thenFinish(timeout: .seconds(600))
            #expect(expectation.values == [1, 2])
        }
    }

    @Test func aThrownErrorIsAFailure() async {
        let (stream, continuation) = throwingStreamAndContinuation(of: Int.self)
        await expectWallClockFailures([
            """
            thenFinish(timeout: .seconds(600)) failed: expected finished, received failure(WallClockError.offline) \
            at +… ms.

                expect(AsyncThrowingStream<Int, Error>)
              ✓   .toEmit(1, timeout: .seconds(600))
              ✗   .thenFinish(timeout: .seconds(600))

                 time  received                         expected
                 +… ms  subscription
                 +… ms  1                                1         toEmit(1, timeout: .seconds(600))
              →  +… ms  failure(WallClockError.offline)  finished  thenFinish(timeout: .seconds(600))
            """
        ]) {
            continuation.yield(1)
            continuation.finish(throwing: WallClockError.offline)
            await expect(stream).toEmit(1, timeout: .seconds(600)).thenFinish(timeout: .seconds(600))
        }
    }

    @Test func aPublishersValues() async {
        await expectWallClockFailures([]) {
            await expect([1, 2, 3].publisher.values).toEmit([1, 2, 3], timeout: .seconds(600))
                .thenFinish(timeout: .seconds(600))
        }
    }

    @Test func aSubjectsValuesWhileTheTestSendsIntoIt() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([]) {
            // The buffer takes what the subject sends while the iterating task is not waiting in `next()`.
            let expectation = expect(subject.buffer(size: 10, prefetch: .keepFull, whenFull: .dropNewest).values)
            subject.send(1)
            subject.send(2)
            subject.send(completion: .finished)
            await expectation.toEmit([1, 2], timeout: .seconds(600)).thenFinish(timeout: .seconds(600))
        }
    }

    @Test func anEarlyEndFailsAtOnce() async {
        await expectWallClockFailures([
            """
            toEmit([1, 2], timeout: .seconds(600)) failed: expected value 2 of 2 (2), received finished at +… ms.

                expect(AsyncStream<Int>)
              ✗   .toEmit([1, 2], timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             1         toEmit([1, 2], timeout: .seconds(600))
              →  +… ms  finished      2         toEmit([1, 2], timeout: .seconds(600))
            """
        ]) {
            await expect(
                AsyncStream { continuation in
                    continuation.yield(1)
                    continuation.finish()
                }
            ).toEmit([1, 2], timeout: .seconds(600))
        }
    }

    @Test func pullsOnlyWhileDemandIsOutstanding() async {
        let pulls = SharedBox(0)
        await expectWallClockFailures([
            """
            thenEmit(2, timeout: .milliseconds(80)) failed: the value (2) did not arrive within the 80 ms timeout; \
            the subscriber had no demand left (.max(2) requested in all) — request more with thenRequest(_:).

                expect(CountingSequence)
              ✓   .toEmit([0, 1], timeout: .seconds(600))
              ✗   .thenEmit(2, timeout: .milliseconds(80))

                 time  received      expected
                 +… ms  subscription
                 +… ms  0             0         toEmit([0, 1], timeout: .seconds(600))
                 +… ms  1             1         toEmit([0, 1], timeout: .seconds(600))
              →  +… ms  (nothing)     2         thenEmit(2, timeout: .milliseconds(80))
            """
        ]) {
            await expect(CountingSequence(pulls: pulls), demand: .max(2)).toEmit([0, 1], timeout: .seconds(600))
                .thenEmit(2, timeout: .milliseconds(80))
        }
        #expect(pulls.value == 2)
    }

    @Test func noDemandPullsNothing() async {
        let pulls = SharedBox(0)
        await expectWallClockFailures([
            """
            toEmit(0, timeout: .milliseconds(50)) failed: the value (0) did not arrive within the 50 ms timeout; the \
            subscriber had no demand left (.none requested in all) — request more with thenRequest(_:).

                expect(CountingSequence)
              ✗   .toEmit(0, timeout: .milliseconds(50))

                 time  received      expected
                 +… ms  subscription
              →  +… ms  (nothing)     0         toEmit(0, timeout: .milliseconds(50))
            """
        ]) {
            await expect(CountingSequence(pulls: pulls), demand: .none).toEmit(0, timeout: .milliseconds(50))
        }
        #expect(pulls.value == 0)
    }

    @Test func thenRequestPullsMore() async {
        let pulls = SharedBox(0)
        await expectWallClockFailures([]) {
            await expect(CountingSequence(pulls: pulls), demand: .none)
                .thenRequest(.max(2)).toEmit([0, 1], timeout: .seconds(600))
                .thenRequest(.max(1)).thenEmit(2, timeout: .seconds(600))
        }
        #expect(pulls.value == 3)
    }

    @Test func thenCancelCancelsTheIteration() async {
        let (ended, endedContinuation) = streamAndContinuation(of: Void.self)
        let (stream, continuation) = streamAndContinuation(of: Int.self)
        continuation.onTermination = { _ in endedContinuation.finish() }
        await expectWallClockFailures([
            """
            thenEmit(2, timeout: .seconds(600)) failed: the value (2) never arrived: the subscription was cancelled.

                expect(AsyncStream<Int>)
              ✓   .toEmit(1, timeout: .seconds(600))
              ✓   .thenCancel()
              ✗   .thenEmit(2, timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             1         toEmit(1, timeout: .seconds(600))
              →  +… ms  (nothing)     2         thenEmit(2, timeout: .seconds(600))
            """
        ]) {
            continuation.yield(1)
            let expectation = await expect(stream).toEmit(1, timeout: .seconds(600)).thenCancel()
            // Cancelling the iteration terminates the stream, while the chain is still alive.
            for await _ in ended {}
            await expectation.thenEmit(2, timeout: .seconds(600))
        }
    }

    @Test func theChainsEndCancelsTheIteration() async {
        let terminated = SharedBox<AsyncStream<Int>.Continuation.Termination?>(nil)
        let (ended, endedContinuation) = streamAndContinuation(of: Void.self)
        let (stream, continuation) = streamAndContinuation(of: Int.self)
        continuation.onTermination = { termination in
            terminated.mutate { $0 = termination }
            endedContinuation.finish()
        }
        await expectWallClockFailures([]) {
            continuation.yield(1)
            await expect(stream).toEmit(1, timeout: .seconds(600))
        }
        // The chain has ended: its iteration is cancelled, which terminates the stream.
        for await _ in ended {}
        #expect(terminated.value.map { "\($0)" } == "cancelled")
    }
}

extension AsyncSequenceExpectationTests {
    /// The iterating task runs at high priority, so the elements are timed when they arrive even while the parallel
    /// run keeps the cooperative pool busy with jobs of the default priority (which a job of the test's own priority
    /// waits behind). Asserted on the priority, which is deterministic, not on a time.
    @Test func theSequenceIsPulledAtHighPriority() async {
        let priorities = SharedBox<[TaskPriority]>([])
        await expectWallClockFailures([]) {
            let test = Task(priority: .low) { () async -> Void in
                await expect(PriorityRecordingSequence(count: 2, priorities: priorities))
                    .toEmit([0, 1], timeout: .seconds(600))
                    .thenFinish(timeout: .seconds(600))
            }
            await test.value
        }
        #expect(priorities.value.count == 3)
        #expect(priorities.value.allSatisfy { $0 >= .high }, "\(priorities.value)")
    }

    /// A test that runs above high priority (user-interactive, as the main thread's work is on Apple platforms)
    /// keeps its priority for the iteration.
    @Test func aPriorityAboveHighIsKept() async {
        let userInteractive = TaskPriority(rawValue: 33)
        let priorities = SharedBox<[TaskPriority]>([])
        let test = Task(priority: userInteractive) { () async -> Void in
            await expect(PriorityRecordingSequence(count: 1, priorities: priorities))
                .toEmit(0, timeout: .seconds(600))
                .thenFinish(timeout: .seconds(600))
        }
        await test.value
        #expect(priorities.value.first == userInteractive, "\(priorities.value)")
    }
}

/// Yields 0 up to `count` - 1, recording the priority of the task that asks for each element (and for the end).
struct PriorityRecordingSequence: AsyncSequence, Sendable {
    typealias Element = Int

    let count: Int
    let priorities: SharedBox<[TaskPriority]>

    struct AsyncIterator: AsyncIteratorProtocol {
        let count: Int
        let priorities: SharedBox<[TaskPriority]>
        var next = 0

        mutating func next() async -> Int? {
            priorities.mutate { $0.append(Task.currentPriority) }
            guard next < count else { return nil }
            defer { next += 1 }
            return next
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(count: count, priorities: priorities)
    }
}

/// An endless sequence of 0, 1, 2, … that counts how many elements were asked of it.
struct CountingSequence: AsyncSequence, Sendable {
    typealias Element = Int

    let pulls: SharedBox<Int>

    struct AsyncIterator: AsyncIteratorProtocol {
        let pulls: SharedBox<Int>

        mutating func next() async -> Int? {
            pulls.mutate { count in
                defer { count += 1 }
                return count
            }
        }
    }

    func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(pulls: pulls)
    }
}

/// A stream and its continuation — `AsyncStream.makeStream(of:)`, which needs macOS 14 / iOS 17.
func streamAndContinuation<Element>(of _: Element.Type) -> (AsyncStream<Element>, AsyncStream<Element>.Continuation) {
    var continuation: AsyncStream<Element>.Continuation?
    let stream = AsyncStream<Element> { continuation = $0 }
    // The stream calls its build closure before it returns.
    return (stream, continuation!)
}

/// A throwing stream and its continuation — `AsyncThrowingStream.makeStream(of:)`, which needs macOS 14 / iOS 17.
func throwingStreamAndContinuation<Element>(
    of _: Element.Type
) -> (AsyncThrowingStream<Element, any Error>, AsyncThrowingStream<Element, any Error>.Continuation) {
    var continuation: AsyncThrowingStream<Element, any Error>.Continuation?
    let stream = AsyncThrowingStream<Element, any Error> { continuation = $0 }
    return (stream, continuation!)
}
