import CadenceTesting
import Dispatch
import Testing

/// The wall-clock forms of `toFinish` and `thenFinish`
/// (`Steps/PublisherExpectation+Completion.swift`).
@Suite(.hangGuard)
struct WallClockCompletionTests {
    @Test func finishesOnADispatchQueue() async {
        await expectWallClockFailures([]) {
            let delayed = Empty<Int, Never>().delay(for: .milliseconds(10), scheduler: DispatchQueue.global())
            await expect(delayed).toFinish(timeout: .seconds(600))
        }
    }

    @Test func aValueInsteadFailsAtOnce() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            toFinish(timeout: .seconds(600)) failed: expected finished, received 7 at +… ms.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toFinish(timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
              →  +… ms  7             finished  toFinish(timeout: .seconds(600))
            """
        ]) {
            let expectation = expect(subject)
            send([7], to: subject)
            await expectation.toFinish(timeout: .seconds(600))
        }
    }

    @Test func aFailureInsteadFailsAtOnce() async {
        let subject = PassthroughSubject<Int, WallClockError>()
        await expectWallClockFailures([
            """
            thenFinish(timeout: .seconds(600)) failed: expected finished, received failure(WallClockError.offline) \
            at +… ms.

                expect(PassthroughSubject<Int, WallClockError>)
              ✓   .toEmit(1, timeout: .seconds(600))
              ✗   .thenFinish(timeout: .seconds(600))

                 time  received                         expected
                 +… ms  subscription
                 +… ms  1                                1         toEmit(1, timeout: .seconds(600))
              →  +… ms  failure(WallClockError.offline)  finished  thenFinish(timeout: .seconds(600))
            """
        ]) {
            let expectation = expect(subject)
            send([1], completion: .failure(.offline), to: subject)
            await expectation.toEmit(1, timeout: .seconds(600)).thenFinish(timeout: .seconds(600))
        }
    }

    @Test func aStepWithoutTimeoutAfterWallClockStepsSaysItDidNotWait() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures(
            [
                """
                thenFinish() failed: the finish never arrived: it had not arrived when the step looked, and a step \
                without timeout: does not wait on the wall clock — give it a timeout:, as the chain's earlier steps have.
                """
            ], headlinesOnly: true
        ) {
            let expectation = expect(subject)
            send([1], to: subject)
            await expectation.toEmit(1, timeout: .seconds(600)).thenFinish()
        }
    }

    @Test func timesOut() async {
        await expectWallClockFailures([
            """
            toFinish(timeout: .milliseconds(60)) failed: the finish did not arrive within the 60 ms timeout.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toFinish(timeout: .milliseconds(60))

                 time  received      expected
                 +… ms  subscription
              →  +… ms  (nothing)     finished  toFinish(timeout: .milliseconds(60))
            """
        ]) {
            await expect(PassthroughSubject<Int, Never>()).toFinish(timeout: .milliseconds(60))
        }
    }

    @Test func aNegativeTimeout() async {
        await expectWallClockFailures([
            """
            toFinish(timeout: .seconds(-1)) failed: its timeout is negative (-1 s); a step cannot wait less than no \
            time — use .zero to check only what has already arrived.

                expect(Empty<Int, Never>)
              ✗   .toFinish(timeout: .seconds(-1))

                 received      expected
                 subscription
                 finished
              →  (nothing)     (a valid step)  toFinish(timeout: .seconds(-1))
            """
        ]) {
            await expect(Empty<Int, Never>()).toFinish(timeout: .seconds(-1))
        }
        await expectWallClockFailures(
            [
                "thenFinish(timeout: .milliseconds(-1500)) failed: its timeout is negative (-1.5 s); a step cannot wait "
                    + "less than no time — use .zero to check only what has already arrived."
            ], headlinesOnly: true
        ) {
            await expect(Empty<Int, Never>()).thenFinish(timeout: .milliseconds(-1500))
        }
    }
}

/// An error for wall-clock tests.
enum WallClockError: Error {
    case offline
}
