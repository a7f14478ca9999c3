import Cadence
import Testing

/// `SchedulerTimerPublisher` pinned tick by tick on a `VirtualScheduler`.
@Suite("SchedulerTimerPublisher")
struct SchedulerTimerTests {
    /// A clock whose reports are recorded, and a scheduler on it.
    private func makeClock() -> (VirtualClock, VirtualScheduler, LockedBox<[String]>) {
        let messages = LockedBox<[String]>([])
        let clock = VirtualClock(reporter: .init { messages.append($0.message) })
        return (clock, clock.scheduler, messages)
    }

    private func ticks(_ values: Int...) -> [VirtualTime] {
        values.map { VirtualTime(tick: Int64($0)) }
    }

    // MARK: - Making the publisher

    @Test func timerPublisherKeepsItsArguments() {
        let (_, scheduler, _) = makeClock()
        let timer = scheduler.timerPublisher(every: .ticks(10), tolerance: .ticks(2))
        #expect(timer.interval == .ticks(10))
        #expect(timer.tolerance == .ticks(2))
        #expect(timer.scheduler.clock === scheduler.clock)
        #expect(timer.options == nil)
        let plain = SchedulerTimerPublisher(every: .ticks(3), scheduler: scheduler)
        #expect(plain.interval == .ticks(3))
        #expect(plain.tolerance == nil)
    }

    // MARK: - Ticks

    @Test func nothingIsScheduledOrEmittedBeforeConnect() {
        let (clock, scheduler, messages) = makeClock()
        let subscriber = TestSubscriber<VirtualTime, Never>()
        scheduler.timerPublisher(every: .ticks(10)).subscribe(subscriber)
        #expect(clock.pendingCount == 0)
        clock.advance(by: .ticks(100))
        #expect(subscriber.events == [.subscription])
        #expect(messages.value.isEmpty)
    }

    @Test func firstTickComesOneIntervalAfterConnectThenEveryInterval() {
        let (clock, scheduler, messages) = makeClock()
        let timer = scheduler.timerPublisher(every: .ticks(10))
        let subscriber = TestSubscriber<VirtualTime, Never>()
        timer.subscribe(subscriber)
        clock.advance(by: .ticks(5))
        let connection = timer.connect()
        #expect(clock.pendingCount == 1)
        clock.advance(by: .ticks(9))
        #expect(subscriber.values == [])
        clock.advance(by: .ticks(1))
        #expect(subscriber.values == ticks(15))
        clock.advance(by: .ticks(9))
        #expect(subscriber.values == ticks(15))
        clock.advance(by: .ticks(1))
        #expect(subscriber.values == ticks(15, 25))
        clock.advance(by: .ticks(30))
        #expect(subscriber.values == ticks(15, 25, 35, 45, 55))
        #expect(subscriber.completions.isEmpty)
        connection.cancel()
        #expect(messages.value.isEmpty)
    }

    @Test func eachTickEmitsTheSchedulersTimeAtThatTick() {
        let (clock, scheduler, _) = makeClock()
        let seen = LockedBox<[String]>([])
        let timer = scheduler.timerPublisher(every: .ticks(7))
        let cancellable = timer.sink { seen.append("\($0) at tick \(clock.now.ticks)") }
        let connection = timer.connect()
        clock.advance(by: .ticks(21))
        #expect(seen.value == ["tick 7 at tick 7", "tick 14 at tick 14", "tick 21 at tick 21"])
        connection.cancel()
        cancellable.cancel()
    }

    // MARK: - Demand

    @Test func ticksWithoutDemandAreDroppedNotBuffered() {
        let (clock, scheduler, _) = makeClock()
        let timer = scheduler.timerPublisher(every: .ticks(10))
        let subscriber = TestSubscriber<VirtualTime, Never>(initialDemand: .max(2))
        timer.subscribe(subscriber)
        let connection = timer.connect()
        clock.advance(by: .ticks(35))
        #expect(subscriber.values == ticks(10, 20))
        subscriber.request(.max(1))
        #expect(subscriber.values == ticks(10, 20))
        clock.advance(by: .ticks(5))
        #expect(subscriber.values == ticks(10, 20, 40))
        clock.advance(by: .ticks(30))
        #expect(subscriber.values == ticks(10, 20, 40))
        #expect(clock.pendingCount == 1)
        connection.cancel()
    }

    @Test func demandReturnedFromReceiveIsAdded() {
        let (clock, scheduler, _) = makeClock()
        let timer = scheduler.timerPublisher(every: .ticks(1))
        let subscriber = TestSubscriber<VirtualTime, Never>(initialDemand: .max(1)) { time in
            time.tick < 3 ? .max(1) : .none
        }
        timer.subscribe(subscriber)
        let connection = timer.connect()
        clock.advance(by: .ticks(10))
        #expect(subscriber.values == ticks(1, 2, 3))
        connection.cancel()
    }

    @Test func noDemandMeansNoTicks() {
        let (clock, scheduler, _) = makeClock()
        let timer = scheduler.timerPublisher(every: .ticks(10))
        let subscriber = TestSubscriber<VirtualTime, Never>(initialDemand: .none)
        timer.subscribe(subscriber)
        let connection = timer.connect()
        clock.advance(by: .ticks(50))
        #expect(subscriber.events == [.subscription])
        connection.cancel()
    }

    // MARK: - Several subscribers

    @Test func severalSubscribersShareOneConnectionEachWithItsOwnDemand() {
        let (clock, scheduler, _) = makeClock()
        let log = LockedBox<[String]>([])
        let timer = scheduler.timerPublisher(every: .ticks(10))
        let first = TestSubscriber<VirtualTime, Never>(initialDemand: .unlimited) { time in
            log.append("first \(time)")
            return .none
        }
        let second = TestSubscriber<VirtualTime, Never>(initialDemand: .max(1)) { time in
            log.append("second \(time)")
            return .none
        }
        timer.subscribe(first)
        timer.subscribe(second)
        let connection = timer.connect()
        clock.advance(by: .ticks(10))
        let late = TestSubscriber<VirtualTime, Never>(initialDemand: .unlimited) { time in
            log.append("late \(time)")
            return .none
        }
        timer.subscribe(late)
        clock.advance(by: .ticks(20))
        #expect(
            log.value == [
                "first tick 10", "second tick 10",
                "first tick 20", "late tick 20",
                "first tick 30", "late tick 30",
            ])
        #expect(clock.pendingCount == 1)
        connection.cancel()
    }

    @Test func oneSubscriberCancellingLeavesTheOthersTicking() {
        let (clock, scheduler, _) = makeClock()
        let timer = scheduler.timerPublisher(every: .ticks(10))
        let leaving = TestSubscriber<VirtualTime, Never>()
        let staying = TestSubscriber<VirtualTime, Never>()
        timer.subscribe(leaving)
        timer.subscribe(staying)
        let connection = timer.connect()
        clock.advance(by: .ticks(10))
        leaving.cancel()
        leaving.cancel()
        clock.advance(by: .ticks(20))
        #expect(leaving.values == ticks(10))
        #expect(staying.values == ticks(10, 20, 30))
        #expect(clock.pendingCount == 1)
        connection.cancel()
    }

    // MARK: - Cancelling

    @Test func cancellingTheConnectionCancelsTheScheduledWorkAndDeliversNothingMore() {
        let (clock, scheduler, _) = makeClock()
        let timer = scheduler.timerPublisher(every: .ticks(10))
        let subscriber = TestSubscriber<VirtualTime, Never>()
        timer.subscribe(subscriber)
        let connection = timer.connect()
        clock.advance(by: .ticks(20))
        #expect(clock.pendingCount == 1)
        connection.cancel()
        #expect(clock.pendingCount == 0)
        connection.cancel()
        #expect(clock.pendingCount == 0)
        clock.advance(by: .ticks(100))
        #expect(subscriber.events == [.subscription, .value(VirtualTime(tick: 10)), .value(VirtualTime(tick: 20))])
    }

    @Test func cancellingTheConnectionDetachesItsSubscribersButNotLaterOnes() {
        let (clock, scheduler, _) = makeClock()
        let timer = scheduler.timerPublisher(every: .ticks(10))
        let detached = TestSubscriber<VirtualTime, Never>()
        timer.subscribe(detached)
        let first = timer.connect()
        clock.advance(by: .ticks(10))
        first.cancel()
        let later = TestSubscriber<VirtualTime, Never>()
        timer.subscribe(later)
        let second = timer.connect()
        clock.advance(by: .ticks(20))
        #expect(detached.values == ticks(10))
        #expect(later.values == ticks(20, 30))
        second.cancel()
        #expect(clock.pendingCount == 0)
    }

    @Test func cancellingReleasesTheSubscriber() {
        let (clock, scheduler, _) = makeClock()
        let timer = scheduler.timerPublisher(every: .ticks(10))
        weak var weakCancelled: TestSubscriber<VirtualTime, Never>?
        weak var weakDetached: TestSubscriber<VirtualTime, Never>?
        var cancelled: TestSubscriber<VirtualTime, Never>? = TestSubscriber()
        var detached: TestSubscriber<VirtualTime, Never>? = TestSubscriber()
        weakCancelled = cancelled
        weakDetached = detached
        timer.subscribe(cancelled!)
        timer.subscribe(detached!)
        let connection = timer.connect()
        clock.advance(by: .ticks(10))
        cancelled?.cancel()
        cancelled = nil
        #expect(weakCancelled == nil)
        connection.cancel()
        detached = nil
        #expect(weakDetached == nil)
    }

    @Test func connectingTwiceRunsTwoTimersAndCancellingOneDetachesTheSubscribers() {
        let (clock, scheduler, _) = makeClock()
        let timer = scheduler.timerPublisher(every: .ticks(10))
        let subscriber = TestSubscriber<VirtualTime, Never>()
        timer.subscribe(subscriber)
        let first = timer.connect()
        clock.advance(by: .ticks(5))
        let second = timer.connect()
        #expect(clock.pendingCount == 2)
        clock.advance(by: .ticks(15))
        #expect(subscriber.values == ticks(10, 15, 20))
        first.cancel()
        #expect(clock.pendingCount == 1)
        clock.advance(by: .ticks(20))
        #expect(subscriber.values == ticks(10, 15, 20))
        let later = TestSubscriber<VirtualTime, Never>()
        timer.subscribe(later)
        clock.advance(by: .ticks(10))
        #expect(later.values == ticks(45))
        second.cancel()
        #expect(clock.pendingCount == 0)
    }

    // MARK: - autoconnect()

    @Test func autoconnectConnectsForTheFirstSubscriberAndCancelsAfterTheLast() {
        let (clock, scheduler, _) = makeClock()
        let ticking = scheduler.timerPublisher(every: .ticks(10)).autoconnect()
        #expect(clock.pendingCount == 0)
        let first = TestSubscriber<VirtualTime, Never>()
        ticking.subscribe(first)
        #expect(clock.pendingCount == 1)
        clock.advance(by: .ticks(5))
        let second = TestSubscriber<VirtualTime, Never>()
        ticking.subscribe(second)
        #expect(clock.pendingCount == 1)
        clock.advance(by: .ticks(15))
        #expect(first.values == ticks(10, 20))
        #expect(second.values == ticks(10, 20))
        first.cancel()
        #expect(clock.pendingCount == 1)
        second.cancel()
        #expect(clock.pendingCount == 0)
        clock.advance(by: .ticks(20))
        #expect(second.values == ticks(10, 20))

        clock.advance(by: .ticks(3)) // now tick 43
        let third = TestSubscriber<VirtualTime, Never>()
        ticking.subscribe(third)
        clock.advance(by: .ticks(20))
        #expect(third.values == ticks(53, 63))
        third.cancel()
        #expect(clock.pendingCount == 0)
    }

    @Test func autoconnectWithSink() {
        let (clock, scheduler, _) = makeClock()
        let received = LockedBox<[VirtualTime]>([])
        let cancellable = scheduler.timerPublisher(every: .ticks(100))
            .autoconnect()
            .sink { received.append($0) }
        clock.advance(by: .ticks(300))
        #expect(received.value == ticks(100, 200, 300))
        cancellable.cancel()
        #expect(clock.pendingCount == 0)
    }

    // MARK: - Misuse reported by the clock

    @Test func zeroIntervalIsReportedAndTicksEveryTickWithoutHanging() {
        let (clock, scheduler, messages) = makeClock()
        let subscriber = TestSubscriber<VirtualTime, Never>()
        let timer = scheduler.timerPublisher(every: .ticks(0))
        timer.subscribe(subscriber)
        let connection = timer.connect()
        #expect(
            messages.value == [
                "TestScheduler.schedule(after:interval:tolerance:options:_:) was given a repeat interval of 0 ticks; "
                    + "an interval must be positive, so the action repeats every tick (1 ms) instead."
            ])
        clock.advance(by: .ticks(3))
        #expect(subscriber.values == ticks(0, 1, 2, 3))
        connection.cancel()
        #expect(clock.pendingCount == 0)
        #expect(messages.value.count == 1)
    }

    @Test func negativeIntervalIsReportedAndTicksEveryTickWithoutHanging() {
        let (clock, scheduler, messages) = makeClock()
        clock.advance(by: .ticks(10))
        let received = LockedBox<[VirtualTime]>([])
        let cancellable = scheduler.timerPublisher(every: .ticks(-5)).autoconnect().sink { received.append($0) }
        #expect(
            messages.value == [
                "TestScheduler.schedule(after:interval:tolerance:options:_:) was given a repeat interval of -5 ticks; "
                    + "an interval must be positive, so the action repeats every tick (1 ms) instead."
            ])
        clock.advance(by: .ticks(2))
        #expect(received.value == ticks(10, 11, 12))
        cancellable.cancel()
        #expect(clock.pendingCount == 0)
    }

    @Test func toleranceLargerThanTheIntervalIsReportedAndIgnored() {
        let (clock, scheduler, messages) = makeClock()
        let received = LockedBox<[VirtualTime]>([])
        let cancellable = scheduler.timerPublisher(every: .ticks(10), tolerance: .ticks(20))
            .autoconnect()
            .sink { received.append($0) }
        #expect(
            messages.value == [
                "TestScheduler.schedule(after:interval:tolerance:options:_:) was given a tolerance (20 ticks) larger "
                    + "than its interval (10 ticks); virtual time ignores tolerance and runs the action exactly every "
                    + "interval."
            ])
        clock.advance(by: .ticks(20))
        #expect(received.value == ticks(10, 20))
        cancellable.cancel()
    }

    @Test func anEndlessTimerIsStoppedByTheBoundOfRun() {
        let (clock, scheduler, messages) = makeClock()
        let received = LockedBox<[VirtualTime]>([])
        let cancellable = scheduler.timerPublisher(every: .ticks(10)).autoconnect().sink { received.append($0) }
        clock.run(limit: 50)
        #expect(received.value.count == 50)
        #expect(received.value.last == VirtualTime(tick: 500))
        #expect(
            messages.value == [
                "VirtualClock.run() stopped after running 50 actions at tick 500, with 1 still pending: an endless "
                    + "repeating timer or an action that keeps rescheduling itself never lets the clock go idle. Advance "
                    + "by a bounded duration, cancel the timer, or pass a larger limit."
            ])
        cancellable.cancel()
        #expect(clock.pendingCount == 0)
        clock.run()
        #expect(received.value.count == 50)
        #expect(messages.value.count == 1)
    }

    @Test func aTimerConnectedAfterTheClockEndedIsReportedAndNeverTicks() {
        let (clock, scheduler, messages) = makeClock()
        clock.advance(by: .ticks(4))
        clock.end()
        let received = LockedBox<[VirtualTime]>([])
        let cancellable = scheduler.timerPublisher(every: .ticks(10)).autoconnect().sink { received.append($0) }
        #expect(
            messages.value == [
                "TestScheduler.schedule(after:interval:tolerance:options:_:) was called after the clock's test ended "
                    + "(at tick 4); the action will never run."
            ])
        clock.run()
        #expect(received.value.isEmpty)
        cancellable.cancel()
    }

    // MARK: - Reflection and traps

    @Test func subscriptionDescribesItselfAsTimer() {
        let (_, scheduler, _) = makeClock()
        let subscriber = TestSubscriber<VirtualTime, Never>(initialDemand: .max(3))
        scheduler.timerPublisher(every: .ticks(10)).subscribe(subscriber)
        let subscription = subscriber.subscription
        #expect(subscription.map { String(describing: $0) } == "Timer")
        #expect((subscription as? any CustomPlaygroundDisplayConvertible)?.playgroundDescription as? String == "Timer")
        let mirror = subscription.map { Mirror(reflecting: $0) }
        #expect(mirror?.children.map(\.label) == ["downstream", "demand"])
        #expect(mirror?.children.first { $0.label == "demand" }?.value as? Subscribers.Demand == .max(3))
        subscriber.cancel()
    }

    /// As Foundation's timer publisher does in Apple's Combine, `request(.max(0))` adds nothing: the ticks that fire
    /// without demand are dropped, and a later demand gets the next ones.
    @Test func requestingNoneAddsNothing() {
        let (clock, scheduler, messages) = makeClock()
        let subscriber = TestSubscriber<VirtualTime, Never>(initialDemand: .none)
        scheduler.timerPublisher(every: .ticks(10)).autoconnect().subscribe(subscriber)
        subscriber.request(.none)
        clock.advance(by: .ticks(20))
        #expect(subscriber.values.isEmpty)
        subscriber.request(.max(1))
        clock.advance(by: .ticks(10))
        #expect(subscriber.values == ticks(30))
        subscriber.cancel()
        clock.end()
        #expect(messages.value.isEmpty)
    }

    // MARK: - Threads

    @Test func subscribersComingAndGoingWhileTheClockRunsIsSafe() async {
        let clock = VirtualClock(reporter: .init { _ in })
        let timer = clock.scheduler.timerPublisher(every: .ticks(1))
        let connection = UncheckedSendable(timer.connect())
        let shared = UncheckedSendable(timer)
        await withTaskGroup(of: Void.self) { group in
            group.addTask {
                for _ in 0..<2_000 { clock.advance(by: .ticks(1)) }
            }
            for _ in 0..<2 {
                group.addTask {
                    for round in 0..<300 {
                        let subscriber = TestSubscriber<VirtualTime, Never>(initialDemand: .max(2))
                        shared.value.subscribe(subscriber)
                        subscriber.request(.max(1))
                        if round.isMultiple(of: 2) { subscriber.cancel() }
                        #expect(subscriber.values.count <= 3)
                    }
                }
            }
        }
        connection.value.cancel()
        #expect(clock.pendingCount == 0)
    }
}
