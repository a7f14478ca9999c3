import Cadence
import Foundation

/// Polls an export job's status on a timer until the job is finished.
///
/// ```swift
/// let poller = JobStatusPoller(api: api, scheduler: DispatchQueue.main.eraseToAnyScheduler())
/// poller.statuses(of: job)   // every 2 s: .queued, .running(percent: 40), …, then .done(…) and finished
/// ```
///
/// One request at a time: a timer tick that comes while a request is still running is skipped, not queued. A request
/// that takes longer than `requestTimeout` fails the polling with ``ExportError/timedOut``.
public struct JobStatusPoller {
    private let api: any ExportAPI
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let interval: DispatchQueue.SchedulerTimeType.Stride
    private let requestTimeout: DispatchQueue.SchedulerTimeType.Stride

    /// A poller that asks `api` every `interval` and gives each request `requestTimeout`, timed on `scheduler`.
    public init(
        api: any ExportAPI,
        scheduler: AnySchedulerOf<DispatchQueue>,
        interval: DispatchQueue.SchedulerTimeType.Stride = .seconds(2),
        requestTimeout: DispatchQueue.SchedulerTimeType.Stride = .seconds(5)
    ) {
        self.api = api
        self.scheduler = scheduler
        self.interval = interval
        self.requestTimeout = requestTimeout
    }

    /// The job's status after each poll — the first one `interval` after subscribing — ending with the first
    /// finished status; the polling stops then, or at the first failed request.
    public func statuses(of job: ExportJob) -> AnyPublisher<JobStatus, ExportError> {
        let api = api
        let scheduler = scheduler
        let requestTimeout = requestTimeout
        return scheduler.timerPublisher(every: interval)
            .autoconnect()
            .setFailureType(to: ExportError.self)
            .flatMap(maxPublishers: .max(1)) { _ in
                api.status(of: job)
                    .timeout(requestTimeout, scheduler: scheduler, customError: { .timedOut })
            }
            // `prefix(while:)` alone would drop the finished status: send it, then a nil that ends the stream.
            .flatMap { status in (status.isFinished ? [status, nil] : [status]).publisher }
            .prefix(while: { $0 != nil })
            .compactMap { $0 }
            .eraseToAnyPublisher()
    }
}
