import CadenceTesting
import Foundation
import Testing

@Suite("toMatch / thenMatch")
struct MatchTests {
    enum APIError: Error, Equatable { case offline, timeout }

    typealias Script = [(tick: Int64, event: PublisherEvent<Int, APIError>)]

    /// A subject that `clock` drives: each event of `script` is sent at its tick.
    func scripted(_ clock: VirtualClock, _ script: Script) -> PassthroughSubject<Int, APIError> {
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

    /// The ticker of DESIGN.md §3: 1 at tick 1, 2 at tick 3, then 3 and finished at tick 5.
    func ticker(_ clock: VirtualClock) -> PassthroughSubject<Int, APIError> {
        scripted(clock, [(1, .value(1)), (3, .value(2)), (5, .value(3)), (5, .completion(.finished))])
    }

    let abc: [Character: Int] = ["a": 1, "b": 2, "c": 3]

    // MARK: Matching

    @Test("DESIGN.md's example, as written, on the task's clock")
    func designExample() {
        let clock = VirtualClock()
        let ticker = ticker(clock)
        VirtualClock.$current.withValue(clock) {
            expectNoFailures {
                expect(ticker).toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
            }
        }
        #expect(clock.now.ticks == 5)
    }

    @Test("A ticker made of operators on a test scheduler")
    func operatorTicker() {
        let clock = VirtualClock()
        let scheduler = DispatchQueue.test
        let ticker = [(1, "x"), (3, "y"), (5, "z")].publisher
            .flatMap { delay, value in Just(value).delay(for: .milliseconds(delay), scheduler: scheduler) }
        expectNoFailures {
            expect(ticker, on: scheduler).toMatch("-x-y-(z|)", values: ["x": "x", "y": "y", "z": "z"])
        }
        #expect(scheduler.clock.now.ticks == 5)
        #expect(clock.now.ticks == 0)
    }

    @Test("Without a clock, a one-tick diagram checks what arrives synchronously")
    func synchronous() {
        expectNoFailures {
            expect(Just(1)).toMatch("(a|)", values: ["a": 1])
            expect([1, 2, 3].publisher).toMatch("(abc|)", values: ["a": 1, "b": 2, "c": 3])
            expect(Empty<Int, Never>()).toMatch("|")
            expect(Fail<Int, APIError>(error: .offline)).toMatch("#")
            expect(Fail<Int, APIError>(error: .offline)).toMatch("#", error: .offline)
        }
    }

    @Test("Ticks count from the step's start: thenMatch after toEmit")
    func thenMatchCountsFromItsStart() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (3, .value(2)), (4, .value(3)), (6, .completion(.finished))])
        expectNoFailures {
            expect(subject, on: clock).toEmit(1).thenMatch("--bc-|", values: abc)
        }
        #expect(clock.now.ticks == 6)
    }

    @Test("A diagram without a completion expects nothing else through its last tick, then the chain goes on")
    func openDiagram() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (6, .value(5)), (7, .completion(.finished))])
        expectNoFailures {
            expect(subject, on: clock).toMatch("-a--", values: abc).thenEmit(5).thenFinish()
        }
        #expect(clock.now.ticks == 7)
    }

    @Test("A diagram that completes is satisfied by its completion; a budget past it changes nothing")
    func completesEarly() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (2, .completion(.finished))])
        expectNoFailures {
            expect(subject, on: clock).toMatch("-a|", values: abc, within: .ticks(50))
        }
        #expect(clock.now.ticks == 2)
    }

    @Test("# matches any failure without error:, and the expected one with it")
    func failures() {
        let clock = VirtualClock()
        let first = scripted(clock, [(1, .value(1)), (2, .completion(.failure(.timeout)))])
        let laterClock = VirtualClock()
        let second = scripted(laterClock, [(1, .value(1)), (3, .completion(.failure(.offline)))])
        expectNoFailures {
            expect(first, on: clock).toMatch("-a#", values: abc)
        }
        expectNoFailures {
            expect(second, on: laterClock).toMatch("-(a)-(#)", values: abc, error: .offline)
        }
    }

    @Test("Spaces line a diagram up and change nothing")
    func spaces() {
        let clock = VirtualClock()
        let ticker = ticker(clock)
        expectNoFailures {
            expect(ticker, on: clock).toMatch(" - a - b - (c |) ", values: abc)
        }
    }

    @Test("A budget longer than the diagram watches on after its last tick")
    func budgetWatchesLonger() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (9, .value(2))])
        expectNoFailures {
            expect(subject, on: clock).toMatch("-a", values: abc, within: .ticks(8)).thenEmit(2)
        }
        #expect(clock.now.ticks == 9)
    }

    @Test(".ticks(0) with a one-tick diagram: what is due now")
    func zeroBudget() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(0, .value(1)), (0, .completion(.finished))])
        expectNoFailures {
            expect(subject, on: clock).toMatch("(a|)", values: abc, within: .ticks(0))
        }
        #expect(clock.now.ticks == 0)
    }

    @Test("Chains on their own clocks, on many threads at once, each see only their own timeline")
    func concurrentChains() async {
        let failures = await withTaskGroup(of: Int.self) { group in
            for task in 0..<8 {
                group.addTask {
                    var failed = 0
                    for round in 0..<50 {
                        let clock = VirtualClock()
                        let value = task * 100 + round
                        let subject = scripted(clock, [(2, .value(value)), (2, .completion(.finished))])
                        failed +=
                            recordingFailures {
                                expect(subject, on: clock).toMatch("--(v|)", values: ["v": value])
                            }.count
                    }
                    return failed
                }
            }
            return await group.reduce(0, +)
        }
        #expect(failures == 0)
    }

    // MARK: Failures

    @Test("The right value one tick late")
    func late() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (4, .value(2)), (5, .value(3)), (5, .completion(.finished))])
        expectFailures([
            """
            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3]) failed: b (2) was expected at tick 3 but arrived \
            1 tick late at tick 4.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
                    1  1             a (1)            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
              →     4  2             b (2) at tick 3  toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])

                expected  -a-b-(c|)
                received  -a--b
                             ^ tick 3
            """
        ]) {
            expect(subject, on: clock).toMatch("-a-b-(c|)", values: abc)
        }
    }

    @Test("The right value early")
    func early() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (2, .value(2))])
        expectFailures([
            """
            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3]) failed: b (2) was expected at tick 3 but arrived \
            1 tick early at tick 2.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
                    1  1             a (1)            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
              →     2  2             b (2) at tick 3  toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])

                expected  -a-b-(c|)
                received  -ab
                            ^ tick 2
            """
        ]) {
            expect(subject, on: clock).toMatch("-a-b-(c|)", values: abc)
        }
    }

    @Test("The wrong value on the right tick, named by its key when values has one")
    func wrongValue() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (3, .value(3))])
        expectFailures([
            """
            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3]) failed: b (2) was expected at tick 3, but c (3) \
            arrived instead at tick 3.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
                    1  1             a (1)            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
              →     3  3             b (2) at tick 3  toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])

                expected  -a-b-(c|)
                received  -a-c
                             ^ tick 3
            """
        ]) {
            expect(subject, on: clock).toMatch("-a-b-(c|)", values: abc)
        }
    }

    @Test("A value values does not name gets a character of its own")
    func unnamedValue() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (2, .value(42))])
        expectFailures([
            """
            toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3]) failed: b (2) was expected at tick 3, but 42 arrived \
            first at tick 2.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
                    1  1             a (1)            toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3])
              →     2  42            b (2) at tick 3  toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3])

                expected  -a-b
                received  -aA
                            ^ tick 2
                where     A = 42
            """
        ]) {
            expect(subject, on: clock).toMatch("-a-b", values: abc)
        }
    }

    @Test("Another event before the expected one")
    func somethingFirst() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (3, .value(2)), (4, .completion(.finished))])
        expectFailures([
            """
            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3]) failed: c (3) was expected at tick 5, but \
            finished arrived first at tick 4.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
                    1  1             a (1)            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
                    3  2             b (2)            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
              →     4  finished      c (3) at tick 5  toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])

                expected  -a-b-(c|)
                received  -a-b|
                              ^ tick 4
            """
        ]) {
            expect(subject, on: clock).toMatch("-a-b-(c|)", values: abc)
        }
    }

    @Test("An event the diagram does not show, before its end")
    func extraBeforeTheEnd() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (2, .value(9))])
        expectFailures([
            """
            toMatch("-a--", values: ["a": 1, "b": 2, "c": 3]) failed: the diagram expects nothing more, but 9 \
            arrived at tick 2.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-a--", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
                    1  1             a (1)      toMatch("-a--", values: ["a": 1, "b": 2, "c": 3])
              →     2  9             (nothing)  toMatch("-a--", values: ["a": 1, "b": 2, "c": 3])

                expected  -a--
                received  -a9
                            ^ tick 2
            """
        ]) {
            expect(subject, on: clock).toMatch("-a--", values: abc)
        }
    }

    @Test("An event that never arrives: the diagram's last tick passes")
    func missing() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (3, .value(2))])
        expectFailures([
            """
            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3]) failed: c (3), expected at tick 5, did not \
            arrive within 5 ticks (by tick 5).

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
                    1  1             a (1)            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
                    3  2             b (2)            toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
              →     5  (nothing)     c (3) at tick 5  toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])

                expected  -a-b-(c|)
                received  -a-b--
                               ^ tick 5
            """
        ]) {
            expect(subject, on: clock).toMatch("-a-b-(c|)", values: abc)
        }
    }

    @Test("An event that arrives after the budget: the message names the next event and its tick")
    func lateWithinBudget() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (9, .value(2))])
        expectFailures([
            """
            toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3], within: .ticks(6)) failed: b (2), expected at tick 3, did not arrive within 6 ticks (by tick 6); the next event, 2, came at tick 9.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3], within: .ticks(6))

                 tick  received      expected
                    0  subscription
                    1  1             a (1)            toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3], within: .ticks(6))
              →     6  (nothing)     b (2) at tick 3  toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3], within: .ticks(6))
                    9  2

                expected  -a-b
                received  -a--
                             ^ tick 3
            """
        ]) {
            expect(subject, on: clock).toMatch("-a-b", values: abc, within: .ticks(6))
        }
    }

    @Test("An event that never arrives within the budget")
    func missingWithinBudget() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1))])
        expectFailures([
            """
            toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3], within: .ticks(6)) failed: b (2), expected at tick 3, \
            did not arrive within 6 ticks (by tick 6).

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3], within: .ticks(6))

                 tick  received      expected
                    0  subscription
                    1  1             a (1)            toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3], within: \
            .ticks(6))
              →     6  (nothing)     b (2) at tick 3  toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3], within: \
            .ticks(6))

                expected  -a-b
                received  -a--
                             ^ tick 3
            """
        ]) {
            expect(subject, on: clock).toMatch("-a-b", values: abc, within: .ticks(6))
        }
    }

    @Test("Without a clock, a completion where a value was expected")
    func earlyCompletionWithoutClock() {
        expectFailures([
            """
            toMatch("(ab|)", values: ["a": 1, "b": 2, "c": 3]) failed: b (2) was expected at tick 0, but finished \
            arrived instead.

                expect(Publishers.Sequence<Array<Int>, Never>)
              ✗   .toMatch("(ab|)", values: ["a": 1, "b": 2, "c": 3])

                 received      expected
                 subscription
                 1             a (1)            toMatch("(ab|)", values: ["a": 1, "b": 2, "c": 3])
              →  finished      b (2) at tick 0  toMatch("(ab|)", values: ["a": 1, "b": 2, "c": 3])

                expected  (ab|)
                received  (a|)
                          ^ tick 0
            """
        ]) {
            expect([1].publisher).toMatch("(ab|)", values: abc)
        }
    }

    @Test("Without a clock, an event that never arrives")
    func missingWithoutClock() {
        let subject = PassthroughSubject<Int, Never>()
        expectFailures([
            """
            toMatch("a", values: ["a": 1, "b": 2, "c": 3]) failed: a (1), expected at tick 0, never arrived: \
            nothing more was delivered synchronously, and there is no virtual clock to advance (pass one with on:, \
            or bind VirtualClock.current).

                expect(PassthroughSubject<Int, Never>)
              ✗   .toMatch("a", values: ["a": 1, "b": 2, "c": 3])

                 received      expected
                 subscription
              →  (nothing)     a (1) at tick 0  toMatch("a", values: ["a": 1, "b": 2, "c": 3])

                expected  a
                received  -
                          ^ tick 0
            """
        ]) {
            expect(subject).toMatch("a", values: abc)
        }
    }

    @Test("Finished where the diagram fails")
    func finishedInsteadOfFailure() {
        let clock = VirtualClock()
        let finishing = scripted(clock, [(1, .completion(.finished))])
        expectFailures([
            """
            toMatch("-#") failed: a failure was expected at tick 1, but finished arrived instead at tick 1.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-#")

                 tick  received      expected
                    0  subscription
              →     1  finished      a failure at tick 1  toMatch("-#")

                expected  -#
                received  -|
                           ^ tick 1
            """
        ]) {
            expect(finishing, on: clock).toMatch("-#")
        }
    }

    @Test("A failure where the diagram finishes")
    func failureInsteadOfFinished() {
        let clock = VirtualClock()
        let failing = scripted(clock, [(1, .completion(.failure(.timeout)))])
        expectFailures([
            """
            toMatch("-|") failed: finished was expected at tick 1, but failure(MatchTests.APIError.timeout) arrived \
            instead at tick 1.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-|")

                 tick  received                              expected
                    0  subscription
              →     1  failure(MatchTests.APIError.timeout)  finished at tick 1  toMatch("-|")

                expected  -|
                received  -#
                           ^ tick 1
            """
        ]) {
            expect(failing, on: clock).toMatch("-|")
        }
    }

    @Test("The wrong error")
    func wrongError() {
        let clock = VirtualClock()
        let failing = scripted(clock, [(1, .completion(.failure(.timeout)))])
        expectFailures([
            """
            toMatch("-#", error: MatchTests.APIError.offline) failed: failure(MatchTests.APIError.offline) was \
            expected at tick 1, but failure(MatchTests.APIError.timeout) arrived instead at tick 1.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-#", error: MatchTests.APIError.offline)

                 tick  received                              expected
                    0  subscription
              →     1  failure(MatchTests.APIError.timeout)  failure(MatchTests.APIError.offline) at…  \
            toMatch("-#", error: MatchTests.APIError.offline)

                expected  -#
                received  -#
                           ^ tick 1
            """
        ]) {
            expect(failing, on: clock).toMatch("-#", error: .offline)
        }
    }

    @Test("A completion before the values the diagram still expects")
    func completionFirst() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (2, .completion(.finished))])
        expectFailures([
            """
            toMatch("-a-b|", values: ["a": 1, "b": 2, "c": 3]) failed: b (2) was expected at tick 3, but finished \
            arrived first at tick 2.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-a-b|", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
                    1  1             a (1)            toMatch("-a-b|", values: ["a": 1, "b": 2, "c": 3])
              →     2  finished      b (2) at tick 3  toMatch("-a-b|", values: ["a": 1, "b": 2, "c": 3])

                expected  -a-b|
                received  -a|
                            ^ tick 2
            """
        ]) {
            expect(subject, on: clock).toMatch("-a-b|", values: abc)
        }
    }

    @Test("An event that arrived before the step started is early, and the diagrams start where it arrived")
    func beforeTheStep() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(2, .value(1))])
        expectFailures([
            """
            toMatch("a", values: ["a": 1, "b": 2, "c": 3]) failed: a (1) was expected at tick 5 but arrived 3 ticks \
            early at tick 2.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("a", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
              →     2  1             a (1) at tick 5  toMatch("a", values: ["a": 1, "b": 2, "c": 3])

                expected     a
                received  a---
                          ^ tick 2 (the first column is tick 2)
            """
        ]) {
            let expectation = expect(subject, on: clock)
            clock.advance(to: VirtualClock.Instant(ticks: 5))
            expectation.toMatch("a", values: abc)
        }
    }

    @Test("An event long before the step started: the diagrams are not drawn, the timeline shows it")
    func longBeforeTheStep() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(2, .value(1))])
        expectFailures([
            """
            toMatch("-a", values: ["a": 1, "b": 2, "c": 3]) failed: a (1) was expected at tick 5001 but arrived \
            4999 ticks early at tick 2.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-a", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
              →     2  1             a (1) at tick 5001  toMatch("-a", values: ["a": 1, "b": 2, "c": 3])

                expected  -a
                received  (not drawn: the two would run over 5000 ticks; the timeline above lists every event)
            """
        ]) {
            let expectation = expect(subject, on: clock)
            clock.advance(to: VirtualClock.Instant(ticks: 5_000))
            expectation.toMatch("-a", values: abc)
        }
    }

    @Test("Ticks at the ends of the clock's range do not overflow")
    func extremeTicks() {
        let clock = VirtualClock(now: VirtualClock.Instant(ticks: .min))
        let subject = scripted(clock, [(.min, .value(1))])
        expectFailures([
            """
            toMatch("-a", values: ["a": 1, "b": 2, "c": 3]) failed: a (1) was expected at tick 9223372036854775807 \
            but arrived 9223372036854775807 ticks early at tick -9223372036854775808.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toMatch("-a", values: ["a": 1, "b": 2, "c": 3])

                                 tick  received      expected
                 -9223372036854775808  subscription
              →  -9223372036854775808  1             a (1) at tick 9223372036854775807  toMatch("-a", values: ["a": \
            1, "b": 2, "c": 3])

                expected  -a
                received  (not drawn: the two would run over more than 9223372036854775807 ticks; the timeline \
            above lists every event)
            """
        ]) {
            let expectation = expect(subject, on: clock)
            clock.run()
            clock.advance(to: VirtualClock.Instant(ticks: .max - 1))
            expectation.toMatch("-a", values: abc)
        }
    }

    @Test("After a failed step, toMatch is not checked")
    func afterAFailure() {
        let clock = VirtualClock()
        let ticker = ticker(clock)
        expectFailures([
            """
            toEmit(5) failed: the value differs: expected 5, received 1 at tick 1.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✗   .toEmit(5)
                  .thenMatch("-b-(c|)", values: ["a": 1, "b": 2, "c": 3])  (not checked)

                 tick  received      expected
                    0  subscription
              →     1  1             5         toEmit(5)
            """
        ]) {
            expect(ticker, on: clock).toEmit(5).thenMatch("-b-(c|)", values: abc)
        }
    }

    @Test("An event after an open diagram's last tick, once the chain has ended, is reported at expect")
    func afterTheDiagram() {
        let clock = VirtualClock()
        let subject = scripted(clock, [(1, .value(1)), (2, .completion(.finished))])
        expectFailures([
            """
            expect(PassthroughSubject<Int, MatchTests.APIError>) received 1 event after its chain had ended: \
            finished at tick 2.

                expect(PassthroughSubject<Int, MatchTests.APIError>)
              ✓   .toMatch("-a", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
                    1  1             a (1)      toMatch("-a", values: ["a": 1, "b": 2, "c": 3])
              →     2  finished      (no step)
            """
        ]) {
            expect(subject, on: clock).toMatch("-a", values: abc)
            clock.run()
        }
    }

    // MARK: Bad input

    @Test("A syntax error")
    func syntaxError() {
        let clock = VirtualClock()
        expectFailures([
            """
            toMatch("-a-(b", values: ["a": 1, "b": 2, "c": 3]) failed: the group opened at character 4 is never \
            closed; close it with ")".

                expect(Empty<Int, Never>)
              ✗   .toMatch("-a-(b", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
                    0  finished
              →     0  (nothing)     (a valid step)  toMatch("-a-(b", values: ["a": 1, "b": 2, "c": 3])
            """
        ]) {
            expect(Empty<Int, Never>(), on: clock).toMatch("-a-(b", values: abc)
        }
    }

    @Test("A key values does not define")
    func unknownKey() {
        let clock = VirtualClock()
        expectFailures([
            """
            toMatch("-a-x", values: ["a": 1, "b": 2, "c": 3]) failed: the diagram uses "x" (character 4), which \
            values does not define; it defines "a", "b" and "c".

                expect(Empty<Int, Never>)
              ✗   .toMatch("-a-x", values: ["a": 1, "b": 2, "c": 3])

                 tick  received      expected
                    0  subscription
                    0  finished
              →     0  (nothing)     (a valid step)  toMatch("-a-x", values: ["a": 1, "b": 2, "c": 3])
            """,
            """
            toMatch("-a-x", values: ["a": 1]) failed: the diagram uses "x" (character 4), which values does not \
            define; it defines only "a".

                expect(Empty<Int, Never>)
              ✗   .toMatch("-a-x", values: ["a": 1])

                 tick  received      expected
                    0  subscription
                    0  finished
              →     0  (nothing)     (a valid step)  toMatch("-a-x", values: ["a": 1])
            """,
            """
            toMatch("-a") failed: the diagram uses "a" (character 2), which values does not define; values is empty.

                expect(Empty<Int, Never>)
              ✗   .toMatch("-a")

                 tick  received      expected
                    0  subscription
                    0  finished
              →     0  (nothing)     (a valid step)  toMatch("-a")
            """,
        ]) {
            expect(Empty<Int, Never>(), on: clock).toMatch("-a-x", values: abc)
            expect(Empty<Int, Never>(), on: clock).toMatch("-a-x", values: ["a": 1])
            expect(Empty<Int, Never>(), on: clock).toMatch("-a")
        }
    }

    @Test("A key that is marble syntax")
    func syntaxKey() {
        let clock = VirtualClock()
        expectFailures([
            """
            toMatch("-a", values: ["-": 2, "a": 1]) failed: values defines "-", which is marble syntax, not a key; \
            keys are the characters other than "-", "|", "#", "(", ")" and space.

                expect(Empty<Int, Never>)
              ✗   .toMatch("-a", values: ["-": 2, "a": 1])

                 tick  received      expected
                    0  subscription
                    0  finished
              →     0  (nothing)     (a valid step)  toMatch("-a", values: ["-": 2, "a": 1])
            """
        ]) {
            expect(Empty<Int, Never>(), on: clock).toMatch("-a", values: ["a": 1, "-": 2])
        }
    }

    @Test("error: with no # in the diagram")
    func errorWithoutFailure() {
        let clock = VirtualClock()
        expectFailures([
            """
            toMatch("-|", error: MatchTests.APIError.offline) failed: error: is given, but the diagram has no "#" \
            for it to match.

                expect(Empty<Int, MatchTests.APIError>)
              ✗   .toMatch("-|", error: MatchTests.APIError.offline)

                 tick  received      expected
                    0  subscription
                    0  finished
              →     0  (nothing)     (a valid step)  toMatch("-|", error: MatchTests.APIError.offline)
            """
        ]) {
            expect(Empty<Int, APIError>(), on: clock).toMatch("-|", error: .offline)
        }
    }

    @Test("A negative budget, and one shorter than the diagram")
    func badBudgets() {
        let clock = VirtualClock()
        expectFailures([
            """
            toMatch("-|", within: .ticks(-1)) failed: its budget is negative (-1 tick); a step cannot wait less \
            than no time — use .ticks(0) for "at the current tick".

                expect(Empty<Int, Never>)
              ✗   .toMatch("-|", within: .ticks(-1))

                 tick  received      expected
                    0  subscription
                    0  finished
              →     0  (nothing)     (a valid step)  toMatch("-|", within: .ticks(-1))
            """,
            """
            toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3], within: .ticks(2)) failed: its budget (.ticks(2)) is \
            shorter than the diagram, whose last tick comes 3 ticks after the step starts; a budget can only make \
            the step watch longer than the diagram.

                expect(Empty<Int, Never>)
              ✗   .toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3], within: .ticks(2))

                 tick  received      expected
                    0  subscription
                    0  finished
              →     0  (nothing)     (a valid step)  toMatch("-a-b", values: ["a": 1, "b": 2, "c": 3], within: \
            .ticks(2))
            """,
        ]) {
            expect(Empty<Int, Never>(), on: clock).toMatch("-|", within: .ticks(-1))
            expect(Empty<Int, Never>(), on: clock).toMatch("-a-b", values: abc, within: .ticks(2))
        }
    }

    @Test("Without a clock, a diagram longer than one tick")
    func longDiagramWithoutClock() {
        expectFailures([
            """
            toMatch("-a|", values: ["a": 1, "b": 2, "c": 3]) failed: the diagram's last tick comes 2 ticks after \
            the step starts, but there is no virtual clock to advance (pass one with on:, or bind \
            VirtualClock.current); without one, only a diagram of a single tick, as "a" or "(ab|)", can be checked.

                expect(Just<Int>)
              ✗   .toMatch("-a|", values: ["a": 1, "b": 2, "c": 3])

                 received      expected
                 subscription
                 1
                 finished
              →  (nothing)     (a valid step)  toMatch("-a|", values: ["a": 1, "b": 2, "c": 3])
            """
        ]) {
            expect(Just(1)).toMatch("-a|", values: abc)
        }
    }
}
