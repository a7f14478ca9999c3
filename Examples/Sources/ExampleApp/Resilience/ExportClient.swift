import Cadence
import Foundation

/// Starts report exports over a flaky connection: each attempt gets `requestTimeout`, and a transient failure is
/// retried after 1 s, then after 2 s more — three attempts in all — before the error reaches the screen.
///
/// ```swift
/// let client = ExportClient(api: api, scheduler: DispatchQueue.main.eraseToAnyScheduler())
/// client.startExport(of: "sales-2026-q3")   // ExportJob(id: …), or the last attempt's error
/// ```
public struct ExportClient {
    private let api: any ExportAPI
    private let scheduler: AnySchedulerOf<DispatchQueue>
    private let requestTimeout: DispatchQueue.SchedulerTimeType.Stride
    private let retryDelays: [DispatchQueue.SchedulerTimeType.Stride]

    /// A client that sends `api` requests, timing their timeout and the waits between attempts on `scheduler`.
    public init(
        api: any ExportAPI,
        scheduler: AnySchedulerOf<DispatchQueue>,
        requestTimeout: DispatchQueue.SchedulerTimeType.Stride = .seconds(10),
        retryDelays: [DispatchQueue.SchedulerTimeType.Stride] = [.seconds(1), .seconds(2)]
    ) {
        self.api = api
        self.scheduler = scheduler
        self.requestTimeout = requestTimeout
        self.retryDelays = retryDelays
    }

    /// Starts exporting `report`: the job, or the error of the last attempt.
    public func startExport(of report: String) -> AnyPublisher<ExportJob, ExportError> {
        api.startExport(of: report)
            .timeout(requestTimeout, scheduler: scheduler, customError: { .timedOut })
            .retry(after: retryDelays, scheduler: scheduler, if: \.isTransient)
    }
}
