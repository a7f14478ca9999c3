import CadenceTesting
import ExampleApp
import Foundation

/// An export backend that answers from a script, each answer taking virtual time, and remembers the tick each
/// request started at.
final class FakeExportAPI: ExportAPI {
    /// One scripted answer: `result` after `latency`, or no answer at all when `result` is nil.
    struct Answer<Value> {
        var latency: DispatchQueue.SchedulerTimeType.Stride
        var result: Result<Value, ExportError>?

        static func success(_ value: Value, after latency: DispatchQueue.SchedulerTimeType.Stride) -> Self {
            Self(latency: latency, result: .success(value))
        }

        static func failure(_ error: ExportError, after latency: DispatchQueue.SchedulerTimeType.Stride) -> Self {
            Self(latency: latency, result: .failure(error))
        }

        /// A request the server never answers.
        static var never: Self { Self(latency: .zero, result: nil) }
    }

    private let scheduler: TestSchedulerOf<DispatchQueue>
    /// The answers to the start requests, one per request, in order.
    var startAnswers: [Answer<ExportJob>] = []
    /// The answers to the status requests, one per request, in order.
    var statusAnswers: [Answer<JobStatus>] = []
    /// The tick at which each start request was sent.
    private(set) var startTicks: [Int64] = []
    /// The tick at which each status request was sent.
    private(set) var statusTicks: [Int64] = []

    init(scheduler: TestSchedulerOf<DispatchQueue>) {
        self.scheduler = scheduler
    }

    func startExport(of report: String) -> AnyPublisher<ExportJob, ExportError> {
        Deferred { [self] in
            startTicks.append(scheduler.clock.now.ticks)
            return respond(with: startAnswers.isEmpty ? .never : startAnswers.removeFirst())
        }
        .eraseToAnyPublisher()
    }

    func status(of job: ExportJob) -> AnyPublisher<JobStatus, ExportError> {
        Deferred { [self] in
            statusTicks.append(scheduler.clock.now.ticks)
            return respond(with: statusAnswers.isEmpty ? .never : statusAnswers.removeFirst())
        }
        .eraseToAnyPublisher()
    }

    private func respond<Value>(with answer: Answer<Value>) -> AnyPublisher<Value, ExportError> {
        guard let result = answer.result else { return Empty(completeImmediately: false).eraseToAnyPublisher() }
        return result.publisher.delay(for: answer.latency, scheduler: scheduler).eraseToAnyPublisher()
    }
}
