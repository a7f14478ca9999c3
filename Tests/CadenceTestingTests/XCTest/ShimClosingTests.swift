// Once a wait on virtual time has returned, a shim it left unfulfilled never calls `fulfill()` again: Linux's XCTest
// ignores such a call, Apple's raises an "API violation". These tests watch every `fulfill()` call a shim makes, on
// Linux, through a subclass that counts them (the shims are final; `@testable` lets a test subclass their base).
#if canImport(XCTest)
@testable import CadenceTesting
import Foundation
import XCTest

/// A value shim — the machinery of `PublisherValueExpectation`, for the values equal to `expected` — that counts the
/// `fulfill()` calls it receives, and those made after `waitEnded` was set.
final class CountingValueExpectation: PublisherShimExpectation<PassthroughSubject<Int, Never>>, @unchecked Sendable {
    // `counts` (a Synchronized) guards the counters.
    private let counts = Synchronized((all: 0, afterWait: 0, waitEnded: false))

    init(_ subject: PassthroughSubject<Int, Never>, expected: Int, line: UInt = #line) {
        let criterion = ShimCriterion.equal(to: "\(expected)")
        let rule = ShimRule<Int, Never>(call: ShimCall(kind: .value, criterion: criterion), fulfils: { $0 == expected })
        {
            completion, fulfilled, values in
            fulfilled ? .nothing : .rulesOut(.noValueMet(criterion, completion: completion, values: values))
        }
        super.init(subject, rule: rule, description: nil, fileID: #fileID, filePath: #filePath, line: line, column: 1)
    }

    #if canImport(ObjectiveC)
    override func fulfill() {
        count()
        super.fulfill()
    }
    #else
    override func fulfill(_ file: StaticString = #file, line: Int = #line) {
        count()
        super.fulfill(file, line: line)
    }
    #endif

    private func count() {
        counts.withLock { counts in
            counts.all += 1
            if counts.waitEnded { counts.afterWait += 1 }
        }
    }

    /// Marks the wait as over: from now on, `fulfill()` calls are counted as late.
    func noteWaitEnded() { counts.withLock { $0.waitEnded = true } }
    /// Every `fulfill()` call so far.
    var fulfilCalls: Int { counts.withLock { $0.all } }
    /// The `fulfill()` calls since ``noteWaitEnded()``.
    var fulfilCallsAfterWait: Int { counts.withLock { $0.afterWait } }
}

final class ShimClosingTests: XCTestCase {
    func testAShimLeftUnfulfilledByAWaitIsNeverFulfilledByALaterAdvance() async {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(100, 1), (500, 3)])
        let three = reporting(to: log) { CountingValueExpectation(subject, expected: 3) }
        await FailureReporter.$current.withValue(log.reporter) {
            await fulfillment(of: [three], advancing: clock, by: .ticks(499))
        }
        three.noteWaitEnded()
        XCTAssertTrue(three.shim.isClosed)
        // The wait ran the clock on to the value, to say when it came, watching without fulfilling.
        XCTAssertEqual(clock.now.ticks, 500)
        XCTAssertEqual(three.values, [1, 3])
        subject.send(3)
        await clock.advance(by: .ticks(1))
        XCTAssertEqual(clock.now.ticks, 501)
        XCTAssertEqual(three.fulfilCalls, 0)
        XCTAssertEqual(three.fulfilCallsAfterWait, 0)
        XCTAssertEqual(three.values, [1, 3])
        XCTAssertEqual(
            log.messages,
            [
                "fulfillment(of:advancing:) failed: at tick 499, 1 expectation was not fulfilled: "
                    + "\"PublisherValueExpectation(expectedValue: 3) (received [1] so far)\"; it arrived at tick 500, "
                    + "1 tick late."
            ])
    }

    func testTheDrainAtTheEndOfAVirtualTimeScopeFulfilsNothingEither() async {
        let log = FailureLog()
        // A test of the drain: the value at tick 500 is left to it on purpose.
        let three = await withVirtualTime(leftovers: .allowed) { clock in
            let subject = scheduledSubject(on: clock, [(100, 1), (500, 3)])
            let three = reporting(to: log) { CountingValueExpectation(subject, expected: 3) }
            await FailureReporter.$current.withValue(log.reporter) {
                await fulfillment(of: [three], advancing: clock, by: .ticks(200))
            }
            three.noteWaitEnded()
            return three
        }
        XCTAssertEqual(three.fulfilCallsAfterWait, 0)
        XCTAssertEqual(three.values, [1, 3])
        XCTAssertEqual(log.messages.count, 1)
    }

    func testACompletionAfterTheWaitNeitherFulfilsNorReports() async {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(10, 1)], completion: (20, .finished))
        let three = reporting(to: log) { CountingValueExpectation(subject, expected: 3) }
        await FailureReporter.$current.withValue(log.reporter) {
            await fulfillment(of: [three], advancing: clock, by: .ticks(10))
        }
        three.noteWaitEnded()
        await clock.run()
        // Without closing, the completion would rule the shim out: a report, then `fulfill()` to end a wait that is
        // already over.
        XCTAssertEqual(three.fulfilCallsAfterWait, 0)
        XCTAssertEqual(
            log.messages,
            [
                "fulfillment(of:advancing:) failed: at tick 10, 1 expectation was not fulfilled: "
                    + "\"PublisherValueExpectation(expectedValue: 3) (received [1] so far)\"; it could no longer "
                    + "arrive from tick 20, when its publisher completed."
            ])
    }

    func testAnInvertedShimIsClosedAfterItsWaitSucceeds() async {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(50, 3)])
        let three = reporting(to: log) { CountingValueExpectation(subject, expected: 3) }
        three.isInverted = true
        await FailureReporter.$current.withValue(log.reporter) {
            await fulfillment(of: [three], advancing: clock, by: .ticks(49))
        }
        three.noteWaitEnded()
        await clock.run()
        XCTAssertEqual(three.fulfilCalls, 0)
        XCTAssertEqual(log.messages, [])
    }

    func testOverFulfilmentIsReportedNeverPassedOnToFulfil() async {
        let log = FailureLog()
        let clock = VirtualClock()
        let subject = scheduledSubject(on: clock, [(10, 3), (20, 3), (30, 3), (40, 3)])
        let line = #line + 1
        let three = reporting(to: log) { CountingValueExpectation(subject, expected: 3) }
        three.expectedFulfillmentCount = 2
        three.assertForOverFulfill = true
        await FailureReporter.$current.withValue(log.reporter) {
            await fulfillment(of: [three], advancing: clock, by: .ticks(20))
        }
        three.noteWaitEnded()
        XCTAssertFalse(three.shim.isClosed, "a fulfilled shim stays open, to report an over-fulfilment")
        await clock.run()
        XCTAssertEqual(three.fulfilCalls, 2)
        XCTAssertEqual(three.fulfilCallsAfterWait, 0)
        XCTAssertEqual(
            log.messages,
            [
                "PublisherValueExpectation(expectedValue: 3) was fulfilled more than 2 times: 3 arrived after the "
                    + "expectation had already been fulfilled 2 times, its expectedFulfillmentCount (received [3, 3, 3]). "
                    + "Set assertForOverFulfill to false to allow it."
            ])
        XCTAssertEqual(log.failures.map(\.location.line), [line])
    }

    func testAKeyPathExpectationLeftUnfulfilledReadsNothingMore() async {
        let log = FailureLog()
        let clock = VirtualClock()
        let model = ShimClosingModel()
        let named = reporting(to: log) {
            KeyPathValueExpectation(object: model, keyPath: \.name, expectedValue: "Blob", clock: clock)
        }
        await FailureReporter.$current.withValue(log.reporter) {
            await fulfillment(of: [named], advancing: clock, by: .ticks(10))
        }
        clock.schedule(after: .ticks(5)) { model.name = "Blob" }
        await clock.run()
        // It read nothing after the wait (a read is what fulfils it): "Blob" was never read, so never fulfilled.
        XCTAssertEqual(model.name, "Blob")
        XCTAssertEqual(named.valuesRead, ["\"\""])
        XCTAssertEqual(
            log.messages,
            [
                "fulfillment(of:advancing:) failed: at tick 10, 1 expectation was not fulfilled: "
                    + "\"KeyPathValueExpectation(KeyPath<ShimClosingModel, String>, expectedValue: \"Blob\") (read [\"\"] so far)\"."
            ])
    }

    /// A key-path expectation watched past the budget reads the value that comes late without being fulfilled.
    func testAKeyPathExpectationSaysWhenItsValueCameLate() {
        let log = FailureLog()
        let clock = VirtualClock()
        let model = ShimClosingModel()
        let named = reporting(to: log) {
            KeyPathValueExpectation(object: model, keyPath: \.name, expectedValue: "Blob", clock: clock)
        }
        clock.schedule(after: .ticks(20)) { model.name = "Blob" }
        FailureReporter.$current.withValue(log.reporter) { wait(for: [named], advancing: clock, by: .ticks(10)) }
        XCTAssertEqual(clock.now.ticks, 20)
        XCTAssertEqual(named.valuesRead, ["\"\""])
        XCTAssertEqual(
            log.messages,
            [
                "wait(for:advancing:) failed: at tick 10, 1 expectation was not fulfilled: "
                    + "\"KeyPathValueExpectation(KeyPath<ShimClosingModel, String>, expectedValue: \"Blob\") (read [\"\"] so far)\"; "
                    + "it arrived at tick 20, 10 ticks late."
            ])
    }
}

/// A model whose property a key-path expectation waits for.
final class ShimClosingModel: ObservableObject, @unchecked Sendable { // changed on the test's clock only
    @Published var name = ""
}
#endif
