import CadenceTesting
import ExampleApp
import Foundation
import Testing

/// What a developer reads when the retry schedule regresses: the exact failure text of the tests that guard it.
@Suite(.virtualTime)
struct ResilienceFailureMessageTests {
    let scheduler = DispatchQueue.test
    let api: FakeExportAPI

    init() {
        api = FakeExportAPI(scheduler: scheduler)
        api.startAnswers = Array(repeating: .failure(.offline, after: .milliseconds(100)), count: 3)
    }

    @Test func aBackoffThatNoLongerDoublesFailsWithTheTickTheLastErrorCameAt() {
        let client = ExportClient(
            api: api, scheduler: scheduler.eraseToAnyScheduler(), retryDelays: [.seconds(1), .seconds(1)]
        )

        let failures = recordingFailures {
            expect(client.startExport(of: "sales-2026-q3"), on: scheduler)
                .toEmitNothing(for: .milliseconds(3299))
                .thenFail(with: ExportError.offline, within: .ticks(1))
        }

        #expect(
            failures.map(\.message) == [
                """
                toEmitNothing(for: .ticks(3299)) failed: expected nothing through tick 3299, received failure(ExportError.offline) at tick 2300, 1000 ticks early.

                    expect(AnyPublisher<ExportJob, ExportError>)
                  ✗   .toEmitNothing(for: .ticks(3299))
                      .thenFail(with: ExportError.offline, within: .ticks(1))  (not checked)

                     tick  received                      expected
                        0  subscription
                  →  2300  failure(ExportError.offline)  nothing through tick 3299  toEmitNothing(for: .ticks(3299))
                """
            ])
    }
}
