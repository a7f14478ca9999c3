#if canImport(XCTest)
import CadenceTesting
import ExampleApp
import Foundation
import XCTest

/// The status polling tested the XCTest way: finished and failure expectations, waited for on virtual time.
final class JobStatusPollerXCTests: XCTestCase {
    private let job = ExportJob(id: "exp_42")
    private let file = JobStatus.done(downloadPath: "/exports/exp_42.csv")
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var api: FakeExportAPI!
    private var poller: JobStatusPoller!

    override func setUp() {
        super.setUp()
        scheduler = DispatchQueue.test
        api = FakeExportAPI(scheduler: scheduler)
        poller = JobStatusPoller(api: api, scheduler: scheduler.eraseToAnyScheduler())
    }

    func testThePollingFinishesWithTheDownloadOnceTheJobIsDone() {
        api.statusAnswers = [.success(.queued, after: .milliseconds(100)), .success(file, after: .milliseconds(100))]
        let finished = PublisherFinishedExpectation(poller.statuses(of: job), expectedValue: file)

        wait(for: [finished], advancing: scheduler.clock, by: .milliseconds(4100))
        XCTAssertEqual(finished.values, [.queued, file])
        XCTAssertEqual(api.statusTicks, [2000, 4000])
    }

    func testNoPollIsSentBeforeTheFirstInterval() {
        api.statusAnswers = [.success(.queued, after: .zero)]
        let firstStatus = PublisherValueExpectation(poller.statuses(of: job), expectedValue: .queued)
        firstStatus.isInverted = true

        wait(for: [firstStatus], advancing: scheduler.clock, by: .milliseconds(1999))
        XCTAssertEqual(api.statusTicks, [])
    }

    func testAStatusRequestWithNoAnswerFailsWithTimedOutFiveSecondsAfterItWasSent() {
        api.statusAnswers = [.never]
        let timedOut = PublisherFailureExpectation(poller.statuses(of: job), expectedError: .timedOut)

        wait(for: [timedOut], advancing: scheduler.clock, by: .milliseconds(7000))
        XCTAssertEqual(api.statusTicks, [2000])
    }

    func testTheTimeoutHasNotFiredAMillisecondEarlier() {
        api.statusAnswers = [.never]
        let timedOut = PublisherFailureExpectation(poller.statuses(of: job), expectedError: .timedOut)
        timedOut.isInverted = true

        wait(for: [timedOut], advancing: scheduler.clock, by: .milliseconds(6999))
    }

    func testAServerErrorEndsThePolling() {
        withVirtualTime { clock in
            let api = FakeExportAPI(scheduler: DispatchQueue.test)
            api.statusAnswers = [
                .success(.running(percent: 5), after: .milliseconds(10)),
                .failure(.server(status: 502), after: .milliseconds(10)),
            ]
            let poller = JobStatusPoller(api: api, scheduler: DispatchQueue.test.eraseToAnyScheduler())

            expect(poller.statuses(of: job))
                .toEmit(.running(percent: 5), within: .milliseconds(2010))
                .thenFail(with: ExportError.server(status: 502), within: .seconds(2))
            clock.advance(by: .seconds(60))
            XCTAssertEqual(api.statusTicks, [2000, 4000])
        }
    }
}
#endif
