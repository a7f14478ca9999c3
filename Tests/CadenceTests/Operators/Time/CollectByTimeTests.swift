import Cadence
import Dispatch
import Testing

@Suite("Publishers.CollectByTime")
struct CollectByTimeTests {
    /// A subject, a `collect(_:options:)` on a 10-tick interval, and a subscriber that logs each event with its tick.
    private struct Fixture {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let log = LockedBox<[String]>([])
        let subscriber: TestSubscriber<[Int], TestError>

        init(count: Int? = nil, initialDemand: Subscribers.Demand = .unlimited, answer: Subscribers.Demand = .none) {
            let clock = clock
            let log = log
            subscriber = TestSubscriber(initialDemand: initialDemand) { group in
                log.append("\(group)@\(clock.now.ticks)")
                return answer
            }
            let strategy: Publishers.TimeGroupingStrategy<VirtualScheduler> =
                if let count {
                    .byTimeOrCount(clock.scheduler, .ticks(10), count)
                } else {
                    .byTime(clock.scheduler, .ticks(10))
                }
            let upstream = upstream
            let subscriber = subscriber
            upstream.collect(strategy).subscribe(subscriber)
        }

        /// Sends `values` from an action at `tick`.
        func send(_ values: [Int], at tick: Int64) {
            let upstream = upstream
            clock.schedule(at: VirtualClock.Instant(ticks: tick)) {
                for value in values { upstream.send(value) }
            }
        }

        /// Sends `completion` from an action at `tick`, logging it with its tick when it reaches the subscriber.
        func send(completion: Subscribers.Completion<TestError>, at tick: Int64) {
            let upstream = upstream
            clock.schedule(at: VirtualClock.Instant(ticks: tick)) { upstream.send(completion: completion) }
        }

        var completions: [Subscribers.Completion<TestError>] { subscriber.completions }
    }

    // MARK: .byTime

    @Test func byTimeSendsEachNonEmptyWindowAtItsEnd() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.upstream.send(2)
        fixture.send([3], at: 25)
        fixture.clock.advance(by: .ticks(9))
        #expect(fixture.log.value == [])
        fixture.clock.advance(by: .ticks(1))
        #expect(fixture.log.value == ["[1, 2]@10"])
        fixture.clock.advance(by: .ticks(10)) // the window [10, 20) is empty: nothing
        #expect(fixture.log.value == ["[1, 2]@10"])
        fixture.clock.advance(by: .ticks(10))
        #expect(fixture.log.value == ["[1, 2]@10", "[3]@30"])
        #expect(fixture.clock.pendingCount == 1) // the repeating timer
        #expect(fixture.completions == [])
    }

    @Test func aValueSentOnTheBoundaryTickAfterTheTimerBelongsToTheNextWindow() {
        let fixture = Fixture()
        // Scheduled after the timer, so it runs after the tick at 10 on the same tick: first in, first out.
        fixture.send([1], at: 10)
        fixture.clock.advance(by: .ticks(10))
        #expect(fixture.log.value == [])
        fixture.clock.advance(by: .ticks(10))
        #expect(fixture.log.value == ["[1]@20"])
    }

    @Test func byTimeAsksTheUpstreamForOneValueAtATime() {
        let fixture = Fixture(initialDemand: .max(2))
        let upstream = fixture.upstream.subscription
        #expect(upstream.requests == [.max(1)])
        #expect(fixture.upstream.send(1) == .max(1))
        #expect(fixture.upstream.send(2) == .max(1))
        fixture.subscriber.request(.max(3))
        #expect(upstream.requests == [.max(1), .max(1)])
    }

    @Test func byTimeAsksNothingBeforeTheDownstreamDoes() {
        let fixture = Fixture(initialDemand: .none)
        #expect(fixture.upstream.subscription.requests == [])
        #expect(fixture.clock.pendingCount == 1)
    }

    @Test func aTickWithoutDemandLeavesTheWindowOpen() {
        let fixture = Fixture(initialDemand: .max(1))
        fixture.send([1, 2], at: 5)
        fixture.send([3], at: 15)
        fixture.send([4], at: 25)
        fixture.clock.advance(to: VirtualClock.Instant(ticks: 30))
        #expect(fixture.log.value == ["[1, 2]@10"])
        fixture.subscriber.request(.max(1))
        fixture.clock.advance(by: .ticks(9)) // the request alone sends nothing before the next tick
        #expect(fixture.log.value == ["[1, 2]@10"])
        fixture.clock.advance(by: .ticks(1))
        #expect(fixture.log.value == ["[1, 2]@10", "[3, 4]@40"])
    }

    @Test func theDownstreamsAnswerToAGroupCountsAsDemand() {
        let fixture = Fixture(initialDemand: .max(1), answer: .max(1))
        fixture.send([1], at: 5)
        fixture.send([2], at: 15)
        fixture.send([3], at: 25)
        fixture.clock.advance(by: .ticks(30))
        #expect(fixture.log.value == ["[1]@10", "[2]@20", "[3]@30"])
    }

    @Test func finishedSendsTheOpenWindowThenFinishesOnTheScheduler() {
        let fixture = Fixture()
        fixture.send([1], at: 3)
        fixture.send(completion: .finished, at: 5)
        fixture.clock.advance(by: .ticks(4))
        #expect(fixture.log.value == [])
        fixture.clock.advance(by: .ticks(1))
        #expect(fixture.log.value == ["[1]@5"])
        #expect(fixture.completions == [.finished])
        #expect(fixture.clock.pendingCount == 0) // the timer is cancelled
    }

    @Test func finishedIsNotDeliveredBeforeTheClockRuns() {
        let fixture = Fixture()
        fixture.upstream.send(1)
        fixture.upstream.send(completion: .finished)
        #expect(fixture.subscriber.events == [.subscription])
        #expect(fixture.clock.pendingCount == 1) // the drain; the timer is gone
        fixture.clock.advance(by: .ticks(0))
        #expect(fixture.subscriber.events == [.subscription, .value([1]), .completion(.finished)])
        #expect(fixture.clock.pendingCount == 0)
    }

    @Test func finishedWithAnEmptyWindowSendsNoGroup() {
        let fixture = Fixture()
        fixture.send([1], at: 5)
        fixture.send(completion: .finished, at: 10) // after the tick at 10 sent [1]
        fixture.clock.advance(by: .ticks(10))
        #expect(fixture.log.value == ["[1]@10"])
        #expect(fixture.completions == [.finished])
    }

    @Test func theLastGroupWaitsForDemandAndTheCompletionWaitsForIt() {
        let fixture = Fixture(initialDemand: .none)
        fixture.upstream.send(1)
        fixture.upstream.send(completion: .finished)
        fixture.clock.advance(by: .ticks(50))
        #expect(fixture.subscriber.events == [.subscription])
        fixture.subscriber.request(.max(1))
        #expect(fixture.subscriber.events == [.subscription])
        fixture.clock.advance(by: .ticks(0))
        #expect(fixture.subscriber.events == [.subscription, .value([1]), .completion(.finished)])
    }

    @Test func failureDropsTheOpenWindowAndFailsOnTheScheduler() {
        let fixture = Fixture()
        fixture.send([1, 2], at: 5)
        fixture.send([3], at: 12)
        fixture.send(completion: .failure(.oops), at: 15)
        fixture.clock.advance(by: .ticks(14))
        #expect(fixture.log.value == ["[1, 2]@10"])
        #expect(fixture.completions == [])
        fixture.clock.advance(by: .ticks(1))
        #expect(fixture.subscriber.events == [.subscription, .value([1, 2]), .completion(.failure(.oops))])
        #expect(fixture.clock.pendingCount == 0)
        #expect(fixture.upstream.subscription.cancelCount == 0)
    }

    @Test func aSynchronousUpstreamIsCollectedIntoOneGroup() {
        let clock = VirtualClock()
        let subscriber = TestSubscriber<[Int], Never>()
        (1...3).publisher.collect(.byTime(clock.scheduler, .ticks(10))).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        clock.advance(by: .ticks(0))
        #expect(subscriber.events == [.subscription, .value([1, 2, 3]), .completion(.finished)])
    }

    // MARK: .byTimeOrCount

    @Test func byTimeOrCountSendsAFullGroupOnTheSchedulerAndRestartsTheWindow() {
        let fixture = Fixture(count: 3)
        fixture.send([1, 2, 3, 4], at: 2)
        fixture.clock.advance(by: .ticks(2))
        #expect(fixture.log.value == ["[1, 2, 3]@2"])
        // The count ended the first window at tick 2, so the next one ends at 12, not 10.
        fixture.clock.advance(by: .ticks(8))
        #expect(fixture.log.value == ["[1, 2, 3]@2"])
        fixture.clock.advance(by: .ticks(2))
        #expect(fixture.log.value == ["[1, 2, 3]@2", "[4]@12"])
        #expect(fixture.clock.pendingCount == 1)
    }

    @Test func aFullGroupIsNotDeliveredBeforeTheClockRuns() {
        let fixture = Fixture(count: 2)
        #expect(fixture.upstream.send(1) == .none)
        #expect(fixture.upstream.send(2) == .none)
        #expect(fixture.subscriber.events == [.subscription])
        fixture.clock.advance(by: .ticks(0))
        #expect(fixture.subscriber.events == [.subscription, .value([1, 2])])
    }

    @Test func byTimeOrCountSendsAPartialGroupWhenTheWindowEnds() {
        let fixture = Fixture(count: 5)
        fixture.send([1, 2], at: 4)
        fixture.send([3, 4, 5, 6, 7, 8], at: 14)
        fixture.clock.advance(by: .ticks(10))
        #expect(fixture.log.value == ["[1, 2]@10"])
        fixture.clock.advance(by: .ticks(13)) // the count restarted the window at 14: it ends at 24
        #expect(fixture.log.value == ["[1, 2]@10", "[3, 4, 5, 6, 7]@14"])
        fixture.clock.advance(by: .ticks(1))
        #expect(fixture.log.value == ["[1, 2]@10", "[3, 4, 5, 6, 7]@14", "[8]@24"])
    }

    @Test func byTimeOrCountRequestsCountTimesTheDemand() {
        let fixture = Fixture(count: 3, initialDemand: .max(2), answer: .max(1))
        let upstream = fixture.upstream.subscription
        #expect(upstream.requests == [.max(6)])
        fixture.send([1, 2, 3], at: 1)
        fixture.clock.advance(by: .ticks(1))
        #expect(fixture.log.value == ["[1, 2, 3]@1"])
        #expect(upstream.answered == [.none, .none, .none])
        #expect(upstream.requests == [.max(6), .max(3)])
        // An answer to a group sent on a timer tick goes upstream too.
        fixture.send([4], at: 5)
        fixture.clock.advance(by: .ticks(10))
        #expect(fixture.log.value == ["[1, 2, 3]@1", "[4]@11"])
        #expect(upstream.requests == [.max(6), .max(3), .max(3)])
        fixture.subscriber.request(.unlimited)
        #expect(upstream.requests == [.max(6), .max(3), .max(3), .unlimited])
    }

    @Test func aFullGroupWaitsForDemand() {
        let fixture = Fixture(count: 2, initialDemand: .max(1))
        fixture.send([1, 2, 3, 4, 5], at: 1)
        fixture.clock.advance(by: .ticks(20))
        #expect(fixture.log.value == ["[1, 2]@1"])
        fixture.subscriber.request(.max(1))
        fixture.clock.advance(by: .ticks(0))
        #expect(fixture.log.value == ["[1, 2]@1", "[3, 4]@20"])
        fixture.subscriber.request(.max(5))
        fixture.clock.advance(by: .ticks(10))
        #expect(fixture.log.value == ["[1, 2]@1", "[3, 4]@20", "[5]@21"])
    }

    @Test func failureDropsGroupsStillWaitingForDemand() {
        let fixture = Fixture(count: 2, initialDemand: .none)
        fixture.upstream.send(1)
        fixture.upstream.send(2)
        fixture.upstream.send(3)
        fixture.upstream.send(completion: .failure(.oops))
        fixture.clock.advance(by: .ticks(0))
        #expect(fixture.subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func finishedSendsWaitingGroupsInOrderAsDemandAllows() {
        let fixture = Fixture(count: 2, initialDemand: .max(1))
        fixture.upstream.send(1)
        fixture.upstream.send(2)
        fixture.upstream.send(3)
        fixture.upstream.send(4)
        fixture.upstream.send(5)
        fixture.upstream.send(completion: .finished)
        fixture.clock.advance(by: .ticks(0))
        #expect(fixture.subscriber.values == [[1, 2]])
        #expect(fixture.completions == [])
        fixture.subscriber.request(.max(1))
        fixture.clock.advance(by: .ticks(0))
        #expect(fixture.subscriber.values == [[1, 2], [3, 4]])
        fixture.subscriber.request(.max(1))
        fixture.clock.advance(by: .ticks(0))
        #expect(
            fixture.subscriber.events.map(\.description) == [
                "subscription", "value([1, 2])", "value([3, 4])", "value([5])", "finished",
            ])
    }

    // MARK: Cancellation

    @Test func cancelCancelsTheTimerAndTheUpstreamAndSendsNothingMore() {
        let fixture = Fixture(count: 2)
        fixture.upstream.send(1)
        fixture.upstream.send(2) // a full group: a drain is scheduled
        #expect(fixture.clock.pendingCount == 2)
        fixture.subscriber.cancel()
        fixture.subscriber.cancel()
        #expect(fixture.clock.pendingCount == 1) // the timer is gone; the drain is inert
        #expect(fixture.upstream.subscription.cancelCount == 1)

        let inner = fixture.upstream.subscription.downstream
        #expect(inner.receive(3) == .none)
        inner.receive(completion: .finished)
        fixture.subscriber.request(.max(1))
        fixture.clock.advance(by: .ticks(100))
        #expect(fixture.subscriber.events == [.subscription])
        #expect(fixture.clock.pendingCount == 0)
        #expect(fixture.upstream.subscription.requests == [.unlimited])
        #expect(fixture.upstream.subscription.cancelCount == 1)
    }

    @Test func cancellingWhileReceivingAGroupStopsTheRest() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let box = LockedBox<TestSubscriber<[Int], TestError>?>(nil)
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .unlimited) { _ in
            box.value?.cancel()
            return .max(3)
        }
        box.mutate { $0 = subscriber }
        upstream.collect(.byTimeOrCount(clock.scheduler, .ticks(10), 1)).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        clock.advance(by: .ticks(20))
        #expect(subscriber.values == [[1]])
        #expect(upstream.subscription.cancelCount == 1)
        #expect(upstream.subscription.requests == [.unlimited])
        #expect(clock.pendingCount == 0)
        box.mutate { $0 = nil }
    }

    @Test func cancelReleasesTheSubscriberAndTheCollectedValues() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        weak var released: TestSubscriber<[Int], TestError>?
        do {
            let subscriber = TestSubscriber<[Int], TestError>()
            released = subscriber
            upstream.collect(.byTime(clock.scheduler, .ticks(10))).subscribe(subscriber)
            upstream.send(1)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(released == nil)
        #expect(clock.pendingCount == 0)
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let fixture = Fixture()
        TimeOperatorChecks.aSecondSubscriptionIsCancelled(upstream: fixture.upstream, subscriber: fixture.subscriber)
        #expect(fixture.clock.pendingCount == 1)
    }

    @Test func nothingHappensBeforeTheSubscriptionArrives() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<[Int], TestError>()
        upstream.collect(.byTime(clock.scheduler, .ticks(10))).subscribe(subscriber)
        #expect(clock.pendingCount == 0) // the first window opens with the subscription
        let inner = upstream.subscription.downstream
        #expect(inner.receive(1) == .none)
        inner.receive(completion: .finished)
        clock.advance(by: .ticks(5))
        upstream.subscription.deliver()
        #expect(subscriber.events == [.subscription])
        #expect(clock.pendingCount == 1)
        upstream.send(2)
        clock.advance(by: .ticks(10))
        #expect(subscriber.values == [[2]])
    }

    // MARK: Description, traps, bad input

    @Test func describesItself() throws {
        let fixture = Fixture()
        fixture.upstream.send(1)
        let subscription = try #require(fixture.subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "CollectByTime")
        let mirror = try #require((subscription as? any CustomReflectable)?.customMirror)
        #expect(mirror.children.map(\.label) == ["downstream", "buffer"])
        #expect(Array(mirror.children).last?.value as? [Int] == [1])
        let playground = (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription
        #expect(playground as? String == "CollectByTime")
        #expect(fixture.upstream.subscription.downstream.description == "CollectByTime")
    }

    @Test func exposesItsStrategyAndOptions() {
        let clock = VirtualClock()
        let publisher = DrivenPublisher<Int, TestError>().collect(.byTimeOrCount(clock.scheduler, .ticks(7), 4))
        guard case .byTimeOrCount(let scheduler, let interval, let count) = publisher.strategy else {
            Issue.record("expected .byTimeOrCount, got \(publisher.strategy)")
            return
        }
        #expect(scheduler.clock === clock)
        #expect(interval == .ticks(7))
        #expect(count == 4)
        #expect(publisher.options == nil)
    }

    /// As in Combine, `request(.none)` is no misuse here: it does not trap.
    @Test func requestingNoneAddsNoDemandAndDoesNotTrap() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<[Int], TestError>(initialDemand: .none)
        upstream.collect(.byTime(clock.scheduler, .ticks(1))).subscribe(subscriber)
        subscriber.request(.none)
        clock.advance(by: .ticks(2))
        #expect(subscriber.values == [])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func aCountBelowOneTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            DrivenPublisher<Int, TestError>().collect(.byTimeOrCount(VirtualClock().scheduler, .ticks(5), 0))
                .subscribe(TestSubscriber<[Int], TestError>())
        }
        let message = "CollectByTime: collect(.byTimeOrCount(_:_:_:)) needs a count greater than zero, got 0"
        #expect(result?.standardErrorText.contains(message) == true)
    }
    #endif

    @Test(arguments: [0, -5])
    func anIntervalThatIsNotPositiveIsReportedAndRunsNoTimer(ticks: Int) {
        let messages = LockedBox<[String]>([])
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<[Int], TestError>()
        FailureReporter.$current.withValue(.init { messages.append($0.message) }) {
            upstream.collect(.byTimeOrCount(clock.scheduler, .ticks(ticks), 2)).subscribe(subscriber)
        }
        #expect(
            messages.value == [
                "CollectByTime: collect(_:options:) was given an interval of \(ticks) ticks; an interval must be "
                    + "positive, so no timer runs and groups go out only when the count is reached and when the upstream "
                    + "finishes."
            ])
        #expect(clock.pendingCount == 0)
        upstream.send(1)
        upstream.send(2)
        upstream.send(3)
        clock.advance(by: .ticks(1_000))
        #expect(subscriber.values == [[1, 2]])
        upstream.send(completion: .finished)
        clock.advance(by: .ticks(0))
        #expect(subscriber.events == [.subscription, .value([1, 2]), .value([3]), .completion(.finished)])
    }

    // MARK: Threads

    /// Several threads send (one at a time, as the contract requires) while another advances the clock: every value
    /// goes out once, in one group or another, each thread's values in order, never two deliveries at once, and
    /// never more groups than asked for.
    @Test(arguments: [nil, 7] as [Int?])
    func valuesFromSeveralThreadsWhileTheClockAdvances(count: Int?) {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = FlatteningCheckingSubscriber<[Int]>(initialDemand: .max(1), demandPerValue: .max(1))
        let strategy: Publishers.TimeGroupingStrategy<VirtualScheduler> =
            if let count {
                .byTimeOrCount(clock.scheduler, .ticks(5), count)
            } else {
                .byTime(clock.scheduler, .ticks(5))
            }
        upstream.collect(strategy).subscribe(subscriber)
        TimeOperatorChecks.sendInLanesWhileTheClockAdvances(to: upstream, clock: clock)
        clock.advance(by: .ticks(5))
        let groups = subscriber.values
        let values = groups.flatMap { $0 }
        TimeOperatorChecks.expectEveryLaneInOrder(values)
        #expect(!groups.contains { $0.isEmpty })
        if let count {
            #expect(!groups.contains { $0.count > count })
        }
        #expect(subscriber.overlaps == 0)
        #expect(subscriber.completions == [.finished])
        #expect(clock.pendingCount == 0)
    }
}
