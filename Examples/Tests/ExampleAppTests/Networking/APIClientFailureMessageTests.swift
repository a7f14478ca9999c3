import CadenceTesting
import ExampleApp
import Foundation
import Testing

/// What a developer reads when the network layer regresses: the exact failure text.
@Suite(.virtualTime)
struct APIClientFailureMessageTests {
    let scheduler = DispatchQueue.test

    @Test func whenTheServerRenamesAFieldTheFailureShowsTheDecodingError() {
        let renamed = #"{"id": 42, "fullName": "Blob", "email": "blob@example.com"}"#
        let session = FakeSession(answering: .status(200, body: renamed), on: scheduler.eraseToAnyScheduler())
        let api = APIClient(baseURL: "https://api.example.com", dataTask: session.dataTask)

        let failures = recordingFailures {
            expect(api.get("/users/42", as: Profile.self)).toEmit(.blob, within: .milliseconds(120))
        }

        #expect(
            failures.map(\.message) == [
                """
                toEmit(Profile(id: 42, name: "Blob", email: "blob@example.com"), within: .milliseconds(120)) failed: expected the value (Profile(id: 42, name: "Blob", email: "blob@example.com")), received failure(APIError.decoding) at tick 120.

                    expect(AnyPublisher<Profile, APIError>)
                  ✗   .toEmit(Profile(id: 42, name: "Blob", email: "blob@example.com"), within: .milliseconds(120))

                     tick  received                    expected
                        0  subscription
                  →   120  failure(APIError.decoding)  Profile(id: 42, name: "Blob", email: "b…  toEmit(Profile(id: 42, name: "Blob", email: "blob@example.com"), within: .milliseconds(120))
                """
            ])
    }
}
