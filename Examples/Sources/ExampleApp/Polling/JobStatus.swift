/// Where an export job is, as the status endpoint reports it.
public enum JobStatus: Equatable, Sendable {
    /// Waiting for a worker.
    case queued
    /// A worker is on it.
    case running(percent: Int)
    /// The file is ready at `downloadPath`.
    case done(downloadPath: String)
    /// The server gave up on the job.
    case failed(reason: String)

    /// Whether the job will not change any more: polling can stop.
    public var isFinished: Bool {
        switch self {
        case .queued, .running: false
        case .done, .failed: true
        }
    }
}
