import CadenceTesting
import Dispatch
import Testing

/// The wall-clock forms of `toEmit(count:)`, `toEmit(where:)` and `toEventuallyEmit` (value and predicate), with
/// their `then` twins (their `timeout:` forms in `Steps/PublisherExpectation+EmitCount.swift`, `+EmitWhere.swift`,
/// `+EventuallyEmit.swift`).
@Suite(.hangGuard)
struct WallClockValueStepsTests {
    @Test func countWhereAndEventuallyFromAnotherThread() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([]) {
            let expectation = expect(subject)
            send([1, 2, 3, 4, 5, 6, 7, 8], completion: .finished, to: subject)
            await expectation.toEmit(count: 2, timeout: .seconds(600))
                .thenEmit(where: { $0 == 3 }, timeout: .seconds(600))
                .thenEventuallyEmit(5, timeout: .seconds(600))
                .thenEventuallyEmit(where: { $0 > 6 }, timeout: .seconds(600))
                .thenEmit(count: 1, timeout: .seconds(600))
                .thenFinish(timeout: .seconds(600))
        }
    }

    @Test func toEventuallyEmitAndToEmitWhereStartAChain() async {
        await expectWallClockFailures([]) {
            await expect([1, 2].publisher).toEventuallyEmit(2, timeout: .seconds(600))
                .thenFinish(timeout: .seconds(600))
            await expect([1, 2].publisher).toEventuallyEmit(where: { $0 == 1 }, timeout: .seconds(600))
                .thenEmit(2, timeout: .seconds(600)).thenFinish(timeout: .seconds(600))
            await expect([1, 2].publisher).toEmit(where: { $0 == 1 }, timeout: .seconds(600))
                .thenEmit(count: 1, timeout: .seconds(600)).thenFinish(timeout: .seconds(600))
        }
    }

    @Test func countFailsAtOnceOnAnEarlyCompletion() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            toEmit(count: 2, timeout: .seconds(600)) failed: expected value 2 of 2, received finished at +… ms.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(count: 2, timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             (any value)  toEmit(count: 2, timeout: .seconds(600))
              →  +… ms  finished      (any value)  toEmit(count: 2, timeout: .seconds(600))
            """
        ]) {
            let expectation = expect(subject)
            send([1], completion: .finished, to: subject)
            await expectation.toEmit(count: 2, timeout: .seconds(600))
        }
    }

    @Test func whereFailsAtOnceOnAValueThatDoesNotMatch() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            toEmit(where: { … }, timeout: .seconds(600)) failed: expected a value matching the predicate, received 4 \
            at +… ms.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(where: { … }, timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
              →  +… ms  4             (a match)  toEmit(where: { … }, timeout: .seconds(600))
            """
        ]) {
            let expectation = expect(subject)
            send([4], to: subject)
            await expectation.toEmit(where: { $0 < 3 }, timeout: .seconds(600))
        }
    }

    @Test func eventuallyFailsAtOnceOnACompletion() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            toEventuallyEmit(3, timeout: .seconds(600)) failed: skipped 2 values, then expected the value (3), \
            received finished at +… ms.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEventuallyEmit(3, timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             (skipped)  toEventuallyEmit(3, timeout: .seconds(600))
                 +… ms  2             (skipped)  toEventuallyEmit(3, timeout: .seconds(600))
              →  +… ms  finished      3          toEventuallyEmit(3, timeout: .seconds(600))
            """
        ]) {
            let expectation = expect(subject)
            send([1, 2], completion: .finished, to: subject)
            await expectation.toEventuallyEmit(3, timeout: .seconds(600))
        }
    }

    @Test func eventuallyTimesOut() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            toEventuallyEmit(where: { … }, timeout: .milliseconds(80)) failed: a value matching the predicate, after \
            1 skipped value, did not arrive within the 80 ms timeout.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEventuallyEmit(where: { … }, timeout: .milliseconds(80))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             (skipped)  toEventuallyEmit(where: { … }, timeout: .milliseconds(80))
              →  +… ms  (nothing)     (a match)  toEventuallyEmit(where: { … }, timeout: .milliseconds(80))
            """
        ]) {
            let expectation = expect(subject)
            subject.send(1)
            await expectation.toEventuallyEmit(where: { $0 > 1 }, timeout: .milliseconds(80))
        }
    }

    @Test func badInput() async {
        await expectWallClockFailures(
            [
                """
                toEmit(count: 0, timeout: .seconds(1)) failed: its count is 0; the step must expect at least 1 value — to \
                check that nothing arrives, use toEmitNothing(timeout:).
                """,
                """
                toEmit(count: 1, timeout: .milliseconds(-1)) failed: its timeout is negative (-1 ms); a step cannot wait \
                less than no time — use .zero to check only what has already arrived.
                """,
                """
                toEmit(where: { … }, timeout: .milliseconds(-1)) failed: its timeout is negative (-1 ms); a step cannot \
                wait less than no time — use .zero to check only what has already arrived.
                """,
                """
                toEventuallyEmit(1, timeout: .milliseconds(-1)) failed: its timeout is negative (-1 ms); a step cannot \
                wait less than no time — use .zero to check only what has already arrived.
                """,
                """
                toEventuallyEmit(where: { … }, timeout: .milliseconds(-1)) failed: its timeout is negative (-1 ms); a \
                step cannot wait less than no time — use .zero to check only what has already arrived.
                """,
            ], headlinesOnly: true
        ) {
            await expect(Just(1)).toEmit(count: 0, timeout: .seconds(1))
            await expect(Just(1)).toEmit(count: 1, timeout: .milliseconds(-1))
            await expect(Just(1)).toEmit(where: { _ in true }, timeout: .milliseconds(-1))
            await expect(Just(1)).toEventuallyEmit(1, timeout: .milliseconds(-1))
            await expect(Just(1)).toEventuallyEmit(where: { _ in true }, timeout: .milliseconds(-1))
        }
    }
}
