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
        run(
            emitNothing(
                name: "toEmitNothing", timing: .within(duration),
                at: SourceCodeLocation(
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
        run(
            emitNothing(
                name: "thenEmitNothing", timing: .within(duration),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
    }

    /// The step `name` that expects no event in its window: `.within(duration)` is a window of virtual time (`for:`),
    /// `.timeout(timeout)` one of wall-clock time.
    private func emitNothing(
        name: String, timing: StepTiming, at location: SourceCodeLocation
    ) -> WrittenStep<Output, Failure> {
        let problem: StepProblem?
        let window: Duration
        switch timing {
        case let .within(duration):
            window = duration ?? .zero
            problem = window < .zero ? .negativeWindow(window) : nil
        case let .timeout(timeout):
            window = timeout
            problem = timing.problem
        }
        let step = ChainStep(
            EmitNothingStep<Output, Failure>(
                recorder: recorder, window: window, synchronousOnly: !timing.isWallClock && clock == nil,
                wallClock: timing.isWallClock
            ),
            name: name, timing: timing.isWallClock ? timing : .within(nil), window: window, location: location
        )
        if let problem { return .rejected(step, problem) }
        return .ready(step)
    }
}

/// The step of `toEmitNothing`: no event inside its `window`; a `.window` step, settled only once the window has
/// passed.
///
/// The window starts when the step is first evaluated — a driver evaluates a step once as it starts it — and the
/// step remembers that time for its messages. `synchronousOnly` says that the driver can only show the events
/// already delivered (no virtual clock), so the messages say that instead of naming ticks; on neither a virtual
/// clock nor that, the window is wall-clock time, and the messages name it in milliseconds.
struct EmitNothingStep<Output, Failure: Error>: ExpectationStep {
    // Weakly: a chain's steps outlive it in the messages of late events, which the recorder keeps.
    weak var recorder: EventRecorder<Output, Failure>?
    let window: Duration
    let synchronousOnly: Bool
    /// Whether the step was written with `timeout:` (its window is then the timeout, not a `for:` argument).
    let wallClock: Bool
    /// When the window started, once the step was first evaluated.
    private let start = Locked<EventTime?>(nil)

    init(recorder: EventRecorder<Output, Failure>, window: Duration, synchronousOnly: Bool, wallClock: Bool) {
        self.recorder = recorder
        self.window = window
        self.synchronousOnly = synchronousOnly
        self.wallClock = wallClock
    }

    var kind: StepKind { .window }

    var arguments: StepArguments { wallClock ? .none : .window(window) }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome {
        _ = startTime()
        if let first = events.first { return .failed(early(first)) }
        guard isFinal else { return .pending }
        // The driver hides an event that breaks the contract from the steps, and calls the step final there;
        // inside the window, that event is as early as any other.
        let all = recorder?.events ?? []
        if events.endIndex < all.count, all[events.endIndex].violation != nil, inside(all[events.endIndex].time) {
            return .failed(early(all[events.endIndex]))
        }
        return .satisfied(consumed: 0)
    }

    func expectation(at index: Int, of count: Int) -> StepExpectation { quiet }

    func missing(after consumed: Int) -> StepExpectation { quiet }

    private var quiet: StepExpectation {
        .quiet(through: lastTick(), window: window, synchronousOnly: synchronousOnly)
    }

    private func startTime() -> EventTime {
        start.withLock { start in
            if let start { return start }
            let now = recorder?.now ?? .tick(0)
            start = now
            return now
        }
    }

    private func lastTick() -> Int64? {
        guard case let .tick(tick) = startTime() else { return nil }
        let (sum, overflow) = tick.addingReportingOverflow(VirtualTicks.count(in: window))
        return overflow ? .max : sum
    }

    private func inside(_ time: EventTime) -> Bool {
        switch (time, startTime()) {
        case let (.tick(tick), .tick): tick <= lastTick() ?? .max
        case let (.elapsed(elapsed), .elapsed(first)): synchronousOnly || elapsed <= first + window
        default: true
        }
    }

    private func early(_ event: TimedEvent<Output, Failure>) -> StepDivergence {
        let sought = Sought.quiet(through: lastTick(), window: window, synchronousOnly: synchronousOnly)
        let received = Received(timed: event)
        if case let .tick(tick) = event.time, let last = lastTick() {
            return StepDivergence(
                .received(received, expected: sought), matched: 0, atEvent: true, earlyBy: last - tick + 1)
        }
        if synchronousOnly {
            return StepDivergence(.synchronously(received, expected: sought), matched: 0, atEvent: true)
        }
        // Wall-clock time: the driver adds the event's time.
        return StepDivergence(.received(received, expected: sought), matched: 0, atEvent: true)
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
        await run(
            emitNothing(
                name: "toEmitNothing", timing: .timeout(timeout),
                at: SourceCodeLocation(
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
        await run(
            emitNothing(
                name: "thenEmitNothing", timing: .timeout(timeout),
                at: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )), timeout: timeout)
    }
}
