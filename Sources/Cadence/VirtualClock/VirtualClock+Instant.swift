extension VirtualClock {
    /// A moment on a virtual clock's timeline: a whole number of ticks (1 tick = 1 ms) since the clock's origin.
    public struct Instant: InstantProtocol, CustomStringConvertible {
        /// Ticks since the clock's origin.
        public var ticks: Int64

        /// The instant `ticks` ticks after the clock's origin.
        public init(ticks: Int64) {
            self.ticks = ticks
        }

        /// The instant `duration` later, rounded up to a whole tick (it saturates instead of overflowing).
        public func advanced(by duration: Duration) -> Instant {
            let (sum, overflow) = ticks.addingReportingOverflow(Duration.virtualTicks(in: duration))
            guard overflow else { return Instant(ticks: sum) }
            return Instant(ticks: duration < .zero ? .min : .max)
        }

        /// The duration from this instant to `other`.
        public func duration(to other: Instant) -> Duration {
            .milliseconds(other.ticks) - .milliseconds(ticks)
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.ticks < rhs.ticks
        }

        /// `"tick 5"`.
        public var description: String { "tick \(ticks)" }
    }
}

extension Duration {
    /// A duration of `count` ticks of virtual time: 1 tick is 1 ms.
    public static func ticks(_ count: Int) -> Duration {
        .milliseconds(count)
    }

    /// The number of whole ticks (milliseconds) in `duration`, rounded up, saturating at the bounds of `Int64`.
    package static func virtualTicks(in duration: Duration) -> Int64 {
        let (seconds, attoseconds) = duration.components
        let attosecondsPerTick: Int64 = 1_000_000_000_000_000
        var fromAttoseconds = attoseconds / attosecondsPerTick
        if attoseconds % attosecondsPerTick > 0 { fromAttoseconds += 1 }
        let (milliseconds, overflow) = seconds.multipliedReportingOverflow(by: 1000)
        guard !overflow else { return seconds < 0 ? .min : .max }
        let (total, sumOverflow) = milliseconds.addingReportingOverflow(fromAttoseconds)
        guard !sumOverflow else { return seconds < 0 ? .min : .max }
        return total
    }
}
