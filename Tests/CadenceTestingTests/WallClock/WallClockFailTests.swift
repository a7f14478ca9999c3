import CadenceTesting
import Dispatch
import Testing

/// The wall-clock forms of `toFail` and `thenFail` — any, `with:` and `where:`
/// (`Steps/PublisherExpectation+Fail.swift`).
@Suite(.hangGuard)
struct WallClockFailTests {
    @Test func failuresFromAnotherThread() async {
        await expectWallClockFailures([]) {
            let delayed = Fail<Int, WallClockError>(error: .offline)
                .delay(for: .milliseconds(10), scheduler: DispatchQueue.global())
            await expect(delayed).toFail(timeout: .seconds(600))
            await expect(delayed).toFail(with: WallClockError.offline, timeout: .seconds(600))
            await expect(delayed).toFail(where: { $0 == .offline }, timeout: .seconds(600))
        }
    }

    @Test func thenFailTwins() async {
        await expectWallClockFailures([]) {
            let publisher = Just(1).setFailureType(to: WallClockError.self)
                .append(Fail(error: .offline))
            await expect(publisher).toEmit(1, timeout: .seconds(600)).thenFail(timeout: .seconds(600))
            await expect(publisher).toEmit(1, timeout: .seconds(600))
                .thenFail(with: WallClockError.offline, timeout: .seconds(600))
            await expect(publisher).toEmit(1, timeout: .seconds(600))
                .thenFail(where: { $0 == .offline }, timeout: .seconds(600))
        }
    }

    @Test func aFinishInsteadFailsAtOnce() async {
        let subject = PassthroughSubject<Int, WallClockError>()
        await expectWallClockFailures([
            """
            toFail(with: WallClockError.offline, timeout: .seconds(600)) failed: expected \
            failure(WallClockError.offline), received finished at +… ms.

                expect(PassthroughSubject<Int, WallClockError>)
              ✗   .toFail(with: WallClockError.offline, timeout: .seconds(600))

                 time  received      expected
                 +… ms  subscription
              →  +… ms  finished      failure(WallClockError.offline)  toFail(with: WallClockError.offline, timeout: .seconds(600))
            """
        ]) {
            let expectation = expect(subject)
            send([], completion: .finished, to: subject)
            await expectation.toFail(with: WallClockError.offline, timeout: .seconds(600))
        }
    }

    @Test func anAsyncSequencesThrownError() async {
        await expectWallClockFailures([]) {
            await expect(
                AsyncThrowingStream<Int, any Error> { continuation in
                    continuation.finish(throwing: WallClockError.offline)
                }
            ).toFail(with: WallClockError.offline, timeout: .seconds(600))
        }
    }

    @Test func timesOut() async {
        await expectWallClockFailures([
            """
            toFail(where: { … }, timeout: .milliseconds(50)) failed: a failure matching the predicate did not arrive \
            within the 50 ms timeout.

                expect(PassthroughSubject<Int, WallClockError>)
              ✗   .toFail(where: { … }, timeout: .milliseconds(50))

                 time  received      expected
                 +… ms  subscription
              →  +… ms  (nothing)     failure(where: …)  toFail(where: { … }, timeout: .milliseconds(50))
            """
        ]) {
            await expect(PassthroughSubject<Int, WallClockError>())
                .toFail(where: { _ in true }, timeout: .milliseconds(50))
        }
    }

    @Test func aNegativeTimeout() async {
        await expectWallClockFailures(
            [
                """
                toFail(timeout: .seconds(-1)) failed: its timeout is negative (-1 s); a step cannot wait less than no time \
                — use .zero to check only what has already arrived.
                """
            ], headlinesOnly: true
        ) {
            await expect(Empty<Int, WallClockError>()).toFail(timeout: .seconds(-1))
        }
    }
}
