import Foundation

/// A scheduler for code that must not schedule anything: each time it is asked to schedule an action, it reports a
/// failure and drops the action.
///
/// Hand it to the code under test where a path should do its work without timing — no debounce, no delay, no
/// `receive(on:)` hop — and the test fails, naming the scheduler and the call, if the code schedules after all:
///
/// ```swift
/// let model = SearchModel(scheduler: DispatchQueue.unimplemented("search").eraseToAnyScheduler())
/// model.clear()   // must not debounce
/// ```
///
/// If `clear()` sends its query through a 300 ms `debounce` after all, the test fails at the line that made the
/// scheduler:
///
/// ```text
/// DispatchQueue.unimplemented("search") was asked to schedule(after:interval:tolerance:options:_:) an action due
/// in 300 ticks, repeating every 300 ticks; an unimplemented scheduler runs nothing, so the action was not run.
/// ```
///
/// Where the code takes an `AnySchedulerOf<DispatchQueue>` (or `RunLoop`, `OperationQueue`), pass
/// `.unimplemented("search")` directly. Prefer the factory functions: a function knows the line that called it. The
/// properties combine-schedulers users write (`DispatchQueue.unimplemented`, `AnySchedulerOf<RunLoop>.unimplemented`)
/// exist too and behave as theirs do: every use is a failure, reading ``now`` and ``minimumTolerance`` included, the
/// failure goes to the reporter in force where the scheduler is used (at the line that declares the property, which
/// has no call site to report at), and a scheduled action then runs at once.
///
/// The scheduler takes its `FailureReporter` (`FailureReporter.resolved`) and its source location when it is
/// made, so a failure lands in the test that made it, at the line that made it, whichever thread schedules on it.
///
/// With the factory functions, reading ``now`` (always tick `0` of the time type, see `VirtualTimeConvertible`) or
/// ``minimumTolerance`` is not a failure: it runs no work, and operators such as `debounce` and `delay` read the time
/// just before they schedule, so reporting it would report one mistake twice.
public struct UnimplementedScheduler<SchedulerTimeType: VirtualTimeConvertible, SchedulerOptions>: Scheduler, Sendable,
    CustomStringConvertible
{
    /// How the scheduler's failures name it: `DispatchQueue.unimplemented("search")`.
    public let description: String
    /// The reporter of the place that made the scheduler; nil for a property's, which reports to the one in force
    /// where it is used.
    let reporter: FailureReporter?
    let location: SourceCodeLocation
    /// The properties' behaviour, combine-schedulers': reading ``now`` and ``minimumTolerance`` is a failure too, and
    /// a scheduled action runs at once after its failure.
    let isStrict: Bool

    /// An unimplemented scheduler; `name`, if given, tells it apart in failure messages.
    public init(
        _ name: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            describedAs: "UnimplementedScheduler(\(name.map { String(reflecting: $0) } ?? ""))",
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }

    /// An unimplemented scheduler named `description` in its failures, reporting them at `location`; `isStrict` for
    /// a property's.
    init(describedAs description: String, location: SourceCodeLocation, isStrict: Bool = false) {
        self.description = description
        reporter = isStrict ? nil : FailureReporter.resolved
        self.location = location
        self.isStrict = isStrict
    }

    /// Tick `0` of the time type; reading it is a failure only through the properties.
    public var now: SchedulerTimeType {
        if isStrict { report(UnimplementedText.timeRead(description, "now", kind: "scheduler")) }
        return SchedulerTimeType(virtualTick: 0)
    }

    /// Zero; reading it is a failure only through the properties.
    public var minimumTolerance: SchedulerTimeType.Stride {
        if isStrict { report(UnimplementedText.timeRead(description, "minimumTolerance", kind: "scheduler")) }
        return 0
    }

    /// Reports a failure; `action` is not run.
    public func schedule(options _: SchedulerOptions?, _ action: @escaping () -> Void) {
        fail("schedule(options:_:)", "an action to run as soon as possible", action)
    }

    /// Reports a failure; `action` is not run (through a property: it runs at once).
    public func schedule(
        after date: SchedulerTimeType,
        tolerance _: SchedulerTimeType.Stride,
        options _: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        fail("schedule(after:tolerance:options:_:)", "an action \(Self.due(date))", action)
    }

    /// Reports a failure; `action` is not run (through a property: it runs once, at once), and the returned
    /// cancellable does nothing.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance _: SchedulerTimeType.Stride,
        options _: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        let every = SchedulerTimeType.virtualTicks(in: interval)
        fail(
            "schedule(after:interval:tolerance:options:_:)",
            "an action \(Self.due(date)), repeating every \(every == 1 ? "1 tick" : "\(every) ticks")",
            action
        )
        return AnyCancellable {}
    }

    private func fail(_ method: String, _ what: String, _ action: () -> Void) {
        report(UnimplementedText.scheduled(description, method, what, ranAction: isStrict))
        if isStrict { action() }
    }

    private func report(_ message: String) {
        (reporter ?? .resolved).report(ExpectationFailure(message: message, location: location))
    }

    /// `"due now"`, `"due in 300 ticks"` — counted from ``now``, tick `0`.
    private static func due(_ date: SchedulerTimeType) -> String {
        let tick = date.virtualTick
        if tick <= 0 { return "due now" }
        return tick == 1 ? "due in 1 tick" : "due in \(tick) ticks"
    }
}

/// An unimplemented scheduler with the time and options types of the scheduler `S` it stands in for.
public typealias UnimplementedSchedulerOf<S: Scheduler> =
    UnimplementedScheduler<S.SchedulerTimeType, S.SchedulerOptions> where S.SchedulerTimeType: VirtualTimeConvertible

extension DispatchQueue {
    /// A scheduler that reports a failure, at this call, whenever code schedules on it — for code that takes
    /// `AnySchedulerOf<DispatchQueue>` and must not use it (see ``UnimplementedScheduler``).
    ///
    /// ```swift
    /// let model = SearchModel(scheduler: DispatchQueue.unimplemented("search").eraseToAnyScheduler())
    /// ```
    public static func unimplemented(
        _ name: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> UnimplementedSchedulerOf<DispatchQueue> {
        UnimplementedSchedulerOf<DispatchQueue>(
            describedAs: UnimplementedNaming.describe("DispatchQueue", name),
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }
}

extension RunLoop {
    /// A scheduler that reports a failure, at this call, whenever code schedules on it — for code that takes
    /// `AnySchedulerOf<RunLoop>` and must not use it (see ``UnimplementedScheduler``).
    public static func unimplemented(
        _ name: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> UnimplementedSchedulerOf<RunLoop> {
        UnimplementedSchedulerOf<RunLoop>(
            describedAs: UnimplementedNaming.describe("RunLoop", name),
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }
}

extension OperationQueue {
    /// A scheduler that reports a failure, at this call, whenever code schedules on it — for code that takes
    /// `AnySchedulerOf<OperationQueue>` and must not use it (see ``UnimplementedScheduler``).
    public static func unimplemented(
        _ name: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> UnimplementedSchedulerOf<OperationQueue> {
        UnimplementedSchedulerOf<OperationQueue>(
            describedAs: UnimplementedNaming.describe("OperationQueue", name),
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }
}

extension TestScheduler where SchedulerTimeType == VirtualTime, SchedulerOptions == Never {
    /// A scheduler on plain ticks that reports a failure, at this call, whenever code schedules on it — for code that
    /// takes a `VirtualScheduler` or `AnyScheduler<VirtualTime, Never>` and must not use it.
    public static func unimplemented(
        _ name: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> UnimplementedScheduler<VirtualTime, Never> {
        UnimplementedScheduler<VirtualTime, Never>(
            describedAs: UnimplementedNaming.describe("VirtualScheduler", name),
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
    }
}

extension AnyScheduler
where
    SchedulerTimeType == DispatchQueue.SchedulerTimeType,
    SchedulerOptions == DispatchQueue.SchedulerOptions
{
    /// `DispatchQueue.unimplemented(name)`, erased: for code that takes `AnySchedulerOf<DispatchQueue>`.
    ///
    /// ```swift
    /// let model = SearchModel(scheduler: .unimplemented("search"))
    /// ```
    public static func unimplemented(
        _ name: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        DispatchQueue.unimplemented(name, fileID: fileID, filePath: filePath, line: line, column: column)
            .eraseToAnyScheduler()
    }
}

extension AnyScheduler
where
    SchedulerTimeType == RunLoop.SchedulerTimeType,
    SchedulerOptions == RunLoop.SchedulerOptions
{
    /// `RunLoop.unimplemented(name)`, erased: for code that takes `AnySchedulerOf<RunLoop>`.
    public static func unimplemented(
        _ name: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        RunLoop.unimplemented(name, fileID: fileID, filePath: filePath, line: line, column: column)
            .eraseToAnyScheduler()
    }
}

extension AnyScheduler
where
    SchedulerTimeType == OperationQueue.SchedulerTimeType,
    SchedulerOptions == OperationQueue.SchedulerOptions
{
    /// `OperationQueue.unimplemented(name)`, erased: for code that takes `AnySchedulerOf<OperationQueue>`.
    public static func unimplemented(
        _ name: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        OperationQueue.unimplemented(name, fileID: fileID, filePath: filePath, line: line, column: column)
            .eraseToAnyScheduler()
    }
}

extension DispatchQueue {
    /// A scheduler every use of which is a failure, time reads included, as combine-schedulers' property of this name
    /// (see ``UnimplementedScheduler``; prefer ``unimplemented(_:fileID:filePath:line:column:)``, which reports at its
    /// caller's line).
    public static var unimplemented: UnimplementedSchedulerOf<DispatchQueue> {
        .strict("DispatchQueue")
    }
}

extension RunLoop {
    /// A scheduler every use of which is a failure, time reads included, as combine-schedulers' property of this name
    /// (see ``UnimplementedScheduler``).
    public static var unimplemented: UnimplementedSchedulerOf<RunLoop> { .strict("RunLoop") }
}

extension OperationQueue {
    /// A scheduler every use of which is a failure, time reads included, as combine-schedulers' property of this name
    /// (see ``UnimplementedScheduler``).
    public static var unimplemented: UnimplementedSchedulerOf<OperationQueue> {
        .strict("OperationQueue")
    }
}

extension AnyScheduler
where
    SchedulerTimeType == DispatchQueue.SchedulerTimeType,
    SchedulerOptions == DispatchQueue.SchedulerOptions
{
    /// `DispatchQueue.unimplemented`, the property, erased.
    public static var unimplemented: Self {
        UnimplementedSchedulerOf<DispatchQueue>.strict("AnySchedulerOf<DispatchQueue>").eraseToAnyScheduler()
    }
}

extension AnyScheduler
where
    SchedulerTimeType == RunLoop.SchedulerTimeType,
    SchedulerOptions == RunLoop.SchedulerOptions
{
    /// `RunLoop.unimplemented`, the property, erased.
    public static var unimplemented: Self {
        UnimplementedSchedulerOf<RunLoop>.strict("AnySchedulerOf<RunLoop>").eraseToAnyScheduler()
    }
}

extension AnyScheduler
where
    SchedulerTimeType == OperationQueue.SchedulerTimeType,
    SchedulerOptions == OperationQueue.SchedulerOptions
{
    /// `OperationQueue.unimplemented`, the property, erased.
    public static var unimplemented: Self {
        UnimplementedSchedulerOf<OperationQueue>.strict("AnySchedulerOf<OperationQueue>").eraseToAnyScheduler()
    }
}

extension UnimplementedScheduler {
    /// The scheduler a property makes: named `"<type>.unimplemented"`, every use a failure, reported here.
    static func strict(
        _ type: String, fileID: StaticString = #fileID, filePath: StaticString = #filePath, line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        Self(
            describedAs: "\(type).unimplemented",
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
            isStrict: true
        )
    }
}

/// How the factories name the schedulers they make.
private enum UnimplementedNaming {

    /// `DispatchQueue.unimplemented()`, `DispatchQueue.unimplemented("search")`.
    static func describe(_ type: String, _ name: String?) -> String {
        "\(type).unimplemented(\(name.map { String(reflecting: $0) } ?? ""))"
    }
}
