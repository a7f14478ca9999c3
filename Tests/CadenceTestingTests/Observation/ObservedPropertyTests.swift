#if canImport(Observation)
@testable import CadenceTesting
import Dispatch
import Observation
import Testing

/// A model as apps write them with Observation.
@available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
@Observable final class ObservedCounter: @unchecked Sendable { // changed on the test's clock or the main queue only
    var count = 0
    var title = "Counter"
    @ObservationIgnored var ignored = 0
    var doubled: Int { count * 2 }
}

/// `expect(_:_:)` and `ObservedProperty`: what is recorded when, every kind of step, on virtual time and on the
/// main queue, and bad input.
@Suite struct ObservedPropertyTests {
    // MARK: What is recorded when

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func itRecordsTheValueNowThenEachChangeWithItsTick() {
        let clock = VirtualClock()
        let counter = ObservedCounter()
        clock.schedule(after: .seconds(1)) { counter.count = 1 }
        clock.schedule(after: .seconds(2)) { counter.count = 2 }
        expectNoFailures {
            let counting = expect(counter, \.count, on: clock)
            counting.toEmit([0, 1, 2], within: .seconds(2))
            #expect(
                counting.events == [
                    TimedEvent(.subscription, at: .tick(0)), TimedEvent(.value(0), at: .tick(0)),
                    TimedEvent(.value(1), at: .tick(1000)), TimedEvent(.value(2), at: .tick(2000)),
                ])
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func observationToldOfTheChangeBeforeTheNewValueWasStored() {
        let counter = ObservedCounter()
        let readInOnChange = Locked<[Int]>([])
        withObservationTracking {
            _ = counter.count
        } onChange: {
            readInOnChange.withLock { $0.append(counter.count) }
        }
        counter.count = 1
        // What a hand-written observer reads where Observation tells it: the old value. `expect` reads on the next turn.
        #expect(readInOnChange.withLock { $0 } == [0])
        let clock = VirtualClock()
        expectNoFailures {
            let counting = expect(counter, \.count, on: clock)
            counter.count = 2
            #expect(counting.values == [1])
            counting.toEmit([1, 2])
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func changesInOneTurnAreReadOnceAfterTheLast() {
        let clock = VirtualClock()
        let counter = ObservedCounter()
        clock.schedule(after: .ticks(5)) {
            counter.count = 1
            counter.count = 2
        }
        expectNoFailures {
            expect(counter, \.count, on: clock).toEmit([0, 2]).thenIgnoreRest()
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anAssignmentOfTheSameValueIsNoChange() {
        // The @Observable macro does not notify observers when an Equatable property is given the value it has.
        let clock = VirtualClock()
        let counter = ObservedCounter()
        clock.schedule(after: .ticks(5)) { counter.count = 0 }
        expectNoFailures {
            expect(counter, \.count, on: clock).toEmit(0).thenEmitNothing(for: .ticks(10))
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aComputedPropertyFollowsWhatItReads() {
        let clock = VirtualClock()
        let counter = ObservedCounter()
        clock.schedule(after: .ticks(5)) { counter.count = 21 }
        expectNoFailures {
            expect(counter, \.doubled, on: clock).toEmit([0, 42], within: .ticks(5))
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aChangeToAnotherPropertyIsNotRecorded() {
        let clock = VirtualClock()
        let counter = ObservedCounter()
        clock.schedule(after: .ticks(5)) { counter.title = "Renamed" }
        clock.schedule(after: .ticks(9)) { counter.count = 1 }
        expectNoFailures {
            expect(counter, \.count, on: clock).toEmit([0, 1], within: .ticks(9))
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func theAmbientClockIsTheDefault() {
        withVirtualTime { clock in
            let counter = ObservedCounter()
            clock.schedule(after: .seconds(1)) { counter.count = 1 }
            expectNoFailures {
                expect(counter, \.count).toEmit([0, 1], within: .seconds(1))
            }
            #expect(clock.now.ticks == 1000)
        }
    }

    // MARK: Every step

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func everyKindOfStepApplies() {
        let clock = VirtualClock()
        let counter = ObservedCounter()
        for (tick, count) in [(10, 1), (20, 2), (30, 3), (40, 4)] {
            clock.schedule(after: .ticks(tick)) { counter.count = count }
        }
        expectNoFailures {
            expect(counter, \.count, on: clock)
                .toEmit(0)
                .thenEmitNothing(for: .ticks(9))
                .thenEmit(where: { $0 == 1 }, within: .ticks(1))
                .thenEmit(count: 1)
                .thenEventuallyEmit(4)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func demandIsHonouredAndTheLatestValueWaits() {
        let clock = VirtualClock()
        let counter = ObservedCounter()
        clock.schedule(after: .ticks(10)) { counter.count = 1 }
        clock.schedule(after: .ticks(20)) { counter.count = 2 }
        expectNoFailures {
            let counting = expect(counter, \.count, on: clock, demand: .none)
            clock.advance(by: .ticks(30))
            #expect(counting.values == [])
            counting.thenRequest(.max(1)).toEmit(2)
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anExtraChangeIsAnOverFulfilment() {
        let clock = VirtualClock()
        let counter = ObservedCounter()
        expectFailures([
            """
            expect(ObservedProperty<ObservedCounter, Int>) received 1 event no step expected: 1 at tick 0.

                expect(ObservedProperty<ObservedCounter, Int>)
              ✓   .toEmit(0)

                 tick  received      expected
                    0  subscription
                    0  0             0          toEmit(0)
              →     0  1             (no step)
            """
        ]) {
            let counting = expect(counter, \.count, on: clock)
            counter.count = 1
            counting.toEmit(0)
            clock.advance(by: .zero)
        }
    }

    // MARK: Bad input

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aPropertyThatNeverChangesFailsTheStepThatWaitsForAChange() {
        let clock = VirtualClock()
        let counter = ObservedCounter()
        expectFailures([
            """
            toEmit([0, 1], within: .seconds(1)) failed: value 2 of 2 (1) did not arrive within 1000 ticks (by tick 1000).

                expect(ObservedProperty<ObservedCounter, Int>)
              ✗   .toEmit([0, 1], within: .seconds(1))

                 tick  received      expected
                    0  subscription
                    0  0             0         toEmit([0, 1], within: .seconds(1))
              →  1000  (nothing)     1         toEmit([0, 1], within: .seconds(1))
            """
        ]) {
            expect(counter, \.count, on: clock).toEmit([0, 1], within: .seconds(1))
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anUntrackedPropertySendsItsValueOnceAndNeverFinishes() {
        let clock = VirtualClock()
        let counter = ObservedCounter()
        clock.schedule(after: .ticks(5)) { counter.ignored = 1 }
        expectFailures([
            """
            toEmit([0, 1]) failed: value 2 of 2 (1) never arrived: the clock went idle at tick 5 with nothing scheduled — work on a real DispatchQueue, RunLoop or URLSession never runs on virtual time.

                expect(ObservedProperty<ObservedCounter, Int>)
              ✗   .toEmit([0, 1])

                 tick  received      expected
                    0  subscription
                    0  0             0         toEmit([0, 1])
              →     5  (nothing)     1         toEmit([0, 1])
            """
        ]) {
            expect(counter, \.ignored, on: clock).toEmit([0, 1])
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func anObjectReleasedDuringTheExpectationFinishesIt() {
        let clock = VirtualClock()
        var counter: ObservedCounter? = ObservedCounter()
        clock.schedule(after: .ticks(5)) { counter?.count = 1 }
        clock.schedule(after: .ticks(8)) { counter = nil }
        expectNoFailures {
            expect(counter!, \.count, on: clock).toEmit([0, 1]).thenFinish(within: .ticks(3))
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aChangeNotYetReadWhenTheObjectGoesIsLost() {
        let clock = VirtualClock()
        var counter: ObservedCounter? = ObservedCounter()
        clock.schedule(after: .ticks(5)) {
            counter?.count = 1
            counter = nil
        }
        expectNoFailures {
            expect(counter!, \.count, on: clock).toEmit(0).thenFinish(within: .ticks(5))
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aReleasedObjectIsReportedWhereAValueWasExpected() {
        let clock = VirtualClock()
        var counter: ObservedCounter? = ObservedCounter()
        clock.schedule(after: .ticks(5)) { counter = nil }
        expectFailures([
            """
            toEmit([0, 1]) failed: expected value 2 of 2 (1), received finished at tick 5.

                expect(ObservedProperty<ObservedCounter, Int>)
              ✗   .toEmit([0, 1])

                 tick  received      expected
                    0  subscription
                    0  0             0         toEmit([0, 1])
              →     5  finished      1         toEmit([0, 1])
            """
        ]) {
            expect(counter!, \.count, on: clock).toEmit([0, 1])
        }
    }

    // MARK: The end of the test

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test(.reportsFailures([]), .virtualTime)
    func anObjectReleasedAsTheTestBodyReturnsIsNoLateEvent() throws {
        // Before: "… received 1 event after its chain had ended: finished at tick 500.", once the body had returned
        // and released the counter, although the chain needs no `thenIgnoreRest()`.
        let clock = try #require(VirtualClock.current)
        let counter = ObservedCounter()
        clock.schedule(after: .ticks(500)) { counter.count = 1 }
        expect(counter, \.count).toEmit([0, 1], within: .ticks(500))
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test(
        .reportsFailures([
            """
            expect(ObservedProperty<ObservedCounter, Int>) received 1 event after its chain had ended: finished at tick 0.

                expect(ObservedProperty<ObservedCounter, Int>)
              ✓   .toEmit(0)

                 tick  received      expected
                    0  subscription
                    0  0             0          toEmit(0)
              →     0  finished      (no step)
            """
        ]),
        .virtualTime
    )
    func anObjectReleasedWhileTheTestBodyRunsIsStillALateEvent() throws {
        let clock = try #require(VirtualClock.current)
        var counter: ObservedCounter? = ObservedCounter()
        expect(counter!, \.count).toEmit(0)
        counter = nil
        clock.advance(by: .ticks(500))
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func withVirtualTimeAnObjectReleasedAsTheBodyReturnsIsNoLateEvent() {
        expectNoFailures {
            withVirtualTime { clock in
                let counter = ObservedCounter()
                clock.schedule(after: .ticks(500)) { counter.count = 1 }
                expect(counter, \.count).toEmit([0, 1], within: .ticks(500))
            }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func withVirtualTimeAnObjectReleasedWhileTheBodyRunsIsStillALateEvent() {
        expectFailures([
            """
            expect(ObservedProperty<ObservedCounter, Int>) received 1 event after its chain had ended: finished at tick 300.

                expect(ObservedProperty<ObservedCounter, Int>)
              ✓   .toEmit(0)

                 tick  received      expected
                    0  subscription
                    0  0             0          toEmit(0)
              →   300  finished      (no step)
            """
        ]) {
            withVirtualTime { clock in
                var counter: ObservedCounter? = ObservedCounter()
                clock.schedule(after: .ticks(300)) { counter = nil }
                expect(counter!, \.count).toEmit(0)
                clock.advance(by: .ticks(500))
            }
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func withoutAScopeAReleaseAfterTheChainEndedIsNoLateEvent() {
        // Before: "… received 1 event after its chain had ended: finished at tick 0." In a Swift Testing test without
        // the trait nothing tells the release at the body's return from one in the body, so neither is reported.
        let clock = VirtualClock()
        var counter: ObservedCounter? = ObservedCounter()
        expectNoFailures {
            expect(counter!, \.count, on: clock).toEmit(0)
            counter = nil
            clock.run()
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func withoutAScopeAChangeAfterTheChainEndedIsStillALateEvent() {
        let clock = VirtualClock()
        var counter: ObservedCounter? = ObservedCounter()
        expectFailures([
            """
            expect(ObservedProperty<ObservedCounter, Int>) received 1 event after its chain had ended: 1 at tick 4.

                expect(ObservedProperty<ObservedCounter, Int>)
              ✓   .toEmit(0)

                 tick  received      expected
                    0  subscription
                    0  0             0          toEmit(0)
              →     4  1             (no step)
            """
        ]) {
            expect(counter!, \.count, on: clock).toEmit(0)
            clock.advance(by: .ticks(4))
            counter?.count = 1
            clock.run()
            counter = nil
            clock.run()
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func aPublisherThatFinishesAfterTheBodyReturnsIsStillALateEvent() {
        // Only the release of an observed object is let go: any other publisher's late `finished` is an event.
        expectFailures([
            """
            expect(PassthroughSubject<Int, Never>) received 1 event after its chain had ended: finished at tick 0.

                expect(PassthroughSubject<Int, Never>)
              ✓   .toEmit(1)

                 tick  received      expected
                    0  subscription
                    0  1             1          toEmit(1)
              →     0  finished      (no step)
            """
        ]) {
            withVirtualTime { clock in
                let subject = PassthroughSubject<Int, Never>()
                let ones = expect(subject)
                subject.send(1)
                ones.toEmit(1)
                clock.schedule(after: .zero) { subject.send(completion: .finished) }
            }
        }
    }

    // MARK: The wall clock

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func withoutAClockItReadsOnTheMainQueue() async {
        let counter = ObservedCounter()
        await expectFailures([]) {
            let counting = expect(counter, \.count, on: nil)
            DispatchQueue.main.async { counter.count = 1 }
            await counting.toEmit([0, 1], timeout: .seconds(60))
        }
    }

    @available(macOS 14.0, iOS 17.0, tvOS 17.0, watchOS 10.0, *)
    @Test func withoutAClockAWaitForAChangeThatNeverComesTimesOut() async {
        let counter = ObservedCounter()
        let failures = await recordingFailures {
            await expect(counter, \.count, on: nil).toEmit([0, 1], timeout: .milliseconds(50))
        }
        // The rest of the message holds wall-clock times, which vary from run to run.
        #expect(
            failures.map { $0.message.prefix { $0 != "\n" } } == [
                "toEmit([0, 1], timeout: .milliseconds(50)) failed: value 2 of 2 (1) did not arrive within the 50 ms timeout."
            ])
    }
}
#endif
