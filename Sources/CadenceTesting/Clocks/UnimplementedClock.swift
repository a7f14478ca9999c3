import Cadence

/// A clock for code that must not use time: every use of it — reading ``now`` or ``minimumResolution``, sleeping —
/// reports a failure, and a sleep throws `CancellationError` instead of sleeping.
///
/// ```swift
/// let model = ProfileModel(clock: UnimplementedClock("profile"))
/// await model.save()   // must not retry
/// ```
///
/// If `save()` sleeps before a retry after all, the test fails at the line that made the clock:
///
/// ```text
/// UnimplementedClock("profile") was asked to sleep for 1.0 seconds; an unimplemented clock does not sleep: the
/// sleep threw CancellationError.
/// ```
///
/// The clock takes its `FailureReporter` and its source location when it is made, so a failure lands in the test
/// that made it, at the line that made it, whichever task uses it.
public struct UnimplementedClock: Clock, Sendable, CustomStringConvertible {
    public typealias Instant = ImmediateClock.Instant

    /// How the clock's failures name it: `UnimplementedClock("profile")`.
    public let description: String
    let reporter: FailureReporter
    let location: SourceCodeLocation

    /// An unimplemented clock; `name`, if given, tells it apart in failure messages.
    public init(
        _ name: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        description = "UnimplementedClock(\(name.map { String(reflecting: $0) } ?? ""))"
        reporter = FailureReporter.resolved
        location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    }

    /// Reports a failure; the clock's start.
    public var now: Instant {
        report(UnimplementedText.timeRead(description, "now", kind: "clock"))
        return Instant()
    }

    /// Reports a failure; zero.
    public var minimumResolution: Duration {
        report(UnimplementedText.timeRead(description, "minimumResolution", kind: "clock"))
        return .zero
    }

    /// Reports a failure and throws `CancellationError`: an unimplemented clock does not sleep.
    public func sleep(until deadline: Instant, tolerance _: Duration? = nil) async throws {
        report(UnimplementedText.slept(description, "until \(deadline.offset) from its start"))
        throw CancellationError()
    }

    /// Reports one failure (not a second one for reading ``now``) and throws `CancellationError`.
    public func sleep(for duration: Duration, tolerance _: Duration? = nil) async throws {
        report(UnimplementedText.slept(description, "for \(duration)"))
        throw CancellationError()
    }

    private func report(_ message: String) {
        reporter.report(ExpectationFailure(message: message, location: location))
    }
}
