import CadenceSupport

#if canImport(Testing)
import Testing
#endif

extension PublisherExpectation {
    /// Hands the next value to `check` — a closure of `#expect`s, `try #require`s or `XCTAssert`s — and fails the step,
    /// with the timeline, when the check does not pass: for values that are not `Equatable`, or where only a few
    /// fields matter.
    ///
    /// ```swift
    /// expect(model.$state, on: clock).toEmit(satisfying: { state in
    ///     let items = try #require(state.items, "items")
    ///     #expect(items.count == 2, "two items")
    /// })
    /// ```
    ///
    /// Under Swift Testing the step catches what the check records — a failed `#expect`, a failed `try #require`, a
    /// thrown error — and reports it once, in its own failure, as a known issue of the test meanwhile. Under XCTest it
    /// fails when the check throws (`XCTUnwrap`, your own errors); an `XCTAssert` that fails reports itself.
    ///
    /// ```text
    /// toEmit(satisfying: { … }) failed: the value State.loading did not pass the check: items at tick 1.
    /// ```
    @discardableResult
    public func toEmit(
        satisfying check: @escaping (Output) throws -> Void,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            emit(
                satisfying: check, name: "toEmit", budget: budget,
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// Hands the next value to `check`; reads as the step after another (see `toEmit(satisfying:within:)`).
    @discardableResult
    public func thenEmit(
        satisfying check: @escaping (Output) throws -> Void,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(
            emit(
                satisfying: check, name: "thenEmit", budget: budget,
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    private func emit(
        satisfying check: @escaping (Output) throws -> Void,
        name: String,
        budget: Duration?,
        at location: SourceCodeLocation
    ) -> WrittenStep<Output, Failure> {
        let timing = StepTiming.within(budget)
        let step = ChainStep(
            EmitSatisfyingStep<Output, Failure>(answers: CheckAnswers(check)), name: name, timing: timing,
            window: budget, location: location
        )
        if let problem = timing.problem { return .rejected(step, problem) }
        return .ready(step)
    }
}

/// The step of `toEmit(satisfying:)`: the next value passes a check.
struct EmitSatisfyingStep<Output, Failure: Error>: ExpectationStep {
    let answers: CheckAnswers<Output>

    var arguments: StepArguments { .check }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome {
        guard let index = events.indices.first else {
            return isFinal ? .failed(StepDivergence(.missing(.passingValue), matched: 0, atEvent: false)) : .pending
        }
        guard case let .value(value) = events[index].event else {
            return .failed(
                StepDivergence(
                    .received(Received(events[index].event), expected: .passingValue), matched: 0, atEvent: true
                ))
        }
        let problems = answers.problems(with: value, at: index)
        if problems.isEmpty { return .satisfied(consumed: 1) }
        return .failed(StepDivergence(.failedCheck(value, problems: problems), matched: 0, atEvent: true))
    }

    func expectation(at index: Int, of count: Int) -> StepExpectation { .match }

    func missing(after consumed: Int) -> StepExpectation { consumed < 1 ? .match : .nothing }
}

/// A step's check, run at most once per recorded event and never while a lock is held; what it found is kept by the
/// event's index (see ``PredicateAnswers``).
final class CheckAnswers<Output>: @unchecked Sendable {
    // `answers` (a Locked) guards the remembered answers; `check` is immutable and only ever called outside it.
    private let answers = Locked<[Int: [String]]>([:])
    private let check: (Output) throws -> Void

    init(_ check: @escaping (Output) throws -> Void) {
        self.check = check
    }

    /// What the check found wrong with `value`, the event at `index` of the recording: nothing when it passed.
    func problems(with value: Output, at index: Int) -> [String] {
        if let known = answers.withLock({ $0[index] }) { return known }
        let problems = Self.run(check, on: value)
        answers.withLock { $0[index] = problems }
        return problems
    }

    /// Runs `check` on `value`: under Swift Testing, every issue it records (as a known issue, so that the step
    /// reports it once, with the timeline); else, the error it throws.
    private static func run(_ check: (Output) throws -> Void, on value: Output) -> [String] {
        #if canImport(Testing)
        if Test.current != nil {
            let issues = Locked<[String]>([])
            do {
                try withKnownIssue("checked by toEmit(satisfying:)", isIntermittent: true) {
                    try check(value)
                } matching: { issue in
                    issues.withLock { $0.append(describe(issue)) }
                    return true
                }
            } catch {
                issues.withLock { $0.append("threw " + ValueText.describe(error)) }
            }
            return issues.withLock { $0 }
        }
        #endif
        do {
            try check(value)
            return []
        } catch {
            return ["threw " + ValueText.describe(error)]
        }
    }

    #if canImport(Testing)
    /// What an issue the check recorded says: its comments when it has some (`#expect(x, "why")`,
    /// `Issue.record("why")`), the error for a thrown one, else Swift Testing's own description, on one line and
    /// without the runtime's notes on private types (an address that changes from run to run).
    private static func describe(_ issue: Issue) -> String {
        if case let .errorCaught(error) = issue.kind { return "threw " + ValueText.describe(error) }
        if !issue.comments.isEmpty { return issue.comments.map(\.rawValue).joined(separator: "; ") }
        var text = ValueNodeBuilder.oneLine(issue.description)
        for severity in [" (error)", " (warning)"] where text.hasSuffix(severity) { text.removeLast(severity.count) }
        return TypeName.withoutContexts(text)
    }
    #endif
}
