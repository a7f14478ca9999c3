#if canImport(XCTest)
import CadenceTesting
import Foundation
import XCTest

final class VirtualTimeWaitingTests: XCTestCase {
    // `captured` guards the list; nil when failures are not being captured (then they fail the test as usual).
    private let captured = Synchronized<[String]?>(nil)

    /// Runs `body`, capturing the failures XCTest is asked to record meanwhile instead of failing the test.
    private func capturingXCTestFailures(_ body: () -> Void) -> [String] {
        captured.withLock { $0 = [] }
        body()
        return captured.withLock { list in
            defer { list = nil }
            return list ?? []
        }
    }

    #if canImport(ObjectiveC)
    override func record(_ issue: XCTIssue) {
        let taken = captured.withLock { list -> Bool in
            guard list != nil else { return false }
            list?.append(issue.compactDescription)
            return true
        }
        if !taken { super.record(issue) }
    }
    #else
    override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int,
        expected: Bool
    ) {
        let taken = captured.withLock { list -> Bool in
            guard list != nil else { return false }
            list?.append(description)
            return true
        }
        if !taken {
            super.recordFailure(withDescription: description, inFile: filePath, atLine: lineNumber, expected: expected)
        }
    }
    #endif

    func testItAdvancesByTheDurationThenWaits() {
        let clock = VirtualClock()
        let fired = XCTestExpectation(description: "fired")
        clock.schedule(after: .ticks(250)) { fired.fulfill() }
        wait(for: [fired], advancing: clock, by: .milliseconds(250))
        XCTAssertEqual(clock.now.ticks, 250)
    }

    func testWithoutADurationItRunsTheClockUntilIdle() {
        let clock = VirtualClock()
        let fired = XCTestExpectation(description: "fired")
        clock.schedule(after: .ticks(40)) {
            clock.schedule(after: .ticks(60)) { fired.fulfill() }
        }
        wait(for: [fired], advancing: clock)
        XCTAssertEqual(clock.now.ticks, 100)
        XCTAssertEqual(clock.pendingCount, 0)
    }

    func testWhatTheClockDidNotBringAboutFailsAtOnce() {
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(100, 1), (500, 3)])
        let three = PublisherValueExpectation(subject, expectedValue: 3)
        let failures = capturingXCTestFailures {
            wait(for: [three], advancing: clock, by: .ticks(499))
        }
        XCTAssertEqual(failures.count, 1)
        let named = failures.first?.contains("PublisherValueExpectation(expectedValue: 3) (received [1] so far)")
        XCTAssertEqual(named, true, "\(failures)")
        // The budget ran out at tick 499; the wait ran on to the value, at tick 500, to say when it came.
        XCTAssertEqual(clock.now.ticks, 500)
    }

    func testItSettlesARulingFoundAtCreationWithoutTheMainQueue() {
        let log = FailureLog()
        let clock = VirtualClock()
        let finished = reporting(to: log) { PublisherFinishedExpectation(Empty<Int, TestError>(), expectedValue: 1) }
        wait(for: [finished], advancing: clock)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherFinishedExpectation(expectedValue: 1) failed: the publisher finished without sending a value; "
                    + "expected a last value equal to 1."
            ])
    }

    func testAsyncTwin() async {
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(10, 1)], completion: (20, .finished))
        let finished = PublisherFinishedExpectation(subject, expectedValue: 1)
        await fulfillment(of: [finished], advancing: clock, by: .ticks(20))
        XCTAssertEqual(clock.now.ticks, 20)
    }
}
#endif
