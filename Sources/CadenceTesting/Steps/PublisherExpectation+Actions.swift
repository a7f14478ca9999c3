extension PublisherExpectation {
    /// Requests `demand` more values from the publisher, for back-pressure tests; consumes no event.
    ///
    /// ```swift
    /// expect(subject, demand: .none)
    ///     .thenRequest(.max(1)).thenEmit(1)
    ///     .thenRequest(.max(2)).thenEmit([2, 3])
    /// ```
    ///
    /// Requesting `.none` is a mistake in the test, and so is requesting from a subscription that has already
    /// completed or been cancelled:
    ///
    /// ```text
    /// thenRequest(.max(1)) failed: the publisher had already finished at tick 3, so nothing more can be requested.
    /// ```
    @discardableResult
    public func thenRequest(
        _ demand: Subscribers.Demand,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let step = ChainStep(
            ActionStep<Output, Failure>.request(demand), name: "thenRequest", window: nil, location: location
        )
        if demand == .none {
            reject(step, .noDemand)
        } else {
            perform(step)
        }
        return self
    }

    /// Cancels the subscription; consumes no event.
    ///
    /// ```swift
    /// expect(ticker, on: clock).toEmit([1, 2]).thenCancel().thenEmitNothing(for: .seconds(1))
    /// ```
    ///
    /// A publisher that goes on sending after the cancel is reported — by a step that sees the event, or else, as
    /// over-fulfilment, when the chain ends (or, arriving after that, as a late event unless the chain says
    /// ``thenIgnoreRest(fileID:filePath:line:column:)``):
    ///
    /// ```text
    /// expect(Ticker) received 1 event after its chain had ended: the publisher sent 3 at tick 3 after the subscription was cancelled (rule 1.8).
    /// ```
    ///
    /// Cancelling a subscription that has already completed or been cancelled is a mistake in the test, and fails.
    @discardableResult
    public func thenCancel(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        perform(
            ChainStep(
                ActionStep<Output, Failure>.cancel, name: "thenCancel", window: nil,
                location: SourceCodeLocation(
                    fileID: fileID, filePath: filePath, line: line, column: column
                )))
        return self
    }

    /// Stops checking: events no step consumed, and events that arrive after the chain ended, are not reported —
    /// except an event that broke the subscription contract (a value beyond demand, an event after the completion or
    /// the cancel, a second subscription) before the chain ended: ignoring the rest of a stream is not ignoring a
    /// broken publisher, and that is reported, naming its rule.
    ///
    /// Steps before it are checked as usual, and so are steps after it.
    ///
    /// ```swift
    /// expect(ticker, on: clock).toEmit([1, 2, 3]).thenIgnoreRest()
    /// ```
    @discardableResult
    public func thenIgnoreRest(
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        perform(
            ChainStep(
                ActionStep<Output, Failure>.ignoreRest, name: "thenIgnoreRest", window: nil,
                location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
            ))
        return self
    }
}

/// The steps that act on the subscription and consume nothing: `thenRequest`, `thenCancel`, `thenIgnoreRest`.
enum ActionStep<Output, Failure: Error>: ExpectationStep {
    case request(Subscribers.Demand)
    case cancel
    case ignoreRest

    var kind: StepKind { .action }

    var arguments: StepArguments {
        if case let .request(demand) = self { return .demand(demand) }
        return .none
    }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome {
        .satisfied(consumed: 0)
    }

    func expectation(at index: Int, of count: Int) -> StepExpectation { .none }

    func missing(after consumed: Int) -> StepExpectation { .liveSubscription }

    func act(on expectation: PublisherExpectation<Output, Failure>) -> ActionProblem? {
        switch self {
        case let .request(demand):
            if expectation.recorder.request(demand) { return nil }
            return endedSubscription(of: expectation, .request)
        case .cancel:
            if let problem = endedSubscription(of: expectation, .cancel) { return problem }
            expectation.chain.withLock { $0.cancelled = true }
            expectation.recorder.cancel()
            return nil
        case .ignoreRest:
            expectation.chain.withLock { $0.ignoresRest = true }
            return nil
        }
    }

    /// Why there is no live subscription for `action` — the publisher had already finished, say — or nil when there
    /// is one.
    private func endedSubscription(
        of expectation: PublisherExpectation<Output, Failure>, _ action: ActionProblem.Action
    ) -> ActionProblem? {
        let recorder = expectation.recorder
        let (subscribed, cancelled, live) = recorder.state.withLock { state in
            (state.subscribed, state.cancelled, state.subscription != nil)
        }
        if !subscribed { return .neverSubscribed(action) }
        if cancelled { return .alreadyCancelled(action) }
        if live { return nil }
        let completion = recorder.events.first { event in
            if case .completion = event.event, event.violation == nil { true } else { false }
        }
        guard let completion, case let .completion(how) = completion.event else { return .alreadyEnded(action) }
        return .completed(Received(how), time: completion.time, action)
    }
}
