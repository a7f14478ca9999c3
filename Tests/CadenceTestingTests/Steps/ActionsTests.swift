import CadenceTesting
import Testing

@Suite("thenRequest / thenCancel / thenIgnoreRest")
struct ActionsTests {
    typealias Scripted = ScriptedPublisher<Int, Never>

    // MARK: thenRequest

    @Test("Back-pressure: values arrive only as the chain requests them")
    func backPressure() {
        let clock = VirtualClock()
        let subject = PassthroughSubject<Int, Never>()
        for value in 1...3 {
            clock.schedule(at: VirtualClock.Instant(ticks: Int64(value))) { subject.send(value) }
        }
        clock.schedule(at: VirtualClock.Instant(ticks: 4)) { subject.send(completion: .finished) }
        expectNoFailures {
            expect(subject, on: clock, demand: .none)
                .thenRequest(.max(1)).thenEmit(1)
                .thenRequest(.max(2)).thenEmit([2, 3])
                .thenFinish()
        }
        #expect(clock.now.ticks == 4)
    }

    @Test("Each request reaches the subscription as written; the initial .none is not sent")
    func requestsReachSubscription() {
        let publisher = Scripted.ignoringDemand([])
        expectNoFailures {
            expect(publisher, demand: .none).thenRequest(.max(1)).thenRequest(.unlimited).thenRequest(.max(2))
        }
        #expect(publisher.log.requests == [.max(1), .unlimited, .max(2)])
    }

    @Test("A publisher that respects demand sends more once more is requested")
    func sequenceOnDemand() {
        expectNoFailures {
            expect([1, 2, 3].publisher, demand: .max(1)).toEmit(1).thenRequest(.max(2)).thenEmit([2, 3]).thenFinish()
        }
    }

    @Test("A step waiting for a value the demand does not allow says the demand was used up")
    func waitingBeyondDemand() {
        let clock = VirtualClock()
        let subject = PassthroughSubject<Int, Never>()
        clock.schedule(at: VirtualClock.Instant(ticks: 1)) { subject.send(1) }
        clock.schedule(at: VirtualClock.Instant(ticks: 2)) { subject.send(2) }
        expectFailures([
            """
            toEmit([1, 2]) failed: value 2 of 2 (2) never arrived: the subscriber had no \
            demand left (.max(1) requested in all) — request more with \
            thenRequest(_:).

                expect(PassthroughSubject<Int, Never>)
              ✗   .toEmit([1, 2])

                 tick  received      expected
                    0  subscription
                    1  1             1         toEmit([1, 2])
              →     2  (nothing)     2         toEmit([1, 2])
            """
        ]) {
            expect(subject, on: clock, demand: .max(1)).toEmit([1, 2])
        }
    }

    @Test("Without a clock, the demand note follows the synchronous-delivery reason")
    func waitingBeyondDemandWithoutClock() {
        expectFailures([
            """
            thenEmit(3) failed: the value (3) never arrived: the subscriber had no \
            demand left (.max(2) requested in all) — request more with thenRequest(_:).

                expect(Publishers.Sequence<Array<Int>, Never>)
              ✓   .toEmit([1, 2])
              ✗   .thenEmit(3)

                 received      expected
                 subscription
                 1             1         toEmit([1, 2])
                 2             2         toEmit([1, 2])
              →  (nothing)     3         thenEmit(3)
            """
        ]) {
            expect([1, 2, 3].publisher, demand: .max(2)).toEmit([1, 2]).thenEmit(3)
        }
    }

    @Test("Requesting .none is rejected")
    func requestNone() {
        expectFailures([
            """
            thenRequest(.none) failed: a demand of .none asks for nothing, and a subscription must not be asked for \
            it; request .max(1) or more, or .unlimited.

                expect(PassthroughSubject<Int, Never>)
              ✗   .thenRequest(.none)
                  .thenEmit(1)  (not checked)

                 received      expected
                 subscription
              →  (nothing)     (a valid step)  thenRequest(.none)
            """
        ]) {
            expect(PassthroughSubject<Int, Never>(), demand: .none).thenRequest(.none).thenEmit(1)
        }
    }

    @Test("Requesting after the publisher finished fails, naming when it finished")
    func requestAfterFinish() {
        let clock = VirtualClock()
        expectFailures([
            """
            thenRequest(.max(1)) failed: the publisher had already finished at tick 2, so nothing more can be \
            requested.

                expect(ScriptedPublisher<Int, Never>)
              ✓   .toEmit(1)
              ✓   .thenFinish()
              ✗   .thenRequest(.max(1))

                 tick  received      expected
                    0  subscription
                    1  1             1                    toEmit(1)
                    2  finished      finished             thenFinish()
              →     2  (nothing)     a live subscription  thenRequest(.max(1))
            """
        ]) {
            expect(Scripted.timed([(1, .value(1)), (2, .completion(.finished))], on: clock), on: clock)
                .toEmit(1).thenFinish().thenRequest(.max(1))
        }
    }

    @Test("Requesting after the publisher failed fails, naming the error")
    func requestAfterFailure() {
        expectFailures([
            """
            thenRequest(.unlimited) failed: the publisher had already failed with TestError.offline, so nothing \
            more can be requested.

                expect(Fail<Int, TestError>)
              ✓   .toFail()
              ✗   .thenRequest(.unlimited)

                 received                    expected
                 subscription
                 failure(TestError.offline)  failure              toFail()
              →  (nothing)                   a live subscription  thenRequest(.unlimited)
            """
        ]) {
            expect(Fail<Int, TestError>(error: .offline)).toFail().thenRequest(.unlimited)
        }
    }

    @Test("Requesting after thenCancel() fails")
    func requestAfterCancel() {
        expectFailures([
            """
            thenRequest(.max(1)) failed: the subscription had already been cancelled, so nothing more can be \
            requested.

                expect(PassthroughSubject<Int, Never>)
              ✓   .thenCancel()
              ✗   .thenRequest(.max(1))

                 received      expected
                 subscription
              →  (nothing)     a live subscription  thenRequest(.max(1))
            """
        ]) {
            expect(PassthroughSubject<Int, Never>(), demand: .none).thenCancel().thenRequest(.max(1))
        }
    }

    @Test("Requesting from a publisher that never subscribed fails")
    func requestWithoutSubscription() {
        expectFailures([
            """
            thenRequest(.max(1)) failed: the publisher never sent a subscription, so nothing more can be requested.

                expect(ScriptedPublisher<Int, Never>)
              ✗   .thenRequest(.max(1))

                 received   expected
              →  (nothing)  a live subscription  thenRequest(.max(1))
            """
        ]) {
            expect(Scripted.neverSubscribing).thenRequest(.max(1))
        }
    }

    // MARK: thenCancel

    @Test("thenCancel() cancels the subscription once; nothing arrives afterwards")
    func cancels() {
        let clock = VirtualClock()
        let subject = PassthroughSubject<Int, Never>()
        clock.schedule(at: VirtualClock.Instant(ticks: 1)) { subject.send(1) }
        clock.schedule(at: VirtualClock.Instant(ticks: 2)) { subject.send(2) }
        let publisher = Scripted.ignoringDemand([])
        expectNoFailures {
            expect(subject, on: clock).toEmit(1).thenCancel().thenEmitNothing(for: .ticks(5))
            expect(publisher).thenCancel()
        }
        #expect(clock.now.ticks == 6)
        #expect(publisher.log.cancels == 1)
    }

    @Test("An event after thenCancel() that no step consumed is over-fulfilment, said to come after the cancel")
    func eventAfterCancel() {
        expectFailures([
            """
            expect(ScriptedPublisher<Int, Never>) received 1 event no step expected: the publisher sent 9 after the \
            subscription was cancelled (rule 1.8).

                expect(ScriptedPublisher<Int, Never>)
              ✓   .toEmit(1)
              ✓   .thenCancel()

                 received             expected
                 subscription
                 1                    1          toEmit(1)
              →  9 (contract broken)  (no step)
            """
        ]) {
            expect(Scripted([(nil, .subscription), (nil, .value(1))], onCancel: [9])).toEmit(1).thenCancel()
        }
    }

    @Test("An event after thenCancel() that arrives once the chain has ended is a late event")
    func lateEventAfterCancel() {
        let clock = VirtualClock()
        let publisher = Scripted.timed([(1, .value(1)), (3, .value(3))], on: clock)
        expectFailures([
            """
            expect(ScriptedPublisher<Int, Never>) received 1 event after its chain had ended: the publisher sent 3 \
            at tick 3 after the subscription was cancelled (rule 1.8).

                expect(ScriptedPublisher<Int, Never>)
              ✓   .toEmit(1)
              ✓   .thenCancel()

                 tick  received             expected
                    0  subscription
                    1  1                    1          toEmit(1)
              →     3  3 (contract broken)  (no step)
            """
        ]) {
            expect(publisher, on: clock).toEmit(1).thenCancel()
            clock.run()
        }
        #expect(publisher.log.cancels == 1)
    }

    @Test("Cancelling after the publisher finished fails")
    func cancelAfterFinish() {
        expectFailures([
            """
            thenCancel() failed: the publisher had already finished, so there was nothing to cancel.

                expect(Just<Int>)
              ✓   .toEmit(1)
              ✗   .thenCancel()

                 received      expected
                 subscription
                 1             1                    toEmit(1)
                 finished
              →  (nothing)     a live subscription  thenCancel()
            """
        ]) {
            expect(Just(1)).toEmit(1).thenCancel()
        }
    }

    @Test("Cancelling twice fails at the second")
    func cancelTwice() {
        expectFailures([
            """
            thenCancel() failed: the subscription had already been cancelled, so there was nothing to cancel.

                expect(PassthroughSubject<Int, Never>)
              ✓   .thenCancel()
              ✗   .thenCancel()

                 received      expected
                 subscription
              →  (nothing)     a live subscription  thenCancel()
            """
        ]) {
            expect(PassthroughSubject<Int, Never>()).thenCancel().thenCancel()
        }
    }

    @Test("Cancelling a publisher that never subscribed fails")
    func cancelWithoutSubscription() {
        expectFailures([
            """
            thenCancel() failed: the publisher never sent a subscription, so there was nothing to cancel.

                expect(ScriptedPublisher<Int, Never>)
              ✗   .thenCancel()

                 received   expected
              →  (nothing)  a live subscription  thenCancel()
            """
        ]) {
            expect(Scripted.neverSubscribing).thenCancel()
        }
    }

    // MARK: thenIgnoreRest

    @Test("thenIgnoreRest() lets unconsumed events and late events go unreported")
    func ignoresRest() {
        let subject = PassthroughSubject<Int, Never>()
        expectNoFailures {
            expect([1, 2, 3].publisher).toEmit(1).thenIgnoreRest()
            expect(subject).thenIgnoreRest()
            subject.send(1)
            subject.send(completion: .finished)
        }
    }

    @Test("thenIgnoreRest() still reports a contract break among the events it let go")
    func contractBreakBeforeIgnoreRest() {
        expectFailures([
            """
            expect(ScriptedPublisher<Int, Never>) ignores the rest of its events with thenIgnoreRest(), but not a \
            broken contract: the publisher completed a second time (finished), which breaks the subscription contract \
            (rule 1.7).

                expect(ScriptedPublisher<Int, Never>)
              ✓   .thenIgnoreRest()

                 received                    expected
                 subscription
                 1
                 finished
              →  finished (contract broken)  (no step)
            """
        ]) {
            expect(Scripted.finishingTwice(after: [1])).thenIgnoreRest()
        }
    }

    @Test("A step that failed before thenIgnoreRest() is still reported")
    func failureBeforeIgnoreRest() {
        expectFailures([
            """
            toEmit(1) failed: the value differs: expected 1, received 2.

                expect(Just<Int>)
              ✗   .toEmit(1)
                  .thenIgnoreRest()  (not checked)

                 received      expected
                 subscription
              →  2             1         toEmit(1)
                 finished
            """
        ]) {
            expect(Just(2)).toEmit(1).thenIgnoreRest()
        }
    }

    @Test("Steps after thenIgnoreRest() are still checked")
    func stepsAfterIgnoreRest() {
        expectFailures([
            """
            thenEmit(5) failed: the value differs: expected 5, received 2.

                expect(Publishers.Sequence<Array<Int>, Never>)
              ✓   .toEmit(1)
              ✓   .thenIgnoreRest()
              ✗   .thenEmit(5)

                 received      expected
                 subscription
                 1             1         toEmit(1)
              →  2             5         thenEmit(5)
                 3
                 finished
            """
        ]) {
            expect([1, 2, 3].publisher).toEmit(1).thenIgnoreRest().thenEmit(5)
        }
    }
}
