import CadenceSupport

#if canImport(XCTest)
import XCTest

extension XCTestCase {
    /// Advances `clock` by `duration` — or, with no duration, runs it until nothing is left scheduled — then waits
    /// for `expectations` with no real delay: on virtual time, what the clock did not bring about is not going to
    /// happen.
    ///
    /// ```swift
    /// let scheduler = DispatchQueue.test
    /// let search = SearchModel(scheduler: scheduler.eraseToAnyScheduler())
    /// let results = PublisherValueExpectation(search.results, expectedValue: ["swift", "swiftui"])
    /// search.query = "swift"
    /// wait(for: [results], advancing: scheduler.clock, by: .milliseconds(300))
    /// ```
    ///
    /// The shims of this library settle anything pending first (a ruling-out found while a shim was created, a
    /// key-path read after a change), then an `XCTWaiter` waits with a timeout of 0. An expectation still unfulfilled
    /// fails the test at once, at this call's file and line, on every platform:
    ///
    /// ```text
    /// wait(for:advancing:) failed: at tick 499, 1 expectation was not fulfilled: "PublisherValueExpectation(expectedValue: 3) (received [1] so far)".
    /// ```
    ///
    /// When the wait returns, the shims it left unfulfilled are closed: they stop observing and never call
    /// `fulfill()` again — a later `advance`, or the drain at the end of a virtual-time scope, cannot fulfil an
    /// expectation whose wait is over (an "API violation" in Apple's XCTest). Fulfilled shims keep observing, so that
    /// an over-fulfilment is still reported.
    @available(*, noasync, message: "Use await fulfillment(of:advancing:by:) instead.")
    public func wait(
        for expectations: [XCTestExpectation],
        advancing clock: VirtualClock,
        by duration: Duration? = nil,
        enforceOrder: Bool = false,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        let reporter = FailureReporter.resolved
        let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        Self.advance(clock, by: duration, settling: expectations)
        // A waiter with no delegate fails nothing itself: the same call on both platforms (Linux's also takes a
        // location, which it would only hand to a delegate), and `end` reports at this call's location.
        let waiter = XCTWaiter()
        let result = waiter.wait(for: expectations, timeout: 0, enforceOrder: enforceOrder)
        Self.end(waiter, result, for: expectations, call: "wait(for:advancing:)", clock, reporter, location)
    }

    /// Advances `clock` by `duration` — or, with no duration, runs it until nothing is left scheduled — then awaits
    /// `expectations` with no real delay (see `wait(for:advancing:by:enforceOrder:fileID:filePath:line:column:)`).
    public func fulfillment(
        of expectations: [XCTestExpectation],
        advancing clock: VirtualClock,
        by duration: Duration? = nil,
        enforceOrder: Bool = false,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async {
        let reporter = FailureReporter.resolved
        let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        Self.advance(clock, by: duration, settling: expectations)
        let waiter = XCTWaiter()
        let result = await waiter.fulfillment(of: expectations, timeout: 0, enforceOrder: enforceOrder)
        Self.end(waiter, result, for: expectations, call: "fulfillment(of:advancing:)", clock, reporter, location)
    }

    private static func advance(
        _ clock: VirtualClock, by duration: Duration?, settling expectations: [XCTestExpectation]
    ) {
        if let duration {
            clock.advance(by: duration)
        } else {
            clock.run()
        }
        for case let expectation as any VirtualTimeWaitable in shims(expectations) {
            expectation.settleForWait()
        }
    }

    /// The expectations as Cadence's shims see them: one that `expectation(for:keyPath:…)` registered with the test
    /// case stands for the key-path shim that fulfils it.
    private static func shims(_ expectations: [XCTestExpectation]) -> [XCTestExpectation] {
        guard let scope = XCTestCaseObserver.runningTestCase else { return expectations }
        return expectations.map { scope.shim(fulfilling: $0) ?? $0 }
    }

    /// Reports how the wait ended, at the caller's location, then closes the expectations it left unfulfilled.
    private static func end(
        _ waiter: XCTWaiter, _ result: XCTWaiter.Result, for expectations: [XCTestExpectation], call: String,
        _ clock: VirtualClock, _ reporter: FailureReporter, _ location: SourceCodeLocation
    ) {
        let outcome = VirtualTimeWaitOutcome(
            result, expectations: expectations, fulfilled: waiter.fulfilledExpectations)
        // The message is written before closing: an unfulfilled shim's description names what it received so far.
        let message = outcome.message(call: call, tick: clock.now.ticks)
        let shims = shims(expectations)
        #if !canImport(ObjectiveC)
        for case let expectation as any AppleRuledExpectation in shims {
            expectation.appleRules.withLock { $0.noteWaitEnded() }
        }
        #endif
        for case let expectation as any VirtualTimeWaitable in shims {
            expectation.closeAfterWait()
        }
        if let message {
            reporter.report(ExpectationFailure(message: message, location: location))
        }
    }
}
#endif
