/// A chain's failure message, laid out: the headline, the chain as written and the timeline of events against what
/// the steps expected (see ``FailureMessage``).
extension ChainSnapshot {
    /// `"expect(PassthroughSubject<Int, Never>)"`, or with its label `"expect(PassthroughSubject<Int, Never>,
    /// \"results\")"`.
    var expectCall: String {
        let publisher = PublisherName.describe(publisherType)
        return "expect(\(publisher)" + (label.map { ", " + ValueText.quoted($0) } ?? "") + ")"
    }

    /// `"[results] "` before a step's headline when the chain has a label; the other headlines begin with
    /// ``expectCall``, which names it.
    var labelPrefix: String { label.map { "[\($0)] " } ?? "" }

    /// The message for a failed step.
    func message(failure: ChainFailure, events: [TimedEvent<Output, Failure>]) -> FailureMessage {
        var rows = baseRows(events: events, extras: [])
        let step = steps[failure.step]
        if let index = failure.event {
            rows[index].expected = StepText.describe(failure.expected)
            rows[index].step = call(step)
            rows[index].marked = true
        } else if case .recorded = failure.reason {
            // `record()` missed nothing: its rows are the events it recorded.
        } else {
            let missing = FailureMessage.Row(
                time: showsTime ? failure.gaveUpAt : nil, received: "(nothing)",
                expected: StepText.describe(failure.expected),
                step: call(step), marked: true
            )
            let position = rows.firstIndex { row in
                guard let time = row.time, let gaveUp = failure.gaveUpAt else { return false }
                return time.isLater(than: gaveUp)
            }
            rows.insert(missing, at: position ?? rows.endIndex)
        }
        let valueDifference = failure.difference.flatMap {
            ValueText.difference(expected: $0.expected, received: $0.received)
        }
        let blocks = [failure.detail?.text, failure.note, valueDifference].compactMap { $0 }
        let difference = blocks.isEmpty ? nil : blocks.joined(separator: "\n\n")
        return FailureMessage(
            headline: "\(labelPrefix)\(call(step)) failed: \(ChainText.reason(failure.reason)).",
            expectCall: expectCall,
            calls: steps.map(call), failedStep: failure.step, checkedSteps: failure.step + 1, rows: rows,
            showsTime: showsTime, difference: difference, recordedSteps: failure.recordedSteps
        )
    }

    /// A message with `headline` whose timeline marks `extras` as events no step expected.
    func message(headline: String, events: [TimedEvent<Output, Failure>], extras: [Int]) -> FailureMessage {
        FailureMessage(
            headline: headline, expectCall: expectCall, calls: steps.map(call), failedStep: nil,
            checkedSteps: steps.count, rows: baseRows(events: events, extras: extras), showsTime: showsTime,
            difference: nil
        )
    }

    /// One row per event: what it was, and what the step that consumed it expected.
    func baseRows(events: [TimedEvent<Output, Failure>], extras: [Int]) -> [FailureMessage.Row] {
        var positions: [Int: (index: Int, count: Int)] = [:]
        var byStep: [Int: [Int]] = [:]
        for (event, step) in consumedBy.pairs { byStep[step, default: []].append(event) }
        for (_, indices) in byStep {
            for (offset, event) in indices.sorted().enumerated() { positions[event] = (offset, indices.count) }
        }
        let extraSet = Set(extras)
        // Each step's call is written once, not once per event it consumed: a call's arguments can be as long as the
        // events are many (`toEmit` of 100,000 values).
        var calls: [Int: String] = [:]
        return events.indices.map { index in
            let event = events[index]
            var received = EventText.received(event.event)
            if event.violation != nil { received += " (contract broken)" }
            var row = FailureMessage.Row(
                time: showsTime ? event.time : nil, received: received, expected: "", step: "", marked: false
            )
            if let step = consumedBy[index], let position = positions[index] {
                row.expected = StepText.describe(steps[step].step.expectation(at: position.index, of: position.count))
                if let written = calls[step] {
                    row.step = written
                } else {
                    row.step = call(steps[step])
                    calls[step] = row.step
                }
            } else if extraSet.contains(index) {
                row.expected = "(no step)"
                row.marked = index == extras.first
            }
            return row
        }
    }

    /// The call as written, without the leading dot: `"toEmit([1, 2, 3], within: .ticks(5))"`.
    func call(_ step: ChainStep<Output, Failure>) -> String {
        StepText.call(step.name, StepText.describe(step.step.arguments), step.timing, writtenAt: step.location)
    }
}
