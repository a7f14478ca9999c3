import CadenceTesting
import ExampleApp
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// `APIClient.live(baseURL:session:)` against a real HTTP server on 127.0.0.1: the same code on Linux, where
/// `dataTaskPublisher(for:)` is Cadence's, as on Apple platforms. The timeouts bound the waits; no test asserts speed.
@Suite("APIClient.live")
struct APIClientLiveTests {
    private let session = URLSession(configuration: .ephemeral)

    @Test func aProfileIsFetchedAndDecoded() async throws {
        let server = try LoopbackHTTPServer(routes: ["/users/42": .answer(status: 200, body: Profile.blobJSON)])
        defer { server.stop() }
        let api = APIClient.live(baseURL: "http://127.0.0.1:\(server.port)", session: session)

        await expect(api.get("/users/42", as: Profile.self))
            .toEmit(.blob, timeout: .seconds(30))
            .thenFinish(timeout: .seconds(30))
        let request = try #require(server.requests.first)
        #expect(request.method == "GET")
        #expect(request.path == "/users/42")
        #expect(request.headers["accept"] == "application/json")
    }

    @Test func aPostSendsTheBodyAsJSON() async throws {
        let server = try LoopbackHTTPServer(routes: ["/password-resets": .answer(status: 202)])
        defer { server.stop() }
        let api = APIClient.live(baseURL: "http://127.0.0.1:\(server.port)", session: session)

        await expect(api.post("/password-resets", json: ["email": "blob@example.com"]))
            .toEmit(count: 1, timeout: .seconds(30))
            .thenFinish(timeout: .seconds(30))
        let request = try #require(server.requests.first)
        #expect(request.method == "POST")
        #expect(request.headers["content-type"] == "application/json")
        #expect(request.body == #"{"email":"blob@example.com"}"#)
    }

    @Test func aStatusOf404IsABadStatus() async throws {
        let server = try LoopbackHTTPServer(routes: [:])
        defer { server.stop() }
        let api = APIClient.live(baseURL: "http://127.0.0.1:\(server.port)", session: session)

        await expect(api.get("/users/7", as: Profile.self)).toFail(with: .badStatus(404), timeout: .seconds(30))
    }

    @Test func aBodyThatIsNotAProfileIsADecodingError() async throws {
        let server = try LoopbackHTTPServer(routes: ["/users/42": .answer(status: 200, body: #"{"id": "42"}"#)])
        defer { server.stop() }
        let api = APIClient.live(baseURL: "http://127.0.0.1:\(server.port)", session: session)

        await expect(api.get("/users/42", as: Profile.self)).toFail(with: .decoding, timeout: .seconds(30))
    }

    @Test func aRefusedConnectionIsATransportError() async throws {
        let refusing = try RefusingPort()
        let api = APIClient.live(baseURL: "http://127.0.0.1:\(refusing.port)", session: session)

        await expect(api.get("/users/42", as: Profile.self))
            .toFail(with: .transport(code: URLError.Code.cannotConnectToHost.rawValue), timeout: .seconds(30))
    }

    @Test func nothingIsSentUntilThePublisherIsSubscribedTo() async throws {
        let server = try LoopbackHTTPServer(routes: ["/users/42": .answer(status: 200, body: Profile.blobJSON)])
        defer { server.stop() }
        let api = APIClient.live(baseURL: "http://127.0.0.1:\(server.port)", session: session)

        let profile = api.get("/users/42", as: Profile.self)
        let other = api.get("/users/42", as: Profile.self)
        await expect(other).toEmit(.blob, timeout: .seconds(30)).thenFinish(timeout: .seconds(30))
        #expect(server.connectionCount == 1) // `profile` has sent nothing
        await expect(profile).toEmit(.blob, timeout: .seconds(30)).thenFinish(timeout: .seconds(30))
        #expect(server.connectionCount == 2)
    }
}
