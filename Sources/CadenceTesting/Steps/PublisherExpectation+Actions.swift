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
        let call = { "thenRequest(\(EventText.demand(demand)))" }
        if demand == .none {
            return rejecting(call: call, location: location, problem: .noDemand)
        }
        perform(requestStep(demand, call: call, location: location))
        return self
    }

    /// The action that requests `demand` (more than `.none`) from the subscription.
    func requestStep(
        _ demand: Subscribers.Demand,
        call: @escaping () -> String,
        location: SourceCodeLocation
    ) -> ExpectationStep<Output, Failure> {
        .action(call: call, location: location) { expectation in
            if expectation.recorder.request(demand) { return nil }
            return expectation.endedSubscription(doing: "nothing more can be requested")
        }
    }

    /// Cancels the subscription; consumes no event.
    ///
    /// ```swift
    /// expect(ticker, on: clock).toEmit([1, 2]).thenCancel().thenEmitNothing(for: .seconds(1))
    /// ```
    ///
    /// A publisher that goes on sending after the cancel is reported — by a step that sees the event, or else, as
    /// over-fulfilment, when the chain ends (or, arriving after that, as a late event) unless the chain says
    /// ``thenIgnoreRest(fileID:filePath:line:column:)``:
    ///
    /// ```text
    /// expect(Ticker) received 1 event after its chain had ended: the publisher sent 3 at tick 3 after the subscription was cancelled.
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
        perform(cancelStep(call: { "thenCancel()" }, location: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )))
        return self
    }

    /// The action that cancels the subscription.
    func cancelStep(call: @escaping () -> String, location: SourceCodeLocation) -> ExpectationStep<Output, Failure> {
        .action(call: call, location: location) { expectation in
            if let reason = expectation.endedSubscription(doing: "there was nothing to cancel") { return reason }
            expectation.chain.withLock { $0.cancelled = true }
            expectation.recorder.cancel()
            return nil
        }
    }

    /// Stops checking: events no step consumed, and events that arrive after the chain ended, are not reported.
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
        perform(ignoreRestStep(call: { "thenIgnoreRest()" }, location: SourceCodeLocation(
            fileID: fileID, filePath: filePath, line: line, column: column
        )))
        return self
    }

    /// The action that turns off over-fulfilment and late-event reports for the chain.
    func ignoreRestStep(call: @escaping () -> String, location: SourceCodeLocation) -> ExpectationStep<Output, Failure> {
        .action(call: call, location: location) { expectation in
            expectation.chain.withLock { $0.ignoresRest = true }
            return nil
        }
    }

    /// Why there is no live subscription to act on — `"the publisher had already finished at tick 3, so <outcome>"`
    /// — or nil when there is one.
    func endedSubscription(doing outcome: String) -> String? {
        let (subscribed, cancelled, live) = recorder.state.withLock { state in
            (state.subscribed, state.cancelled, state.subscription != nil)
        }
        if !subscribed { return "the publisher never sent a subscription, so \(outcome)" }
        if cancelled { return "the subscription had already been cancelled, so \(outcome)" }
        if live { return nil }
        let completion = recorder.events.first { event in
            if case .completion = event.event, event.violation == nil { true } else { false }
        }
        guard let completion, case let .completion(how) = completion.event else {
            return "the subscription had already ended, so \(outcome)"
        }
        let ended = switch how {
        case .finished: "finished"
        case let .failure(error): "failed with \(ValueText.describe(error))"
        }
        return "the publisher had already \(ended)\(ChainText.at(completion.time)), so \(outcome)"
    }
}

extension ExpectationStep {
    /// A step that acts on the subscription and consumes nothing; `act` returns why it could not act, if it could not.
    static func action(
        call: @escaping () -> String,
        location: SourceCodeLocation,
        _ act: @escaping (PublisherExpectation<Output, Failure>) -> String?
    ) -> Self {
        ExpectationStep(
            kind: .action,
            call: call,
            location: location,
            evaluate: { _, _ in .satisfied(consumed: 0) },
            expectation: { _, _ in "" },
            missing: { _ in "a live subscription" },
            act: { expectation in
                guard let reason = act(expectation) else { return }
                let index = expectation.lastStepIndex
                expectation.fail(step: index, ChainFailure(
                    step: index, reason: .stated(reason), event: nil, expected: "a live subscription",
                    gaveUpAt: expectation.recorder.now, difference: nil
                ))
            }
        )
    }
}
