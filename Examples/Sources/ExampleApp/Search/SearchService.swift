import Cadence

/// The backend the search screen asks for matches: one request per query, answered once.
///
/// Production code talks HTTP; tests hand the view model a fake whose answers take virtual time.
public protocol SearchService {
    /// The titles matching `query`, or why there are none.
    func search(_ query: String) -> AnyPublisher<[String], SearchError>
}

/// Why a search request failed.
public enum SearchError: Error, Equatable, Sendable {
    /// The device has no connection.
    case offline
    /// The server answered with an error status code.
    case server(status: Int)
}
