import Cadence

/// The export endpoints: start a job, then ask for its status.
///
/// Production code talks HTTP; tests hand the poller and the client a fake whose answers take virtual time.
public protocol ExportAPI {
    /// `POST /exports`: starts exporting `report`, answering with the job.
    func startExport(of report: String) -> AnyPublisher<ExportJob, ExportError>
    /// `GET /exports/{id}`: where `job` is now.
    func status(of job: ExportJob) -> AnyPublisher<JobStatus, ExportError>
}

/// Why an export request failed.
public enum ExportError: Error, Equatable, Sendable {
    /// The device has no connection.
    case offline
    /// The server answered with an error status code.
    case server(status: Int)
    /// No answer came in time.
    case timedOut

    /// Whether trying again later may succeed: no connection, no answer in time, or a server error (5xx); a request
    /// the server rejected (4xx) fails the same way every time.
    public var isTransient: Bool {
        switch self {
        case .offline, .timedOut: true
        case let .server(status): status >= 500
        }
    }
}
