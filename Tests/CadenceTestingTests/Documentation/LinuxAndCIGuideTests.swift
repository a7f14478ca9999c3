// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
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
    /// Sends a request: `URLSession.shared.dataTaskPublisher(for:)` in production, a fake in tests.
    var send: (URLRequest) -> AnyPublisher<(data: Data, response: URLResponse), URLError>
    var scheduler: AnySchedulerOf<DispatchQueue>

    func isUp(_ url: URL) -> AnyPublisher<Bool, URLError> {
        send(URLRequest(url: url))
            .map { ($0.response as? HTTPURLResponse)?.statusCode == 200 }
            .timeout(.seconds(10), scheduler: scheduler, customError: { URLError(.timedOut) })
            .eraseToAnyPublisher()
    }
}

extension HealthCheck {
    /// The check in production: `URLSession`'s data task publisher, on a global queue.
    static func live(session: URLSession = .shared) -> HealthCheck {
        HealthCheck(
            send: { session.dataTaskPublisher(for: $0).eraseToAnyPublisher() },
            scheduler: DispatchQueue.global().eraseToAnyScheduler()
        )
    }
}

enum Logging {
    /// Keeps what it receives. Inside `Logging` its name hides Combine's `Subscriber`, so Combine's protocols are
    /// named by their module.
    final class Subscriber<Input>: Combine.Subscriber {
        typealias Failure = Never
        private(set) var received: [Input] = []

        func receive(subscription: any Combine.Subscription) { subscription.request(.unlimited) }
        func receive(_ input: Input) -> Combine.Subscribers.Demand {
            received.append(input)
            return .none
        }
        func receive(completion: Combine.Subscribers.Completion<Never>) {}
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
    @Test func combinesNamesQualifiedByTheModule() {
        let logging = Logging.Subscriber<Int>()
        [1, 2, 3].publisher.subscribe(logging)
        #expect(logging.received == [1, 2, 3])
    }

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

/// Answers every request of a session configured with it with the status in its URL's `status` query item, from
/// memory: the live health check's transport, without a network.
private final class StatusURLProtocol: URLProtocol {
    override class func canInit(with request: URLRequest) -> Bool { true }

    override class func canonicalRequest(for request: URLRequest) -> URLRequest { request }

    override func startLoading() {
        guard let url = request.url,
              let status = URLComponents(url: url, resolvingAgainstBaseURL: false)?.queryItems?
                  .first(where: { $0.name == "status" })?.value.flatMap(Int.init),
              let response = HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)
        else {
            client?.urlProtocol(self, didFailWithError: URLError(.badURL))
            return
        }
        client?.urlProtocol(self, didReceive: response, cacheStoragePolicy: .notAllowed)
        client?.urlProtocol(self, didLoad: Data())
        client?.urlProtocolDidFinishLoading(self)
    }

    override func stopLoading() {}
}

@Suite("Guides/LinuxAndCI.md, live")
struct LinuxAndCIGuideLiveTests {
    private let session: URLSession = {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.protocolClasses = [StatusURLProtocol.self]
        return URLSession(configuration: configuration)
    }()

    @Test func theLiveCheckSendsWithURLSession() async {
        let health = HealthCheck.live(session: session)

        await expect(health.isUp(URL(string: "https://status.example.com/health?status=200")!))
            .toEmit(true, timeout: .seconds(30))
            .thenFinish(timeout: .seconds(30))
        await expect(health.isUp(URL(string: "https://status.example.com/health?status=503")!))
            .toEmit(false, timeout: .seconds(30))
            .thenFinish(timeout: .seconds(30))
    }
}

/// Every `swift` and `text` block of the guide appears in this file line for line (indented as a whole).
@Suite("Guides/LinuxAndCI.md samples")
struct LinuxAndCIGuideSamplesTests {
    @Test func theGuideShowsOnlyTheseExamples() throws {
        try expectDocumentedSamples(in: "Guides/LinuxAndCI.md", appearIn: [#filePath], atLeast: 6)
    }
}
