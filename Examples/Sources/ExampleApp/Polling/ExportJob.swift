/// A report export the server runs in the background, identified by the id it answered the start request with.
public struct ExportJob: Hashable, Sendable {
    /// The server's id for the job.
    public let id: String

    /// The job with the server's `id`.
    public init(id: String) {
        self.id = id
    }
}
