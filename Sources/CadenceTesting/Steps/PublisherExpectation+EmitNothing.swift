import CadenceSupport

extension PublisherExpectation {
    /// Expects neither a value nor a completion for `duration` of virtual time, from the tick the step starts through
    /// that tick plus `duration`, both included; the clock is advanced to the end of that window even when it has
    /// nothing to do.
    ///
    /// ```swift
    /// expect(search.results).toEmitNothing(for: .ticks(299)).thenEmit(["swift"])
    /// ```
    ///
    /// An event inside the window fails the step, saying how early it came:
    ///
    /// ```text
    /// toEmitNothing(for: .ticks(299)) failed: expected nothing through tick 299, received "swift" at tick 150, 150 ticks early.
    /// ```
    ///
    /// With no virtual clock, time cannot be made to pass: the step can only check that nothing was delivered
    /// synchronously (and says so if something was); what arrives later is caught by the next step or, as an
    /// over-fulfilment, when the chain ends.
    ///
    /// - Parameter duration: How long nothing may happen; `.ticks(0)` means nothing at the current tick, once the work
    ///   already due has run. It must not be negative.
    @discardableResult
    public func toEmitNothing(
        for duration: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(emitNothing(name: "toEmitNothing", timing: .within(duration), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )))
    }

    /// Expects neither a value nor a completion for `duration` of virtual time; reads as the step after another (see
    /// `toEmitNothing(for:)`).
    @discardableResult
    public func thenEmitNothing(
        for duration: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        run(emitNothing(name: "thenEmitNothing", timing: .within(duration), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )))
    }

    /// The step `name` that expects no event in its window: `.within(duration)` is a window of virtual time (`for:`),
    /// `.timeout(timeout)` one of wall-clock time.
    private func emitNothing(
        name: String, timing: StepTiming, at location: SourceCodeLocation
    ) -> WrittenStep<Output, Failure> {
        let call: () -> String
        let problem: StepProblem?
        let window: Duration
        switch timing {
        case let .within(duration):
            window = duration ?? .zero
            call = { StepText.call(name, StepText.windowArgument(window), .within(nil)) }
            problem = window < .zero ? .negativeWindow(window) : nil
        case let .timeout(timeout):
            window = timeout
            call = { StepText.call(name, "", timing) }
            problem = StepText.problem(with: timing)
        }
        if let problem { return .rejected(call: call, location: location, problem: problem) }
        return .ready(emitNothingStep(
            call: call, window: window, synchronousOnly: !timing.isWallClock && clock == nil, location: location
        ))
    }

    /// The step that expects no event inside its `window`: a `.window` step, settled only once the window has
    /// passed.
    ///
    /// The window starts when the step is first evaluated — a driver evaluates a step once as it starts it — and the
    /// step remembers that time for its messages. `synchronousOnly` says that the driver can only show the events
    /// already delivered (no virtual clock), so the messages say that instead of naming ticks; on neither a virtual
    /// clock nor that, the window is wall-clock time, and the messages name it in milliseconds.
    func emitNothingStep(
        call: @escaping () -> String,
        window: Duration,
        synchronousOnly: Bool,
        location: SourceCodeLocation
    ) -> ExpectationStep<Output, Failure> {
        // Weakly: a chain's steps outlive it in the messages of late events, which the recorder keeps.
        weak let recorder = recorder
        let start = Locked<EventTime?>(nil)
        /// When the window started: the first evaluation notes it.
        let startTime = { () -> EventTime in
            start.withLock { start in
                if let start { return start }
                let now = recorder?.now ?? .tick(0)
                start = now
                return now
            }
        }
        /// The window's last tick, when the step runs on a virtual clock.
        let lastTick = { () -> Int64? in
            guard case let .tick(tick) = startTime() else { return nil }
            let (sum, overflow) = tick.addingReportingOverflow(VirtualTicks.count(in: window))
            return overflow ? .max : sum
        }
        /// Whether `time` lies inside the window (with no clock, everything delivered so far does).
        let inside = { (time: EventTime) -> Bool in
            switch (time, startTime()) {
            case let (.tick(tick), .tick): tick <= lastTick() ?? .max
            case let (.elapsed(elapsed), .elapsed(first)): synchronousOnly || elapsed <= first + window
            default: true
            }
        }
        /// `"nothing through tick 299"` on a virtual clock; `"nothing for 299 ticks"` with none, as written; `"nothing
        /// for 250 ms"` or `"nothing for 2 s"` on the wall clock.
        let quiet = { () -> String in
            StepText.quiet(through: lastTick(), window: window, synchronousOnly: synchronousOnly)
        }
        /// The failure for an event that arrived inside the window.
        let early = { (event: TimedEvent<Output, Failure>) -> StepDivergence in
            let received = StepText.received(event)
            if case let .tick(tick) = event.time, let last = lastTick() {
                return StepDivergence(
                    StepText.expected(quiet(), received: received), matched: 0, atEvent: true,
                    note: StepText.early(by: last - tick + 1)
                )
            }
            if synchronousOnly {
                return StepDivergence(StepText.synchronously(quiet(), received: received), matched: 0, atEvent: true)
            }
            // Wall-clock time: the driver adds the event's time.
            return StepDivergence(StepText.expected(quiet(), received: received), matched: 0, atEvent: true)
        }
        return ExpectationStep(
            kind: .window,
            call: call,
            window: window,
            location: location,
            evaluate: { events, isFinal in
                _ = startTime()
                if let first = events.first { return .failed(early(first)) }
                guard isFinal else { return .pending }
                // The driver hides an event that breaks the contract from the steps, and calls the step final
                // there; inside the window, that event is as early as any other.
                let all = recorder?.events ?? []
                if events.endIndex < all.count, all[events.endIndex].violation != nil,
                   inside(all[events.endIndex].time) {
                    return .failed(early(all[events.endIndex]))
                }
                return .satisfied(consumed: 0)
            },
            expectation: { _, _ in quiet() },
            missing: { _ in quiet() }
        )
    }
}

// MARK: - Wall clock (timeout:)

extension PublisherExpectation {
    /// Waits out `timeout` of wall-clock time, expecting neither a value nor a completion in it.
    ///
    /// The `async` form of `toEmitNothing(for:)`: here the timeout is the window — like an inverted
    /// `XCTestExpectation`, the step passes when the timeout runs out with nothing received, and fails at once on an
    /// event inside it.
    ///
    /// ```swift
    /// await expect(search.results).toEmitNothing(timeout: .milliseconds(250))
    ///     .thenEmit(["swift"], timeout: .seconds(1))
    /// ```
    ///
    /// ```text
    /// toEmitNothing(timeout: .milliseconds(250)) failed: expected nothing for 250 ms, received "swift" at +120.4 ms.
    /// ```
    ///
    /// - Parameter timeout: How long nothing may happen, from when the step starts; `.zero` checks only what has
    ///   already arrived. It must not be negative.
    @discardableResult
    public func toEmitNothing(
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(emitNothing(name: "toEmitNothing", timing: .timeout(timeout), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )), timeout: timeout)
    }

    /// Waits out `timeout` of wall-clock time, expecting nothing in it; reads as the step after another (see
    /// `toEmitNothing(timeout:)`).
    @discardableResult
    public func thenEmitNothing(
        timeout: Duration,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) async -> Self {
        await run(emitNothing(name: "thenEmitNothing", timing: .timeout(timeout), at: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )), timeout: timeout)
    }
}
