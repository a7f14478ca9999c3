#if DEBUG
import Cadence
@testable import CadenceTesting
import Testing

/// Session reports that no runtime here can provoke, checked as text.
@Suite struct SessionTextTests {
    /// What a session says when `systemClocks: .virtual` is asked for where Swift 6.3's scheduling executors are
    /// missing (an older runtime); this toolchain has them, so only the text is checked here.
    @Test func virtualSystemClocksOnARuntimeWithoutSchedulingExecutors() {
        let trait = SessionText.message(
            SessionProblem(
                api: ".virtualTime", bodyName: "test body", kind: .systemClocksStayReal(.runtimeTooOld)
            ))
        #expect(
            trait == ".virtualTime(systemClocks: .virtual) needs the scheduling executors of Swift 6.3's "
                + "runtime, which this runtime lacks: the test body's sleeps on ContinuousClock and SuspendingClock, "
                + "Task.sleep's included, stay on the wall clock. Inject the test's VirtualClock instead.")
        let scope = SessionText.message(
            SessionProblem(
                api: "withVirtualTime", bodyName: "body", kind: .systemClocksStayReal(.runtimeTooOld)
            ))
        #expect(scope.hasPrefix("withVirtualTime(systemClocks: .virtual) needs the scheduling executors"))
        #expect(scope.contains("the body's sleeps on ContinuousClock"))
    }

    /// What a session says on Apple platforms, whose SDKs have no public executor that takes delayed jobs (the
    /// branch that says it is compiled by `.ci/apple-sim`).
    @Test func virtualSystemClocksWithAnAppleSDK() {
        let trait = SessionText.message(
            SessionProblem(
                api: ".virtualTime", bodyName: "test body", kind: .systemClocksStayReal(.notInAppleSDKs)
            ))
        #expect(
            trait == ".virtualTime(systemClocks: .virtual) needs executors that take delayed jobs, which "
                + "Apple's SDKs do not offer yet (Swift 6.3's SchedulingExecutor is behind an SPI of the standard library "
                + "that they do not ship): the test body's sleeps on ContinuousClock and SuspendingClock, Task.sleep's "
                + "included, stay on the wall clock. Inject the test's VirtualClock instead.")
    }

    /// Where the package is built decides: Linux's toolchain ships the scheduling executors, an Apple SDK does not.
    @Test func systemSleepSupportFollowsThePlatform() {
        #if canImport(ObjectiveC)
        #expect(VirtualClock.systemSleepSupport == .notInAppleSDKs)
        #elseif compiler(>=6.3)
        #expect(VirtualClock.systemSleepSupport == .available)
        #else
        #expect(VirtualClock.systemSleepSupport == .runtimeTooOld)
        #endif
        #expect(VirtualClock.canVirtualizeSystemSleeps == (VirtualClock.systemSleepSupport == .available))
    }
}
#endif
