import Cadence

/// A clock whose reported misuse is recorded instead of written to standard error.
func recordingClock(at tick: Int64 = 0) -> (clock: VirtualClock, messages: LockedBox<[String]>) {
    let messages = LockedBox<[String]>([])
    let clock = VirtualClock(now: .init(ticks: tick), reporter: .init { messages.append($0.message) })
    return (clock, messages)
}

/// Counts how many of the objects it hands out are still alive, to check that closures are released.
final class LifetimeTracker: Sendable {
    let alive = LockedBox(0)

    /// An object to capture in a closure; `alive` counts it until it is released.
    func token() -> Token { Token(tracker: self) }

    final class Token: Sendable {
        let tracker: LifetimeTracker
        init(tracker: LifetimeTracker) {
            self.tracker = tracker
            tracker.alive.mutate { $0 += 1 }
        }
        deinit { tracker.alive.mutate { $0 -= 1 } }
    }
}
