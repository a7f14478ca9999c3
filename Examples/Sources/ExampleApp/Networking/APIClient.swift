import Cadence
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A small JSON API client over an injectable data-task publisher.
///
/// Production code passes `URLSession.shared.dataTaskPublisher` (``live(baseURL:session:)``); tests pass a
/// fake session that answers from memory, on a test scheduler:
///
/// ```swift
/// let api = APIClient(baseURL: "https://api.example.com", dataTask: session.dataTask)
/// api.get("/users/42", as: Profile.self)    // AnyPublisher<Profile, APIError>
/// ```
///
/// Every failure is an ``APIError``: a URL that cannot be built or a body that cannot be encoded fails before any
/// request is made, a status outside 200–299 is ``APIError/badStatus(_:)``, a body that does not decode is
/// ``APIError/decoding``.
public struct APIClient: Sendable {
    /// Sends a request and publishes the body and response once — what `URLSession.dataTaskPublisher(for:)` does.
    public typealias DataTask =
        @Sendable (URLRequest) -> AnyPublisher<(data: Data, response: URLResponse), URLError>

    /// The scheme and host the paths are resolved against, as read from configuration.
    public let baseURL: String
    private let dataTask: DataTask

    /// A client for the API at `baseURL`, sending its requests with `dataTask`.
    public init(baseURL: String, dataTask: @escaping DataTask) {
        self.baseURL = baseURL
        self.dataTask = dataTask
    }

    /// Fetches `path` and decodes the JSON body as `Response`.
    public func get<Response: Decodable>(
        _ path: String, as type: Response.Type = Response.self
    ) -> AnyPublisher<Response, APIError> {
        send(path: path, method: "GET", body: nil)
            .tryMap { data in try JSONDecoder().decode(Response.self, from: data) }
            .mapError { error in error as? APIError ?? .decoding }
            .eraseToAnyPublisher()
    }

    /// Posts `body` as JSON to `path`, ignoring what the server answers on success.
    public func post(_ path: String, json body: some Encodable) -> AnyPublisher<Void, APIError> {
        let data: Data
        do {
            data = try JSONEncoder().encode(body)
        } catch {
            return Fail(error: .encoding).eraseToAnyPublisher()
        }
        return send(path: path, method: "POST", body: data)
            .map { _ in () }
            .eraseToAnyPublisher()
    }

    /// Builds the request, sends it, and checks the status: the body of a 2xx answer, or an ``APIError``.
    private func send(path: String, method: String, body: Data?) -> AnyPublisher<Data, APIError> {
        guard let url = url(for: path) else {
            return Fail(error: .invalidURL(baseURL + path)).eraseToAnyPublisher()
        }
        var request = URLRequest(url: url)
        request.httpMethod = method
        request.setValue("application/json", forHTTPHeaderField: "Accept")
        if let body {
            request.httpBody = body
            request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        }
        return dataTask(request)
            .mapError(Self.apiError(for:))
            .tryMap { data, response in
                let status = (response as? HTTPURLResponse)?.statusCode ?? 0
                guard (200..<300).contains(status) else { throw APIError.badStatus(status) }
                return data
            }
            .mapError { error in error as? APIError ?? .decoding }
            .eraseToAnyPublisher()
    }

    /// `path` resolved against ``baseURL``; nil unless the result is an http(s) URL with a host.
    ///
    /// `URL(string:)` percent-encodes what it cannot parse rather than failing, so the check is on the result.
    private func url(for path: String) -> URL? {
        guard let base = URL(string: baseURL), let url = URL(string: path, relativeTo: base),
            let scheme = url.scheme, ["http", "https"].contains(scheme),
            let host = url.host, !host.isEmpty
        else { return nil }
        return url
    }

    private static func apiError(for error: URLError) -> APIError {
        error.code == .notConnectedToInternet ? .offline : .transport(code: error.code.rawValue)
    }
}
