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
    /// wait(for:advancing:) failed: at tick 499, 1 expectation was not fulfilled: "PublisherValueExpectation(expectedValue: 3) (received [1] so far)"; it arrived at tick 500, 1 tick late.
    /// ```
    ///
    /// When a budget runs out, the wait does what the expectation DSL's budget steps do: it runs the clock on, one
    /// due tick at a time and for at most 10,000 actions, to say when the expectations it left unfulfilled would have
    /// been fulfilled ("it arrived at tick 500, 1 tick late"), or that they had not been by the tick it stopped at.
    /// The shims watch without calling `fulfill()`. The clock is left where the look-ahead stopped — at the last
    /// arrival, or where the clock ran out of work or the look-ahead out of actions — and the test, which has failed,
    /// finds the work up to there run. With nothing scheduled after the budget, the message ends at the expectations;
    /// so it does, and the clock stays at the budget's end, when an expectation left unfulfilled (or an inverted one)
    /// is a plain `XCTestExpectation`, which the work run on could fulfil after its wait — an "API violation" in
    /// Apple's XCTest.
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
        let budgetEnd = Self.advance(clock, by: duration, settling: expectations)
        // A waiter with no delegate fails nothing itself: the same call on both platforms (Linux's also takes a
        // location, which it would only hand to a delegate), and `end` reports at this call's location.
        let waiter = XCTWaiter()
        let result = waiter.wait(for: expectations, timeout: 0, enforceOrder: enforceOrder)
        Self.end(
            waiter, result, for: expectations, call: "wait(for:advancing:)", clock, budgetEnd, reporter, location)
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
        let budgetEnd = Self.advance(clock, by: duration, settling: expectations)
        let waiter = XCTWaiter()
        let result = await waiter.fulfillment(of: expectations, timeout: 0, enforceOrder: enforceOrder)
        Self.end(
            waiter, result, for: expectations, call: "fulfillment(of:advancing:)", clock, budgetEnd, reporter,
            location)
    }

    /// Moves `clock` on and settles the shims among `expectations`; returns the budget's last tick when the clock
    /// reached it (nil with no budget, or when the clock stopped short of it: on its action limit, or having ended).
    private static func advance(
        _ clock: VirtualClock, by duration: Duration?, settling expectations: [XCTestExpectation]
    ) -> Int64? {
        var budgetEnd: Int64?
        if let duration {
            let (sum, overflow) = clock.now.ticks.addingReportingOverflow(max(0, VirtualTicks.count(in: duration)))
            clock.advance(by: duration)
            budgetEnd = overflow ? .max : sum
        } else {
            clock.run()
        }
        for case let expectation as any VirtualTimeWaitable in shims(expectations) {
            expectation.settleForWait()
        }
        return budgetEnd.flatMap { $0 == clock.now.ticks ? $0 : nil }
    }

    /// The expectations as Cadence's shims see them: one that `expectation(for:keyPath:…)` registered with the test
    /// case stands for the key-path shim that fulfils it.
    private static func shims(_ expectations: [XCTestExpectation]) -> [XCTestExpectation] {
        guard let scope = XCTestCaseObserver.runningTestCase else { return expectations }
        return expectations.map { scope.shim(fulfilling: $0) ?? $0 }
    }

    /// Reports how the wait ended, at the caller's location, then closes the expectations it left unfulfilled —
    /// after running the clock on to see when they would have been fulfilled, when the budget ran out (see
    /// `lookAhead(watching:on:from:call:)`).
    private static func end(
        _ waiter: XCTWaiter, _ result: XCTWaiter.Result, for expectations: [XCTestExpectation], call: String,
        _ clock: VirtualClock, _ budgetEnd: Int64?, _ reporter: FailureReporter, _ location: SourceCodeLocation
    ) {
        let fulfilled = waiter.fulfilledExpectations
        let outcome = VirtualTimeWaitOutcome(result, expectations: expectations, fulfilled: fulfilled)
        // The descriptions are taken before the look-ahead and before closing: an unfulfilled shim's description
        // names what it received by the end of the budget.
        let tick = clock.now.ticks
        let shims = shims(expectations)
        #if !canImport(ObjectiveC)
        for case let expectation as any AppleRuledExpectation in shims {
            expectation.appleRules.withLock { $0.noteWaitEnded() }
        }
        #endif
        var lookahead: WaitLookahead?
        if case .unfulfilled = outcome, let budgetEnd,
            let watched = watchable(expectations, shims: shims, fulfilled: fulfilled)
        {
            for case let expectation as any VirtualTimeWaitable in shims
            where !watched.contains(where: { $0 === expectation }) {
                expectation.closeAfterWait()
            }
            for expectation in watched { expectation.watchAfterWait() }
            lookahead = lookAhead(watching: watched, on: clock, from: budgetEnd, call: call)
        }
        let message = outcome.message(call: call, tick: tick, lookahead: lookahead)
        for case let expectation as any VirtualTimeWaitable in shims {
            expectation.closeAfterWait()
        }
        if let message {
            reporter.report(ExpectationFailure(message: message, location: location))
        }
    }

    /// The expectations the wait left unfulfilled, in order, when the clock may be run on to watch them: when each
    /// of them, and each inverted one, is one of Cadence's, which can keep observing without calling `fulfill()`.
    /// Else nil: running the clock on could fulfil a plain `XCTestExpectation` after its wait, an "API violation" in
    /// Apple's XCTest.
    private static func watchable(
        _ expectations: [XCTestExpectation], shims: [XCTestExpectation], fulfilled: [XCTestExpectation]
    ) -> [any VirtualTimeWaitable]? {
        var watched: [any VirtualTimeWaitable] = []
        for (expectation, shim) in zip(expectations, shims) where !fulfilled.contains(where: { $0 === expectation }) {
            guard let waitable = shim as? any VirtualTimeWaitable else { return nil }
            if !expectation.isInverted { watched.append(waitable) }
        }
        return watched.isEmpty ? nil : watched
    }

    /// Runs `clock` on past the budget that ended at `budgetEnd`, one due tick at a time, until each of `watched`
    /// would have been fulfilled or can no longer be, at most ``DrivingLimits/lookaheadActions`` actions — the
    /// look-ahead of the expectation DSL's budget steps — and leaves the clock where it stopped.
    private static func lookAhead(
        watching watched: [any VirtualTimeWaitable], on clock: VirtualClock, from budgetEnd: Int64, call: String
    ) -> WaitLookahead {
        var arrivals = [WaitLookahead.Arrival](repeating: .notYet, count: watched.count)
        var ran = 0
        var stop = WaitLookahead.Stop.decided
        while arrivals.contains(.notYet) {
            guard ran < DrivingLimits.lookaheadActions else {
                stop = .actionLimit(ran)
                break
            }
            guard let next = clock.nextDueTick else {
                stop = .idle
                break
            }
            ran += clock.runActions(through: next, limit: DrivingLimits.lookaheadActions - ran).ran
            clock.runReadyTasks(origin: call)
            for (index, expectation) in watched.enumerated() where arrivals[index] == .notYet {
                switch expectation.lateWatch {
                case .waiting: break
                case .arrived: arrivals[index] = .arrived(tick: clock.now.ticks)
                case .ruledOut: arrivals[index] = .ruledOut(tick: clock.now.ticks)
                }
            }
        }
        return WaitLookahead(
            budgetEnd: budgetEnd, arrivals: arrivals, stoppedAt: clock.now.ticks, stop: stop, actionsRun: ran)
    }
}
#endif
