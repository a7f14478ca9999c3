import CadenceSupport

extension PublisherExpectation {
    /// Records what the publisher does — until the clock goes idle, or for `budget` — and fails with it written as
    /// steps and as a marble diagram, ready to paste in place of this call, the way snapshot tools record.
    ///
    /// It always fails, so that a recording is not left in by accident. Check what it recorded before pasting it:
    /// a recording says what the code does, not what it should do.
    ///
    /// ```swift
    /// expect(search.results).record()
    /// ```
    ///
    /// ```text
    /// record() failed: it recorded 2 events, written below as steps and as a marble diagram to paste in its place (record() always fails, so that it is not left in).
    /// ```
    ///
    /// - Parameter budget: How long to record; nil to record until the clock has nothing left to run.
    @discardableResult
    public func record(
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        let step = ChainStep(
            RecordStep<Output, Failure>(), name: "record", timing: .within(budget), window: budget, location: location
        )
        if let problem = StepTiming.within(budget).problem {
            reject(step, problem)
            return self
        }
        let start = unconsumed().cursor
        let startTick = clock?.now.ticks ?? 0
        perform(step)
        let index = lastStepIndex
        let (end, failed) = chain.withLock { ($0.cursor, $0.failure != nil) }
        guard !failed else { return self }
        let recorded = Array(recorder.events[start..<end]).filter {
            if case .subscription = $0.event { false } else { true }
        }
        let first = index == 0
        let steps = RecordingText.steps(recorded, from: startTick, first: first)
        fail(
            step: index,
            ChainFailure(
                step: index, reason: .recorded(events: recorded.count), event: nil, expected: .none,
                gaveUpAt: recorder.now, difference: nil,
                note: RecordingText.note(recorded, steps: steps, from: startTick, first: first),
                recordedSteps: steps
            ))
        return self
    }
}

/// The step of `record()`: it takes every event of its window, and settles when nothing more can arrive in it.
struct RecordStep<Output, Failure: Error>: ExpectationStep {
    var kind: StepKind { .window }

    var arguments: StepArguments { .none }

    func evaluate(_ events: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome {
        isFinal ? .satisfied(consumed: events.count) : .pending
    }

    func expectation(at index: Int, of count: Int) -> StepExpectation { .none }

    func missing(after consumed: Int) -> StepExpectation { .none }
}

/// How `record()` writes what it recorded: as steps, and as a marble diagram, each ready to paste.
enum RecordingText {
    /// The block under the timeline, given the events' ``steps(_:from:first:)``.
    static func note<Output, Failure>(
        _ events: [TimedEvent<Output, Failure>], steps: [String], from start: Int64, first: Bool
    ) -> String {
        guard !events.isEmpty else {
            return "Recorded: nothing. The publisher sent no event before the clock went idle; to say so, paste:\n"
                + "    .\(first ? "toEmitNothing" : "thenEmitNothing")(for: <how long>)"
        }
        return "Recorded as steps:\n"
            + steps.map { "    " + $0 }.joined(separator: "\n")
            + "\n\nRecorded as a marble diagram:\n    " + marbles(events, from: start, first: first)
    }

    /// One step for each tick with events: its values, then its completion, each within the ticks since the last.
    static func steps<Output, Failure>(
        _ events: [TimedEvent<Output, Failure>], from start: Int64, first: Bool
    ) -> [String] {
        var lines: [String] = []
        var previous = start
        var values: [Output] = []
        var valuesTick: Int64 = start
        func verb(_ name: String) -> String { (lines.isEmpty && first ? ".to" : ".then") + name }
        func within(_ tick: Int64) -> String {
            defer { previous = tick }
            return "within: .ticks(\(max(0, tick - previous)))"
        }
        func flush() {
            guard !values.isEmpty else { return }
            let list =
                values.count == 1
                ? ValueText.describe(values[0]) : "[" + values.map(ValueText.describe).joined(separator: ", ") + "]"
            lines.append(verb("Emit") + "(\(list), \(within(valuesTick)))")
            values = []
        }
        for event in events {
            let tick = event.tick ?? start
            switch event.event {
            case let .value(value):
                if tick != valuesTick { flush() }
                values.append(value)
                valuesTick = tick
            case .completion(.finished):
                flush()
                lines.append(verb("Finish") + "(\(within(tick)))")
            case let .completion(.failure(error)):
                flush()
                lines.append(verb("Fail") + "(\(within(tick)))  // \(ValueText.describe(error))")
            case .subscription:
                break
            }
        }
        flush()
        return lines
    }

    /// The events as a `toMatch` diagram from `start`: a letter for each distinct value, `|` or `#` for the
    /// completion, a group for a tick with several events, and a time progression for a quiet stretch of more than
    /// ten ticks.
    static func marbles<Output, Failure>(
        _ events: [TimedEvent<Output, Failure>], from start: Int64, first: Bool
    ) -> String {
        var keys: [String: Character] = [:]
        var legend: [(Character, String)] = []
        let symbols = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ")
        var error: String?
        var ticks: [(tick: Int64, symbols: [Character])] = []
        for event in events {
            let tick = event.tick ?? start
            let symbol: Character
            switch event.event {
            case let .value(value):
                let text = ValueText.describe(value)
                if let key = keys[text] {
                    symbol = key
                } else {
                    symbol = legend.count < symbols.count ? symbols[legend.count] : "?"
                    keys[text] = symbol
                    legend.append((symbol, text))
                }
            case .completion(.finished):
                symbol = "|"
            case let .completion(.failure(failure)):
                symbol = "#"
                error = ValueText.describe(failure)
            case .subscription:
                continue
            }
            if let last = ticks.last, last.tick == tick {
                ticks[ticks.count - 1].symbols.append(symbol)
            } else {
                ticks.append((tick, [symbol]))
            }
        }
        var diagram = ""
        var next = start
        for (tick, tickSymbols) in ticks {
            let quiet = tick - next
            if quiet > 10 {
                diagram += (diagram.isEmpty ? "" : " ") + "\(quiet)ms "
            } else if quiet > 0 {
                diagram += String(repeating: "-", count: Int(quiet))
            }
            diagram += MarbleDiagram.text(ofTick: tickSymbols)
            next = tick + 1
        }
        var call = (first ? ".toMatch(" : ".thenMatch(") + ValueText.quoted(diagram)
        if !legend.isEmpty {
            call +=
                ", values: [" + legend.map { "\(ValueText.quoted(String($0.0))): \($0.1)" }.joined(separator: ", ")
                + "]"
        }
        if let error { call += ", error: \(error)" }
        return call + ")"
    }
}
