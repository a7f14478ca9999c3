#if canImport(XCTest)
import CadenceSupport
import Foundation
import XCTest

/// One run of an XCTest test case, as the expectations made in it see it: the scope that catches their late events,
/// and the gate their failures pass through.
///
/// While the test case runs, a failure goes to `XCTFail` — that test case is XCTest's running test. When the test
/// case's teardown begins (a teardown block the scope adds when the case starts), the scope runs its chains' late
/// checks there, on the test's thread, failing that test case, and cancels their subscriptions; then the gate shuts.
/// A failure found after that (an event a publisher sends after its subscription was cancelled, a chain released on
/// another thread later) fails no test: XCTest would pin it on whichever test runs by then. It is written to standard
/// error as a warning naming the test case it belongs to, and counted at the end of the run
/// (``XCTestCaseObserver``).
///
/// The scope also keeps, until the case ends, the key-path shims that fulfil the expectations
/// `expectation(for:keyPath:…)` registered with the test case, so that a wait on virtual time finds the shim behind
/// each of them.
final class XCTestCaseScope: Sendable {
    private struct State {
        var open = true
        /// The test case's name, once known: from the start for a case the observer saw start.
        var testName: String?
        /// The shim that fulfils each registered expectation, by the registered expectation (which the shim holds).
        var shims: [ObjectIdentifier: XCTestExpectation] = [:]
    }

    /// Holds the ended chains' late checks until the teardown; nil for a case the observer did not see start (one
    /// already running when CadenceTesting was loaded, see ``XCTestCaseObserver``): its late events are reported as
    /// they arrive, and the gate shuts when the case has finished.
    let expectations: ExpectationScope?
    // Held while a failure goes to `XCTFail`, so the gate cannot shut (and another test start) halfway through.
    private let state: Locked<State>
    /// Where a failure found after the case finished goes.
    private let observer: XCTestCaseObserver

    init(testName: String?, observer: XCTestCaseObserver) {
        expectations = testName == nil ? nil : ExpectationScope(watchesAfterFinishing: true)
        state = Locked(State(testName: testName))
        self.observer = observer
    }

    /// A reporter into XCTest for expectations made in this test case, through the gate.
    var reporter: FailureReporter {
        FailureReporter(destination: .xcTest) { [self] failure in report(failure) }
    }

    /// Fails the test case with `failure` while it runs; reports it as a stray once the case has finished.
    private func report(_ failure: ExpectationFailure) {
        let stray = state.withLock { state -> String? in
            guard !state.open else {
                XCTFail(failure.message, file: failure.location.staticFilePath, line: UInt(failure.location.line))
                return nil
            }
            return state.testName ?? "an XCTest test"
        }
        if let stray { observer.reportStray(failure, of: stray) }
    }

    /// Keeps `shim`, which fulfils `registered`, until the case ends.
    func keep(_ shim: XCTestExpectation, fulfilling registered: XCTestExpectation) {
        state.withLock { $0.shims[ObjectIdentifier(registered)] = shim }
    }

    /// The shim that fulfils `expectation`, if the case keeps one.
    func shim(fulfilling expectation: XCTestExpectation) -> XCTestExpectation? {
        state.withLock { $0.shims[ObjectIdentifier(expectation)] }
    }

    /// Ends the scope: runs the late checks (failing the test case), shuts the gate, and lets the shims go (their
    /// observations end with them). Idempotent.
    func end(testName: String? = nil) {
        expectations?.finish()
        let shims = state.withLock { state in
            state.open = false
            if state.testName == nil { state.testName = testName }
            defer { state.shims = [:] }
            return state.shims
        }
        // Released after the lock: a shim's deinitialiser cancels its observation.
        _ = consume shims
    }
}

/// Follows XCTest's test cases (XCTest's test observation), so that each expectation made in a test case, and each
/// broken Combine rule, knows it: see ``XCTestCaseScope``.
///
/// The shared observer registers with XCTest when CadenceTesting is loaded (``register()``, called at load time by
/// `cadenceTestingDidLoad()`), before any test case starts, so it sees every test case from its start — whether or
/// not an expectation ran before. An image that links CadenceTesting loaded while a test case already runs (a bundle
/// opened mid-run) registers inside that case: the case was not seen starting, so its teardown cannot be joined — its
/// late events are reported as they arrive while it runs, and as strays once it has finished.
final class XCTestCaseObserver: NSObject, XCTestObservation, @unchecked Sendable {
    // `state` guards every mutable property.
    private struct State {
        /// The test case running now, if the observer knows of one.
        var current: XCTestCaseScope?
        /// The running test case, for its count of failures.
        weak var testCase: XCTestCase?
        /// Whether the observer has seen a test case start, or was installed before any: then no test is running
        /// when `current` is nil.
        var followsFromStart = false
        /// Every stray report so far, as written to standard error.
        var strays: [String] = []
    }

    private let state = Locked(State())

    /// The observer, registered with XCTest the first time it is asked for: when CadenceTesting is loaded.
    static let shared: XCTestCaseObserver = {
        let observer = XCTestCaseObserver()
        XCTestObservationCenter.shared.addTestObserver(observer)
        return observer
    }()

    /// Registers the shared observer with XCTest; CadenceTesting's load-time setup calls it, before any test runs.
    static func register() {
        _ = shared
    }

    /// The scope of the test case running now, for an expectation made now; nil between test cases.
    static func scopeForNewExpectation() -> XCTestCaseScope? {
        shared.scopeForNewExpectation()
    }

    /// The scope of the test case running now as this observer follows them; nil between test cases.
    func scopeForNewExpectation() -> XCTestCaseScope? {
        state.withLock { state in
            if state.current == nil, !state.followsFromStart {
                // Installed inside a running test case: one the observer did not see start.
                state.followsFromStart = true
                state.current = XCTestCaseScope(testName: nil, observer: self)
            }
            return state.current
        }
    }

    /// The scope of the test case running now, if the observer follows XCTest's test cases and one is running.
    static var runningTestCase: XCTestCaseScope? {
        shared.state.withLock { $0.current }
    }

    /// How many failures the running XCTest test case has recorded so far; nil when no test case is running.
    static var failureCount: Int? {
        shared.state.withLock { $0.testCase }?.testRun?.totalFailureCount
    }

    /// Every stray report so far (the text written to standard error), for the project's own tests.
    package var strays: [String] { state.withLock { $0.strays } }

    /// Where a stray report goes instead of standard error: nil, but for the project's own tests of strays, which
    /// bind a recording reporter here to check the report's text without printing it. A report sent there is not
    /// counted at the end of the run either.
    @TaskLocal package static var strayDestination: FailureReporter?

    /// Writes `failure`, found after `testName` finished, to standard error as a warning that names the test.
    func reportStray(_ failure: ExpectationFailure, of testName: String) {
        let text = XCTestText.stray(failure, of: testName)
        let report = ExpectationFailure(message: text, location: failure.location)
        if let destination = Self.strayDestination {
            destination.report(report)
            return
        }
        state.withLock { $0.strays.append(text) }
        FailureReporter.standardErrorWarning.report(report)
    }

    // MARK: XCTestObservation

    func testCaseWillStart(_ testCase: XCTestCase) {
        let scope = XCTestCaseScope(testName: testCase.name, observer: self)
        state.withLock { state in
            state.followsFromStart = true
            state.current = scope
            state.testCase = testCase
        }
        testCase.addTeardownBlock { scope.end() }
    }

    func testCaseDidFinish(_ testCase: XCTestCase) {
        let scope = state.withLock { state in
            defer {
                state.current = nil
                state.testCase = nil
            }
            return state.current
        }
        scope?.end(testName: testCase.name)
    }

    func testBundleDidFinish(_ testBundle: Bundle) {
        let count = state.withLock { $0.strays.count }
        guard count > 0 else { return }
        FailureReporter.standardError.report(XCTestText.straysSummary(count: count))
    }
}
#endif
