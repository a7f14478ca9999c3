import CadenceTesting
import Dispatch
import Testing

/// The wall-clock forms of `toEmitNothing` and `thenEmitNothing`, whose timeout is their window
/// (`Steps/PublisherExpectation+EmitNothing.swift`).
@Suite(.hangGuard)
struct WallClockEmitNothingTests {
    @Test func nothingForTheWholeTimeoutPasses() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([]) {
            await expect(subject).toEmitNothing(timeout: .milliseconds(30))
                .thenEmitNothing(timeout: .zero)
        }
    }

    @Test func aValueInsideTheWindowFailsAtOnce() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            toEmitNothing(timeout: .seconds(600)) failed: expected nothing for 600 s, received 1 at +… ms.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmitNothing(timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
              →  +… ms  1             nothing for 600 s  toEmitNothing(timeout: .seconds(600))
            """
        ]) {
            let expectation = expect(subject)
            send([1], to: subject)
            await expectation.toEmitNothing(timeout: .seconds(600))
        }
    }

    @Test func aCompletionInsideTheWindowFailsAtOnce() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            thenEmitNothing(timeout: .seconds(600)) failed: expected nothing for 600 s, received finished at +… ms.

                expect(PassthroughSubject<Int, Never>)
              ✓   .toEmit(1, timeout: .seconds(600))
              ✗   .thenEmitNothing(timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             1                  toEmit(1, timeout: .seconds(600))
              →  +… ms  finished      nothing for 600 s  thenEmitNothing(timeout: .seconds(600))
            """
        ]) {
            let expectation = expect(subject)
            send([1], completion: .finished, to: subject)
            await expectation.toEmit(1, timeout: .seconds(600)).thenEmitNothing(timeout: .seconds(600))
        }
    }

    @Test func afterTheCompletionNothingCanArrive() async {
        // Decided at once: the publisher has completed, so the 600 s window cannot hold an event.
        await expectWallClockFailures([]) {
            await expect(Just(1)).toEmit(1, timeout: .seconds(600)).thenFinish(timeout: .seconds(600))
                .thenEmitNothing(timeout: .seconds(600))
        }
    }

    @Test func aCancelledTaskEndsTheWindow() async {
        let subject = CrossThread(PassthroughSubject<Int, Never>())
        let task = Task {
            await recordingFailures {
                await expect(subject.value).toEmitNothing(timeout: .seconds(600))
            }
        }
        task.cancel()
        let failures = await task.value.map { maskingTimes($0.message) }
        #expect(
            failures == [
                """
                toEmitNothing(timeout: .seconds(600)) failed: the task waiting for its window to pass was cancelled.

                    expect(PassthroughSubject<Int, Never>)
                  ✗   .toEmitNothing(timeout: .seconds(600))

                     time  received      expected
                     +… ms  subscription
                  →  +… ms  (nothing)     nothing for 600 s  toEmitNothing(timeout: .seconds(600))
                """
            ])
    }

    @Test func aNegativeTimeout() async {
        await expectWallClockFailures(
            [
                """
                toEmitNothing(timeout: .milliseconds(-5)) failed: its timeout is negative (-5 ms); a step cannot wait less \
                than no time — use .zero to check only what has already arrived.
                """
            ], headlinesOnly: true
        ) {
            await expect(Empty<Int, Never>()).toEmitNothing(timeout: .milliseconds(-5))
        }
    }
}
