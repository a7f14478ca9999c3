import CadenceTesting
import ExampleApp
import Foundation
import Testing

/// The export screen's status polling on virtual time: every poll's tick, the skipped tick, the timeout.
@Suite(.virtualTime)
struct JobStatusPollerTests {
    let scheduler = DispatchQueue.test
    let api: FakeExportAPI
    let job = ExportJob(id: "exp_42")
    let file = JobStatus.done(downloadPath: "/exports/exp_42.csv")

    init() {
        api = FakeExportAPI(scheduler: scheduler)
    }

    func makePoller() -> JobStatusPoller {
        JobStatusPoller(api: api, scheduler: scheduler.eraseToAnyScheduler())
    }

    @Test func pollsEveryTwoSecondsUntilTheJobIsDone() {
        api.statusAnswers = [
            .success(.queued, after: .milliseconds(100)),
            .success(.running(percent: 40), after: .milliseconds(100)),
            .success(file, after: .milliseconds(100)),
        ]

        expect(makePoller().statuses(of: job), on: scheduler)
            .toEmitNothing(for: .milliseconds(2099))
            .thenEmit(.queued, within: .ticks(1))
            .thenEmit(.running(percent: 40), within: .seconds(2))
            .thenEmit(file, within: .seconds(2))
            .thenFinish(within: .ticks(0))
        #expect(api.statusTicks == [2000, 4000, 6000])
    }

    @Test func theTimerStopsOnceTheJobIsFinished() {
        api.statusAnswers = [.success(.failed(reason: "report too large"), after: .milliseconds(100))]

        expect(makePoller().statuses(of: job), on: scheduler)
            .toEmit(.failed(reason: "report too large"), within: .milliseconds(2100))
            .thenFinish(within: .ticks(0))
        scheduler.advance(by: .seconds(60))

        #expect(api.statusTicks == [2000])
        #expect(scheduler.clock.pendingCount == 0)
    }

    @Test func aTickThatComesWhileARequestIsRunningIsSkipped() {
        api.statusAnswers = [
            .success(.running(percent: 10), after: .seconds(3)), // 2000 → 5000: the tick at 4000 finds it busy
            .success(file, after: .milliseconds(100)),
        ]

        expect(makePoller().statuses(of: job), on: scheduler)
            .toEmit([.running(percent: 10), file])
            .thenFinish(within: .ticks(0))
        #expect(api.statusTicks == [2000, 6000])
    }

    @Test func aStatusRequestWithNoAnswerFor5SecondsFailsThePollingWithTimedOut() {
        api.statusAnswers = [.success(.queued, after: .milliseconds(100)), .never]

        expect(makePoller().statuses(of: job), on: scheduler)
            .toEmit(.queued, within: .milliseconds(2100))
            .thenEmitNothing(for: .milliseconds(6899)) // the second request, sent at 4000, times out at 9000
            .thenFail(with: ExportError.timedOut, within: .ticks(1))
        #expect(api.statusTicks == [2000, 4000])
    }

    @Test func aFailedStatusRequestEndsThePollingWithItsError() {
        api.statusAnswers = [.failure(.server(status: 500), after: .milliseconds(50))]

        expect(makePoller().statuses(of: job), on: scheduler)
            .toFail(with: ExportError.server(status: 500), within: .milliseconds(2050))
        scheduler.advance(by: .seconds(60))
        #expect(api.statusTicks == [2000])
    }

    @Test func withA3MillisecondIntervalThePollsReadAsAMarbleDiagram() {
        // One character per tick (1 ms): a local endpoint polled every 3 ms, answering at once.
        api.statusAnswers = [
            .success(.queued, after: .zero), .success(.running(percent: 50), after: .zero),
            .success(file, after: .zero),
        ]
        let poller = JobStatusPoller(api: api, scheduler: scheduler.eraseToAnyScheduler(), interval: .milliseconds(3))

        expect(poller.statuses(of: job), on: scheduler)
            .toMatch("---q--r--(d|)", values: ["q": .queued, "r": .running(percent: 50), "d": file])
    }
}
