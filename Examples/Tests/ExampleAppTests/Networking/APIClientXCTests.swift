#if canImport(XCTest)
import CadenceTesting
import ExampleApp
import Foundation
import XCTest

/// The network layer's tests as an XCTest suite: the shims on virtual time, and `expect` inside `withVirtualTime`.
final class APIClientXCTests: XCTestCase {
    private let scheduler = DispatchQueue.test

    private func client(
        answering answer: FakeSession.Answer, baseURL: String = "https://api.example.com"
    )
        -> (APIClient, FakeSession)
    {
        let session = FakeSession(answering: answer, on: scheduler.eraseToAnyScheduler())
        return (APIClient(baseURL: baseURL, dataTask: session.dataTask), session)
    }

    func testAValidAnswerIsDecodedIntoTheModel() {
        let (api, _) = client(answering: .status(200, body: Profile.blobJSON))
        let profile = PublisherFinishedExpectation(api.get("/users/42", as: Profile.self), expectedValue: .blob)

        wait(for: [profile], advancing: scheduler.clock, by: .milliseconds(120))
    }

    func testAnInvalidURLFailsBeforeAnyRequest() {
        let (api, session) = client(answering: .status(200, body: Profile.blobJSON), baseURL: "api.example.com")
        let invalid = PublisherFailureExpectation(
            api.get("/users/42", as: Profile.self), expectedError: .invalidURL("api.example.com/users/42")
        )

        wait(for: [invalid], advancing: scheduler.clock)
        XCTAssertEqual(session.requests.count, 0)
    }

    func testAStatusOutside2xxIsABadStatus() {
        let (api, _) = client(answering: .status(404, body: "Not Found"))
        let notFound = PublisherFailureExpectation(
            api.get("/users/7", as: Profile.self),
            expectedError: .badStatus(404))

        wait(for: [notFound], advancing: scheduler.clock, by: .milliseconds(120))
    }

    func testABodyThatIsNotTheModelIsADecodingFailure() {
        withVirtualTime { _ in
            // Made inside: the test scheduler shares withVirtualTime's clock, which `expect` drives.
            let session = FakeSession(
                answering: .status(200, body: "<html>Sign in to Wi-Fi</html>"),
                on: DispatchQueue.test.eraseToAnyScheduler())
            let api = APIClient(baseURL: "https://api.example.com", dataTask: session.dataTask)

            expect(api.get("/users/42", as: Profile.self)).toFail(with: APIError.decoding, within: .milliseconds(120))
        }
    }

    func testNothingArrivesBeforeTheLatencyHasPassed() {
        let (api, _) = client(answering: .status(200, body: Profile.blobJSON))
        let profile = PublisherValueExpectation(api.get("/users/42", as: Profile.self), expectedValue: .blob)
        profile.isInverted = true

        wait(for: [profile], advancing: scheduler.clock, by: .milliseconds(119))
    }

    func testWhenTheCallSucceedsAFailureExpectationSaysWhatArrivedInstead() {
        let (api, _) = client(answering: .status(200, body: Profile.blobJSON))

        let failures = recordingFailures {
            let notFound = PublisherFailureExpectation(
                api.get("/users/42", as: Profile.self),
                expectedError: .badStatus(404))
            wait(for: [notFound], advancing: scheduler.clock, by: .milliseconds(120))
        }

        XCTAssertEqual(
            failures.map(\.message),
            [
                """
                PublisherFailureExpectation(expectedError: APIError.badStatus(404)) failed: the publisher finished after sending [Profile(id: 42, name: "Blob", email: "blob@example.com")] instead of failing.
                """
            ])
    }
}
#endif
