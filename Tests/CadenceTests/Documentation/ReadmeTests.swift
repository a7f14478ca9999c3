// swift-format-ignore-file
// (The samples keep the layout their guide shows: a block of the guide appears here line for line.)
import Cadence
import Foundation
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
        // results == [2, 6]
        #expect(results == [2, 6])
        withExtendedLifetime(cancellable) {}
    }

    @Test func virtualTimeSample() {
        let scheduler = DispatchQueue.test                  // a TestScheduler with DispatchQueue's time types
        var searched: [String] = []
        let query = PassthroughSubject<String, Never>()
        let cancellable = query
            .debounce(for: .milliseconds(300), scheduler: scheduler.eraseToAnyScheduler())
            .sink { searched.append($0) }

        query.send("s"); query.send("sw"); query.send("swift")
        scheduler.advance(by: .milliseconds(299))           // searched == []
        scheduler.advance(by: .milliseconds(1))             // searched == ["swift"]
        #expect(searched == ["swift"])
        withExtendedLifetime(cancellable) {}
    }

    /// The README's comments say what each advance leaves: nothing after 299 ms, the last query after 300.
    @Test func virtualTimeSampleBoundary() {
        let scheduler = DispatchQueue.test
        var searched: [String] = []
        let query = PassthroughSubject<String, Never>()
        let cancellable = query
            .debounce(for: .milliseconds(300), scheduler: scheduler.eraseToAnyScheduler())
            .sink { searched.append($0) }
        query.send("s"); query.send("sw"); query.send("swift")
        scheduler.advance(by: .milliseconds(299))
        #expect(searched == [])
        scheduler.advance(by: .milliseconds(1))
        #expect(searched == ["swift"])
        withExtendedLifetime(cancellable) {}
    }

    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    @Test func clockSample() async throws {
        let clock = VirtualClock()
        // `Task.immediate` runs the task up to its first suspension before returning: the sleep is on the timeline.
        let sleeper = Task.immediate { try await Task.sleep(for: .seconds(1), clock: clock) }
        #expect(clock.pendingCount == 1)
        await clock.advance(by: .seconds(1))
        try await sleeper.value
        #expect(clock.now.ticks == 1000)
    }
}
