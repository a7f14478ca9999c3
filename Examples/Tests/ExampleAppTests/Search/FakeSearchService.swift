import CadenceTesting
import ExampleApp
import Foundation

/// A search backend whose answers take virtual time, and which remembers every request it was sent and every request
/// its caller cancelled before the answer came.
final class FakeSearchService: SearchService {
    private let scheduler: TestSchedulerOf<DispatchQueue>
    private typealias Answer = (latency: DispatchQueue.SchedulerTimeType.Stride, result: Result<[String], SearchError>)
    private var answers: [String: Answer] = [:]

    /// The queries searched for, in the order the requests started.
    private(set) var requests: [String] = []
    /// The queries whose request was cancelled before its answer arrived.
    private(set) var cancelled: [String] = []

    init(scheduler: TestSchedulerOf<DispatchQueue>) {
        self.scheduler = scheduler
    }

    /// Answers `query` with `titles`, `latency` after the request starts.
    func answer(_ query: String, with titles: [String], after latency: DispatchQueue.SchedulerTimeType.Stride) {
        answers[query] = (latency, .success(titles))
    }

    /// Fails the request for `query` with `error`, `latency` after it starts.
    func fail(_ query: String, with error: SearchError, after latency: DispatchQueue.SchedulerTimeType.Stride) {
        answers[query] = (latency, .failure(error))
    }

    func search(_ query: String) -> AnyPublisher<[String], SearchError> {
        let answer = answers[query] ?? (.milliseconds(100), .success([]))
        return Deferred { [self] in
            requests.append(query)
            return answer.result.publisher.delay(for: answer.latency, scheduler: scheduler)
        }
        .handleEvents(receiveCancel: { [self] in cancelled.append(query) })
        .eraseToAnyPublisher()
    }
}
