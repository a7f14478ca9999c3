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
    /// key-path read after a change), then XCTest's `wait(for:timeout:)` runs with a timeout of 0: an expectation
    /// still unfulfilled fails the test as a timeout would, at once.
    @available(*, noasync, message: "Use await fulfillment(of:advancing:by:) instead.")
    public func wait(
        for expectations: [XCTestExpectation],
        advancing clock: VirtualClock,
        by duration: Duration? = nil,
        enforceOrder: Bool = false,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) {
        Self.advance(clock, by: duration, settling: expectations)
        #if canImport(ObjectiveC)
        wait(for: expectations, timeout: 0, enforceOrder: enforceOrder)
        #else
        wait(for: expectations, timeout: 0, enforceOrder: enforceOrder, file: filePath, line: Int(line))
        #endif
    }

    /// Advances `clock` by `duration` — or, with no duration, runs it until nothing is left scheduled — then awaits
    /// `expectations` with no real delay (see `wait(for:advancing:by:enforceOrder:filePath:line:)`).
    public func fulfillment(
        of expectations: [XCTestExpectation],
        advancing clock: VirtualClock,
        by duration: Duration? = nil,
        enforceOrder: Bool = false,
        filePath: StaticString = #filePath,
        line: UInt = #line
    ) async {
        Self.advance(clock, by: duration, settling: expectations)
        #if canImport(ObjectiveC)
        await fulfillment(of: expectations, timeout: 0, enforceOrder: enforceOrder)
        #else
        await fulfillment(of: expectations, timeout: 0, enforceOrder: enforceOrder, file: filePath, line: Int(line))
        #endif
    }

    private static func advance(
        _ clock: VirtualClock, by duration: Duration?, settling expectations: [XCTestExpectation]
    ) {
        if let duration {
            clock.advance(by: duration)
        } else {
            clock.run()
        }
        for case let expectation as any VirtualTimeWaitable in expectations {
            expectation.settleForWait()
        }
    }
}
#endif
