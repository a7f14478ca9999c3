// Every sample of Guides/LinuxAndCI.md, compiled and run as the guide shows it, and a check that the guide shows no
// other. Change one, change the other.
import Cadence
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import CadenceTesting
import Testing

/// Asks a service's health endpoint whether it is up, and gives up after ten seconds.
struct HealthCheck {
    /// Sends a request: `URLSession.shared.dataTaskPublisher(for:)` on Apple platforms, a wrapper of
    /// `URLSession.dataTask(with:completionHandler:)` on Linux, a fake in tests.
    var send: (URLRequest) -> AnyPublisher<(data: Data, response: URLResponse), URLError>
    var scheduler: AnySchedulerOf<DispatchQueue>

    func isUp(_ url: URL) -> AnyPublisher<Bool, URLError> {
        send(URLRequest(url: url))
            .map { ($0.response as? HTTPURLResponse)?.statusCode == 200 }
            .timeout(.seconds(10), scheduler: scheduler, customError: { URLError(.timedOut) })
            .eraseToAnyPublisher()
    }
}

/// A health endpoint for the samples.
private let statusURL = URL(string: "https://status.example.com/health")!

/// A fake transport that answers `statusCode` after `latency` on `scheduler`.
private func answering(
    _ statusCode: Int,
    after latency: DispatchQueue.SchedulerTimeType.Stride,
    on scheduler: AnySchedulerOf<DispatchQueue>
) -> (URLRequest) -> AnyPublisher<(data: Data, response: URLResponse), URLError> {
    { request in
        let response = HTTPURLResponse(url: request.url!, statusCode: statusCode, httpVersion: nil, headerFields: nil)!
        return Just((data: Data(), response: response as URLResponse))
            .setFailureType(to: URLError.self)
            .delay(for: latency, scheduler: scheduler)
            .eraseToAnyPublisher()
    }
}

@Suite("Guides/LinuxAndCI.md")
struct LinuxAndCIGuideTests {
    @Test(.virtualTime)
    func aServiceThatNeverAnswersIsDownAfterTenSeconds() {
        let health = HealthCheck(
            send: { _ in Empty(completeImmediately: false).eraseToAnyPublisher() },
            scheduler: DispatchQueue.test.eraseToAnyScheduler()
        )

        expect(health.isUp(statusURL))
            .toEmitNothing(for: .ticks(9999))
            .thenFail(with: URLError(.timedOut), within: .ticks(1))
    }

    @Test(.virtualTime)
    func aSlowButInTimeAnswerCounts() {
        let scheduler = DispatchQueue.test.eraseToAnyScheduler()
        let health = HealthCheck(send: answering(200, after: .milliseconds(9999), on: scheduler), scheduler: scheduler)

        expect(health.isUp(statusURL)).toEmit(true, within: .seconds(10)).thenFinish()
    }

    @Test func theSameCheckOnARealQueue() async {
        let queue = DispatchQueue(label: "health").eraseToAnyScheduler()
        let health = HealthCheck(send: answering(503, after: .milliseconds(5), on: queue), scheduler: queue)

        await expect(health.isUp(statusURL)).toEmit(false, timeout: .seconds(30)).thenFinish(timeout: .seconds(30))
    }
}

/// Every `swift` and `text` block of the guide appears in this file line for line (indented as a whole).
@Suite("Guides/LinuxAndCI.md samples")
struct LinuxAndCIGuideSamplesTests {
    @Test func theGuideShowsOnlyTheseExamples() throws {
        try expectDocumentedSamples(in: "Guides/LinuxAndCI.md", appearIn: [#filePath], atLeast: 5)
    }
}
