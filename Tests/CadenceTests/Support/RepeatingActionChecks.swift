#if !canImport(Combine)
import Cadence
import Dispatch
import Foundation
import Testing

/// What the real schedulers (`DispatchQueue`, `RunLoop`, `OperationQueue`) do alike with a repeating action, each
/// run against a scheduler that a mirrored test file passes in. `settle` lets any run already under way finish and
/// returns whether that worked; `afterQuiet` runs once the test has waited for the action to fire again (and must
/// return true). Failures point at the caller.
enum RepeatingActionChecks {
    /// An action due in 20 ms and then every 10 ms fires three times; once cancelled (and settled) it does not fire
    /// again over ten intervals. Each fire is at or after the first due time, and the fires are in order.
    static func firesRepeatedlyAndStopsOnceCancelled<S: Scheduler>(
        on scheduler: S,
        settle: () -> Bool,
        afterQuiet: () -> Bool = { true },
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let fires = LockedBox<[S.SchedulerTimeType]>([])
        let threeFires = DispatchSemaphore(value: 0)
        let start = scheduler.now.advanced(by: .milliseconds(20))
        let cancellable = scheduler.schedule(after: start, interval: .milliseconds(10)) {
            let count = fires.mutate {
                $0.append(scheduler.now)
                return $0.count
            }
            if count == 3 { threeFires.signal() }
        }
        #expect(threeFires.wait(timeout: .now() + 60) == .success, sourceLocation: sourceLocation)
        cancellable.cancel()
        #expect(settle(), sourceLocation: sourceLocation)
        let countAtCancel = fires.value.count
        Thread.sleep(forTimeInterval: 0.1) // ten intervals: a live repetition would have fired again
        #expect(afterQuiet(), sourceLocation: sourceLocation)
        #expect(fires.value.count == countAtCancel, sourceLocation: sourceLocation)
        #expect(fires.value.first.map { $0 >= start } == true, sourceLocation: sourceLocation)
        #expect(fires.value == fires.value.sorted(), sourceLocation: sourceLocation)
    }

    /// An action due now and then every 5 ms fires; once its cancellable is released (and settled) it does not fire
    /// again.
    static func releasingTheCancellableStopsIt<S: Scheduler>(
        on scheduler: S,
        settle: () -> Bool,
        afterQuiet: () -> Bool = { true },
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let fires = LockedBox(0)
        let firstFire = DispatchSemaphore(value: 0)
        var cancellable: Cancellable? = scheduler.schedule(after: scheduler.now, interval: .milliseconds(5)) {
            if fires.mutate({
                $0 += 1
                return $0
            }) == 1 {
                firstFire.signal()
            }
        }
        #expect(firstFire.wait(timeout: .now() + 60) == .success, sourceLocation: sourceLocation)
        #expect(cancellable != nil, sourceLocation: sourceLocation)
        cancellable = nil
        #expect(settle(), sourceLocation: sourceLocation)
        let countAtRelease = fires.value
        Thread.sleep(forTimeInterval: 0.05)
        #expect(afterQuiet(), sourceLocation: sourceLocation)
        #expect(fires.value == countAtRelease, sourceLocation: sourceLocation)
    }
}
#endif
