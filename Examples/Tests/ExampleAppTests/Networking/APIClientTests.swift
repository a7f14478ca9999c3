import CadenceTesting
import ExampleApp
import Foundation
import Testing

@Suite(.virtualTime)
struct APIClientTests {
    let scheduler = DispatchQueue.test

    @Test func aValidAnswerIsDecodedIntoTheModel() {
        let session = FakeSession(answering: .status(200, body: Profile.blobJSON), on: scheduler.eraseToAnyScheduler())
        let api = APIClient(baseURL: "https://api.example.com", dataTask: session.dataTask)

        expect(api.get("/users/42", as: Profile.self))
            .toEmit(.blob, within: .milliseconds(120))
            .thenFinish()
    }

    @Test func itSendsAGetForThePathUnderTheBaseURL() {
        let session = FakeSession(answering: .status(200, body: Profile.blobJSON), on: scheduler.eraseToAnyScheduler())
        let api = APIClient(baseURL: "https://api.example.com", dataTask: session.dataTask)

        expect(api.get("/users/42", as: Profile.self)).toEmit(.blob).thenFinish()
        #expect(session.requests.map(\.url?.absoluteString) == ["https://api.example.com/users/42"])
        #expect(session.requests.map(\.httpMethod) == ["GET"])
        #expect(session.requests.first?.value(forHTTPHeaderField: "Accept") == "application/json")
    }

    @Test func theRequestIsSentWhenThePublisherIsSubscribedToNotWhenItIsMade() {
        let session = FakeSession(answering: .status(200, body: Profile.blobJSON), on: scheduler.eraseToAnyScheduler())
        let api = APIClient(baseURL: "https://api.example.com", dataTask: session.dataTask)

        let profile = api.get("/users/42", as: Profile.self)
        #expect(session.requests.isEmpty)

        expect(profile).toEmit(.blob, within: .milliseconds(120)).thenFinish()
        expect(profile).toEmit(.blob, within: .milliseconds(120)).thenFinish()
        #expect(session.requests.count == 2)
    }

    @Test func anInvalidURLFailsBeforeAnyRequest() {
        let session = FakeSession(answering: .status(200, body: Profile.blobJSON), on: scheduler.eraseToAnyScheduler())
        let api = APIClient(baseURL: "api.example.com", dataTask: session.dataTask) // no scheme

        expect(api.get("/users/42", as: Profile.self))
            .toFail(with: APIError.invalidURL("api.example.com/users/42"), within: .ticks(0))
        #expect(session.requests.isEmpty)
    }

    @Test func aStatusOutside2xxIsABadStatus() {
        let session = FakeSession(
            answering: .status(503, body: "Service Unavailable"),
            on: scheduler.eraseToAnyScheduler())
        let api = APIClient(baseURL: "https://api.example.com", dataTask: session.dataTask)

        expect(api.get("/users/42", as: Profile.self)).toFail(with: APIError.badStatus(503), within: .milliseconds(120))
    }

    @Test func aBodyThatIsNotTheModelIsADecodingFailure() {
        let session = FakeSession(answering: .status(200, body: #"{"id": "42"}"#), on: scheduler.eraseToAnyScheduler())
        let api = APIClient(baseURL: "https://api.example.com", dataTask: session.dataTask)

        expect(api.get("/users/42", as: Profile.self)).toFail(with: APIError.decoding, within: .milliseconds(120))
    }

    @Test func noConnectionIsOfflineAndOtherTransportErrorsKeepTheirCode() {
        let offline = FakeSession(answering: .error(.notConnectedToInternet), on: scheduler.eraseToAnyScheduler())
        let timedOut = FakeSession(answering: .error(.timedOut), on: scheduler.eraseToAnyScheduler())

        expect(APIClient(baseURL: "https://api.example.com", dataTask: offline.dataTask).get("/me", as: Profile.self))
            .toFail(with: APIError.offline, within: .milliseconds(120))
        expect(APIClient(baseURL: "https://api.example.com", dataTask: timedOut.dataTask).get("/me", as: Profile.self))
            .toFail(with: APIError.transport(code: URLError.Code.timedOut.rawValue), within: .milliseconds(120))
    }

    @Test func aPostSendsItsBodyAsJSONAndFinishesOn2xx() throws {
        let session = FakeSession(answering: .status(202, body: ""), on: scheduler.eraseToAnyScheduler())
        let api = APIClient(baseURL: "https://api.example.com", dataTask: session.dataTask)

        expect(api.post("/password-resets", json: ["email": "blob@example.com"]))
            .toEmit(count: 1, within: .milliseconds(120))
            .thenFinish()
        let request = try #require(session.requests.first)
        #expect(request.httpMethod == "POST")
        #expect(request.value(forHTTPHeaderField: "Content-Type") == "application/json")
        #expect(request.httpBody == Data(#"{"email":"blob@example.com"}"#.utf8))
    }

    @Test func aBodyThatCannotBeEncodedFailsBeforeAnyRequest() {
        let session = FakeSession(answering: .status(202, body: ""), on: scheduler.eraseToAnyScheduler())
        let api = APIClient(baseURL: "https://api.example.com", dataTask: session.dataTask)

        // JSON has no NaN: JSONEncoder throws rather than send one.
        expect(api.post("/metrics", json: ["loadTimeSeconds": Double.nan]))
            .toFail(with: APIError.encoding, within: .ticks(0))
        #expect(session.requests.isEmpty)
    }
}
