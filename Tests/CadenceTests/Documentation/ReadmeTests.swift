import Cadence
import Testing

/// The README's samples, compiled and run.
@Suite("README")
struct ReadmeTests {
    @Test func firstScreenSample() {
        let subject = PassthroughSubject<String, Never>()
        var results: [Int] = []
        let cancellable = subject
            .compactMap(Int.init)
            .filter { $0.isMultiple(of: 2) }
            .scan(0, +)
            .sink { results.append($0) }

        subject.send("2"); subject.send("x"); subject.send("4")
        #expect(results == [2, 6])
        withExtendedLifetime(cancellable) {}
    }
}
