import Clocks
import CombineSchedulers
import Foundation
import OpenCombineShim

// combine-schedulers' and swift-clocks' side of the virtual-time benchmarks, driven as `CadenceSide/VirtualTime.swift`
// drives Cadence's.

/// Benchmarks of combine-schedulers' `TestScheduler` and swift-clocks' `TestClock`.
public enum PeerVirtualTime {
    /// `actions` actions scheduled on combine-schedulers' `DispatchQueue.test` (action `i` at `i % 100` ms), then one
    /// `advance(by: .milliseconds(100))` — its synchronous form — that runs them all in order.
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

    /// `sleepers` tasks asleep on swift-clocks' `TestClock` (sleeper `i` for `i % 100 + 1` ms), each started with
    /// `addImmediateTask` so that it is asleep before the next one starts, then one `await clock.advance(by:
    /// .milliseconds(100))` — the only way to drive a `TestClock` — and a wait for every task to return.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    public static func sleepers(_ sleepers: Int) async -> Int {
        let clock = TestClock()
        return await withTaskGroup(of: Int.self) { group in
            for sleeper in 0..<sleepers {
                let milliseconds = sleeper % 100 + 1
                group.addImmediateTask {
                    do { try await clock.sleep(for: .milliseconds(milliseconds)) } catch { return -1 }
                    return milliseconds
                }
            }
            await clock.advance(by: .milliseconds(100))
            var checksum = 0
            for await slept in group { checksum &+= slept }
            return checksum
        }
    }
}
