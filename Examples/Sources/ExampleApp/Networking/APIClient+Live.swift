#if canImport(Combine)
import Cadence
import Foundation

extension APIClient {
    /// A client that sends its requests with `URLSession.shared`.
    ///
    /// Apple platforms only: on Linux, Foundation has no `dataTaskPublisher`, and a server passes its own `DataTask`.
    public static func live(baseURL: String) -> APIClient {
        APIClient(baseURL: baseURL) { request in
            URLSession.shared.dataTaskPublisher(for: request).eraseToAnyPublisher()
        }
    }
}
#endif
