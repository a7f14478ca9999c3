#if canImport(XCTest)
import CadenceTesting
import Foundation
import XCTest

/// A model whose property a test waits for, changed on the main thread.
private final class LoadModel: ObservableObject, @unchecked Sendable {
    // Changed and read on the main thread only.
    @Published var isLoaded = false
}

/// `expectation(for:keyPath:toBe:)` and `expectation(for:keyPath:where:)` register the expectation they return with
/// the test case, as XCTest's own `expectation(…)` factories do: `waitForExpectations(timeout:)` waits for it, and
/// one nobody waits for is reported as XCTest reports its own. (`waitForRegisteredExpectations(timeout:)` is
/// `waitForExpectations(timeout:)`, called on the main actor.)
final class KeyPathExpectationRegistrationTests: FailureCapturingTestCase {
    func testWaitForExpectationsWaitsForIt() {
        // Before: "API violation - call made to wait without any expectations having been set.", as the
        // expectation was not one the test case knew about.
        let model = LoadModel()
        let failures = capturingXCTestFailures {
            _ = expectation(for: model, keyPath: \.isLoaded, toBe: true)
            DispatchQueue.main.async { model.isLoaded = true }
            waitForRegisteredExpectations(timeout: 10)
        }
        XCTAssertEqual(failures.map(\.message), [])
    }

    func testTheConditionFormIsRegisteredToo() {
        let model = LoadModel()
        let failures = capturingXCTestFailures {
            expectation(for: model, keyPath: \.isLoaded) { $0 }
            DispatchQueue.main.async { model.isLoaded = true }
            waitForRegisteredExpectations(timeout: 10)
        }
        XCTAssertEqual(failures.map(\.message), [])
    }

    func testWaitingForTheReturnedExpectationLeavesNoneUnwaited() {
        // The expectation returned is the registered one: waiting for it leaves no other behind, which XCTest would
        // fail as "unwaited" when the test ends.
        let model = LoadModel()
        let loaded = expectation(for: model, keyPath: \.isLoaded, toBe: true)
        DispatchQueue.main.async { model.isLoaded = true }
        wait(for: [loaded], timeout: 10)
    }

    func testItsDescriptionNamesTheValuesReadWhileItIsUnfulfilled() {
        let model = LoadModel()
        let clock = VirtualClock()
        let loaded = expectation(for: model, keyPath: \.isLoaded, toBe: true, clock: clock)
        XCTAssertEqual(
            loaded.expectationDescription,
            "KeyPathValueExpectation(KeyPath<LoadModel, Bool>, expectedValue: true) (read [false] so far)"
        )
        clock.schedule(after: .ticks(10)) { model.isLoaded = true }
        wait(for: [loaded], advancing: clock)
        XCTAssertEqual(
            loaded.expectationDescription, "KeyPathValueExpectation(KeyPath<LoadModel, Bool>, expectedValue: true)"
        )
    }

    func testATimeoutOfWaitForExpectationsNamesTheValuesRead() {
        let model = LoadModel()
        let failures = capturingXCTestFailures {
            _ = expectation(for: model, keyPath: \.isLoaded, toBe: true)
            waitForRegisteredExpectations(timeout: 0.01)
        }
        XCTAssertEqual(failures.count, 1)
        XCTAssertTrue(
            failures.first?.message.contains(
                "KeyPathValueExpectation(KeyPath<LoadModel, Bool>, expectedValue: true) (read [false] so far)"
            ) ?? false,
            "\(failures)"
        )
    }
}
#endif
