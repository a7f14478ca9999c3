import CadenceTesting
import ExampleApp
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The article's `SimpleNetwork`, its tests rewritten with Cadence: with a fake session on virtual time, as the article
/// tests it, and with `URLSession` itself against a server on 127.0.0.1 — which the article could not do on Linux.
@Suite("SimpleNetwork")
struct SimpleNetworkTests {
    // MARK: - The article's tests

    @Test func anInvalidAddressPublishesBadURLAndSendsNothing() {
        let session = FakeURLSession(answer: .success(200, body: ""))
        let network = SimpleNetwork(session: session)

        expect(network.fetchData(from: "Invalid URL")).toFail(where: { $0.code == .badURL })
        #expect(session.urls.isEmpty)
    }

    @Test func aValidURLPublishesTheFakesAnswer() {
        let session = FakeURLSession(answer: .success(200, body: #"{"name": "Ada"}"#))
        let network = SimpleNetwork(session: session)

        expect(network.fetchData(from: "https://apple.com"))
            .toEmit(where: { String(decoding: $0.data, as: UTF8.self) == #"{"name": "Ada"}"# })
            .thenFinish()
        #expect(session.urls == [URL(string: "https://apple.com")!])
    }

    @Test(.virtualTime) func aPersonIsDecodedAndDeliveredOnTheScheduler() {
        let scheduler = DispatchQueue.test
        let network = SimpleNetwork(session: FakeURLSession(answer: .success(200, body: #"{"name": "Ada"}"#)))

        expect(network.fetchPerson(from: "https://example.com/person", receiveOn: scheduler.eraseToAnyScheduler()))
            .toEmit(where: { ($0 as Person) == Person(name: "Ada") }, within: .ticks(0))
            .thenFinish()
    }

    // MARK: - Against a real server

    @Test func aPersonIsFetchedWithURLSession() async throws {
        let server = try LoopbackHTTPServer(routes: ["/person": .answer(status: 200, body: #"{"name": "Ada"}"#)])
        defer { server.stop() }
        let network = SimpleNetwork(session: URLSession(configuration: .ephemeral))
        let queue = DispatchQueue(label: "SimpleNetworkTests").eraseToAnyScheduler()

        await expect(network.fetchPerson(from: server.url("/person").absoluteString, receiveOn: queue))
            .toEmit(where: { $0 == Person(name: "Ada") }, timeout: .seconds(30))
            .thenFinish(timeout: .seconds(30))
        #expect(server.requests.map(\.path) == ["/person"])
    }

    @Test func aStatusOf404IsStillAValueOfFetchData() async throws {
        let server = try LoopbackHTTPServer(routes: [:])
        defer { server.stop() }
        let network = SimpleNetwork(session: URLSession(configuration: .ephemeral))

        await expect(network.fetchData(from: server.url("/nobody").absoluteString))
            .toEmit(where: { ($0.response as? HTTPURLResponse)?.statusCode == 404 }, timeout: .seconds(30))
            .thenFinish(timeout: .seconds(30))
    }

    @Test func aBodyThatIsNotAPersonFailsToDecode() async throws {
        let server = try LoopbackHTTPServer(routes: ["/person": .answer(status: 200, body: "[]")])
        defer { server.stop() }
        let network = SimpleNetwork(session: URLSession(configuration: .ephemeral))
        let queue = DispatchQueue(label: "SimpleNetworkTests").eraseToAnyScheduler()

        await expect(network.fetchPerson(from: server.url("/person").absoluteString, receiveOn: queue))
            .toFail(where: { $0 is DecodingError }, timeout: .seconds(30))
    }

    @Test func aRefusedConnectionFailsWithCannotConnectToHost() async throws {
        let refusing = try RefusingPort()
        let network = SimpleNetwork(session: URLSession(configuration: .ephemeral))

        await expect(network.fetchData(from: refusing.url("/").absoluteString))
            .toFail(where: { $0.code == .cannotConnectToHost }, timeout: .seconds(30))
    }
}

/// The article's `URLSessionMock`: a session that answers every URL from memory, at once, and keeps the URLs.
private final class FakeURLSession: URLSessionProtocol, @unchecked Sendable { // `lock` guards `requested`
    enum Answer {
        case success(Int, body: String)
    }

    private let answer: Answer
    private let lock = NSLock()
    private var requested: [URL] = []

    init(answer: Answer) {
        self.answer = answer
    }

    /// Every URL a publisher was made for.
    var urls: [URL] { lock.withLock { requested } }

    func dataTaskAnyPublisher(for url: URL) -> AnyPublisher<(data: Data, response: URLResponse), URLError> {
        lock.withLock { requested.append(url) }
        switch answer {
        case let .success(status, body):
            let response: URLResponse = HTTPURLResponse(
                url: url, statusCode: status, httpVersion: "HTTP/1.1", headerFields: nil)!
            return Just((data: Data(body.utf8), response: response))
                .setFailureType(to: URLError.self)
                .eraseToAnyPublisher()
        }
    }
}
