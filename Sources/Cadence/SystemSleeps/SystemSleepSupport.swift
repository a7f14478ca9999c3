/// Whether a session can take the sleeps of its tasks on `ContinuousClock` and `SuspendingClock` onto its virtual
/// clock, and if not, why.
package enum SystemSleepSupport: Sendable, Equatable {
    /// It can: Swift 6.3's scheduling executors, through which every such sleep asks the executor it runs on to wake
    /// it, are there, and so are the runtime hooks that run a session's tasks.
    case available
    /// Built with an Apple SDK, whose standard library has no public executor that takes delayed jobs: Swift 6.3
    /// keeps `SchedulingExecutor` behind an SPI, and Apple's SDKs ship only the public interfaces.
    case notInAppleSDKs
    /// The compiler or the runtime predates Swift 6.3's scheduling executors, or the runtime hooks are missing.
    case runtimeTooOld
}
