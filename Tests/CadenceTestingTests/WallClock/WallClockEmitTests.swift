import CadenceTesting
import Dispatch
import Testing

/// The wall-clock forms of `toEmit` and `thenEmit` (`Steps/PublisherExpectation+Emit.swift`).
@Suite(.hangGuard)
struct WallClockEmitTests {
    @Test func emitsValuesFromADispatchQueue() async {
        await expectWallClockFailures([]) {
            let delayed = [1, 2, 3].publisher.delay(for: .milliseconds(10), scheduler: DispatchQueue.global())
            await expect(delayed).toEmit(1, timeout: .seconds(600)).thenEmit([2, 3], timeout: .seconds(600))
                .thenFinish(timeout: .seconds(600))
        }
    }

    @Test func thenEmitOneValue() async {
        let subject = PassthroughSubject<String, Never>()
        await expectWallClockFailures([]) {
            let expectation = expect(subject)
            send(["a", "b", "c"], to: subject)
            await expectation.toEmit(["a"], timeout: .seconds(600)).thenEmit("b", timeout: .seconds(600))
                .thenEmit(["c"], timeout: .seconds(600))
        }
    }

    @Test func aWrongValue() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            thenEmit([2, 3], timeout: .seconds(600)) failed: value 1 of 2 differs: expected 2, received 5 at +… ms.

                expect(PassthroughSubject<Int, Never>)
              ✓   .toEmit(1, timeout: .seconds(600))
              ✗   .thenEmit([2, 3], timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             1         toEmit(1, timeout: .seconds(600))
              →  +… ms  5             2         thenEmit([2, 3], timeout: .seconds(600))
            """
        ]) {
            let expectation = expect(subject)
            send([1, 5], to: subject)
            await expectation.toEmit(1, timeout: .seconds(600)).thenEmit([2, 3], timeout: .seconds(600))
        }
    }

    @Test func anEarlyCompletionAfterSomeValues() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            toEmit([1, 2, 3], timeout: .seconds(600)) failed: expected value 3 of 3 (3), received finished at +… ms.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit([1, 2, 3], timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             1         toEmit([1, 2, 3], timeout: .seconds(600))
                 +… ms  2             2         toEmit([1, 2, 3], timeout: .seconds(600))
              →  +… ms  finished      3         toEmit([1, 2, 3], timeout: .seconds(600))
            """
        ]) {
            let expectation = expect(subject)
            send([1, 2], completion: .finished, to: subject)
            await expectation.toEmit([1, 2, 3], timeout: .seconds(600))
        }
    }

    @Test func aValueThatArrivesTooLate() async {
        let subject = PassthroughSubject<Int, Never>()
        await expectWallClockFailures([
            """
            toEmit(1, timeout: .milliseconds(50)) failed: the value (1) did not arrive within the 50 ms timeout.

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit(1, timeout: .milliseconds(50))

                 time  received      expected
                 +… ms  subscription
              →  +… ms  (nothing)     1         toEmit(1, timeout: .milliseconds(50))
            """
        ]) {
            await expect(subject).toEmit(1, timeout: .milliseconds(50))
        }
        // Sent after the step gave up: the chain had ended, so no one is subscribed any more to complain.
        subject.send(1)
    }

    @Test func extraValuesAreAnOverFulfilment() async {
        await expectWallClockFailures([
            """
            expect(Publishers.Sequence<Array<Int>, Never>) received 2 events no step expected: 2, finished.

                expect(Publishers.Sequence<Array<Int>, Never>)
              ✓   .toEmit(1, timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             1          toEmit(1, timeout: .seconds(600))
              →  +… ms  2             (no step)
                 +… ms  finished      (no step)
            """
        ]) {
            await expect([1, 2].publisher).toEmit(1, timeout: .seconds(600))
        }
    }

    @Test func timeoutsPrintInTheirUnit() async {
        await expectWallClockFailures(
            [
                "toEmit(1, timeout: .milliseconds(1500)) failed: the value differs: expected 1, received 2 at +… ms.",
                "toEmit([1], timeout: .microseconds(250)) failed: value 1 of 1 differs: expected 1, received 2 at +… ms.",
                "toEmit(1, timeout: .nanoseconds(7)) failed: the value differs: expected 1, received 2 at +… ms.",
            ], headlinesOnly: true
        ) {
            await expect(Just(2)).toEmit(1, timeout: .milliseconds(1500))
            await expect(Just(2)).toEmit([1], timeout: .microseconds(250))
            await expect(Just(2)).toEmit(1, timeout: .nanoseconds(7))
        }
    }

    @Test func badInput() async {
        await expectWallClockFailures([
            """
            toEmit(1, timeout: .milliseconds(-5)) failed: its timeout is negative (-5 ms); a step cannot wait less \
            than no time — use .zero to check only what has already arrived.

                expect(Just<Int>)
              ✗   .toEmit(1, timeout: .milliseconds(-5))

                 received      expected
                 subscription
                 1
                 finished
              →  (nothing)     (a valid step)  toEmit(1, timeout: .milliseconds(-5))
            """,
            """
            thenEmit([], timeout: .seconds(1)) failed: an empty list of values expects nothing, so it cannot fail; to \
            check that nothing arrives, use toEmitNothing(for:), or toFinish(timeout:) for a publisher that completes \
            without values.

                expect(Just<Int>)
              ✓   .toEmit(1, timeout: .seconds(1))
              ✗   .thenEmit([], timeout: .seconds(1))

                 time  received      expected
                 +… ms  subscription
                 +… ms  1             1               toEmit(1, timeout: .seconds(1))
                 +… ms  finished
              →  +… ms  (nothing)     (a valid step)  thenEmit([], timeout: .seconds(1))
            """,
        ]) {
            await expect(Just(1)).toEmit(1, timeout: .milliseconds(-5))
            await expect(Just(1)).toEmit(1, timeout: .seconds(1)).thenEmit([], timeout: .seconds(1))
        }
    }

    @Test func theSynchronousFormStaysSynchronous() async {
        // No `await`: without `timeout:` the step is the virtual-time one, even in an async test.
        await expectWallClockFailures([]) {
            expect(Just(1)).toEmit(1).thenFinish()
        }
    }
}
