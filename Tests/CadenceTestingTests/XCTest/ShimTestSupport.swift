#if canImport(XCTest)
import CadenceTesting
import Foundation
import XCTest

/// Makes an expectation with `log`'s reporter bound, so that the failures it reports later land in `log`.
func reporting<Expectation>(to log: FailureLog, _ make: () -> Expectation) -> Expectation {
    FailureReporter.$current.withValue(log.reporter) { make() }
}

extension XCTestCase {
    /// `waitForExpectations(timeout:)`, which Linux's XCTest isolates to the main actor, called from a test method
    /// (which XCTest runs on the main thread; one marked `@MainActor` is not one Linux's XCTest can list).
    func waitForRegisteredExpectations(timeout: TimeInterval) {
        nonisolated(unsafe) let testCase = self
        MainActor.assumeIsolated { testCase.waitForExpectations(timeout: timeout) }
    }

    /// Waits for `expectation` without failing the test on a timeout, and returns how the wait ended.
    func waitResult(for expectation: XCTestExpectation, timeout: TimeInterval) -> XCTWaiter.Result {
        XCTWaiter().wait(for: [expectation], timeout: timeout)
    }
}

/// Sends `values`, then `completion` if given, on a global queue after `delay` seconds.
func sendLater<Failure: Error>(
    _ values: [Int],
    then completion: Subscribers.Completion<Failure>?,
    to subject: PassthroughSubject<Int, Failure>,
    after delay: TimeInterval = 0.02
) {
    nonisolated(unsafe) let subject = subject
    // Combine does not declare `Subscribers.Completion` Sendable; it is a value handed to one other thread.
    let completion = CrossThread(completion)
    DispatchQueue.global().asyncAfter(deadline: .now() + delay) {
        for value in values { subject.send(value) }
        if let completion = completion.value { subject.send(completion: completion) }
    }
}
#endif
