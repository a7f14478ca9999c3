import Cadence
import Dispatch
import Testing

@Suite("Publishers.SubscribeOn")
struct SubscribeOnTests {
    /// A publisher whose subscriptions log, in one list, each request and cancel with the tick it arrived at.
    private final class LoggingPublisher: Publisher {
        typealias Output = Int
        typealias Failure = TestError

        let clock: VirtualClock
        let log = LockedBox<[String]>([])

        init(clock: VirtualClock) {
            self.clock = clock
        }

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
            log.append("subscribe@\(clock.now.ticks)")
            subscriber.receive(subscription: LoggingSubscription(owner: self))
        }

        final class LoggingSubscription: Subscription {
            let owner: LoggingPublisher

            init(owner: LoggingPublisher) {
                self.owner = owner
            }

            func request(_ demand: Subscribers.Demand) {
                owner.log.append("request(\(demand))@\(owner.clock.now.ticks)")
            }

            func cancel() {
                owner.log.append("cancel@\(owner.clock.now.ticks)")
            }
        }
    }

    /// A test publisher subscribed to on a new virtual clock's scheduler by a test subscriber with unlimited demand.
    private static func make() -> (VirtualClock, DrivenPublisher<Int, TestError>, TestSubscriber<Int, TestError>) {
        TimeOperatorChecks.subscribe { upstream, clock in upstream.subscribe(on: clock.scheduler) }
    }

    @Test func subscribesToTheUpstreamOnlyWhenTheClockRuns() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(3))
        upstream.subscribe(on: clock.scheduler).subscribe(subscriber)
        #expect(upstream.subscriptions.isEmpty)
        #expect(subscriber.events == [])
        #expect(clock.pendingCount == 1)

        clock.advance(by: .ticks(0))
        #expect(upstream.subscriptions.count == 1)
        #expect(subscriber.events == [.subscription])
        // The request made from `receive(subscription:)` went through the scheduler too, on the same tick.
        #expect(upstream.subscription.requests == [.max(3)])
        #expect(clock.pendingCount == 0)
    }

    @Test func requestsAndCancelReachTheUpstreamOnTheScheduler() {
        let clock = VirtualClock()
        let upstream = LoggingPublisher(clock: clock)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.subscribe(on: clock.scheduler).subscribe(subscriber)
        clock.advance(by: .ticks(2))
        #expect(upstream.log.value == ["subscribe@0"])

        subscriber.request(.max(1))
        subscriber.request(.unlimited)
        #expect(upstream.log.value == ["subscribe@0"])
        #expect(clock.pendingCount == 2)
        clock.schedule(after: .ticks(3)) { subscriber.cancel() }
        clock.advance(by: .ticks(0))
        #expect(upstream.log.value == ["subscribe@0", "request(max(1))@2", "request(unlimited)@2"])

        clock.advance(by: .ticks(3))
        #expect(upstream.log.value == ["subscribe@0", "request(max(1))@2", "request(unlimited)@2", "cancel@5"])
        #expect(clock.pendingCount == 0)
    }

    @Test func aRequestMadeJustBeforeCancelStillReachesTheUpstreamFirst() {
        let clock = VirtualClock()
        let upstream = LoggingPublisher(clock: clock)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.subscribe(on: clock.scheduler).subscribe(subscriber)
        clock.advance(by: .ticks(0))
        subscriber.request(.unlimited)
        subscriber.cancel()
        subscriber.cancel()
        subscriber.request(.max(7))
        #expect(clock.pendingCount == 2)
        clock.advance(by: .ticks(1))
        #expect(upstream.log.value == ["subscribe@0", "request(unlimited)@0", "cancel@0"])
    }

    @Test func valuesAndCompletionReachTheDownstreamSynchronously() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1)) { _ in .max(4) }
        upstream.subscribe(on: clock.scheduler).subscribe(subscriber)
        clock.advance(by: .ticks(0))

        #expect(upstream.send(1) == .max(4))
        #expect(subscriber.events == [.subscription, .value(1)])
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(upstream.send(2) == .none)
        upstream.send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .value(1), .completion(.finished)])
        #expect(upstream.subscription.requests == [.max(1)])
        #expect(clock.pendingCount == 0)
    }

    @Test func failureReachesTheDownstreamOnTheUpstreamsTick() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let log = LockedBox<[String]>([])
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.subscribe(on: clock.scheduler).subscribe(subscriber)
        clock.schedule(after: .ticks(4)) {
            upstream.send(completion: .failure(.oops))
            log.append("failed@\(clock.now.ticks): \(subscriber.completions.count)")
        }
        clock.advance(by: .ticks(4))
        #expect(log.value == ["failed@4: 1"])
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))])
    }

    @Test func cancelStopsDeliveryAtOnceAndSchedulesTheUpstreamCancel() {
        let (clock, upstream, subscriber) = Self.make()
        clock.advance(by: .ticks(0))
        subscriber.cancel()
        #expect(upstream.subscription.cancelCount == 0)
        #expect(clock.pendingCount == 1)

        // The upstream has not heard of the cancel yet: what it sends meanwhile goes nowhere.
        #expect(upstream.send(1) == .none)
        upstream.send(completion: .finished)
        #expect(subscriber.events == [.subscription])

        clock.advance(by: .ticks(0))
        #expect(upstream.subscription.cancelCount == 1)
        #expect(clock.pendingCount == 0)
    }

    @Test func theDownstreamStaysAfterACancelUntilTheSubscriptionGoes() {
        let clock = VirtualClock()
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: .cancel, drive: { clock.run() }) {
            $0.subscribe(on: clock.scheduler)
        }
    }

    @Test func theDownstreamStaysAfterTheCompletionUntilTheSubscriptionGoes() {
        let clock = VirtualClock()
        expectTheSubscriberStaysUntilTheSubscriptionGoes(ending: .finish, drive: { clock.run() }) {
            $0.subscribe(on: clock.scheduler)
        }
    }

    @Test func aSecondSubscriptionIsCancelled() {
        let (clock, upstream, subscriber) = Self.make()
        clock.advance(by: .ticks(0))
        TimeOperatorChecks.aSecondSubscriptionIsCancelled(upstream: upstream, subscriber: subscriber)
    }

    @Test func eventsBeforeTheSubscriptionAreIgnored() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, TestError>()
        upstream.subscribe(on: clock.scheduler).subscribe(subscriber)
        clock.advance(by: .ticks(0))
        let inner = upstream.subscription.downstream
        #expect(inner.receive(1) == .none)
        inner.receive(completion: .finished)
        #expect(subscriber.events == [])
        upstream.subscription.deliver()
        #expect(subscriber.events == [.subscription])
    }

    @Test func describesItselfLikeCombine() throws {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        let publisher = upstream.subscribe(on: clock.scheduler, options: nil)
        publisher.subscribe(subscriber)
        clock.advance(by: .ticks(0))
        let subscription = try #require(subscriber.subscription)
        #expect((subscription as? any CustomStringConvertible)?.description == "SubscribeOn")
        let mirror = try #require((subscription as? any CustomReflectable)?.customMirror)
        #expect(mirror.children.isEmpty)
        let playground = (subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription
        #expect(playground as? String == "SubscribeOn")
        #expect(publisher.scheduler.clock === clock)
        #expect(publisher.options == nil)
    }

    /// As in Combine, `request(.none)` is no misuse here: it does not trap.
    @Test func requestingNonePassesItOnAsCombineDoes() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.subscribe(on: clock.scheduler).subscribe(subscriber)
        clock.advance(by: .ticks(0))
        subscriber.request(.none)
        clock.advance(by: .ticks(0))
        #expect(upstream.subscription.requests == [.none])
    }

    /// Several threads request while another keeps advancing the clock: every request reaches the upstream once.
    @Test func requestsFromSeveralThreadsWhileTheClockAdvances() {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.subscribe(on: clock.scheduler).subscribe(subscriber)
        clock.advance(by: .ticks(0))
        let requesters = 3
        let perRequester = 300
        DispatchQueue.concurrentPerform(iterations: requesters + 1) { lane in
            if lane == requesters {
                for _ in 0..<400 { clock.advance(by: .ticks(1)) }
            } else {
                for _ in 0..<perRequester { subscriber.request(.max(1)) }
            }
        }
        clock.advance(by: .ticks(1))
        #expect(upstream.subscription.requests.count == requesters * perRequester)
        #expect(upstream.subscription.totalDemand == .max(requesters * perRequester))
        #expect(clock.pendingCount == 0)
    }
    /// As in Combine: a cancel before the upstream's subscription arrived does nothing.
    @Test func aCancelBeforeTheSubscriptionArrivesIsIgnored() {
        let clock = VirtualClock()
        TimeOperatorChecks.aCancelBeforeTheSubscriptionIsIgnored(settle: { clock.advance(by: .ticks(0)) }) {
            $0.subscribe(on: clock.scheduler)
        }
    }

    // MARK: Calls made from inside the upstream's request

    /// On a scheduler that runs it later, a request made from inside the upstream's request reaches the upstream
    /// after that request has returned.
    @Test func aRequestFromInsideTheUpstreamsRequestReachesItLater() {
        let clock = VirtualClock()
        let upstream = CallingBackPublisher()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.subscribe(on: clock.scheduler).subscribe(subscriber)
        clock.advance(by: .ticks(0))
        var again = true
        upstream.onRequest = {
            guard again else { return }
            again = false
            subscriber.request(.max(2))
        }
        subscriber.request(.max(1))
        clock.advance(by: .ticks(0))
        #expect(upstream.requests.value == [.max(1), .max(2)])
    }

    #if !canImport(Combine) // Combine traps here too, with a message of its own
    /// Combine asks the upstream under a lock of its own: a request that `ImmediateScheduler` runs from inside the
    /// upstream's request traps there. Cadence stops too, and says why.
    @Test func aRequestFromInsideTheUpstreamsRequestOnTheSameThreadTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = CallingBackPublisher()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
            upstream.onRequest = { subscriber.request(.unlimited) }
            subscriber.request(.max(1))
        }
        #expect(
            result?.standardErrorText.contains(
                """
                SubscribeOn: request(_:) reached the upstream's subscription from inside its own request(_:) or \
                cancel() on the same thread
                """) == true)
    }

    /// The same for a cancel made from inside the upstream's request.
    @Test func aCancelFromInsideTheUpstreamsRequestOnTheSameThreadTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            let upstream = CallingBackPublisher()
            let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
            upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
            upstream.onRequest = { subscriber.cancel() }
            subscriber.request(.max(1))
        }
        #expect(
            result?.standardErrorText.contains(
                """
                SubscribeOn: cancel() reached the upstream's subscription from inside its own request(_:) or cancel() \
                on the same thread
                """) == true)
    }

    /// Only the thread inside the upstream's request is checked: a request from another thread meanwhile reaches
    /// the upstream. (Combine's would wait for the first request to return, which here waits for it: the test
    /// cannot run on Combine.)
    @Test func aRequestFromAnotherThreadWhileOneIsInsideTheUpstreamReachesIt() {
        let upstream = CallingBackPublisher()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        upstream.subscribe(on: ImmediateScheduler.shared).subscribe(subscriber)
        let secondArrived = DispatchSemaphore(value: 0)
        let first = LockedBox(true)
        upstream.onRequest = {
            let isFirst = first.mutate { isFirst in
                defer { isFirst = false }
                return isFirst
            }
            if isFirst {
                DispatchQueue.global().async { subscriber.request(.max(2)) }
                #expect(secondArrived.wait(timeout: .now() + 60) == .success)
            } else {
                secondArrived.signal()
            }
        }
        subscriber.request(.max(1))
        #expect(upstream.requests.value == [.max(1), .max(2)])
    }
    #endif
}
