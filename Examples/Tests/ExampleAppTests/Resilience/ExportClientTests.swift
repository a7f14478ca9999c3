import CadenceTesting
import ExampleApp
import Foundation
import Testing

/// Starting an export over a flaky connection, on virtual time: each attempt's tick, the timeout, giving up.
@Suite(.virtualTime)
struct ExportClientTests {
    let scheduler = DispatchQueue.test
    let api: FakeExportAPI
    let job = ExportJob(id: "exp_42")

    init() {
        api = FakeExportAPI(scheduler: scheduler)
    }

    func makeClient() -> ExportClient {
        ExportClient(api: api, scheduler: scheduler.eraseToAnyScheduler())
    }

    @Test func aTransientFailureIsRetriedAfterOneSecondThenAfterTwoSeconds() {
        api.startAnswers = [
            .failure(.offline, after: .milliseconds(100)), // attempt 1: 0 → 100
            .failure(.server(status: 503), after: .milliseconds(100)), // attempt 2: 1100 → 1200
            .success(job, after: .milliseconds(100)), // attempt 3: 3200 → 3300
        ]

        expect(makeClient().startExport(of: "sales-2026-q3"), on: scheduler)
            .toEmitNothing(for: .milliseconds(3299))
            .thenEmit(job, within: .ticks(1))
            .thenFinish(within: .ticks(0))
        #expect(api.startTicks == [0, 1100, 3200])
    }

    @Test func givesUpAfterThreeAttemptsWithTheLastError() {
        api.startAnswers = [
            .failure(.offline, after: .milliseconds(100)),
            .failure(.offline, after: .milliseconds(100)),
            .failure(.server(status: 502), after: .milliseconds(100)),
        ]

        expect(makeClient().startExport(of: "sales-2026-q3"), on: scheduler)
            .toEmitNothing(for: .milliseconds(3299))
            .thenFail(with: ExportError.server(status: 502), within: .ticks(1))
        scheduler.advance(by: .seconds(60))
        #expect(api.startTicks == [0, 1100, 3200])
    }

    @Test func aRequestTheServerRejectedIsNotRetried() {
        api.startAnswers = [.failure(.server(status: 422), after: .milliseconds(100))]

        expect(makeClient().startExport(of: "sales-2026-q3"), on: scheduler)
            .toFail(with: ExportError.server(status: 422), within: .milliseconds(100))
        scheduler.advance(by: .seconds(60))
        #expect(api.startTicks == [0])
    }

    @Test func anAttemptWithNoAnswerTimesOutAfterTenSecondsAndIsRetried() {
        api.startAnswers = [.never, .success(job, after: .milliseconds(100))]

        expect(makeClient().startExport(of: "sales-2026-q3"), on: scheduler)
            .toEmit(job, within: .milliseconds(11_100)) // timed out at 10000, retried at 11000
            .thenFinish(within: .ticks(0))
        #expect(api.startTicks == [0, 11_000])
    }

    @Test func threeAttemptsWithNoAnswerFailWithTimedOut() {
        api.startAnswers = [.never, .never, .never]

        expect(makeClient().startExport(of: "sales-2026-q3"), on: scheduler)
            .toEmitNothing(for: .milliseconds(32_999)) // 10 s + 1 s + 10 s + 2 s + 10 s
            .thenFail(with: ExportError.timedOut, within: .ticks(1))
        #expect(api.startTicks == [0, 11_000, 23_000])
    }
}
