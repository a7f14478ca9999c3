import Cadence
import Dispatch
import Testing

/// What the time operators' tests (`delay`, `timeout`, `measureInterval`, `receive(on:)`, `collect(.byTime)`,
/// `debounce`, `throttle`, `subscribe(on:)`) check alike. Failures point at the caller.
enum TimeOperatorChecks {
    /// Subscribes a `TestSubscriber` starting at `.max(1)` to the operator `makeOperator` applies to an upstream that
    /// holds its subscription back: nothing reaches the subscriber until the upstream's subscription does, then the
    /// subscription does, and the operator asks the upstream for `.unlimited`.
    static func handsTheSubscriptionDownstreamThenRequestsUnlimited<Operator: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) where Operator.Output == Int, Operator.Failure == TestError {
        let upstream = DrivenPublisher<Int, TestError>(sendsSubscriptionAtOnce: false)
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .max(1))
        makeOperator(upstream).subscribe(subscriber)
        #expect(subscriber.events == [], sourceLocation: sourceLocation)
        upstream.subscription.deliver()
        #expect(subscriber.events == [.subscription], sourceLocation: sourceLocation)
        #expect(upstream.subscription.requests == [.unlimited], sourceLocation: sourceLocation)
    }

    /// Subscribes a `TestSubscriber` to the operator `makeOperator` applies to an upstream that holds its
    /// subscription back, then cancels the operator's subscription before the upstream's has arrived, as Combine's
    /// tests reach it (the operator is that subscription): the cancel does nothing, as in Combine — the upstream's
    /// subscription, arriving afterwards, is not cancelled and still reaches the subscriber.
    static func aCancelBeforeTheSubscriptionIsIgnored<Operator: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation,
        settle: () -> Void = {},
        _ makeOperator: (HeldBackPublisher) -> Operator
    ) where Operator.Output == Int, Operator.Failure == TestError {
        let upstream = HeldBackPublisher()
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: .none)
        makeOperator(upstream).subscribe(subscriber)
        settle()
        guard let operatorSubscription = upstream.subscriber as? any Subscription else {
            Issue.record("the operator's subscriber is not its subscription", sourceLocation: sourceLocation)
            return
        }
        operatorSubscription.cancel()
        let arriving = DrivenPublisher<Int, TestError>()
        arriving.subscribe(TestSubscriber<Int, TestError>(initialDemand: .none))
        upstream.subscriber?.receive(subscription: arriving.subscription)
        settle()
        #expect(arriving.subscription.cancelCount == 0, sourceLocation: sourceLocation)
        #expect(subscriber.events == [.subscription], sourceLocation: sourceLocation)
    }

    /// A publisher that keeps the subscriber it is given, as it is, and sends it nothing.
    final class HeldBackPublisher: Publisher, @unchecked Sendable { // used on the test's thread only
        typealias Output = Int
        typealias Failure = TestError
        private(set) var subscriber: (any Subscriber<Int, TestError>)?

        func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
            self.subscriber = subscriber
        }
    }

    /// A new virtual clock, and a `TestSubscriber` with unlimited demand subscribed to the operator `makeOperator`
    /// applies, with that clock, to a new `DrivenPublisher`.
    static func subscribe<Operator: Publisher>(
        _ makeOperator: (DrivenPublisher<Int, TestError>, VirtualClock) -> Operator
    ) -> (VirtualClock, DrivenPublisher<Int, TestError>, TestSubscriber<Int, TestError>)
    where Operator.Output == Int, Operator.Failure == TestError {
        let clock = VirtualClock()
        let upstream = DrivenPublisher<Int, TestError>()
        let subscriber = TestSubscriber<Int, TestError>()
        makeOperator(upstream, clock).subscribe(subscriber)
        return (clock, upstream, subscriber)
    }

    /// `upstream` (already subscribed to by the operator, which has passed its subscription on to `subscriber`)
    /// hands the operator a second, different subscription: that one is cancelled, the first is not, and the
    /// subscriber is not told.
    static func aSecondSubscriptionIsCancelled<Output, Failure: Error>(
        upstream: DrivenPublisher<Int, TestError>,
        subscriber: TestSubscriber<Output, Failure>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let other = DrivenPublisher<Int, TestError>()
        other.subscribe(TestSubscriber<Int, TestError>(initialDemand: .none))
        upstream.subscription.downstream.receive(subscription: other.subscription)
        #expect(other.subscription.cancelCount == 1, sourceLocation: sourceLocation)
        #expect(upstream.subscription.cancelCount == 0, sourceLocation: sourceLocation)
        #expect(subscriber.subscriptions == 1, sourceLocation: sourceLocation)
    }

    /// `senders` threads (4) send `perSender` values each (250) to `upstream` through the global queue — thread `n`
    /// sends `n * senderBase + index` for each `index` in `0..<perSender`, where `senderBase` is `perSender` unless
    /// given (so by default the values are `0..<1000`) — while this thread advances `clock` a tick at a time until they
    /// are done (at most 100 000 ticks). Returns once every thread has finished.
    static func sendFromSeveralThreadsWhileTheClockAdvances<Failure: Error>(
        to upstream: DrivenPublisher<Int, Failure>,
        clock: VirtualClock,
        senders: Int = 4,
        perSender: Int = 250,
        senderBase: Int? = nil
    ) {
        let senderBase = senderBase ?? perSender
        let done = LockedBox(0)
        let group = DispatchGroup()
        for sender in 0..<senders {
            DispatchQueue.global().async(group: group) {
                for index in 0..<perSender { upstream.send(sender * senderBase + index) }
                done.mutate { $0 += 1 }
            }
        }
        var steps = 0
        while done.value < senders, steps < 100_000 {
            clock.advance(by: .ticks(1))
            steps += 1
        }
        group.wait()
    }

    /// Three lanes send 300 values each to `upstream` (lane `n` sends `n * 300 ..< (n + 1) * 300`, one send at a
    /// time across the lanes, as the contract requires) while a fourth advances `clock` 400 ticks, one at a time; then
    /// the upstream finishes.
    static func sendInLanesWhileTheClockAdvances(
        to upstream: DrivenPublisher<Int, TestError>,
        clock: VirtualClock,
        senders: Int = 3,
        perSender: Int = 300
    ) {
        let sendLock = TestLock()
        DispatchQueue.concurrentPerform(iterations: senders + 1) { lane in
            if lane == senders {
                for _ in 0..<400 { clock.advance(by: .ticks(1)) }
            } else {
                for index in 0..<perSender {
                    sendLock.withLock { _ = upstream.send(lane * perSender + index) }
                }
            }
        }
        sendLock.withLock { upstream.send(completion: .finished) }
    }

    /// `values` holds each lane's values of ``sendInLanesWhileTheClockAdvances(to:clock:senders:perSender:)`` once,
    /// each lane's in the order it sent them.
    static func expectEveryLaneInOrder(
        _ values: [Int],
        senders: Int = 3,
        perSender: Int = 300,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        #expect(values.count == senders * perSender, sourceLocation: sourceLocation)
        for lane in 0..<senders {
            let mine = values.filter { $0 / perSender == lane }
            #expect(mine == Array(lane * perSender..<(lane + 1) * perSender), sourceLocation: sourceLocation)
        }
    }
}
