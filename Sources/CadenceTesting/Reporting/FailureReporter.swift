/// Where failed expectations go: the running Swift Testing test, the running XCTest test, or a reporter a test binds.
///
/// `expect(_:)` picks its reporter once, when it is called, and keeps it: a failure found later — at the end of the
/// chain, at the end of the test, or when a late event arrives on another thread — still lands in the test that wrote
/// the expectation. The choice, in order:
///
/// 1. the task-local ``current`` reporter, when one is bound;
/// 2. Swift Testing (`Issue.record` at the failing call's `SourceLocation`) when a Swift Testing test is running on
///    the task that calls `expect` (see ``swiftTesting`` for failures found on other threads);
/// 3. XCTest (`XCTFail(_:file:line:)`) otherwise, where XCTest can be imported;
/// 4. standard error (see ``standardError``) where it cannot.
///
/// Bind a reporter to collect failures instead of failing the test — the way to assert a failure's exact text:
///
/// ```swift
/// let failures = recordingFailures {
///     expect(Just(1)).toEmit(2)
/// }
/// #expect(failures.map(\.message).first?.hasPrefix("toEmit(2) failed") == true)
/// ```
///
/// A reporter reports each failure it is given exactly once, and an expectation chain gives it at most one: its first
/// failed step, or else the events no step consumed, or else the first events that arrived after the chain ended.
///
/// ## Failures found on other threads
///
/// A chain may end, and a late event may arrive, on a thread other than the test's. Where the failure lands:
///
/// - a bound reporter gets it on that thread (``FailureLog`` is thread-safe);
/// - XCTest tracks its running test for the whole process, so `XCTFail` on another thread fails that test while it
///   runs;
/// - Swift Testing attributes an issue only on the test's task, so ``swiftTesting`` carries a failure found elsewhere
///   back onto a task made on the test's task when `expect` was called: the failure lands in that test (inside the
///   `withKnownIssue` that surrounded `expect`, if any), shortly after it is found.
public struct FailureReporter: Sendable {
    /// The test framework a reporter reports into, so that a test can tell which one ``resolved`` picked.
    enum Destination: Sendable, Equatable {
        /// A reporter made with ``init(_:)``: a recording reporter, or one a user wrote.
        case custom
        /// Swift Testing's `Issue.record`.
        case swiftTesting
        /// XCTest's `XCTFail`.
        case xcTest
        /// Standard error.
        case standardError
    }

    /// The framework this reporter reports into.
    let destination: Destination
    /// For a Swift Testing reporter made on a test's task: the task that records failures found elsewhere.
    let relay: FailureRelay?
    private let body: @Sendable (ExpectationFailure) -> Void

    /// A reporter that hands each failure to `report`.
    ///
    /// `report` may be called on any thread: from the test's, when a step or a chain's end finds the failure, or from
    /// the thread that delivers an event arriving after its chain ended.
    public init(_ report: @escaping @Sendable (_ failure: ExpectationFailure) -> Void) {
        self.init(destination: .custom, relay: nil, report)
    }

    init(
        destination: Destination,
        relay: FailureRelay?,
        _ report: @escaping @Sendable (_ failure: ExpectationFailure) -> Void
    ) {
        self.destination = destination
        self.relay = relay
        body = report
    }

    /// Reports `failure`.
    public func report(_ failure: ExpectationFailure) {
        body(failure)
    }

    /// The reporter that expectations created here use instead of the test framework's, when one is bound.
    @TaskLocal public static var current: FailureReporter?

    /// The reporter an expectation created now reports to: ``current`` when bound, else the running test framework.
    ///
    /// Under Swift Testing each access makes a reporter bound to the test running on this task (see
    /// ``swiftTesting``); read it on the test's task, as `expect(_:)` does.
    public static var resolved: FailureReporter {
        if let current { return current }
        if isSwiftTestingRunning { return .swiftTesting }
        return .testFramework
    }
}
