#if canImport(XCTest)
import CadenceTesting
import ExampleApp
import Foundation
import XCTest

/// What an XCTest user reads when the client stops giving up: the shim's exact failure text.
final class ExportClientFailureMessageXCTests: XCTestCase {
    func testAClientThatRetriesOnceMoreThanPlannedFailsTheGiveUpExpectationNamingTheJob() {
        let scheduler = DispatchQueue.test
        let api = FakeExportAPI(scheduler: scheduler)
        api.startAnswers =
            Array(repeating: .failure(.offline, after: .milliseconds(100)), count: 3)
            + [.success(ExportJob(id: "exp_42"), after: .milliseconds(100))]
        let client = ExportClient(
            api: api, scheduler: scheduler.eraseToAnyScheduler(),
            retryDelays: [.seconds(1), .seconds(2), .seconds(4)]
        )

        let failures = recordingFailures {
            let gaveUp = PublisherFailureExpectation(client.startExport(of: "sales-2026-q3"), expectedError: .offline)
            wait(for: [gaveUp], advancing: scheduler.clock)
        }

        XCTAssertEqual(
            failures.map(\.message),
            [
                "PublisherFailureExpectation(expectedError: ExportError.offline) failed: the publisher finished after "
                    + "sending [ExportJob(id: \"exp_42\")] instead of failing."
            ])
    }
}
#endif
