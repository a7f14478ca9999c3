import Cadence
import ExampleApp
import Foundation
import Testing

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

struct ProfileServiceTests {
    @Test func aRequestThatFinishesWithoutAnAnswerIsNoResponse() async {
        // A data task that completes with neither a response nor an error: a misbehaving session or proxy.
        let api = APIClient(baseURL: "https://api.example.com") { _ in Empty().eraseToAnyPublisher() }

        await #expect(throws: APIError.noResponse) {
            try await ProfileService.live(api: api).fetch(42)
        }
    }
}
