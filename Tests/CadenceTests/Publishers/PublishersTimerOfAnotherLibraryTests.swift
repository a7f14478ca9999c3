import Cadence
import Testing

// A `Publishers.Timer` of another library's, declared as combine-schedulers and CombineExt declare theirs: a class in
// Combine's `Publishers` namespace, conforming to `Publisher`, named as a function's return type. Cadence adds no
// name to `Publishers` (its own timer is `SchedulerTimerPublisher`), so this file compiles beside `import Cadence`;
// while Cadence declared a `Publishers.Timer` too, `Publishers.Timer<S>` below was "ambiguous type name 'Timer' in
// 'Publishers'". `.ci/apple-sim` compiles the file against a Combine stand-in as well.
extension Publishers {
    /// Another library's timer: it publishes the scheduler's time once, when subscribed.
    final class Timer<Context: Scheduler>: Publisher {
        typealias Output = Context.SchedulerTimeType
        typealias Failure = Never

        let interval: Context.SchedulerTimeType.Stride
        let scheduler: Context

        init(every interval: Context.SchedulerTimeType.Stride, scheduler: Context) {
            self.interval = interval
            self.scheduler = scheduler
        }

        func receive<S: Subscriber>(subscriber: S) where S.Input == Output, S.Failure == Failure {
            Just(scheduler.now).receive(subscriber: subscriber)
        }
    }
}

/// Another library's factory, whose return type names its `Publishers.Timer`.
private func anotherLibrarysTimer<S: Scheduler>(
    every interval: S.SchedulerTimeType.Stride, on scheduler: S
)
    -> Publishers.Timer<S>
{
    Publishers.Timer(every: interval, scheduler: scheduler)
}

@Suite("A Publishers.Timer of another library beside Cadence")
struct PublishersTimerOfAnotherLibraryTests {
    @Test func publishersTimerIsTheOtherLibrarysAndCadencesTimerIsItsOwnType() {
        let scheduler = VirtualClock().scheduler
        let theirs = anotherLibrarysTimer(every: .ticks(5), on: scheduler)
        let ours: SchedulerTimerPublisher<VirtualScheduler> = scheduler.timerPublisher(every: .ticks(5))
        #expect(theirs.interval == .ticks(5))
        #expect(ours.interval == .ticks(5))
        #expect(String(reflecting: type(of: theirs)).contains("Publishers.Timer<"))
        #expect(String(reflecting: type(of: ours)).hasPrefix("Cadence.SchedulerTimerPublisher<"))
        #expect(!((ours as Any) is Publishers.Timer<VirtualScheduler>))
    }

    @Test func theOtherLibrarysTimerPublishes() {
        let scheduler = VirtualClock().scheduler
        let subscriber = TestSubscriber<VirtualTime, Never>()
        anotherLibrarysTimer(every: .ticks(5), on: scheduler).subscribe(subscriber)
        #expect(subscriber.values == [scheduler.now])
    }
}
