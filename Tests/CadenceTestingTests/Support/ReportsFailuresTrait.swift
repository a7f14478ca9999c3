import CadenceTesting
import Testing

/// A test trait that collects every failure reported inside it — by `expect`, and by the `.virtualTime` trait listed
/// after it — and checks that they are exactly `expected`, message for message.
///
/// List it before `.virtualTime` so it wraps that trait's scope: `@Test(.reportsFailures([...]), .virtualTime)`. If
/// it ends up inside instead, the trait's reports reach the test as ordinary issues and the test fails.
struct ReportsFailuresTrait: TestTrait, TestScoping {
    let expected: [String]
    let sourceLocation: SourceLocation

    func provideScope(
        for test: Test,
        testCase: Test.Case?,
        performing function: @Sendable () async throws -> Void
    ) async throws {
        let log = FailureLog()
        try await FailureReporter.$current.withValue(log.reporter) { try await function() }
        let messages = log.messages
        if messages != expected {
            Issue.record(
                Comment(rawValue: differingReports(expected: expected, received: messages)),
                sourceLocation: sourceLocation
            )
        }
    }
}

extension Trait where Self == ReportsFailuresTrait {
    /// Checks that the test (and the traits listed after this one) report exactly `expected`, instead of failing.
    static func reportsFailures(
        _ expected: [String],
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> Self {
        ReportsFailuresTrait(expected: expected, sourceLocation: sourceLocation)
    }
}
