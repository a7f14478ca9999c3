import CadenceSupport

extension PublisherExpectation {
    /// Ends the chain: reports its failure, or the events no step consumed, and watches for events that arrive later.
    ///
    /// After `thenIgnoreRest()` the events no step consumed are let go, except those that broke the subscription
    /// contract: they are reported.
    ///
    /// The subscription ends as soon as nothing more can be learnt from it: at once when the chain failed, reported
    /// events no step consumed, or said `thenIgnoreRest()`; else when the scope that catches late events finishes
    /// (the `.virtualTime` trait's test, `withVirtualTime`, an XCTest test case's teardown). Outside such a scope it
    /// stays, to catch a late event.
    func endChain() {
        if passedWithNothingToWatch() { return }
        let (chain, steps) = chainState()
        let snapshot = ChainSnapshot(expectation: self, chain: chain, steps: steps)
        if let failure = chain.failure {
            reporter.report(
                snapshot.message(failure: failure, events: snapshot.shown(recorder.events))
                    .failure(at: steps[failure.step].location, expectLine: location.line)
            )
            recorder.cancel()
            return
        }
        let events = snapshot.shown(recorder.events)
        let extras = Array(snapshot.unconsumed(in: events))
        if chain.ignoresRest {
            // Ignoring the rest of a stream is not ignoring a broken publisher: its contract breaks are still reported.
            recorder.cancel()
            let breaks = extras.filter { events[$0].violation != nil }
            guard !breaks.isEmpty else { return }
            reporter.report(
                snapshot.message(
                    headline: ChainText.brokenContract(
                        expectCall: snapshot.expectCall, events: breaks.map { ContractBreak(events[$0]) }
                    ),
                    events: events, extras: breaks
                ).failure(at: location, expectLine: location.line)
            )
            return
        }
        if !recorder.hasSubscribed {
            // Nothing was checked; what the publisher does later is not worth a second failure.
            reporter.report(
                snapshot.message(
                    headline: ChainText.neverSubscribed(expectCall: snapshot.expectCall),
                    events: events, extras: extras
                ).failure(at: location, expectLine: location.line)
            )
            recorder.cancel() // a subscription that comes later is cancelled at once
            return
        }
        if !extras.isEmpty {
            reporter.report(
                snapshot.message(
                    headline: ChainText.unexpected(
                        expectCall: snapshot.expectCall, events: extras.map { ContractBreak(events[$0]) }
                    ),
                    events: events, extras: extras
                ).failure(at: location, expectLine: location.line)
            )
            recorder.cancel()
            return
        }
        // A recorder that has completed and that nothing but this chain holds can receive nothing more: there is
        // no late event to watch for.
        if recorder.hasCompleted, isKnownUniquelyReferenced(&recorder) { return }
        watchForLateEvents(after: events.count, snapshot: snapshot)
    }

    /// Whether the chain passed and has nothing left to do at its end: no step failed, it did not say
    /// `thenIgnoreRest()`, its steps consumed every event worth reporting, and the publisher completed and let its
    /// subscriber go, so no late event can come. The common end of a passing chain, decided without reading the events
    /// or the steps (and so without their generic metadata); whatever else ends the chain takes the full path below,
    /// which decides the same for such a chain.
    private func passedWithNothingToWatch() -> Bool {
        let (passed, consumedBy) = chain.withLock { chain in
            (!chain.hasFailed && !chain.ignoresRest, chain.consumedBy)
        }
        guard passed, recorder.hasCompleted(consumingAllBut: consumedBy) else { return false }
        return isKnownUniquelyReferenced(&recorder)
    }

    /// Reports events that arrive after the chain ended: the first at once, with any that came with it — or, inside
    /// an ``ExpectationScope``, all of them together when the scope finishes.
    ///
    /// A chain on an `@Observable` property (``finishesOnRelease``) lets go of a `finished` that arrives after the
    /// scope's test body returned: the release of the object at the end of the test, which no step asked about. One
    /// that arrives while the body runs is reported like any late event. Outside a scope, where the body's return
    /// cannot be told, every `finished` after the chain's end is let go.
    private func watchForLateEvents(after count: Int, snapshot: ChainSnapshot<Output, Failure>) {
        let reporter = reporter
        let location = location
        /// How many events the recorder held when the test's body returned, once the scope has said so — for a chain
        /// whose publisher finishes when its object is released; nil otherwise.
        let heldAtBodyReturn = Locked<Int?>(nil)
        /// Reports the events from index `first` on, if any is worth reporting; returns whether it reported.
        let reportLate: @Sendable (EventRecorder<Output, Failure>, Int) -> Bool = { recorder, first in
            let events = snapshot.shown(recorder.events)
            let afterBody = heldAtBodyReturn.withLock { $0 } ?? Int.max
            let late = Array(first..<events.count).filter {
                guard events[$0].violation == nil else { return true }
                if case .subscription = events[$0].event { return false }
                // The object's release once the test is over: not an event of the test.
                return !($0 >= afterBody && events[$0].kind == .finished)
            }
            guard !late.isEmpty else { return false }
            reporter.report(
                snapshot.message(
                    headline: ChainText.late(
                        expectCall: snapshot.expectCall, events: late.map { ContractBreak(events[$0]) }
                    ),
                    events: events, extras: late
                ).failure(at: location, expectLine: location.line)
            )
            return true
        }
        let reported = Locked(false)
        /// Reports once: claims the report, and gives the claim back when there was nothing to report.
        let reportOnce: @Sendable (EventRecorder<Output, Failure>, Int) -> Void = { recorder, first in
            guard
                reported.withLock({ reported in
                    defer { reported = true }
                    return !reported
                })
            else { return }
            if !reportLate(recorder, first) { reported.withLock { $0 = false } }
        }
        /// Reports the first event from index `count` on as it arrives, and any that came before it.
        let watch: @Sendable (EventRecorder<Output, Failure>) -> Void = { recorder in
            recorder.observe { [weak recorder] index in
                guard index >= count, let recorder else { return }
                reportOnce(recorder, count)
            }
            // An event may have arrived between reading the events and installing the observer.
            if recorder.eventCount > count { reportOnce(recorder, count) }
        }
        // The scope keeps the recorder until it finishes, so events that arrive before then are not lost even if
        // the publisher lets its subscriber go.
        let recorder = recorder
        let noteBodyReturn: (@Sendable () -> Void)? =
            finishesOnRelease ? { @Sendable in heldAtBodyReturn.withLock { $0 = recorder.eventCount } } : nil
        if let scope,
            scope.register(
                {
                    reportOnce(recorder, count)
                    recorder.cancel()
                    // A publisher may still send after the cancellation (rule 1.8); an XCTest test case's scope hears it.
                    if scope.watchesAfterFinishing { watch(recorder) }
                }, atBodyReturn: noteBodyReturn)
        {
            return
        }
        // Outside a scope nothing says when the test's body returns (Swift Testing has no hook for it without a trait),
        // and a release read on the main queue arrives whenever that queue next runs: for a chain on an `@Observable`
        // property, every `finished` after its end is let go as the object's release.
        if finishesOnRelease { heldAtBodyReturn.withLock { $0 = count } }
        // A late event may come on any thread.
        reporter.startRelay()
        watch(recorder)
    }
}

/// What a chain's messages need, taken when the chain ends, so a late event can be reported after the expectation
/// is gone.
struct ChainSnapshot<Output, Failure: Error>: @unchecked Sendable {
    // Immutable after the chain ends; the steps' message closures read only the values the steps were written with
    // (and a window step's start, behind its own lock).
    /// The publisher's type; named only when a message is built (naming a type costs more than a passing chain).
    let publisherType: Any.Type
    /// What the test called the chain, if anything.
    let label: String?
    let steps: [ChainStep<Output, Failure>]
    let consumedBy: ConsumedEvents
    let showsTime: Bool
    /// Whether the chain has a virtual clock but was checked with wall-clock steps: its messages then show the
    /// events' wall-clock times, as its steps judged them, not the ticks of a clock nobody ran.
    let timesOnWallClock: Bool

    init(
        expectation: PublisherExpectation<Output, Failure>,
        chain: ChainState,
        steps: [ChainStep<Output, Failure>]
    ) {
        publisherType = expectation.publisherType
        label = expectation.label
        self.steps = steps
        consumedBy = chain.consumedBy
        showsTime = expectation.clock != nil || chain.usesWallClock
        timesOnWallClock =
            expectation.clock != nil && chain.usesWallClock
            && (chain.failure == nil || chain.failedOnWallClock)
    }

    /// The events as the chain's messages show them: at their wall-clock times when ``timesOnWallClock``.
    func shown(_ events: [TimedEvent<Output, Failure>]) -> [TimedEvent<Output, Failure>] {
        timesOnWallClock ? events.map(\.onWallClock) : events
    }

    /// The indices of the events no step consumed (subscriptions that kept the contract excepted) — before the
    /// cursor too, where the steps skipped a second subscription.
    func unconsumed(in events: [TimedEvent<Output, Failure>]) -> [Int] {
        // A loop, not `filter`: a closure over the events would look up their generic metadata once per event.
        var indices: [Int] = []
        for index in events.indices where consumedBy[index] == nil {
            if events[index].kind == .subscription, events[index].violation == nil { continue }
            indices.append(index)
        }
        return indices
    }
}
