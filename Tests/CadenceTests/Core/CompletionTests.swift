import Cadence
import Foundation
import Testing

@Suite("Subscribers.Completion")
struct CompletionTests {
    struct CodableError: Error, Codable, Equatable {
        let code: Int
    }

    @Test func equatableAndHashable() {
        let finished = Subscribers.Completion<TestError>.finished
        #expect(finished == .finished)
        #expect(Subscribers.Completion<TestError>.failure(.oops) != .failure(.other))
        #expect(Set([finished, .finished, .failure(.oops)]).count == 2)
    }

    @Test func codableRoundTrip() throws {
        let completions: [Subscribers.Completion<CodableError>] = [.finished, .failure(CodableError(code: 7))]
        let data = try JSONEncoder().encode(completions)
        #expect(try JSONDecoder().decode([Subscribers.Completion<CodableError>].self, from: data) == completions)
    }
}
