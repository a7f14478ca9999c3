/// What the sleeps of a virtual-time session's tasks on the system's clocks do: `Task.sleep(for:)`,
/// `Task.sleep(nanoseconds:)`, and sleeps on `ContinuousClock` and `SuspendingClock`, in code that takes no clock.
///
/// ```swift
/// @MainActor @Test(.virtualTime(systemClocks: .virtual))
/// func theBannerHidesAfterThreeSeconds() async throws {
///     let banner = Banner()               // hides itself with `try await Task.sleep(for: .seconds(3))`
///     banner.show("Saved")
///     let clock = try #require(VirtualClock.current)
///     await clock.advance(by: .seconds(3))
///     #expect(banner.text == nil)
/// }
/// ```
public enum SystemClocks: Sendable, Equatable {
    /// They sleep on the wall clock, as outside a session (the default): only code that sleeps on the session's
    /// `VirtualClock` runs on virtual time.
    case real
    /// They sleep on the session's virtual clock: the advance that reaches a sleep's deadline wakes it, and a sleep
    /// still pending when the session ends throws `CancellationError`. A sleep's length is measured when it reaches
    /// Cadence, so it wakes by its deadline's tick but early by as long as the thread was held up on the way (tens of
    /// microseconds as a rule, milliseconds under load), and two equal sleeps may wake in either order: check with a
    /// margin, or inject the clock where every tick or that order counts. Needs the scheduling executors of Swift 6.3,
    /// which Linux's toolchain has and Apple's SDKs do not offer yet; elsewhere the session reports that and they
    /// stay on the wall clock.
    case virtual
}
