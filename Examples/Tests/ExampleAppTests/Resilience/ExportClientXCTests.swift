#if canImport(XCTest)
import CadenceTesting
import ExampleApp
import Foundation
import XCTest

/// Starting an export tested the XCTest way: value and failure expectations, waited for on virtual time.
final class ExportClientXCTests: XCTestCase {
    private let job = ExportJob(id: "exp_42")
    private var scheduler: TestSchedulerOf<DispatchQueue>!
    private var api: FakeExportAPI!
    private var client: ExportClient!

    override func setUp() {
        super.setUp()
        scheduler = DispatchQueue.test
        api = FakeExportAPI(scheduler: scheduler)
        client = ExportClient(api: api, scheduler: scheduler.eraseToAnyScheduler())
    }

    func testTheJobArrivesFromTheThirdAttempt() {
        api.startAnswers = [
            .failure(.offline, after: .milliseconds(100)), .failure(.timedOut, after: .zero),
            .success(job, after: .milliseconds(100)),
        ]
        let started = PublisherFinishedExpectation(client.startExport(of: "sales-2026-q3"), expectedValue: job)

        wait(for: [started], advancing: scheduler.clock, by: .milliseconds(3200))
        XCTAssertEqual(api.startTicks, [0, 1100, 3100])
    }

    func testTheSecondAttemptWaitsOneSecond() {
        api.startAnswers = [.failure(.offline, after: .milliseconds(100)), .success(job, after: .zero)]
        let started = PublisherValueExpectation(client.startExport(of: "sales-2026-q3"), expectedValue: job)
        started.isInverted = true

        wait(for: [started], advancing: scheduler.clock, by: .milliseconds(1099))
        XCTAssertEqual(api.startTicks, [0])
    }

    func testItGivesUpAfterThreeAttempts() {
        api.startAnswers = Array(repeating: .failure(.offline, after: .milliseconds(100)), count: 3)
        let gaveUp = PublisherFailureExpectation(client.startExport(of: "sales-2026-q3"), expectedError: .offline)

        wait(for: [gaveUp], advancing: scheduler.clock) // runs the clock until nothing is left to do
        XCTAssertEqual(api.startTicks, [0, 1100, 3200])
        XCTAssertEqual(scheduler.clock.now.ticks, 3300)
    }

    func testAnUnansweredAttemptTimesOutAndTheNextOneSucceeds() {
        withVirtualTime { _ in
            let scheduler = DispatchQueue.test
            let api = FakeExportAPI(scheduler: scheduler)
            api.startAnswers = [.never, .success(job, after: .milliseconds(100))]
            let client = ExportClient(api: api, scheduler: scheduler.eraseToAnyScheduler())

            expect(client.startExport(of: "sales-2026-q3"))
                .toEmitNothing(for: .milliseconds(11_099))
                .thenEmit(job, within: .ticks(1))
                .thenFinish(within: .ticks(0))
            XCTAssertEqual(api.startTicks, [0, 11_000])
        }
    }
}
#endif
