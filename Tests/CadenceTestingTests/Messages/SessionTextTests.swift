#if DEBUG
@testable import CadenceTesting
import Testing

/// Session reports that no runtime here can provoke, checked as text.
@Suite struct SessionTextTests {
    /// What a session says when `systemClocks: .virtual` is asked for where Swift 6.3's scheduling executors are
    /// missing (an older Apple OS); this toolchain has them, so only the text is checked here.
    @Test func virtualSystemClocksOnARuntimeWithoutSchedulingExecutors() {
        let trait = SessionText.message(SessionProblem(
            api: ".virtualTime", bodyName: "test body", kind: .systemClocksStayReal
        ))
        #expect(trait == ".virtualTime(systemClocks: .virtual) needs the scheduling executors of Swift 6.3 (macOS "
            + "26.4, iOS 26.4 on Apple's systems), which this runtime lacks: the test body's sleeps on ContinuousClock "
            + "and SuspendingClock, Task.sleep's included, stay on the wall clock. Inject the test's VirtualClock "
            + "instead.")
        let scope = SessionText.message(SessionProblem(
            api: "withVirtualTime", bodyName: "body", kind: .systemClocksStayReal
        ))
        #expect(scope.hasPrefix("withVirtualTime(systemClocks: .virtual) needs the scheduling executors"))
        #expect(scope.contains("the body's sleeps on ContinuousClock"))
    }
}
#endif
