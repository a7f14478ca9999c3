import CadenceTesting
import Foundation
import Testing

@Suite("expect")
struct ExpectTests {
    // MARK: Which clock

    @Test("on: a virtual clock times events in its ticks and drives it while steps wait")
    func onClock() {
        let clock = VirtualClock()
        expectNoFailures {
            let expectation = expect(Just(1).delay(for: .ticks(3), scheduler: clock.scheduler), on: clock)
                .toEmit(1).thenFinish()
            #expect(expectation.events.map(\.tick) == [0, 3, 3])
            #expect(expectation.events.map(\.time) == [.tick(0), .tick(3), .tick(3)])
        }
        #expect(clock.now.ticks == 3)
    }

    @Test("on: DispatchQueue.test drives that test scheduler's clock")
    func onDispatchQueueTest() {
        let scheduler = DispatchQueue.test
        expectNoFailures {
            let expectation = expect(
                Just("a").delay(for: .milliseconds(300), scheduler: scheduler), on: scheduler
            ).toEmit("a", within: .ticks(300)).thenFinish(within: .ticks(0))
            #expect(expectation.events.map(\.tick) == [0, 300, 300])
        }
        #expect(scheduler.clock.now.ticks == 300)
    }

    @Test("on: clock.scheduler drives that clock")
    func onVirtualScheduler() {
        let clock = VirtualClock()
        expectNoFailures {
            let expectation = expect(Just(1).delay(for: .ticks(2), scheduler: clock.scheduler), on: clock.scheduler)
                .toEmit(1).thenFinish()
            #expect(expectation.events.map(\.tick) == [0, 2, 2])
        }
    }

    @Test("on: a clock already past tick 0 times the subscription at its current tick")
    func onAdvancedClock() {
        let clock = VirtualClock()
        clock.advance(by: .ticks(10))
        expectNoFailures {
            let expectation = expect(Just(1).delay(for: .ticks(5), scheduler: clock.scheduler), on: clock)
                .toEmit(1).thenFinish()
            #expect(expectation.events.map(\.tick) == [10, 15, 15])
        }
    }

    @Test("by default the task's VirtualClock.current is driven")
    func currentClock() {
        let clock = VirtualClock()
        VirtualClock.$current.withValue(clock) {
            expectNoFailures {
                let expectation = expect(Just(1).delay(for: .milliseconds(4), scheduler: DispatchQueue.test))
                    .toEmit(1, within: .ticks(4)).thenFinish()
                #expect(expectation.events.map(\.tick) == [0, 4, 4])
            }
        }
        #expect(clock.now.ticks == 4)
    }

    @Test("on: wins over VirtualClock.current")
    func explicitClockWins() {
        let bound = VirtualClock()
        let passed = VirtualClock()
        VirtualClock.$current.withValue(bound) {
            expectNoFailures {
                expect(Just(1).delay(for: .ticks(4), scheduler: passed.scheduler), on: passed).toEmit(1).thenFinish()
            }
        }
        #expect(passed.now.ticks == 4)
        #expect(bound.now.ticks == 0)
    }

    @Test("with no clock, events are timed in wall-clock time and only what arrives synchronously is checked")
    func noClock() {
        expectNoFailures {
            let expectation = expect([1, 2].publisher).toEmit([1, 2]).thenFinish()
            #expect(expectation.events.map(\.tick) == [nil, nil, nil, nil])
            #expect(expectation.events.allSatisfy { if case .elapsed = $0.time { true } else { false } })
        }
    }

    @Test("with no clock, a value that would arrive later is missing, with a hint to pass a clock")
    func noClockMissing() {
        let scheduler = DispatchQueue.test
        expectFailures([
            """
            toEmit(1) failed: the value (1) never arrived: nothing more was delivered synchronously, and there is no \
            virtual clock to advance (pass one with on:, or bind VirtualClock.current).

                expect(Publishers.Delay<…>)
              ✗   .toEmit(1)

                 received      expected
                 subscription
              →  (nothing)     1         toEmit(1)
            """
        ]) {
            expect(Just(1).delay(for: .milliseconds(5), scheduler: scheduler)).toEmit(1)
        }
    }

    // MARK: Demand

    @Test("demand: is requested on subscription, and values beyond it are over-fulfilment")
    func demand() {
        expectNoFailures {
            let expectation = expect([1, 2, 3].publisher, demand: .max(2)).toEmit([1, 2])
            #expect(expectation.values == [1, 2])
            #expect(expectation.completion == nil)
        }
    }

    @Test("demand: a value sent beyond it is reported at expect as breaking the contract")
    func beyondDemand() {
        expectFailures([
            """
            expect(ExpectTests.IgnoresDemand) received 1 event no step expected: the publisher sent 2 beyond the demand \
            requested (.max(1) in all), which breaks the subscription contract (rule 1.1).

                expect(ExpectTests.IgnoresDemand)
              ✓   .toEmit(1)

                 received             expected
                 subscription
                 1                    1          toEmit(1)
              →  2 (contract broken)  (no step)
            """
        ]) {
            expect(Self.IgnoresDemand(values: [1, 2]), demand: .max(1)).toEmit(1)
        }
    }

    @Test("demand: .none receives the subscription and nothing else")
    func demandNone() {
        expectFailures([
            """
            toEmit(1) failed: the value (1) never arrived: the subscriber had no demand left (.none requested in \
            all) — request more with thenRequest(_:).

                expect(Just<Int>)
              ✗   .toEmit(1)

                 received      expected
                 subscription
              →  (nothing)     1         toEmit(1)
            """
        ]) {
            let expectation = expect(Just(1), demand: .none).toEmit(1)
            #expect(expectation.events.count == 1)
            #expect(expectation.values.isEmpty)
        }
    }

    // MARK: Reading results

    @Test("values, completion and events read what arrived, consumed or not")
    func results() {
        struct Oops: Error, Equatable {}
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Oops>()
        expectFailures([
            """
            expect(PassthroughSubject<Int, Oops>) received 1 event no step expected: failure(Oops()).

                expect(PassthroughSubject<Int, Oops>)
              ✓   .toEmit([1, 2])

                 received         expected
                 subscription
                 1                1          toEmit([1, 2])
                 2                2          toEmit([1, 2])
              →  failure(Oops())  (no step)
            """
        ]) {
            let expectation = expect(subject)
            #expect(expectation.values.isEmpty)
            #expect(expectation.completion == nil)
            #expect(expectation.events.count == 1)
            subject.send(1)
            subject.send(2)
            subject.send(completion: .failure(Oops()))
            #expect(expectation.values == [1, 2])
            #expect(expectation.completion == .failure(Oops()))
            #expect(expectation.events.count == 4)
            expectation.toEmit([1, 2])
            #expect(!expectation.hasFailed)
            let last = expectation.events.last.map { event in
                if case .completion(.failure(Oops())) = event.event { true } else { false }
            }
            #expect(last == true)
        }
    }

    @Test("hasFailed turns true when a step fails, before the failure is reported at the chain's end")
    func hasFailed() {
        let failures = recordingFailures {
            let expectation = expect(Just(1))
            #expect(!expectation.hasFailed)
            expectation.toEmit(2)
            #expect(expectation.hasFailed)
            #expect(expectation.values == [1])
            #expect(expectation.completion == .finished)
        }
        #expect(failures.count == 1)
    }

    @Test("a publisher that never subscribes is reported at expect")
    func neverSubscribes() {
        expectFailures([
            """
            expect(ExpectTests.NeverSubscribes) failed: the publisher never sent a subscription, so nothing could be \
            checked.

                expect(ExpectTests.NeverSubscribes)

                 received  expected
            """
        ]) {
            expect(Self.NeverSubscribes())
        }
    }

    // MARK: Threads

    @Test("values sent from several threads at once before the steps run are all recorded")
    func concurrentSends() {
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        expectNoFailures {
            let expectation = expect(subject)
            DispatchQueue.concurrentPerform(iterations: 4) { thread in
                for index in 0..<100 { subject.send(thread * 100 + index) }
            }
            #expect(expectation.values.sorted() == Array(0..<400))
            expectation.toEmit(expectation.values)
        }
    }

    @Test("reading the results while another thread sends is safe")
    func readWhileSending() async {
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        await expectFailures([]) {
            let expectation = expect(subject)
            await withTaskGroup(of: Void.self) { group in
                group.addTask {
                    for value in 0..<200 { subject.send(value) }
                    subject.send(completion: .finished)
                }
                group.addTask {
                    var seen = 0
                    while expectation.completion == nil {
                        let count = expectation.values.count
                        #expect(count >= seen)
                        seen = count
                        await Task.yield()
                    }
                }
            }
            #expect(expectation.values == Array(0..<200))
            expectation.toEmit(Array(0..<200)).thenFinish()
        }
    }

    @Test("an expectation made on another thread, fed from a third, is checked on the test's thread")
    func crossThread() async {
        nonisolated(unsafe) let subject = PassthroughSubject<Int, Never>()
        let log = FailureLog()
        let expectation = await Task.detached {
            FailureReporter.$current.withValue(log.reporter) { expect(subject) }
        }.value
        await Task.detached { subject.send(1) }.value
        expectation.toEmit(1)
        #expect(log.failures.isEmpty)
        #expect(expectation.values == [1])
    }

    /// A publisher that drops its subscriber without ever sending it a subscription.
    struct NeverSubscribes: Publisher {
        typealias Output = Int
        typealias Failure = Never

        func receive<S: Subscriber>(subscriber _: S) where S.Input == Int, S.Failure == Never {}
    }

    /// A publisher that sends `values` at once, whatever the demand — it breaks the subscription contract.
    struct IgnoresDemand: Publisher {
        typealias Output = Int
        typealias Failure = Never

        let values: [Int]

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
            subscriber.receive(subscription: Subscriptions.empty)
            for value in values { _ = subscriber.receive(value) }
        }
    }
}

@Suite("Timed events as values")
struct TimedEventEqualityTests {
    @Test("events compare as values, so a test can state a whole recorded timeline")
    func eventsCompareAsValues() {
        let clock = VirtualClock()
        let subject = PassthroughSubject<Int, Never>()
        clock.schedule(at: VirtualClock.Instant(ticks: 3)) { subject.send(1) }
        clock.schedule(at: VirtualClock.Instant(ticks: 5)) { subject.send(completion: .finished) }
        let expectation = expect(subject, on: clock).toEmit(1).thenFinish()
        #expect(
            expectation.events == [
                TimedEvent(.subscription, at: .tick(0)),
                TimedEvent(.value(1), at: .tick(3)),
                TimedEvent(.completion(.finished), at: .tick(5)),
            ])
        #expect(expectation.events != [TimedEvent(.subscription, at: .tick(1))])
        #expect(expectation.events.allSatisfy { !$0.breaksContract })
    }

    @Test("an event beyond the demand says it broke the contract")
    func breaksContract() {
        let failures = recordingFailures {
            let expectation = expect(ScriptedPublisher<Int, Never>.ignoringDemand([1, 2]), demand: .max(1))
                .toEmit(1).thenIgnoreRest()
            #expect(expectation.events.map(\.breaksContract) == [false, false, true])
        }
        // Reported even after thenIgnoreRest(): the headline names the rule.
        #expect(
            failures.map { String($0.message.prefix { $0 != "\n" }) } == [
                "expect(ScriptedPublisher<Int, Never>) ignores the rest of its events with thenIgnoreRest(), but not a "
                    + "broken contract: the publisher sent 2 beyond the demand requested (.max(1) in all), which breaks "
                    + "the subscription contract (rule 1.1)."
            ])
    }
}
