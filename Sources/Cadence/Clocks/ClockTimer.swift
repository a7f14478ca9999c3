extension Clock {
    /// The clock's instants every `interval`, from `interval` after the first request, for as long as the sequence
    /// is iterated: each element comes when a sleep until the next deadline ends. Cancelling the iterating task ends
    /// the sequence.
    ///
    /// ```swift
    /// for await _ in clock.timer(interval: .seconds(1)) { model.tick() }
    /// ```
    ///
    /// Each deadline is an `interval` after the previous one, so a late wake-up does not shift the rest.
    public func timer(interval: Duration, tolerance: Duration? = nil) -> ClockTimer<Self> {
        ClockTimer(clock: self, interval: interval, tolerance: tolerance)
    }
}

/// The instants of a clock every `interval`: see `Clock.timer(interval:tolerance:)`.
public struct ClockTimer<C: Clock>: AsyncSequence, Sendable {
    public typealias Element = C.Instant

    let clock: C
    let interval: C.Duration
    let tolerance: C.Duration?

    public func makeAsyncIterator() -> Iterator {
        Iterator(clock: clock, interval: interval, tolerance: tolerance)
    }

    /// Sleeps until each deadline in turn.
    public struct Iterator: AsyncIteratorProtocol {
        let clock: C
        let interval: C.Duration
        let tolerance: C.Duration?
        var deadline: C.Instant?

        init(clock: C, interval: C.Duration, tolerance: C.Duration?) {
            self.clock = clock
            self.interval = interval
            self.tolerance = tolerance
        }

        /// The clock's `now` once the next deadline is reached; nil once the task is cancelled.
        public mutating func next() async -> C.Instant? {
            let next = (deadline ?? clock.now).advanced(by: interval)
            do {
                try await clock.sleep(until: next, tolerance: tolerance)
            } catch {
                return nil
            }
            deadline = next
            return clock.now
        }
    }
}
