// Which observation a key-path expectation picks. `init(object:…)` and `expectation(for:keyPath:toBe:)` always use
// `objectWillChange`, also for a model that is an `NSObject` as well as an `ObservableObject`: before, on Apple
// platforms, such a model picked the key-value observing initialiser when no `clock:` was passed, and Foundation
// trapped on its `@Published` property (not `@objc dynamic`). Key-value observing is now asked for by name,
// `init(keyValueObserving:…)` (Apple platforms only). The same test source compiles on both platforms, so the
// selection checked here on Linux is the one a Mac makes.
#if canImport(XCTest)
@testable import CadenceTesting
import Foundation
import XCTest

/// A model that is both an `NSObject` and an `ObservableObject`, as models bridged to Objective-C are.
final class BridgedModel: NSObject, ObservableObject, @unchecked Sendable { // changed on the main thread or the clock
    @Published var name = ""
    #if canImport(ObjectiveC)
    /// A key-value observable property, for the initialiser that asks for key-value observing.
    @objc dynamic var rate = 0.0
    #endif
}

final class KeyPathObservingSelectionTests: XCTestCase {
    func testAnNSObjectModelWithoutAClockIsObservedThroughObjectWillChange() {
        let log = FailureLog()
        let model = BridgedModel()
        let named = reporting(to: log) {
            KeyPathValueExpectation(object: model, keyPath: \.name, expectedValue: "Blob")
        }
        XCTAssertEqual(named.observing, .objectWillChange)
        DispatchQueue.main.async { model.name = "Blob" }
        wait(for: [named], timeout: 10)
        XCTAssertEqual(named.valuesRead, ["\"\"", "\"Blob\""])
        XCTAssertEqual(log.messages, [])
    }

    func testTheConditionFormPicksObjectWillChangeToo() {
        let log = FailureLog()
        let model = BridgedModel()
        let named = reporting(to: log) { KeyPathValueExpectation(object: model, keyPath: \.name) { $0.count == 4 } }
        XCTAssertEqual(named.observing, .objectWillChange)
        DispatchQueue.main.async { model.name = "Blob" }
        wait(for: [named], timeout: 10)
        XCTAssertEqual(log.messages, [])
    }

    func testTheXCTestCaseConvenienceOnTheClockPicksObjectWillChange() throws {
        let log = FailureLog()
        let clock = VirtualClock()
        let model = BridgedModel()
        let named = reporting(to: log) { expectation(for: model, keyPath: \.name, toBe: "Blob", clock: clock) }
        let checked = reporting(to: log) { expectation(for: model, keyPath: \.name) { $0.hasPrefix("B") } }
        // Each returns the expectation it registered with the test case; the shim that fulfils it is the test case's.
        let namedShim = try XCTUnwrap(shim(fulfilling: named))
        let checkedShim = try XCTUnwrap(shim(fulfilling: checked))
        XCTAssertEqual(namedShim.observing, .objectWillChange)
        XCTAssertEqual(checkedShim.observing, .objectWillChange)
        clock.schedule(after: .ticks(10)) { model.name = "Blob" }
        wait(for: [named, checked], advancing: clock)
        XCTAssertEqual(namedShim.valuesRead, ["\"\"", "\"Blob\""])
        XCTAssertEqual(checkedShim.valuesRead, ["\"\"", "\"Blob\""])
        XCTAssertEqual(log.messages, [])
    }

    func testAnUnchangedModelIsReportedAsUnfulfilled() {
        let log = FailureLog()
        let clock = VirtualClock()
        let model = BridgedModel()
        let named = reporting(to: log) {
            KeyPathValueExpectation(object: model, keyPath: \.name, expectedValue: "Blob", clock: clock)
        }
        FailureReporter.$current.withValue(log.reporter) { wait(for: [named], advancing: clock, by: .ticks(5)) }
        XCTAssertEqual(
            log.messages,
            [
                "wait(for:advancing:) failed: at tick 5, 1 expectation was not fulfilled: "
                    + "\"KeyPathValueExpectation(KeyPath<BridgedModel, String>, expectedValue: \"Blob\") (read [\"\"] so far)\"."
            ])
    }

    #if canImport(ObjectiveC)
    func testKeyValueObservingIsUsedWhenAskedForByName() {
        let log = FailureLog()
        let model = BridgedModel()
        let fast = reporting(to: log) {
            KeyPathValueExpectation(keyValueObserving: model, keyPath: \.rate, expectedValue: 2.0)
        }
        XCTAssertEqual(fast.observing, .keyValueObserving)
        model.rate = 2
        XCTAssertEqual(XCTWaiter().wait(for: [fast], timeout: 10), .completed)
        XCTAssertEqual(fast.valuesRead.count, 2)
        XCTAssertEqual(log.messages, [])
    }
    #endif

    /// The key-path shim that fulfils `expectation`, one that `expectation(for:keyPath:…)` registered.
    private func shim(fulfilling expectation: XCTestExpectation) -> KeyPathValueExpectation<BridgedModel, String>? {
        XCTestCaseObserver.runningTestCase?.shim(fulfilling: expectation)
            as? KeyPathValueExpectation<BridgedModel, String>
    }
}
#endif
