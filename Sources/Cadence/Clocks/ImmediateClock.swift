import CadenceSupport

/// A clock whose sleeps end at once, moving its ``now`` to their deadline: for code that takes a clock and whose
/// timing a test or a preview does not care about.
///
/// ```swift
/// let model = OnboardingModel(clock: ImmediateClock())
/// await model.next()   // its `try await clock.sleep(for: .seconds(2))` returns at once
/// ```
///
/// A sleep still checks for cancellation: a cancelled task's sleep throws `CancellationError`. To control when
/// sleeps end, use a ``VirtualClock``.
public final class ImmediateClock: Clock, Sendable {
    /// A point on an immediate clock: how far its sleeps have moved it from where it started.
    public struct Instant: InstantProtocol, Sendable, Hashable {
        /// The time since the clock started.
        public let offset: Duration

        /// The instant `offset` after the clock's start (its start by default).
        public init(offset: Duration = .zero) {
            self.offset = offset
        }

        public func advanced(by duration: Duration) -> Instant {
            Instant(offset: offset + duration)
        }

        public func duration(to other: Instant) -> Duration {
            other.offset - offset
        }

        public static func < (lhs: Instant, rhs: Instant) -> Bool {
            lhs.offset < rhs.offset
        }
    }

    private let current: Locked<Instant>

    /// A clock at `now` (its start by default).
    public init(now: Instant = Instant()) {
        current = Locked(now)
    }

    /// Where the sleeps have moved the clock to.
    public var now: Instant { current.withLock { $0 } }

    /// Zero: any duration can be slept.
    public var minimumResolution: Duration { .zero }

    /// Moves ``now`` to `deadline` (if it is later) and returns at once; throws `CancellationError` if the task is
    /// cancelled.
    public func sleep(until deadline: Instant, tolerance _: Duration? = nil) async throws {
        try Task.checkCancellation()
        current.withLock { $0 = max($0, deadline) }
    }
}
