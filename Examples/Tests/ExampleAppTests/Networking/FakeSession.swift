import Cadence
import ExampleApp
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A data-task publisher that answers every request from memory, after a latency on a scheduler, and keeps the
/// requests it was sent.
final class FakeSession: @unchecked Sendable {
    // `lock` guards `sent`; the lets never change.

    /// What the fake server answers.
    enum Answer {
        /// An HTTP response with this status and body.
        case status(Int, body: String)
        /// A transport error, as `URLSession` reports one.
        case error(URLError.Code)
    }

    private let answer: Answer
    private let latency: DispatchQueue.SchedulerTimeType.Stride
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let lock = NSLock()
    private var sent: [URLRequest] = []

    /// A session answering `answer` to every request, `latency` after it is sent, on `scheduler`.
    init(
        answering answer: Answer,
        after latency: DispatchQueue.SchedulerTimeType.Stride = .milliseconds(120),
        on scheduler: AnySchedulerOf<DispatchQueue>
    ) {
        self.answer = answer
        self.latency = latency
        self.scheduler = scheduler
    }

    /// Every request sent so far: one per subscription.
    var requests: [URLRequest] { lock.withLock { sent } }

    /// The session as an `APIClient.DataTask`: like `dataTaskPublisher(for:)`, it sends the request when the
    /// publisher is subscribed to, not when it is made.
    var dataTask: APIClient.DataTask {
        { [self] request in
            Deferred { self.respond(to: request) }.eraseToAnyPublisher()
        }
    }

    private func respond(to request: URLRequest) -> AnyPublisher<(data: Data, response: URLResponse), URLError> {
        lock.withLock { sent.append(request) }
        let answered: AnyPublisher<(data: Data, response: URLResponse), URLError>
        switch answer {
        case let .status(status, body):
            let url = request.url ?? URL(fileURLWithPath: "/")
            let response: URLResponse =
                HTTPURLResponse(url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)
                ?? URLResponse(url: url, mimeType: nil, expectedContentLength: 0, textEncodingName: nil)
            answered = Just((data: Data(body.utf8), response: response))
                .setFailureType(to: URLError.self)
                .eraseToAnyPublisher()
        case let .error(code):
            answered = Fail(error: URLError(code)).eraseToAnyPublisher()
        }
        return answered.delay(for: latency, scheduler: scheduler).eraseToAnyPublisher()
    }
}

extension Profile {
    /// The profile the fake server knows.
    static let blob = Profile(id: 42, name: "Blob", email: "blob@example.com")

    /// ``blob`` as the server sends it.
    static let blobJSON = #"{"id": 42, "name": "Blob", "email": "blob@example.com"}"#
}
