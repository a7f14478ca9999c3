import Cadence
import Foundation
import Testing

/// Foundation's `Timer.TimerPublisher` on a real run loop. The tests run the current thread's run loop for a bounded
/// time and assert only counts and order, never speed.
@Suite("Timer.TimerPublisher")
struct TimerPublisherTests {
    /// A mode no other code adds anything to, so a run in it shows whether this test's timer is still installed.
    private let privateMode = RunLoop.Mode("Cadence.TimerPublisherTests.\(UUID().uuidString)")

    /// Runs the current run loop in `mode` until `condition` holds or `timeout` seconds have passed; returns whether
    /// the condition holds.
    @discardableResult
    private func runLoop(
        in mode: RunLoop.Mode = .default,
        timeout: TimeInterval = 10,
        until condition: () -> Bool
    ) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        while !condition(), Date() < deadline {
            if !RunLoop.current.run(mode: mode, before: min(deadline, Date(timeIntervalSinceNow: 0.05))) {
                Thread.sleep(forTimeInterval: 0.005) // nothing installed in this mode: the run returned at once
            }
        }
        return condition()
    }

    /// Runs the current run loop in `mode` for `duration` seconds.
    private func runLoop(in mode: RunLoop.Mode = .default, for duration: TimeInterval) {
        runLoop(in: mode, timeout: duration) { false }
    }

    /// Whether a timer is still installed on the current run loop in `mode`: a run in a mode with nothing in it
    /// returns `false` at once.
    private func hasTimer(in mode: RunLoop.Mode) -> Bool {
        RunLoop.current.run(mode: mode, before: Date(timeIntervalSinceNow: 0.01))
    }

    // MARK: - Making the publisher

    /// As on Apple platforms, `Timer.publish` drops its tolerance while the initialiser keeps it.
    @Test func publishKeepsItsArgumentsButTheTolerance() {
        let mode = RunLoop.Mode("testMode")
        let publisher: Timer.TimerPublisher = Timer.publish(
            every: 0.25, tolerance: 0.02, on: .current, in: mode, options: nil)
        #expect(publisher.interval == 0.25)
        #expect(publisher.tolerance == nil)
        #expect(publisher.runLoop === RunLoop.current)
        #expect(publisher.mode == mode)
        #expect(publisher.options == nil)

        let made = Timer.TimerPublisher(interval: 1, tolerance: 0.4, runLoop: .current, mode: .default)
        #expect(made.tolerance == 0.4)
        let plain = Timer.TimerPublisher(interval: 1, runLoop: .current, mode: .default)
        #expect(plain.tolerance == nil)
        #expect(plain.mode == .default)
    }

    // MARK: - Ticks

    @Test func nothingIsEmittedBeforeConnect() {
        let publisher = Timer.publish(every: 0.01, on: .current, in: privateMode)
        let subscriber = TestSubscriber<Date, Never>()
        publisher.subscribe(subscriber)
        #expect(!hasTimer(in: privateMode))
        runLoop(in: privateMode, for: 0.1)
        #expect(subscriber.events == [.subscription])
    }

    @Test func connectStartsATimerWhoseTicksGoToEverySubscriberWithDemand() {
        let publisher = Timer.publish(every: 0.01, on: .current, in: privateMode)
        let pacer = TestSubscriber<Date, Never>()
        let limited = TestSubscriber<Date, Never>(initialDemand: .max(2))
        let answering = TestSubscriber<Date, Never>(initialDemand: .max(1)) { _ in .max(1) }
        publisher.subscribe(pacer)
        publisher.subscribe(limited)
        publisher.subscribe(answering)
        let connection = publisher.connect()
        #expect(runLoop(in: privateMode) { pacer.values.count >= 5 })
        connection.cancel()

        let ticks = pacer.values
        #expect(ticks == ticks.sorted())
        #expect(limited.values == Array(ticks.prefix(2)))
        #expect(answering.values == ticks)
        #expect(pacer.completions.isEmpty)
    }

    @Test func aTickWithoutDemandIsDroppedNotDeliveredLater() {
        let publisher = Timer.publish(every: 0.01, on: .current, in: privateMode)
        let pacer = TestSubscriber<Date, Never>()
        let limited = TestSubscriber<Date, Never>(initialDemand: .max(1))
        publisher.subscribe(pacer)
        publisher.subscribe(limited)
        let connection = publisher.connect()
        #expect(runLoop(in: privateMode) { pacer.values.count >= 3 })
        let missed = pacer.values.count
        #expect(limited.values.count == 1)
        limited.request(.max(1))
        #expect(limited.values.count == 1)
        #expect(runLoop(in: privateMode) { limited.values.count >= 2 })
        connection.cancel()

        let ticks = pacer.values
        #expect(limited.values.first == ticks.first)
        #expect(limited.values.count == 2)
        #expect(limited.values.last.flatMap { ticks.firstIndex(of: $0) }.map { $0 >= missed } == true)
    }

    @Test func aSubscriberThatAttachesWhileTheTimerRunsGetsTheFollowingTicks() {
        let publisher = Timer.publish(every: 0.01, on: .current, in: privateMode)
        let early = TestSubscriber<Date, Never>()
        publisher.subscribe(early)
        let connection = publisher.connect()
        #expect(runLoop(in: privateMode) { early.values.count >= 2 })
        let before = early.values.count
        let late = TestSubscriber<Date, Never>()
        publisher.subscribe(late)
        #expect(runLoop(in: privateMode) { late.values.count >= 2 })
        connection.cancel()
        #expect(late.values == Array(early.values.dropFirst(before)))
    }

    @Test func aSubscriberThatCancelsIsReleasedAndTheOthersKeepTicking() {
        let publisher = Timer.publish(every: 0.01, on: .current, in: privateMode)
        weak var weakLeaving: TestSubscriber<Date, Never>?
        var leaving: TestSubscriber<Date, Never>? = TestSubscriber()
        weakLeaving = leaving
        let staying = TestSubscriber<Date, Never>()
        publisher.subscribe(leaving!)
        publisher.subscribe(staying)
        let connection = publisher.connect()
        #expect(runLoop(in: privateMode) { staying.values.count >= 2 })
        let left = leaving?.values ?? []
        leaving?.cancel()
        leaving = nil
        #expect(weakLeaving == nil)
        let stayed = staying.values.count
        #expect(runLoop(in: privateMode) { staying.values.count >= stayed + 2 })
        connection.cancel()
        #expect(left == Array(staying.values.prefix(left.count)))
    }

    @Test func theTimerRunsOnlyInItsMode() {
        let publisher = Timer.publish(every: 0.01, on: .current, in: privateMode)
        let subscriber = TestSubscriber<Date, Never>()
        publisher.subscribe(subscriber)
        let connection = publisher.connect()
        runLoop(in: .default, for: 0.1)
        #expect(subscriber.values.isEmpty)
        #expect(runLoop(in: privateMode) { subscriber.values.count >= 2 })
        connection.cancel()
    }

    @Test(arguments: [0.0, -1.0])
    func anIntervalOfZeroOrLessKeepsTicking(interval: TimeInterval) {
        let publisher = Timer.publish(every: interval, on: .current, in: privateMode)
        #expect(publisher.interval == interval)
        let subscriber = TestSubscriber<Date, Never>(initialDemand: .max(5))
        publisher.subscribe(subscriber)
        let connection = publisher.connect()
        #expect(runLoop(in: privateMode) { subscriber.values.count >= 5 })
        #expect(hasTimer(in: privateMode))
        connection.cancel()
        #expect(subscriber.values.count == 5)
    }

    // MARK: - Cancelling

    @Test func cancellingTheConnectionInvalidatesTheTimer() {
        let publisher = Timer.publish(every: 0.01, on: .current, in: privateMode)
        let subscriber = TestSubscriber<Date, Never>()
        publisher.subscribe(subscriber)
        let connection = publisher.connect()
        #expect(hasTimer(in: privateMode))
        #expect(runLoop(in: privateMode) { subscriber.values.count >= 2 })
        connection.cancel()
        #expect(!hasTimer(in: privateMode))
        let count = subscriber.values.count
        runLoop(in: privateMode, for: 0.1)
        #expect(subscriber.values.count == count)
        #expect(subscriber.completions.isEmpty)
        connection.cancel()
        #expect(!(connection is any Subscription))
        #expect(!(connection is any CustomStringConvertible))
    }

    @Test func connectingTwiceStartsTwoTimersAndCancellingOneDetachesTheSubscribers() {
        let publisher = Timer.publish(every: 0.01, on: .current, in: privateMode)
        let subscriber = TestSubscriber<Date, Never>()
        publisher.subscribe(subscriber)
        let first = publisher.connect()
        let second = publisher.connect()
        #expect(runLoop(in: privateMode) { subscriber.values.count >= 4 })
        first.cancel()
        #expect(hasTimer(in: privateMode))
        let count = subscriber.values.count
        let later = TestSubscriber<Date, Never>()
        publisher.subscribe(later)
        #expect(runLoop(in: privateMode) { later.values.count >= 2 })
        #expect(subscriber.values.count == count)
        second.cancel()
        #expect(!hasTimer(in: privateMode))
    }

    // MARK: - autoconnect()

    @Test func autoconnectStartsTheTimerForTheFirstSubscriberAndStopsItAfterTheLast() {
        let ticking = Timer.publish(every: 0.01, on: .current, in: privateMode).autoconnect()
        #expect(!hasTimer(in: privateMode))
        let first = LockedBox<[Date]>([])
        let second = LockedBox<[Date]>([])
        let firstCancellable = ticking.sink { first.append($0) }
        let secondCancellable = ticking.sink { second.append($0) }
        #expect(hasTimer(in: privateMode))
        #expect(runLoop(in: privateMode) { second.value.count >= 3 })
        firstCancellable.cancel()
        #expect(hasTimer(in: privateMode))
        secondCancellable.cancel()
        #expect(!hasTimer(in: privateMode))
        #expect(first.value.count >= 3)
        #expect(Array(second.value.prefix(first.value.count)) == first.value)
        let count = second.value.count
        runLoop(in: privateMode, for: 0.05)
        #expect(second.value.count == count)
    }

    // MARK: - Other threads

    @Test func theTimerFiresOnTheRunLoopItWasGiven() {
        let worker = RunLoopThread()
        let publisher = Timer.publish(every: 0.01, on: worker.runLoop, in: .default)
        let onWorker = LockedBox<[Bool]>([])
        let cancellable = publisher.autoconnect().sink { _ in onWorker.append(Thread.current === worker.thread) }
        #expect(runLoop(timeout: 10) { onWorker.value.count >= 3 })
        cancellable.cancel()
        worker.stop()
        #expect(onWorker.value.allSatisfy { $0 })
    }

    @Test func subscribersComingAndGoingWhileAnotherThreadTicksIsSafe() {
        let worker = RunLoopThread()
        let publisher = Timer.publish(every: 0.001, on: worker.runLoop, in: .default)
        let connection = publisher.connect()
        for round in 0..<200 {
            let subscriber = TestSubscriber<Date, Never>(initialDemand: .max(1))
            publisher.subscribe(subscriber)
            subscriber.request(.max(1))
            if round.isMultiple(of: 2) { subscriber.cancel() }
            #expect(subscriber.values.count <= 2)
        }
        connection.cancel()
        worker.stop()
    }

    // MARK: - Reflection and traps

    /// As on Apple platforms, neither a subscription nor a connection describes or reflects itself.
    @Test func neitherSubscriptionNorConnectionDescribesItself() throws {
        let publisher = Timer.TimerPublisher(interval: 0.25, tolerance: 0.4, runLoop: .current, mode: privateMode)
        let connection = publisher.connect()
        defer { connection.cancel() }
        #expect(!(connection is any CustomStringConvertible))
        #expect(!(connection is any CustomDebugStringConvertible))
        #expect(!(connection is any CustomReflectable))
        #expect(!(connection is any CustomPlaygroundDisplayConvertible))

        let subscriber = TestSubscriber<Date, Never>(initialDemand: .max(2))
        publisher.subscribe(subscriber)
        let subscription = try #require(subscriber.subscription)
        #expect(!(subscription is NSObject))
        #expect(!(subscription is any CustomStringConvertible))
        #expect(!(subscription is any CustomDebugStringConvertible))
        #expect(!(subscription is any CustomReflectable))
        #expect(!(subscription is any CustomPlaygroundDisplayConvertible))
        subscriber.cancel()
    }

    /// As in Apple's Combine, `request(.max(0))` is no misuse here: the subscription carries on without a demand.
    @Test func requestingNoneAddsNothing() {
        let subscriber = TestSubscriber<Date, Never>(initialDemand: .none)
        Timer.publish(every: 1, on: .main, in: .default).subscribe(subscriber)
        subscriber.request(.none)
        #expect(subscriber.subscription != nil)
        #expect(subscriber.events.count == 1) // the subscription only
        subscriber.cancel()
    }
}

/// A thread that runs its own run loop until stopped, for timers installed from another thread.
// `thread` and `runLoop` are set once, before `started` signals.
private final class RunLoopThread: @unchecked Sendable {
    private let started = DispatchSemaphore(value: 0)
    private let finished = DispatchSemaphore(value: 0)
    private let stopRequest = LockedBox(false)
    private(set) var thread: Thread!
    private(set) var runLoop: RunLoop!

    init() {
        let thread = Thread { [self] in
            runLoop = RunLoop.current
            started.signal()
            while !stopRequest.value {
                if !RunLoop.current.run(mode: .default, before: Date(timeIntervalSinceNow: 0.01)) {
                    Thread.sleep(forTimeInterval: 0.001) // no timer installed yet: the run returned at once
                }
            }
            finished.signal()
        }
        self.thread = thread
        thread.start()
        started.wait()
    }

    /// Stops the run loop and waits for the thread to leave it.
    func stop() {
        stopRequest.mutate { $0 = true }
        finished.wait()
    }
}
