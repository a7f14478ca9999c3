import Cadence
import Dispatch

// Cadence's side of the virtual-time benchmarks; `PeerSide/Schedulers.swift` drives combine-schedulers'
// `TestScheduler` and swift-clocks' `TestClock` the same way.

/// Benchmarks of Cadence's test schedulers and `VirtualClock`.
public enum CadenceVirtualTime {
    /// `actions` actions scheduled on `DispatchQueue.test`, due over the next 100 ms (action `i` at `i % 100` ms, so
    /// most ticks hold many), then one `advance(by: .milliseconds(100))` that runs them all in order. The checksum
    /// depends on the order they ran in.
    public static func scheduledActions(_ actions: Int) -> Int {
        let scheduler = DispatchQueue.test
        var checksum = 0
        for action in 0..<actions {
            scheduler.schedule(after: scheduler.now.advanced(by: .milliseconds(action % 100))) {
                checksum = checksum &* 31 &+ action
            }
        }
        scheduler.advance(by: .milliseconds(100))
        return checksum
    }

    /// `sleepers` tasks asleep on a `VirtualClock` (sleeper `i` for `i % 100 + 1` ms), then one advance by 100 ms
    /// that wakes them all; returns when every task has returned. Each task is started with `addImmediateTask`, so
    /// it is asleep before the next one starts. The checksum is the sum of the durations slept.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    public static func sleepers(_ sleepers: Int) async -> Int {
        let clock = VirtualClock()
        return await withTaskGroup(of: Int.self) { group in
            for sleeper in 0..<sleepers {
                let milliseconds = sleeper % 100 + 1
                group.addImmediateTask {
                    do { try await clock.sleep(for: .milliseconds(milliseconds)) } catch { return -1 }
                    return milliseconds
                }
            }
            // A clock made outside a session: the async advance first waits until no job of the process is running or
            // queued (every sleeper is already asleep here, so it finds the process settled).
            await clock.advance(by: .milliseconds(100))
            var checksum = 0
            for await slept in group { checksum &+= slept }
            return checksum
        }
    }
}
