import CadenceTesting
import Dispatch
import Testing

/// The wall-clock driver (`PublisherExpectation+WallClock.swift`): waiting without blocking, failing as soon as the
/// outcome is certain, timeouts, cancellation of the waiting task, and why a step gave up.
///
/// A test that checks failing fast gives its step a timeout far beyond the suite's time limit: were the step to wait
/// for its timeout, the test would be cut off and fail.
@Suite(.hangGuard)
struct WallClockDriverTests {
    @Test func waitsForValuesSentFromAnotherThread() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([]) {
            let expectation = expect(subject)
            send([1, 2], completion: .finished, to: subject)
            await expectation.toEmit([1, 2], timeout: .seconds(600)).thenFinish(timeout: .seconds(600))
            #expect(expectation.values == [1, 2])
        }
    }

    @Test func waitsForAPublisherOnADispatchQueue() async {
        await expectWallClockFailures([]) {
            let delayed = Just(1).delay(for: .milliseconds(30), scheduler: DispatchQueue.global())
            await expect(delayed).toEmit(1, timeout: .seconds(600)).thenFinish(timeout: .seconds(600))
        }
    }

    @Test func failsAtOnceWhenACompletionRulesTheStepOut() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            toEmit(1, timeout: .seconds(600)) failed: expected the value (1), received finished at +… ms.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(1, timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
              →  +… ms  finished      1         toEmit(1, timeout: .seconds(600))
            """
        ]) {
            let expectation = expect(subject)
            send([], completion: .finished, to: subject)
            await expectation.toEmit(1, timeout: .seconds(600))
            // Decided by the completion, 10 minutes before the timeout (the suite's time limit is 1 minute).
            #expect(expectation.hasFailed)
            #expect(expectation.completion != nil)
        }
    }

    @Test func anEndlessTimeout() async {
        await expectWallClockFailures(
            [
                """
                thenEmit(2, timeout: .seconds(Int64.max)) failed: expected the value (2), received finished at \
                +… ms.
                """
            ], headlinesOnly: true
        ) {
            await expect(Just(1)).toEmit(1, timeout: .seconds(Int64.max)).thenEmit(2, timeout: .seconds(Int64.max))
        }
    }

    @Test func timesOut() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            toEmit([1, 2], timeout: .milliseconds(100)) failed: value 2 of 2 (2) did not arrive within the 100 ms \
            timeout.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit([1, 2], timeout: .milliseconds(100))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             1         toEmit([1, 2], timeout: .milliseconds(100))
              →  +… ms  (nothing)     2         toEmit([1, 2], timeout: .milliseconds(100))
            """
        ]) {
            let expectation = expect(subject)
            // Sent before the step starts, so what it has when the timeout runs out does not depend on timing.
            subject.send(1)
            await expectation.toEmit([1, 2], timeout: .milliseconds(100))
        }
    }

    @Test func aZeroTimeoutChecksWhatHasArrived() async {
        await expectWallClockFailures([
            """
            toEmit(2, timeout: .zero) failed: the value (2) did not arrive within the 0 s timeout.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(2, timeout: .zero)

                 time  received      expected
                 +… ms  subscription
              →  +… ms  (nothing)     2         toEmit(2, timeout: .zero)
            """
        ]) {
            await expect(Just(1)).toEmit(1, timeout: .zero).thenFinish(timeout: .zero)
            await expect(PassthroughSubject<Int, Never>()).toEmit(2, timeout: .zero)
        }
    }

    @Test func aCancelledTaskStopsWaitingAndFails() async {
        let subject = CrossThread(PassthroughSubject<Int, Never>())
        let task = Task {
            await recordingFailures {
                await expect(subject.value).toEmit(1, timeout: .seconds(600))
            }
        }
        task.cancel()
        let failures = await task.value.map { maskingTimes($0.message) }
        #expect(
            failures == [
                """
                toEmit(1, timeout: .seconds(600)) failed: the value (1) had not arrived when the task waiting for it was \
                cancelled.

                    expect(PassthroughSubject<Int, Never>)
                  ✗   .toEmit(1, timeout: .seconds(600))

                     time  received      expected
                     +… ms  subscription
                  →  +… ms  (nothing)     1         toEmit(1, timeout: .seconds(600))
                """
            ])
    }

    @Test func aTaskCancelledWhileItWaitsStopsWaiting() async {
        let subject = CrossThread(PassthroughSubject<Int, Never>())
        let started = SharedBox(false)
        let task = Task {
            await recordingFailures {
                let expectation = expect(subject.value)
                started.mutate { $0 = true }
                await expectation.toEmit([1, 2], timeout: .seconds(600))
            }
        }
        while !started.value { await Task.yield() }
        subject.value.send(1)
        try? await Task.sleep(for: .milliseconds(20))
        task.cancel()
        let failures = await task.value.map { maskingTimes($0.message) }
        #expect(
            failures == [
                """
                toEmit([1, 2], timeout: .seconds(600)) failed: value 2 of 2 (2) had not arrived when the task waiting for \
                it was cancelled.

                    expect(PassthroughSubject<Int, Never>)
                  ✗   .toEmit([1, 2], timeout: .seconds(600))

                     time  received      expected
                     +… ms  subscription
                     +… ms  1             1         toEmit([1, 2], timeout: .seconds(600))
                  →  +… ms  (nothing)     2         toEmit([1, 2], timeout: .seconds(600))
                """
            ])
    }

    @Test func aStepAfterTheCompletionFailsAtOnce() async {
        await expectWallClockFailures([
            """
            thenEmit(2, timeout: .seconds(600)) failed: the value (2) never arrived: the publisher had already \
            completed.

                expect(Just<Int>)
              ✓   .toEmit(1, timeout: .seconds(600))
              ✓   .thenFinish(timeout: .seconds(600))
              ✗   .thenEmit(2, timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             1         toEmit(1, timeout: .seconds(600))
                 +… ms  finished      finished  thenFinish(timeout: .seconds(600))
              →  +… ms  (nothing)     2         thenEmit(2, timeout: .seconds(600))
            """
        ]) {
            await expect(Just(1)).toEmit(1, timeout: .seconds(600)).thenFinish(timeout: .seconds(600))
                .thenEmit(2, timeout: .seconds(600))
        }
    }

    @Test func laterStepsAfterAFailureAreNotChecked() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            toEmit(1, timeout: .seconds(600)) failed: the value differs: expected 1, received 2 at +… ms.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(1, timeout: .seconds(600))
                  .thenFinish(timeout: .seconds(600))  (not checked)

                 time  received      expected
                 +… ms  subscription
              →  +… ms  2             1         toEmit(1, timeout: .seconds(600))
            """
        ]) {
            let expectation = expect(subject)
            send([2], to: subject)
            await expectation.toEmit(1, timeout: .seconds(600)).thenFinish(timeout: .seconds(600))
        }
    }

    @Test func aPublisherThatNeverSubscribes() async {
        await expectWallClockFailures([
            """
            toEmit(1, timeout: .milliseconds(50)) failed: the value (1) never arrived: the publisher never sent a \
            subscription.

                expect(SilentPublisher)
              ✗   .toEmit(1, timeout: .milliseconds(50))

                 time  received   expected
              →  +… ms  (nothing)  1         toEmit(1, timeout: .milliseconds(50))
            """
        ]) {
            await expect(SilentPublisher()).toEmit(1, timeout: .milliseconds(50))
        }
    }

    @Test func aContractViolationDecidesAtOnce() async {
        await expectWallClockFailures([
            """
            toEmit(1, timeout: .seconds(600)) failed: the value (1) never arrived: the publisher sent 1 beyond the \
            demand requested (.none in all), which breaks the subscription contract (rule 1.1).

                expect(PushyPublisher)
              ✗   .toEmit(1, timeout: .seconds(600))

                 time  received             expected
                 +… ms  subscription
              →  +… ms  1 (contract broken)  1         toEmit(1, timeout: .seconds(600))
            """
        ]) {
            await expect(PushyPublisher(value: 1), demand: .none).toEmit(1, timeout: .seconds(600))
        }
    }

    @Test func stepsDoNotAdvanceAVirtualClock() async {
        let scheduler = DispatchQueue.test
        await expectWallClockFailures([
            """
            toEmit(1, timeout: .milliseconds(50)) failed: the value (1) did not arrive within the 50 ms timeout; the \
            expectation's virtual clock has work due at tick 5, which wall-clock steps never run — for virtual time, \
            drop timeout: (and give a budget with within:).

                expect(Publishers.Delay<…>)
              ✗   .toEmit(1, timeout: .milliseconds(50))

                 time  received      expected
                 +… ms  subscription
              →  +… ms  (nothing)     1         toEmit(1, timeout: .milliseconds(50))
            """
        ]) {
            await expect(Just(1).delay(for: .milliseconds(5), scheduler: scheduler), on: scheduler)
                .toEmit(1, timeout: .milliseconds(50))
        }
        #expect(scheduler.clock.now.ticks == 0)
    }

    /// With a virtual clock bound (as inside `.virtualTime`), a chain checked with wall-clock steps shows when its
    /// events arrived, not tick 0 of a clock nothing runs.
    @Test func aChainWithAVirtualClockIsTimedOnTheWallClockByItsWallClockSteps() async {
        let queue = DispatchQueue(label: "wall-clock chain")
        await expectWallClockFailures([
            """
            toEmit([1, 2], timeout: .seconds(600)) failed: expected value 2 of 2 (2), received finished at +… ms.

                expect(Publishers.ReceiveOn<Just<Int>, DispatchQueue>)
              ✗   .toEmit([1, 2], timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             1         toEmit([1, 2], timeout: .seconds(600))
              →  +… ms  finished      2         toEmit([1, 2], timeout: .seconds(600))
            """
        ]) {
            await VirtualClock.$current.withValue(VirtualClock()) { () async -> Void in
                await expect(Just(1).receive(on: queue)).toEmit([1, 2], timeout: .seconds(600))
            }
        }
    }

    @Test func aLateEventAfterTheChainEnded() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended: 2.

                expect(PassthroughSubject<Int, Never>)
              ✓   .toEmit(1, timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             1          toEmit(1, timeout: .seconds(600))
              →  +… ms  2             (no step)
            """
        ]) {
            let expectation = expect(subject)
            send([1], to: subject)
            await expectation.toEmit(1, timeout: .seconds(600))
            _ = consume expectation
            subject.send(2)
        }
    }

    @Test func manyStepsWaitAtOnce() async {
        await expectWallClockFailures([]) {
            await withTaskGroup(of: Void.self) { group in
                for offset in 0..<50 {
                    group.addTask {
                        let subject = PassthroughSubject<Int, Never>()
                        let expectation = expect(subject)
                        send(
                            [offset, offset + 1], completion: .finished, to: subject, after: .milliseconds(offset % 5))
                        await expectation.toEmit([offset, offset + 1], timeout: .seconds(600))
                            .thenFinish(timeout: .seconds(600))
                    }
                }
            }
        }
    }

    @Test(arguments: 0..<20)
    func valuesFromAnotherThreadWhileTheStepWaits(round _: Int) async {
        let subject = PassthroughSubject<Int, Never>()
        let values = Array(1...200)
        await expectWallClockFailures([]) {
            let expectation = expect(subject)
            send(values, completion: .finished, to: subject, after: .milliseconds(1))
            await expectation.toEmit(values, timeout: .seconds(600)).thenFinish(timeout: .seconds(600))
        }
    }
}
