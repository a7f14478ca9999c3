import CadenceTesting
import ExampleApp
import Foundation
import Testing

/// What a developer reads when the poll interval regresses: the exact failure text of the test that guards it.
@Suite(.virtualTime)
struct PollingFailureMessageTests {
    @Test func anIntervalCutToOneSecondFailsAtTheQuietWindowWithTheTimeline() {
        let scheduler = DispatchQueue.test
        let api = FakeExportAPI(scheduler: scheduler)
        api.statusAnswers = [.success(.queued, after: .milliseconds(100))]
        let poller = JobStatusPoller(api: api, scheduler: scheduler.eraseToAnyScheduler(), interval: .seconds(1))

        let failures = recordingFailures {
            expect(poller.statuses(of: ExportJob(id: "exp_42")), on: scheduler)
                .toEmitNothing(for: .milliseconds(2099))
                .thenEmit(.queued, within: .ticks(1))
        }

        #expect(
            failures.map(\.message) == [
                """
                toEmitNothing(for: .ticks(2099)) failed: expected nothing through tick 2099, received JobStatus.queued at tick 1100, 1000 ticks early.

                    expect(AnyPublisher<JobStatus, ExportError>)
                  ✗   .toEmitNothing(for: .ticks(2099))
                      .thenEmit(JobStatus.queued, within: .ticks(1))  (not checked)

                     tick  received          expected
                        0  subscription
                  →  1100  JobStatus.queued  nothing through tick 2099  toEmitNothing(for: .ticks(2099))
                """
            ])
    }
}
