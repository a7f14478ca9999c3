import CadenceTesting
import Testing

@Suite("toMatch / thenMatch")
struct MatchTests {
    enum APIError: Error, Equatable { case offline, timeout }

    /// A subject that `clock` drives: each event is sent at its tick.
    func scripted(
        _ clock: VirtualClock, _ script: [(Int64, PublisherEvent<Int, APIError>)]
    ) -> PassthroughSubject<Int, APIError> {
        let subject = PassthroughSubject<Int, APIError>()
        for (tick, event) in script {
            clock.schedule(at: VirtualClock.Instant(ticks: tick)) {
                switch event {
                case let .value(value): subject.send(value)
                case let .completion(completion): subject.send(completion: completion)
                case .subscription: break
                }
            }
        }
        return subject
    }

    @Test func explore() {
        let clock = VirtualClock()
        let ticker = scripted(clock, [(1, .value(1)), (4, .value(2)), (5, .value(3)), (5, .completion(.finished))])
        let failures = VirtualClock.$current.withValue(clock) {
            recordingFailures {
                expect(ticker).toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
            }
        }
        for failure in failures { print(failure.message) }
        let clock2 = VirtualClock()
        let t2 = scripted(clock2, [(1, .value(1)), (3, .value(7)), (5, .value(9))])
        let f2 = recordingFailures { expect(t2, on: clock2).toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3]) }
        for failure in f2 { print(failure.message) }
        let clock3 = VirtualClock()
        let t3 = scripted(clock3, [(1, .value(1)), (3, .value(2))])
        let f3 = recordingFailures { expect(t3, on: clock3).toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3]) }
        for failure in f3 { print(failure.message) }
        let f4 = recordingFailures { expect(t3, on: clock3).toMatch("-a-(b", values: ["a": 1, "b": 2, "c": 3]) }
        for failure in f4 { print(failure.message) }
    }
}
