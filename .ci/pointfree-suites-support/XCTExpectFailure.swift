// swift-format-ignore-file: AlwaysUseLowerCamelCase

// (XCTest's own names, as Apple spells them.)
// Part of .ci/pointfree-suites, which copies this file into each suite's test target: Linux's XCTest has no
// `XCTExpectFailure`, and combine-schedulers' UnimplementedSchedulerTests asserts with it.
import CadenceTesting
import XCTest

/// Runs `failingBlock`, which is expected to report at least one failure through Cadence's `FailureReporter`, and
/// fails the test at this call if it reports none. The failures it reports are recorded, printed and kept out of
/// the test, as Apple's `XCTExpectFailure(_:options:failingBlock:)` keeps the issues of its block.
///
/// A stand-in, not a port: Linux's XCTest offers no way to hold back its own failures, so only what goes through
/// `FailureReporter` is caught. That is the channel every Cadence scheduler and clock reports through, where the
/// reporter bound for the task (`FailureReporter.current`) comes first; an `XCTFail` or a timed-out `wait` inside the
/// block still fails the test.
func XCTExpectFailure<Result>(
    _ failureReason: String? = nil,
    file: StaticString = #filePath,
    line: UInt = #line,
    failingBlock: () throws -> Result
) rethrows -> Result {
    var result: Result?
    let failures = try recordingFailures { result = try failingBlock() }
    for failure in failures {
        print("XCTExpectFailure: expected failure: \(failure.message)")
    }
    if failures.isEmpty {
        let reason = failureReason.map { " (\($0))" } ?? ""
        XCTFail("XCTExpectFailure\(reason): the block reported no failure", file: file, line: line)
    }
    // `recordingFailures` runs its body exactly once, and returns only when the body did not throw.
    return result!
}
