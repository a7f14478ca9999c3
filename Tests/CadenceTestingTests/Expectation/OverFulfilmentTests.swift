import Dispatch
import Testing

#if DEBUG
@testable import CadenceTesting
#else
import CadenceTesting
#endif

@Suite("Over-fulfilment and late events")
struct OverFulfilmentTests {
    typealias Scripted = ScriptedPublisher<Int, Never>

    // MARK: Events no step consumed

    @Test("An extra value and the finish after it, reported at expect's location")
    func extraValue() {
        let failures = recordingFailures {
            expect([1, 2].publisher).toEmit(1)
        }
        #expect(
            failures.map(\.message) == [
                """
                expect(Publishers.Sequence<Array<Int>, Never>) received 2 events no step expected: 2, finished.

                    expect(Publishers.Sequence<Array<Int>, Never>)
                  ✓   .toEmit(1)

                     received      expected
                     subscription
                     1             1          toEmit(1)
                  →  2             (no step)
                     finished      (no step)
                """
            ])
        #expect(failures.map(\.location.line) == [#line - 17])
    }

    @Test("A completion no step expected")
    func unexpectedCompletion() {
        let clock = VirtualClock()
        expectFailures([
            """
            expect(ScriptedPublisher<Int, Never>) received 1 event no step expected: finished at tick 2.

                expect(ScriptedPublisher<Int, Never>)
              ✓   .toEmit(1)

                 tick  received      expected
                    0  subscription
                    2  1             1          toEmit(1)
              →     2  finished      (no step)
            """
        ]) {
            // The finish comes with the value, at the same tick: the step that waited for the value saw it too.
            expect(Scripted.timed([(2, .value(1)), (2, .completion(.finished))], on: clock), on: clock).toEmit(1)
        }
    }

    @Test("More than three unconsumed events are listed three at a time, with how many more")
    func manyExtras() {
        expectFailures([
            """
            expect(Publishers.Sequence<ClosedRange<Int>, Never>) received 6 events no step expected: 1, 2, 3, and 3 \
            more.

                expect(Publishers.Sequence<ClosedRange<Int>, Never>)

                 received      expected
                 subscription
              →  1             (no step)
                 2             (no step)
                 3             (no step)
                 4             (no step)
                 5             (no step)
                 finished      (no step)
            """
        ]) {
            expect((1...5).publisher)
        }
    }

    // MARK: Contract violations

    @Test("A value after completion")
    func valueAfterCompletion() {
        expectFailures([
            """
            expect(ScriptedPublisher<Int, Never>) received 1 event no step expected: the publisher sent 2 after it \
            had completed, which breaks the subscription contract (rule 1.7).

                expect(ScriptedPublisher<Int, Never>)
              ✓   .toEmit(1)
              ✓   .thenFinish()

                 received             expected
                 subscription
                 1                    1          toEmit(1)
                 finished             finished   thenFinish()
              →  2 (contract broken)  (no step)
            """
        ]) {
            expect(Scripted.sending([1], thenFinishing: [2])).toEmit(1).thenFinish()
        }
    }

    @Test("A contract break is reported even after thenIgnoreRest(), the rest of the events are not")
    func contractBreakAfterIgnoreRest() {
        expectFailures([
            """
            expect(ScriptedPublisher<Int, Never>) ignores the rest of its events with thenIgnoreRest(), but not a \
            broken contract: the publisher sent 2 after it had completed, which breaks the subscription contract (rule \
            1.7).

                expect(ScriptedPublisher<Int, Never>)
              ✓   .toEmit(1)
              ✓   .thenIgnoreRest()

                 received             expected
                 subscription
                 1                    1          toEmit(1)
                 finished
              →  2 (contract broken)  (no step)
            """
        ]) {
            expect(Scripted.sending([1], thenFinishing: [2])).toEmit(1).thenIgnoreRest()
        }
        expectNoFailures {
            expect([1, 2, 3].publisher).toEmit(1).thenIgnoreRest()
        }
    }

    @Test("A second completion")
    func secondCompletion() {
        expectFailures([
            """
            expect(ScriptedPublisher<Int, Never>) received 1 event no step expected: the publisher completed a \
            second time (finished), which breaks the subscription contract (rule 1.7).

                expect(ScriptedPublisher<Int, Never>)
              ✓   .toEmit(1)
              ✓   .thenFinish()

                 received                    expected
                 subscription
                 1                           1          toEmit(1)
                 finished                    finished   thenFinish()
              →  finished (contract broken)  (no step)
            """
        ]) {
            expect(Scripted.finishingTwice(after: [1])).toEmit(1).thenFinish()
        }
    }

    @Test("A value beyond the requested demand, unconsumed")
    func beyondDemand() {
        expectFailures([
            """
            expect(ScriptedPublisher<Int, Never>) received 2 events no step expected: the publisher sent 2 beyond \
            the demand requested (.max(1) in all), which breaks the subscription contract (rule 1.1), finished.

                expect(ScriptedPublisher<Int, Never>)
              ✓   .toEmit(1)

                 received             expected
                 subscription
                 1                    1          toEmit(1)
              →  2 (contract broken)  (no step)
                 finished             (no step)
            """
        ]) {
            expect(Scripted.ignoringDemand([1, 2], then: .finished), demand: .max(1)).toEmit(1)
        }
    }

    @Test("A value beyond the requested demand, waited for by a step")
    func beyondDemandAwaited() {
        expectFailures([
            """
            toEmit([1, 2]) failed: value 2 of 2 (2) never arrived: the publisher sent 2 beyond the demand requested \
            (.max(1) in all), which breaks the subscription contract (rule 1.1).

                expect(ScriptedPublisher<Int, Never>)
              ✗   .toEmit([1, 2])

                 received             expected
                 subscription
                 1                    1         toEmit([1, 2])
              →  2 (contract broken)  2         toEmit([1, 2])
            """
        ]) {
            expect(Scripted.ignoringDemand([1, 2]), demand: .max(1)).toEmit([1, 2])
        }
    }

    @Test("A second subscription is cancelled and reported")
    func secondSubscription() {
        let publisher = Scripted.subscribingTwice(then: [1])
        expectFailures([
            """
            expect(ScriptedPublisher<Int, Never>) received 1 event no step expected: the publisher sent a second \
            subscription (it was cancelled), which breaks the subscription contract (rule 2.12).

                expect(ScriptedPublisher<Int, Never>)
              ✓   .toEmit(1)
              ✓   .thenFinish()

                 received                        expected
                 subscription
              →  subscription (contract broken)  (no step)
                 1                               1          toEmit(1)
                 finished                        finished   thenFinish()
            """
        ]) {
            expect(publisher).toEmit(1).thenFinish()
        }
        #expect(publisher.log.cancels == 1)
    }

    @Test(
        "A subscription sent after the publisher completed is a second one: cancelled and reported, nothing requested")
    func subscriptionAfterCompletion() {
        let publisher = Scripted([
            (nil, .subscription), (nil, .value(1)), (nil, .completion(.finished)),
            (nil, .subscription),
        ])
        expectFailures([
            """
            expect(ScriptedPublisher<Int, Never>) received 1 event no step expected: the publisher sent a second \
            subscription (it was cancelled), which breaks the subscription contract (rule 2.12).

                expect(ScriptedPublisher<Int, Never>)
              ✓   .toEmit(1)
              ✓   .thenFinish()

                 received                        expected
                 subscription
                 1                               1          toEmit(1)
                 finished                        finished   thenFinish()
              →  subscription (contract broken)  (no step)
            """
        ]) {
            expect(publisher).toEmit(1).thenFinish()
        }
        #expect(publisher.log.requests == [.unlimited])
        #expect(publisher.log.cancels == 1)
    }

    @Test("No event is lost: every event is in the timeline, whatever contract it broke, and listed as unexpected")
    func everyEventInTimeline() {
        let clock = VirtualClock()
        let publisher = Scripted(
            [
                (nil, .subscription), (1, .value(1)), (2, .value(2)), (2, .subscription), (3, .completion(.finished)),
                (4, .value(3)), (5, .completion(.finished)),
            ], clock: clock)
        expectFailures([
            """
            expect(ScriptedPublisher<Int, Never>) received 5 events no step expected: the publisher sent 2 at tick 2 \
            beyond the demand requested (.max(1) in all), which breaks the subscription contract (rule 1.1), the publisher sent \
            a second subscription at tick 2 (it was cancelled), which breaks the subscription contract (rule 2.12), finished at \
            tick 3, and 2 more.

                expect(ScriptedPublisher<Int, Never>)
              ✓   .toEmit(1)
              ✓   .thenEmitNothing(for: .ticks(0))

                 tick  received                        expected
                    0  subscription
                    1  1                               1          toEmit(1)
              →     2  2 (contract broken)             (no step)
                    2  subscription (contract broken)  (no step)
                    3  finished                        (no step)
                    4  3 (contract broken)             (no step)
                    5  finished (contract broken)      (no step)
            """
        ]) {
            let expectation = expect(publisher, on: clock, demand: .max(1)).toEmit(1).thenEmitNothing(for: .ticks(0))
            clock.run()
            #expect(expectation.events.count == 7)
        }
    }

    // MARK: A publisher that never subscribes

    @Test("expect on a publisher that never subscribes")
    func neverSubscribes() {
        expectFailures([
            """
            expect(ScriptedPublisher<Int, Never>) failed: the publisher never sent a subscription, so nothing could \
            be checked.

                expect(ScriptedPublisher<Int, Never>)

                 received  expected
            """
        ]) {
            expect(Scripted.neverSubscribing)
        }
    }

    @Test("A step on a publisher that never subscribes says so")
    func neverSubscribesWithStep() {
        let clock = VirtualClock()
        expectFailures([
            """
            toEmit(1) failed: the value (1) never arrived: the publisher never sent a subscription.

                expect(ScriptedPublisher<Int, Never>)
              ✗   .toEmit(1)

                 tick  received   expected
              →     0  (nothing)  1         toEmit(1)
            """
        ]) {
            expect(Scripted.neverSubscribing, on: clock).toEmit(1)
        }
    }

    @Test("Events before the subscription are listed; later ones are not a second failure")
    func valuesWithoutSubscription() {
        let clock = VirtualClock()
        expectFailures([
            """
            expect(ScriptedPublisher<Int, Never>) failed: the publisher never sent a subscription, so nothing could \
            be checked.

                expect(ScriptedPublisher<Int, Never>)

                 tick  received             expected
              →     0  1 (contract broken)  (no step)
            """
        ]) {
            expect(Scripted([(nil, .value(1)), (3, .value(2))], clock: clock), on: clock)
            clock.run()
        }
    }

    // MARK: Late events

    @Test("An event after the chain ended is reported at once, at expect's location, and only once")
    func lateEventAtOnce() {
        let subject = PassthroughSubject<Int, Never>()
        let log = FailureLog()
        let line = FailureReporter.$current.withValue(log.reporter) { () -> Int in
            expect(subject).toEmitNothing(for: .ticks(0))
            let line = #line - 1
            #expect(log.failures.isEmpty)
            subject.send(7)
            #expect(log.failures.count == 1)
            subject.send(8)
            subject.send(completion: .finished)
            return line
        }
        #expect(
            log.messages == [
                """
                expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended: 7.

                    expect(PassthroughSubject<Int, Never>)
                  ✓   .toEmitNothing(for: .ticks(0))

                     received      expected
                     subscription
                  →  7             (no step)
                """
            ])
        #expect(log.failures.map(\.location.line) == [line])
    }

    @Test("A chain that failed does not report late events as well")
    func lateAfterFailure() {
        let subject = PassthroughSubject<Int, Never>()
        let failures = recordingFailures {
            expect(subject).toFinish()
            subject.send(1)
        }
        #expect(failures.count == 1)
        #expect(failures.first?.message.hasPrefix("toFinish() failed: the finish never arrived") == true)
    }

    @Test("Late events from many threads are reported exactly once")
    func lateFromManyThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let log = FailureLog()
        FailureReporter.$current.withValue(log.reporter) {
            expect(subject).toEmitNothing(for: .ticks(0))
        }
        let shared = ThreadSafe(subject)
        DispatchQueue.concurrentPerform(iterations: 16) { index in shared.value.send(index) }
        #expect(log.failures.count == 1)
        #expect(log.messages.first?.hasPrefix("expect(PassthroughSubject<Int, Never>) received ") == true)
    }

    #if DEBUG
    // MARK: Late events inside a scope

    @Test("Inside a scope, late events wait for finish(), and come out together, one failure per chain, in order")
    func scopeHoldsLateEvents() {
        let clock = VirtualClock()
        let first = PassthroughSubject<Int, Never>()
        let second = PassthroughSubject<String, Never>()
        let scope = ExpectationScope()
        let log = FailureLog()
        FailureReporter.$current.withValue(log.reporter) {
            ExpectationScope.$current.withValue(scope) {
                expect(first, on: clock).toEmitNothing(for: .ticks(1))
                expect(second, on: clock).toEmitNothing(for: .ticks(2))
            }
        }
        clock.schedule(at: VirtualClock.Instant(ticks: 3)) { first.send(1) }
        clock.schedule(at: VirtualClock.Instant(ticks: 4)) {
            // Finishing, the subject lets its subscriber go: the scope must keep what it recorded until it finishes.
            second.send("a")
            second.send(completion: .finished)
        }
        clock.schedule(at: VirtualClock.Instant(ticks: 5)) { first.send(2) }
        clock.run()
        #expect(log.failures.isEmpty)
        scope.finish()
        #expect(
            log.messages == [
                """
                expect(PassthroughSubject<Int, Never>) received 2 events after its chain had ended: 1 at tick 3, 2 at \
                tick 5.

                    expect(PassthroughSubject<Int, Never>)
                  ✓   .toEmitNothing(for: .ticks(1))

                     tick  received      expected
                        0  subscription
                  →     3  1             (no step)
                        5  2             (no step)
                """,
                """
                expect(PassthroughSubject<String, Never>) received 2 events after its chain had ended: "a" at tick 4, \
                finished at tick 4.

                    expect(PassthroughSubject<String, Never>)
                  ✓   .toEmitNothing(for: .ticks(2))

                     tick  received      expected
                        1  subscription
                  →     4  "a"           (no step)
                        4  finished      (no step)
                """,
            ])
        scope.finish()
        #expect(log.failures.count == 2)
    }

    @Test("Inside a scope, late events from many threads are all kept, and reported in one failure")
    func scopeLateFromManyThreads() {
        let subject = PassthroughSubject<Int, Never>()
        let scope = ExpectationScope()
        let log = FailureLog()
        FailureReporter.$current.withValue(log.reporter) {
            ExpectationScope.$current.withValue(scope) { expect(subject).toEmitNothing(for: .ticks(0)) }
        }
        let shared = ThreadSafe(subject)
        DispatchQueue.concurrentPerform(iterations: 64) { index in shared.value.send(index) }
        #expect(log.failures.isEmpty)
        scope.finish()
        #expect(log.failures.count == 1)
        #expect(
            log.messages.first?.hasPrefix(
                "expect(PassthroughSubject<Int, Never>) received 64 events after its chain had ended: "
            ) == true)
    }

    @Test("Inside a scope, a chain with nothing late reports nothing at finish()")
    func scopeQuiet() {
        let scope = ExpectationScope()
        let log = FailureLog()
        FailureReporter.$current.withValue(log.reporter) {
            ExpectationScope.$current.withValue(scope) {
                expect(Just(1)).toEmit(1).thenFinish()
                expect(PassthroughSubject<Int, Never>()).thenIgnoreRest()
            }
        }
        scope.finish()
        #expect(log.failures.isEmpty)
    }

    @Test("A chain that ends after its scope finished watches for late events itself")
    func chainEndingAfterScopeFinished() {
        let subject = PassthroughSubject<Int, Never>()
        let scope = ExpectationScope()
        let log = FailureLog()
        var expectation: PublisherExpectation<Int, Never>? = FailureReporter.$current.withValue(log.reporter) {
            ExpectationScope.$current.withValue(scope) { expect(subject).toEmitNothing(for: .ticks(0)) }
        }
        scope.finish()
        #expect(expectation?.hasFailed == false)
        expectation = nil
        subject.send(1)
        #expect(log.messages.count == 1)
        #expect(
            log.messages.first?.hasPrefix(
                "expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended: 1."
            ) == true)
    }
    #endif
}
