import Cadence
import Dispatch
import Testing

@Suite("Publishers.ReceiveOn")
struct ReceiveOnTests {
    /// A subscriber that logs each event with the tick it arrived at.
    private static func timedSubscriber(
        _ clock: VirtualClock,
        log: LockedBox<[String]>,
        initialDemand: Subscribers.Demand = .unlimited,
        answer: Subscribers.Demand = .none
    ) -> TestSubscriber<Int, TestError> {
        TestSubscriber(initialDemand: initialDemand) { value in
            log.append("\(value)@\(clock.now.ticks)")
            return answer
        }
    }

    /// A test publisher received on a new virtual clock's scheduler by a test subscriber with unlimited demand.
    private static func make() -> (VirtualClock, DrivenPublisher<Int, TestError>, TestSubscriber<Int, TestError>) {
        TimeOperatorChecks.subscribe { upstream, clock in upstream.receive(on: clock.scheduler) }
    }

    @Test func subscriptionAndRequestsAreSynchronousButValuesWaitForTheClock() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(10))
        upstream.receive(on: clock.scheduler).subscribe(subscriber)
        #expect(subscriber.events == [.subscription])
        #expect(upstream.subscription.requests == [.max(10)])

        #expect(upstream.send(1) == .none)
        #expect(upstream.send(2) == .none)
        #expect(upstream.send(3) == .none)
        #expect(subscriber.events == [.subscription])
        #expect(clock.pendingCount == 3)

        clock.advance(by: .ticks(0))
        #expect(subscriber.events == [.subscription, .value(1), .value(2), .value(3)])
        #expect(clock.pendingCount == 0)
        #expect(clock.now.ticks == 0)
    }

    @Test func eachValueArrivesOnTheTickItWasSentInOrder() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let log = LockedBox<[String]>([])
        let subscriber = Self.timedSubscriber(clock, log: log)
        upstream.receive(on: clock.scheduler).subscribe(subscriber)
        clock.schedule(after: .ticks(5)) {
            upstream.send(1)
            upstream.send(2)
        }
        clock.schedule(after: .ticks(9)) { upstream.send(3) }

        clock.advance(by: .ticks(4))
        #expect(log.value == [])
        clock.advance(by: .ticks(1))
        #expect(log.value == ["1@5", "2@5"])
        clock.advance(by: .ticks(3))
        #expect(log.value == ["1@5", "2@5"])
        clock.advance(by: .ticks(1))
        #expect(log.value == ["1@5", "2@5", "3@9"])
    }

    @Test func finishedFollowsTheValuesSentBeforeIt() {
        let (clock, upstream, subscriber) = Self.make()
        upstream.send(1)
        upstream.send(completion: .finished)
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .failure(.oops))
        #expect(clock.pendingCount == 2)
        #expect(subscriber.events == [.subscription])

        clock.advance(by: .ticks(0))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
    }

    @Test func failureArrivesOnTheTickItWasSent() {
        let (clock, upstream, subscriber) = Self.make()
        clock.schedule(after: .ticks(3)) { upstream.send(completion: .failure(.oops)) }
        clock.advance(by: .ticks(2))
        #expect(subscriber.events == [.subscription])
        clock.advance(by: .ticks(1))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
        #expect(upstream.subscription.cancelCount == 0)
    }

    @Test func theDownstreamsAnswerGoesUpstreamAsARequestFromTheScheduler() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let log = LockedBox<[String]>([])
        let subscriber = Self.timedSubscriber(clock, log: log, initialDemand: .max(1), answer: .max(2))
        upstream.receive(on: clock.scheduler).subscribe(subscriber)
        #expect(upstream.subscription.requests == [.max(1)])

        #expect(upstream.send(1) == .none)
        #expect(upstream.subscription.requests == [.max(1)])
        clock.advance(by: .ticks(1))
        #expect(log.value == ["1@0"])
        #expect(upstream.subscription.requests == [.max(1), .max(2)])
        #expect(upstream.subscription.answered == [.none])

        subscriber.request(.max(3))
        #expect(upstream.subscription.requests == [.max(1), .max(2), .max(3)])
    }

    @Test func noAnswerMeansNoRequest() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(2))
        upstream.receive(on: clock.scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        clock.advance(by: .ticks(0))
        #expect(subscriber.values == [1, 2])
        #expect(upstream.subscription.requests == [.max(2)])
    }

    @Test func cancelStopsDeliveryOfWorkAlreadyScheduled() {
        let (clock, upstream, subscriber) = Self.make()
        upstream.send(1)
        upstream.send(completion: .finished)
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.subscription.cancelCount == 0) // the upstream had already finished

        clock.advance(by: .ticks(0))
        #expect(subscriber.events == [.subscription])
        #expect(clock.pendingCount == 0)
    }

    @Test func cancelCancelsTheUpstreamOnceAndIgnoresLaterEvents() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        upstream.receive(on: clock.scheduler).subscribe(subscriber)
        upstream.send(1)
        #expect(clock.pendingCount == 1)
        subscriber.cancel()
        subscriber.cancel()
        #expect(upstream.subscription.cancelCount == 1)

        let inner = upstream.subscription.downstream
        #expect(inner.receive(2) == .none)
        inner.receive(completion: .finished)
        subscriber.request(.max(5))
        #expect(clock.pendingCount == 1) // only the value scheduled before the cancel, now inert
        clock.advance(by: .ticks(10))
        #expect(subscriber.events == [.subscription])
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.subscription.cancelCount == 1)
    }

    @Test func cancellingWhileReceivingAValueSendsNoRequestAndNothingMore() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let box = LockedBox<TestSubscriber<Int, TestError>?>(nil)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1)) { _ in
            box.value?.cancel()
            return .max(42)
        }
        box.mutate { $0 = subscriber }
        upstream.receive(on: clock.scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(2)
        clock.advance(by: .ticks(0))
        #expect(subscriber.values == [1])
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(upstream.subscription.cancelCount == 1)
        box.mutate { $0 = nil }
    }

    /// The scheduled work a cancel leaves behind does not hold the subscription (issue 20): once the upstream lets
    /// go of it, the subscriber goes, before that work runs.
    @Test func cancelledScheduledWorkDoesNotHoldTheSubscriber() {
        let clock = VirtualClock()
        var upstream: DrivenPublisher<Int, TestError>? = DrivenPublisher<Int, TestError>()
        weak var released: TestSubscriber<Int, TestError>?
        do {
            let subscriber = TestSubscriber<Int, TestError>()
            released = subscriber
            upstream?.receive(on: clock.scheduler).subscribe(subscriber)
            upstream?.send(1)
            subscriber.cancel()
            subscriber.releaseSubscription()
        }
        #expect(released != nil)
        upstream = nil
        #expect(released == nil)
        #expect(clock.pendingCount == 1)
        clock.advance(by: .ticks(0))
        #expect(clock.pendingCount == 0)
    }

    @Test func theDownstreamStaysAfterACancelUntilTheSubscriptionGoes() {
        let clock = VirtualClock()
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: .cancel, drive: { clock.run() }) {
            $0.receive(on: clock.scheduler)
        }
    }

    @Test func theDownstreamStaysAfterTheCompletionUntilTheSubscriptionGoes() {
        let clock = VirtualClock()
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: .finish, drive: { clock.run() }) {
            $0.receive(on: clock.scheduler)
        }
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let (_, upstream, subscriber) = Self.make()
        TimeOperatorChecks.aSecondSubscriptionIsCancelled(upstream: upstream, subscriber: subscriber)
    }

    @Test func eventsBeforeTheSubscriptionAreIgnored() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.receive(on: clock.scheduler).subscribe(subscriber)
        let inner = upstream.subscription.downstream
        #expect(inner.receive(1) == .none)
        inner.receive(completion: .finished)
        #expect(clock.pendingCount == 0)
        upstream.subscription.deliver()
        #expect(subscriber.events == [.subscription])
    }

    @Test func describesItselfLikeCombine() throws {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let publisher = upstream.receive(on: clock.scheduler, options: nil)
        publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "ReceiveOn")
        let mirror = try #require((subscription as? any CustomReflectable)?.customMirror)
        #expect(mirror.children.isEmpty)
        let playground = (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription
        #expect(playground as? String == "ReceiveOn")
        #expect(publisher.scheduler.clock === clock)
        #expect(publisher.options == nil)
    }

    /// As in Combine, `request(.none)` is no misuse here: it does not trap.
    @Test func requestingNonePassesItOnAsCombineDoes() {
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.receive(on: VirtualClock().scheduler).subscribe(subscriber)
        subscriber.request(.none)
        #expect(upstream.subscription.requests == [.none])
    }

    /// Several threads send (one at a time, as the contract requires) while another keeps advancing the clock:
    /// every value arrives once, each thread's values in the order it sent them, and never two at once.
    @Test func valuesFromSeveralThreadsWhileTheClockAdvances() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = FlatteningCheckingSubscriber<Int>(initialDemand: .unlimited)
        upstream.receive(on: clock.scheduler).subscribe(subscriber)
        TimeOperatorChecks.sendInLanesWhileTheClockAdvances(to: upstream, clock: clock)
        clock.advance(by: .ticks(1))
        let values = subscriber.values
        TimeOperatorChecks.expectEveryLaneInOrder(values)
        #expect(subscriber.overlaps == 0)
        #expect(subscriber.completions == [.finished])
    }
    /// As in Combine: a cancel before the upstream's subscription arrived does nothing.
    @Test func aCancelBeforeTheSubscriptionArrivesIsIgnored() {
        TimeOperatorChecks.aCancelBeforeTheSubscriptionIsIgnored {
            $0.receive(on: VirtualClock().scheduler)
        }
    }

    /// As in Combine: while the upstream's completion waits for the scheduler, what the downstream answers a value
    /// delivered meanwhile still reaches the upstream; its own requests no longer do.
    @Test func demandAnsweredWhileTheCompletionWaitsStillReachesTheUpstream() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1), onValue: { _ in .max(3) })
        upstream.receive(on: clock.scheduler).subscribe(subscriber)
        upstream.send(1)
        upstream.send(completion: .finished)
        subscriber.request(.max(2))
        clock.advance(by: .ticks(0))
        #expect(subscriber.values == [1])
        #expect(upstream.subscription.requests == [.max(1), .max(3)])
    }
}
