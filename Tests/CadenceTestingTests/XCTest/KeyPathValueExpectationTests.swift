#if canImport(XCTest)
import CadenceTesting
import Foundation
import XCTest

/// A view model as apps write them: `@Published` properties, changed on the main thread.
private final class LoadingModel: ObservableObject, @unchecked Sendable {
    // Changed and read on the main thread only.
    @Published var isLoading = true
    @Published var results: [String] = []
    var title = "Results"
}

final class KeyPathValueExpectationTests: XCTestCase {
    func testItSeesTheValueAfterTheChangeNotTheOldOne() {
        let log = FailureLog()
        let model = LoadingModel()
        // What a hand-written shim reads inside `objectWillChange`: the value before the change.
        nonisolated(unsafe) var readInWillChange: [Bool] = []
        let naive = model.objectWillChange.sink { _ in readInWillChange.append(model.isLoading) }
        let loaded = reporting(to: log) {
            KeyPathValueExpectation(object: model, keyPath: \.isLoading, expectedValue: false)
        }
        DispatchQueue.main.async { model.isLoading = false }
        wait(for: [loaded], timeout: 10)
        naive.cancel()
        XCTAssertEqual(readInWillChange, [true])
        XCTAssertEqual(loaded.valuesRead, ["true", "false"])
        XCTAssertEqual(log.messages, [])
    }

    func testAChangeHandedToTheMainThreadFromAnotherThread() {
        let log = FailureLog()
        let model = LoadingModel()
        let found = reporting(to: log) {
            KeyPathValueExpectation(object: model, keyPath: \.results) { $0.count == 2 }
        }
        let shared = model
        DispatchQueue.global().asyncAfter(deadline: .now() + 0.02) {
            DispatchQueue.main.async {
                shared.results = ["a"]
                shared.results.append("b")
            }
        }
        wait(for: [found], timeout: 10)
        XCTAssertEqual(log.messages, [])
    }

    func testItWorksWithAwaitFulfillment() async {
        let log = FailureLog()
        let model = LoadingModel()
        let loaded = reporting(to: log) {
            KeyPathValueExpectation(object: model, keyPath: \.isLoading, expectedValue: false)
        }
        let shared = model
        DispatchQueue.main.async { shared.isLoading = false }
        await fulfillment(of: [loaded], timeout: 10)
        XCTAssertEqual(log.messages, [])
    }

    func testAPropertyThatAlreadyHasTheValueFulfilsItAtOnce() {
        let log = FailureLog()
        let model = LoadingModel()
        let loading = reporting(to: log) { expectation(for: model, keyPath: \.isLoading, toBe: true) }
        wait(for: [loading], timeout: 0)
        XCTAssertEqual(log.messages, [])
    }

    func testTakingTheValueAgainIsAnOverFulfilmentNotACrash() {
        let log = FailureLog()
        let model = LoadingModel()
        let clock = VirtualClock()
        let loading = reporting(to: log) { expectation(for: model, keyPath: \.isLoading, toBe: true, clock: clock) }
        clock.schedule(after: .ticks(10)) { model.isLoading = false }
        clock.schedule(after: .ticks(20)) { model.isLoading = true }
        wait(for: [loading], advancing: clock)
        XCTAssertEqual(
            log.messages,
            [
                "KeyPathValueExpectation(KeyPath<LoadingModel, Bool>, expectedValue: true) was fulfilled more than once: "
                    + "the value became true again after the expectation had already been fulfilled (values read: "
                    + "[true, false, true]). Set assertForOverFulfill to false to allow it."
            ])
    }

    func testChangesToOtherPropertiesAreNotOverFulfilments() {
        let log = FailureLog()
        let model = LoadingModel()
        let clock = VirtualClock()
        let loaded = reporting(to: log) {
            KeyPathValueExpectation(object: model, keyPath: \.isLoading, expectedValue: false, clock: clock)
        }
        loaded.assertForOverFulfill = true
        clock.schedule(after: .ticks(10)) { model.isLoading = false }
        clock.schedule(after: .ticks(20)) { model.results = ["a"] }
        clock.schedule(after: .ticks(30)) { model.results = ["a", "b"] }
        wait(for: [loaded], advancing: clock)
        XCTAssertEqual(loaded.valuesRead, ["true", "false"])
        XCTAssertEqual(log.messages, [])
    }

    func testChangesInOneTurnOfTheMainQueueAreReadOnceSettled() {
        let log = FailureLog()
        let model = LoadingModel()
        model.isLoading = false
        let wasLoading = reporting(to: log) {
            KeyPathValueExpectation(object: model, keyPath: \.isLoading, expectedValue: true)
        }
        // Every value the property takes, as its publisher sends them: what to use when the passing value matters.
        let sentLoading = reporting(to: log) { PublisherValueExpectation(model.$isLoading, expectedValue: true) }
        let turnDone = XCTestExpectation(description: "the turn of changes ran")
        DispatchQueue.main.async {
            model.isLoading = true
            model.isLoading = false
            turnDone.fulfill()
        }
        wait(for: [turnDone, sentLoading], timeout: 10)
        // The read after the turn comes after `turnDone`'s fulfilment on the main queue: let it run.
        let read = XCTestExpectation(description: "read after the turn")
        DispatchQueue.main.async { read.fulfill() }
        wait(for: [read], timeout: 10)
        XCTAssertEqual(sentLoading.values, [false, true, false])
        XCTAssertEqual(wasLoading.valuesRead, ["false"])
        XCTAssertEqual(waitResult(for: wasLoading, timeout: 0), .timedOut)
        XCTAssertEqual(log.messages, [])
    }

    func testOnVirtualTimeChangesInOneActionOfTheClockAreReadOnceSettled() {
        let log = FailureLog()
        let model = LoadingModel()
        model.isLoading = false
        let clock = VirtualClock()
        let wasLoading = reporting(to: log) {
            expectation(for: model, keyPath: \.isLoading, toBe: true, clock: clock)
        }
        clock.schedule(after: .ticks(5)) {
            model.isLoading = true
            model.isLoading = false
        }
        clock.schedule(after: .ticks(8)) { model.isLoading = true }
        clock.advance(by: .ticks(7))
        // The description notes what was read only while the expectation is unfulfilled: `false` alone, never the
        // `true` in between. (`expectation(for:keyPath:toBe:)` returns the expectation it registered with the test
        // case, an `XCTestExpectation` with no `valuesRead`; its description is the shim's.)
        XCTAssertEqual(
            wasLoading.expectationDescription,
            "KeyPathValueExpectation(KeyPath<LoadingModel, Bool>, expectedValue: true) (read [false] so far)"
        )
        clock.advance(by: .ticks(1))
        XCTAssertEqual(
            wasLoading.expectationDescription,
            "KeyPathValueExpectation(KeyPath<LoadingModel, Bool>, expectedValue: true)"
        )
        XCTAssertEqual(waitResult(for: wasLoading, timeout: 0), .completed)
        XCTAssertEqual(log.messages, [])
    }

    func testOnVirtualTimeTheReadRunsOnTheClock() {
        let log = FailureLog()
        let model = LoadingModel()
        let clock = VirtualClock()
        let loaded = reporting(to: log) {
            KeyPathValueExpectation(object: model, keyPath: \.isLoading, expectedValue: false, clock: clock)
        }
        clock.schedule(after: .ticks(300)) { model.isLoading = false }
        clock.advance(by: .ticks(299))
        XCTAssertEqual(loaded.valuesRead, ["true"])
        wait(for: [loaded], advancing: clock, by: .ticks(1))
        XCTAssertEqual(loaded.valuesRead, ["true", "false"])
        XCTAssertEqual(log.messages, [])
    }

    func testOnVirtualTimeWithoutAClockTheWaitSettlesTheRead() {
        let log = FailureLog()
        let model = LoadingModel()
        let clock = VirtualClock()
        let loaded = reporting(to: log) { expectation(for: model, keyPath: \.isLoading, toBe: false) }
        clock.schedule(after: .ticks(5)) { model.isLoading = false }
        wait(for: [loaded], advancing: clock)
        XCTAssertEqual(log.messages, [])
    }

    func testTheDescriptionNamesAPlainPropertyButNotAWrappedOne() {
        let model = LoadingModel()
        let titled = KeyPathValueExpectation(object: model, keyPath: \.title, expectedValue: "Results")
        let loading = KeyPathValueExpectation(object: model, keyPath: \.isLoading) { $0 }
        let notLoading = KeyPathValueExpectation(object: model, keyPath: \.isLoading, expectedValue: false)
        XCTAssertEqual(
            notLoading.expectationDescription,
            "KeyPathValueExpectation(KeyPath<LoadingModel, Bool>, expectedValue: false) (read [true] so far)"
        )
        notLoading.isInverted = true
        XCTAssertEqual(
            titled.expectationDescription, #"KeyPathValueExpectation(\LoadingModel.title, expectedValue: "Results")"#
        )
        XCTAssertEqual(
            loading.expectationDescription, "KeyPathValueExpectation(KeyPath<LoadingModel, Bool>, condition:)"
        )
        wait(for: [titled, loading, notLoading], timeout: 0)
    }

    func testManyChangesFromTheMainQueue() {
        let log = FailureLog()
        let model = LoadingModel()
        let twenty = reporting(to: log) {
            KeyPathValueExpectation(object: model, keyPath: \.results) { $0.count == 20 }
        }
        let shared = model
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            for index in 0..<5 {
                DispatchQueue.main.async { shared.results.append("\(thread)-\(index)") }
            }
        }
        wait(for: [twenty], timeout: 10)
        XCTAssertEqual(log.messages, [])
    }
}
#endif
