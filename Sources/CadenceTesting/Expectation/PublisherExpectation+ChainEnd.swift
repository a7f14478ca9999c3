import CadenceSupport

extension PublisherExpectation {
    /// Ends the chain: reports its failure, or the events no step consumed, and watches for events that arrive later.
    func endChain() {
        let (chain, steps) = chainState()
        let snapshot = ChainSnapshot(expectation: self, chain: chain, steps: steps)
        if let failure = chain.failure {
            reporter.report(ExpectationFailure(
                message: snapshot.message(failure: failure, events: recorder.events),
                location: steps[failure.step].location
            ))
            return
        }
        if chain.ignoresRest { return }
        let events = recorder.events
        let extras = Array(snapshot.unconsumed(in: events))
        if !recorder.hasSubscribed {
            // Nothing was checked; what the publisher does later is not worth a second failure.
            reporter.report(ExpectationFailure(
                message: snapshot.message(
                    headline: "\(snapshot.expectCall) failed: the publisher never sent a subscription, so nothing "
                        + "could be checked.",
                    events: events, extras: extras
                ),
                location: location
            ))
            return
        }
        if !extras.isEmpty {
            reporter.report(ExpectationFailure(
                message: snapshot.message(
                    headline: "\(snapshot.expectCall) received \(Self.count(extras.count, "event")) no step "
                        + "expected: \(Self.list(extras, in: events)).",
                    events: events, extras: extras
                ),
                location: location
            ))
            return
        }
        watchForLateEvents(after: events.count, snapshot: snapshot)
    }

    /// Reports events that arrive after the chain ended: the first at once, with any that came with it — or, inside
    /// an ``ExpectationScope``, all of them together when the scope finishes.
    private func watchForLateEvents(after count: Int, snapshot: ChainSnapshot<Output, Failure>) {
        let reporter = reporter
        let location = location
        /// Reports the events from index `first` on, if any is worth reporting; returns whether it reported.
        let reportLate: @Sendable (EventRecorder<Output, Failure>, Int) -> Bool = { recorder, first in
            let events = recorder.events
            let late = Array(first ..< events.count).filter {
                if case .subscription = events[$0].event, events[$0].violation == nil { false } else { true }
            }
            guard !late.isEmpty else { return false }
            reporter.report(ExpectationFailure(
                message: snapshot.message(
                    headline: "\(snapshot.expectCall) received \(Self.count(late.count, "event")) after its chain "
                        + "had ended: \(Self.list(late, in: events)).",
                    events: events, extras: late
                ),
                location: location
            ))
            return true
        }
        // The scope keeps the recorder until it finishes, so events that arrive before then are not lost even if
        // the publisher lets its subscriber go.
        let recorder = recorder
        if let scope, scope.register({ _ = reportLate(recorder, count) }) { return }
        let reported = Locked(false)
        /// Reports once: claims the report, and gives the claim back when there was nothing to report.
        let reportOnce: @Sendable (EventRecorder<Output, Failure>, Int) -> Void = { recorder, first in
            guard reported.withLock({ reported in defer { reported = true }; return !reported }) else { return }
            if !reportLate(recorder, first) { reported.withLock { $0 = false } }
        }
        recorder.observe { [weak recorder] index in
            guard index >= count, let recorder else { return }
            reportOnce(recorder, count)
        }
        // An event may have arrived between reading the events and installing the observer.
        if recorder.eventCount > count { reportOnce(recorder, count) }
    }

    /// `"1 event"`, `"2 events"`.
    static func count(_ count: Int, _ noun: String) -> String {
        count == 1 ? "1 \(noun)" : "\(count) \(noun)s"
    }

    /// `"4 at tick 3, finished at tick 3"` — the first three, then `", and 2 more"`.
    static func list(_ indices: [Int], in events: [TimedEvent<Output, Failure>]) -> String {
        let shown = indices.prefix(3).map { index in
            let event = events[index]
            if event.violation != nil { return describe(violation: event) }
            return EventText.received(event.event) + at(event.time)
        }
        let more = indices.count > 3 ? ", and \(indices.count - 3) more" : ""
        return shown.joined(separator: ", ") + more
    }
}

/// What a chain's messages need, taken when the chain ends, so a late event can be reported after the expectation
/// is gone.
struct ChainSnapshot<Output, Failure: Error>: @unchecked Sendable {
    // Immutable after the chain ends; the steps' message closures read only the values the steps were written with
    // (and a window step's start, behind its own lock).
    /// The publisher's type; named only when a message is built (naming a type costs more than a passing chain).
    let publisherType: Any.Type
    let steps: [ExpectationStep<Output, Failure>]
    let consumedBy: ConsumedEvents
    let showsTime: Bool

    init(
        expectation: PublisherExpectation<Output, Failure>,
        chain: ChainState,
        steps: [ExpectationStep<Output, Failure>]
    ) {
        publisherType = expectation.publisherType
        self.steps = steps
        consumedBy = chain.consumedBy
        showsTime = expectation.clock != nil || chain.usesWallClock
    }

    /// `"expect(PassthroughSubject<Int, Never>)"`.
    var expectCall: String { "expect(\(PublisherName.describe(publisherType)))" }

    /// The indices of the events no step consumed (subscriptions that kept the contract excepted) — before the
    /// cursor too, where the steps skipped a second subscription.
    func unconsumed(in events: [TimedEvent<Output, Failure>]) -> [Int] {
        // A loop, not `filter`: a closure over the events would look up their generic metadata once per event.
        var indices: [Int] = []
        for index in events.indices where consumedBy[index] == nil {
            if case .subscription = events[index].event, events[index].violation == nil { continue }
            indices.append(index)
        }
        return indices
    }

    /// The message for a failed step.
    func message(failure: ChainFailure, events: [TimedEvent<Output, Failure>]) -> String {
        var rows = baseRows(events: events, extras: [])
        let step = steps[failure.step]
        if let index = failure.event {
            rows[index].expected = failure.expected
            rows[index].step = step.call()
            rows[index].marked = true
        } else {
            let missing = FailureMessage.Row(
                time: showsTime ? failure.gaveUpAt : nil, received: "(nothing)", expected: failure.expected,
                step: step.call(), marked: true
            )
            let position = rows.firstIndex { row in
                guard let time = row.time, let gaveUp = failure.gaveUpAt else { return false }
                return Self.isLater(time, than: gaveUp)
            }
            rows.insert(missing, at: position ?? rows.endIndex)
        }
        let valueDifference = failure.difference.flatMap {
            ValueText.difference(expected: $0.expected, received: $0.received)
        }
        let blocks = [failure.detail, valueDifference].compactMap { $0 }
        let difference = blocks.isEmpty ? nil : blocks.joined(separator: "\n\n")
        return FailureMessage(
            headline: "\(step.call()) failed: \(failure.reason).", expectCall: expectCall,
            calls: steps.map { $0.call() }, failedStep: failure.step, checkedSteps: failure.step + 1, rows: rows,
            showsTime: showsTime, difference: difference
        ).text
    }

    /// A message with `headline` whose timeline marks `extras` as events no step expected.
    func message(headline: String, events: [TimedEvent<Output, Failure>], extras: [Int]) -> String {
        FailureMessage(
            headline: headline, expectCall: expectCall, calls: steps.map { $0.call() }, failedStep: nil,
            checkedSteps: steps.count, rows: baseRows(events: events, extras: extras), showsTime: showsTime,
            difference: nil
        ).text
    }

    /// One row per event: what it was, and what the step that consumed it expected.
    private func baseRows(events: [TimedEvent<Output, Failure>], extras: [Int]) -> [FailureMessage.Row] {
        var positions: [Int: (index: Int, count: Int)] = [:]
        var byStep: [Int: [Int]] = [:]
        for (event, step) in consumedBy.pairs { byStep[step, default: []].append(event) }
        for (_, indices) in byStep {
            for (offset, event) in indices.sorted().enumerated() { positions[event] = (offset, indices.count) }
        }
        let extraSet = Set(extras)
        return events.indices.map { index in
            let event = events[index]
            var received = EventText.received(event.event)
            if event.violation != nil { received += " (contract broken)" }
            var row = FailureMessage.Row(
                time: showsTime ? event.time : nil, received: received, expected: "", step: "", marked: false
            )
            if let step = consumedBy[index], let position = positions[index] {
                row.expected = steps[step].expectation(position.index, position.count)
                row.step = steps[step].call()
            } else if extraSet.contains(index) {
                row.expected = "(no step)"
                row.marked = index == extras.first
            }
            return row
        }
    }

    private static func isLater(_ time: EventTime, than other: EventTime) -> Bool {
        switch (time, other) {
        case let (.tick(a), .tick(b)): a > b
        case let (.elapsed(a), .elapsed(b)): a > b
        default: false
        }
    }
}
