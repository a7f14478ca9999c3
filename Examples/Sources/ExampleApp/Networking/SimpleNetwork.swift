import Cadence
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// The network layer of the article "Test dataTaskPublisher Wrapper" (hadiz.github.io, 2020), as its last version
// writes it: `URLSession` behind a protocol whose one method wraps `dataTaskPublisher(for:)`, so that tests can pass a
// session of their own. It builds unchanged on Linux, where `dataTaskPublisher(for:)` is Cadence's.

/// What ``SimpleNetwork`` needs of a session: a data task's publisher, type-erased so that a fake can be passed.
public protocol URLSessionProtocol {
    /// Sends a GET request for `url` and publishes the body and response once.
    func dataTaskAnyPublisher(for url: URL) -> AnyPublisher<(data: Data, response: URLResponse), URLError>
}

extension URLSession: URLSessionProtocol {
    public func dataTaskAnyPublisher(for url: URL) -> AnyPublisher<(data: Data, response: URLResponse), URLError> {
        dataTaskPublisher(for: url).eraseToAnyPublisher()
    }
}

/// A person, as the article's endpoint sends one.
public struct Person: Decodable, Equatable, Sendable {
    public let name: String

    public init(name: String) {
        self.name = name
    }
}

/// Fetches data from an address given as a string, through an injectable session.
public final class SimpleNetwork {
    /// The session requests go through: `URLSession.shared` in production, a fake in tests.
    public var session: any URLSessionProtocol

    public init(session: any URLSessionProtocol = URLSession.shared) {
        self.session = session
    }

    /// Sends a GET request for `address`; fails with `URLError(.badURL)`, sending nothing, unless `address` is an
    /// absolute URL with a scheme and a host.
    ///
    /// The article checks `URL(string:)` for nil only; Foundation now percent-encodes what it cannot parse
    /// (`"Invalid URL"` becomes the relative URL `Invalid%20URL`), so the check is on the result.
    public func fetchData(from address: String) -> AnyPublisher<(data: Data, response: URLResponse), URLError> {
        guard let url = URL(string: address), url.scheme != nil, url.host?.isEmpty == false else {
            return Fail<(data: Data, response: URLResponse), URLError>(error: URLError(URLError.badURL))
                .eraseToAnyPublisher()
        }
        return session.dataTaskAnyPublisher(for: url)
    }

    /// Fetches the person at `address` and decodes it, delivering on `scheduler` (the main queue, for a view):
    /// the article's first pipeline, `map`, `decode`, `receive(on:)`.
    public func fetchPerson(
        from address: String,
        receiveOn scheduler: AnySchedulerOf<DispatchQueue> = DispatchQueue.main.eraseToAnyScheduler()
    ) -> AnyPublisher<Person, any Error> {
        fetchData(from: address)
            .map { $0.data }
            .decode(type: Person.self, decoder: JSONDecoder())
            .receive(on: scheduler)
            .eraseToAnyPublisher()
    }
}
