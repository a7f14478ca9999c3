// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("SingleValuePublisher")
struct SingleValuePublisherTests {
    @Test func readsTheValueOfJust() throws {
        let reader = try #require(makeSingleValueReader(for: Just<String>.self))
        #expect(reader.value(of: Just("swift")) == "swift")
    }

    @Test func readsTheValueOfJustGivenAFailureType() throws {
        typealias Failing = Publishers.SetFailureType<Just<Int>, TestError>
        let reader = try #require(makeSingleValueReader(for: Failing.self))
        #expect(reader.value(of: Just(7).setFailureType(to: TestError.self)) == 7)
    }

    @Test func hasNoReaderForOtherPublishers() {
        #expect(makeSingleValueReader(for: AnyPublisher<Int, Never>.self) == nil)
        #expect(makeSingleValueReader(for: Optional<Int>.Publisher.self) == nil)
        #expect(makeSingleValueReader(for: Future<Int, Never>.self) == nil)
        #expect(makeSingleValueReader(for: Publishers.SetFailureType<Empty<Int, Never>, TestError>.self) == nil)
    }
}
#endif
