/// Where every problem Cadence reports goes — a failed expectation, a late event, a misused clock, scheduler or
/// operator: the running Swift Testing test, the running XCTest test, standard error, or a reporter a test binds.
///
/// It is the package's one reporting channel: `CadenceTesting`'s expectations and traits, `Cadence`'s virtual clock
/// and test schedulers, and the operators that survive a bad argument all report an ``ExpectationFailure`` through it.
///
/// `expect(_:)` picks its reporter once, when it is called, and keeps it: a failure found later — at the end of the
/// chain, at the end of the test, or when a late event arrives on another thread — still lands in the test that wrote
/// the expectation. The choice, in order:
///
/// 1. the task-local ``current`` reporter, when one is bound;
/// 2. Swift Testing (`Issue.record` at the failing call's `SourceLocation`) when a Swift Testing test is running on
///    the task that calls `expect` (see `swiftTesting` for failures found on other threads);
/// 3. XCTest (`XCTFail(_:file:line:)`) otherwise, where XCTest can be imported;
/// 4. standard error (see ``standardError``) where it cannot.
///
/// (`resolved`, `swiftTesting` and `xcTest` come with `CadenceTesting`.) Misuse that the clock or an operator finds on
/// its own goes to ``current`` when one is bound — `.virtualTime` and `withVirtualTime` bind one that records into
/// the test at the test's location, and that expectations pass over — else to ``standardError``.
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
/// - Swift Testing attributes an issue only on the test's task, so `swiftTesting` carries a failure found elsewhere
///   back onto a task made on the test's task: the failure lands in that test (inside the `withKnownIssue` that
///   surrounded the task's making, if any), shortly after it is found. An expectation chain makes that task when a
///   step fails or when it starts watching for late events, on the test's task, not for a chain that passed and
///   watches nothing.
public struct FailureReporter: Sendable {
    /// The test framework a reporter reports into, so that a test can tell which one `resolved` picked.
    package enum Destination: Sendable, Equatable {
        /// A reporter made with ``init(_:)``: a recording reporter, or one a user wrote.
        case custom
        /// Swift Testing's `Issue.record`.
        case swiftTesting
        /// XCTest's `XCTFail`.
        case xcTest
        /// Standard error.
        case standardError
        /// A virtual-time session's reporter for misuse, bound as ``current`` for the clock, the schedulers and the
        /// operators; expectations pass over it and pick their own.
        case session
    }

    /// The framework this reporter reports into.
    package let destination: Destination
    /// Where a report with no call site of its own (a misuse message) is located; nil for nowhere in particular.
    package let misuseLocation: SourceCodeLocation?
    /// What the reporter keeps for its destination: a Swift Testing reporter's relay, which `CadenceTesting` reads back.
    package let attachment: (any AnyObject & Sendable)?
    private let body: @Sendable (ExpectationFailure) -> Void

    /// A reporter that hands each failure to `report`.
    ///
    /// `report` may be called on any thread: from the test's, when a step or a chain's end finds the failure, or from
    /// the thread that delivers an event arriving after its chain ended.
    public init(_ report: @escaping @Sendable (_ failure: ExpectationFailure) -> Void) {
        self.init(destination: .custom, report)
    }

    package init(
        destination: Destination,
        misuseLocation: SourceCodeLocation? = nil,
        attachment: (any AnyObject & Sendable)? = nil,
        _ report: @escaping @Sendable (_ failure: ExpectationFailure) -> Void
    ) {
        self.destination = destination
        self.misuseLocation = misuseLocation
        self.attachment = attachment
        body = report
    }

    /// Reports `failure`.
    public func report(_ failure: ExpectationFailure) {
        body(failure)
    }

    /// Reports misuse found with no call site to point at — a clock advanced backwards, an operator given an
    /// interval it cannot use — as a failure with `message` at this reporter's location for such reports (a
    /// session's test, or none).
    public func report(_ message: String) {
        body(ExpectationFailure(message: message, location: misuseLocation ?? .unknown))
    }

    /// This reporter, with misuse located at `location`: what a virtual-time session binds as ``current``.
    ///
    /// A reporter a test bound (``init(_:)``) stays one, so expectations inside the session keep reporting to it; a
    /// test framework's becomes the session's, which expectations pass over to pick their own.
    package func forSession(at location: SourceCodeLocation) -> FailureReporter {
        FailureReporter(
            destination: destination == .custom ? .custom : .session, misuseLocation: location,
            attachment: attachment, body
        )
    }

    /// The reporter that expectations created here use instead of the test framework's, when one is bound; and the
    /// reporter misuse found here goes to.
    @TaskLocal public static var current: FailureReporter?

    /// ``current`` when a test bound it — not when it is a virtual-time session's reporter for misuse.
    package static var bound: FailureReporter? {
        guard let current, current.destination != .session else { return nil }
        return current
    }

    /// Where misuse found here goes: ``current``, else ``standardError``.
    package static var forMisuse: FailureReporter { current ?? .standardError }
}

extension FailureReporter? {
    /// Reports misuse through this reporter, or through ``FailureReporter/standardError`` when there is none.
    ///
    /// ```swift
    /// FailureReporter.current.report("the interval must be positive")
    /// ```
    public func report(_ message: String) {
        (self ?? .standardError).report(message)
    }
}
