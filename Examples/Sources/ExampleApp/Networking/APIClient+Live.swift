import Cadence
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension APIClient {
    /// A client that sends its requests with `session` (`URLSession.shared` unless told otherwise), through
    /// `dataTaskPublisher(for:)`: Foundation's on Apple platforms, Cadence's on Linux, so the same code runs on both.
    public static func live(baseURL: String, session: URLSession = .shared) -> APIClient {
        APIClient(baseURL: baseURL) { request in
            session.dataTaskPublisher(for: request).eraseToAnyPublisher()
        }
    }
}
