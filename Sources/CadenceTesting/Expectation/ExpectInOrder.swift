import CadenceSupport

/// One event of one chain, for ``expectInOrder(_:within:fileID:filePath:line:column:)``: `chain.emits(value)`,
/// `chain.finishes()`, `chain.fails()`.
public struct OrderedEvent: @unchecked Sendable {
    // Immutable. The closures read the chain's recorder, which is thread-safe.
    let clock: VirtualClock?
    /// The chain's recorder, to lay each chain's events out once in the timeline.
    let chain: ObjectIdentifier
    /// `"[results]"`, or `"expect(PassthroughSubject<Int, Never>)"` for a chain without a label.
    let chainName: @Sendable () -> String
    /// `"emits 1"`, `"finishes"`.
    let what: String
    /// The first of the chain's events from `index` on that is this one and comes after `stamp`; how far the
    /// search read; and the first such event at any time.
    let find: @Sendable (_ index: Int, _ stamp: TimelineStamp?)
        -> (found: TimelineStamp?, readTo: Int, first: TimelineStamp?)
    /// The chain's events for the timeline: when each came, and what it was.
    let rows: @Sendable () -> [(stamp: TimelineStamp, event: String)]

    /// `"[results] emits 1"`.
    var name: String { chainName() + " " + what }
}

/// Where an event stands on a virtual clock's timeline: its tick, then the order the clock stamped it in.
struct TimelineStamp: Comparable, Hashable, Sendable {
    let tick: Int64
    let sequence: UInt64

    static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.tick, lhs.sequence) < (rhs.tick, rhs.sequence)
    }
}

extension PublisherExpectation {
    /// The chain's publisher sent `value`, for ``expectInOrder(_:within:fileID:filePath:line:column:)``.
    public func emits(_ value: Output) -> OrderedEvent where Output: Equatable {
        ordered("emits \(ValueText.describe(value))") { event in
            if case let .value(received) = event { received == value } else { false }
        }
    }

    /// The chain's publisher finished, for ``expectInOrder(_:within:fileID:filePath:line:column:)``.
    public func finishes() -> OrderedEvent {
        ordered("finishes") { event in
            if case .completion(.finished) = event { true } else { false }
        }
    }

    /// The chain's publisher failed, with any error, for ``expectInOrder(_:within:fileID:filePath:line:column:)``.
    public func fails() -> OrderedEvent {
        ordered("fails") { event in
            if case .completion(.failure) = event { true } else { false }
        }
    }

    private func ordered(_ what: String, _ matches: @escaping (PublisherEvent<Output, Failure>) -> Bool) -> OrderedEvent {
        let recorder = recorder
        let label = label
        let type = publisherType
        let isIt = UncheckedMatcher(matches: matches)
        return OrderedEvent(
            clock: clock,
            chain: ObjectIdentifier(recorder),
            chainName: { label.map { "[\($0)]" } ?? "expect(\(PublisherName.describe(type)))" },
            what: what,
            find: { index, after in
                let events = recorder.events
                var first: TimelineStamp?
                var index = index
                while index < events.count {
                    let event = events[index]
                    index += 1
                    guard isIt.matches(event.event) else { continue }
                    let stamp = TimelineStamp(tick: event.tick ?? 0, sequence: event.sequence)
                    if first == nil { first = stamp }
                    if after.map({ stamp > $0 }) ?? true { return (stamp, index, first) }
                }
                return (nil, index, first)
            },
            rows: {
                recorder.events.map { event in
                    (TimelineStamp(tick: event.tick ?? 0, sequence: event.sequence), EventText.received(event.event))
                }
            }
        )
    }
}

/// A chain's matcher on its way into an ``OrderedEvent``: it compares the chain's own events with a value the test
/// wrote, and reads nothing else.
private struct UncheckedMatcher<Output, Failure: Error>: @unchecked Sendable {
    let matches: (PublisherEvent<Output, Failure>) -> Bool
}

/// Checks that events of several chains on one virtual clock come in the order given — "this request, then that
/// value" — driving the clock (and the test's tasks) until they have, or the budget runs out:
///
/// ```swift
/// let requests = expect(api.requests, "requests")
/// let results = expect(model.$results, "results")
/// model.query = "c"
/// expectInOrder(requests.emits("c"), results.emits(["cat"]), within: .seconds(1))
/// ```
///
/// Each event must come after the one before it on the clock's timeline (ticks, and within a tick the order the
/// events arrived in); other events may come between them. It checks order only and consumes nothing: the chains'
/// own steps check what each publisher sent, and a chain with no step reports its events when it ends, as always
/// (end it with `thenIgnoreRest()` when the order is all the test asks).
///
/// The chains must share one virtual clock (`expect(_:on:)` with the same scheduler, or `VirtualClock.current`
/// inside `.virtualTime`). Without a budget the clock runs until the events have come or nothing is left to run, at
/// most 1,000,000 actions.
public func expectInOrder(
    _ events: OrderedEvent...,
    within budget: Duration? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) {
    let location = SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    let call = "expectInOrder" + (budget.map { "(" + StepText.budget($0, first: true) + ")" } ?? "")
    var check = InOrderCheck(events: events, budget: budget, call: call)
    guard let message = check.run() else { return }
    FailureReporter.resolved.report(ExpectationFailure(message: message, location: location))
}

/// The run of one ``expectInOrder(_:within:fileID:filePath:line:column:)``: what it found so far, and its message.
private struct InOrderCheck {
    let events: [OrderedEvent]
    let budget: Duration?
    let call: String
    /// Where each event was found, in order (a prefix of `events`: a later event may only come after these).
    var found: [TimelineStamp] = []
    /// How far the search for the next event has read its chain, and the first such event at any time.
    var readTo = 0
    var first: TimelineStamp?

    init(events: [OrderedEvent], budget: Duration?, call: String) {
        self.events = events
        self.budget = budget
        self.call = call
    }

    /// Drives the clock until the events have come in order: nil then, else the failure message.
    mutating func run() -> String? {
        guard events.count >= 2 else {
            return "\(call) failed: it needs at least two events to order, and was given \(events.count)."
        }
        guard let clock = events[0].clock, events.allSatisfy({ $0.clock === clock }) else {
            return "\(call) failed: its chains must share one virtual clock — make them with expect(_:on:) and one "
                + "scheduler, or inside .virtualTime, where they share VirtualClock.current."
        }
        if let budget, budget < .zero {
            return "\(call) failed: the budget is negative."
        }
        let start = clock.now.ticks
        let deadline: Int64? = budget.map { budget in
            let (sum, overflow) = start.addingReportingOverflow(VirtualTicks.count(in: budget))
            return overflow ? .max : sum
        }
        let limit = DrivingLimits.stepActions
        var actionsRun = 0
        while true {
            clock.runReadyTasks(origin: call)
            if findNext() { return nil }
            let next = clock.nextDueTick
            guard let next, deadline.map({ next <= $0 }) ?? true else {
                if let deadline { _ = clock.runActions(through: deadline, limit: 0) }
                let end = deadline.map { "within \(ChainText.count(Int($0 - start), "tick")) (by tick \($0))" }
                    ?? "by tick \(clock.now.ticks), when the clock had nothing left to run"
                return message(end)
            }
            let (ran, stopped) = clock.runActions(through: next, limit: limit - actionsRun)
            actionsRun += ran
            if stopped || actionsRun >= limit {
                clock.runReadyTasks(origin: call)
                if findNext() { return nil }
                return message("by tick \(clock.now.ticks), when the clock stopped after \(limit.formatted) actions "
                    + "(an endless timer? give a budget with within:)")
            }
        }
    }

    /// Finds the events that have come, in order, from where the last search stopped; true once all have.
    private mutating func findNext() -> Bool {
        while found.count < events.count {
            let result = events[found.count].find(readTo, found.last)
            readTo = result.readTo
            if first == nil { first = result.first }
            guard let stamp = result.found else { return false }
            found.append(stamp)
            readTo = 0
            first = nil
        }
        return true
    }

    /// The failure: which event did not come after the one before it, and the chains' timeline.
    private func message(_ end: String) -> String {
        let missing = events[found.count]
        var headline = "\(call) failed: \(missing.name) "
        if let previous = found.last {
            let before = events[found.count - 1].name
            if let first {
                headline += "came at tick \(first.tick), before \(before) at tick \(previous.tick)."
            } else {
                headline += "never came after \(before) at tick \(previous.tick), \(end)."
            }
        } else {
            headline += "never came, \(end)."
        }
        var lines = [headline, "", "    expectInOrder("]
        for (index, event) in events.enumerated() {
            let mark = index < found.count ? "✓" : index == found.count ? "✗" : " "
            let at = index < found.count ? "  at tick \(found[index].tick)" : ""
            lines.append("  \(mark)   \(event.name)\(at)")
        }
        lines.append("    " + (budget.map { StepText.budget($0, first: true) } ?? "") + ")")
        lines.append("")
        lines.append(contentsOf: timeline())
        return lines.joined(separator: "\n")
    }

    /// Every event of the chains, in the order they came, the ones found marked with their place in the order.
    private func timeline() -> [String] {
        var seen = Set<ObjectIdentifier>()
        var rows: [(stamp: TimelineStamp, chain: String, event: String)] = []
        for event in events where seen.insert(event.chain).inserted {
            let name = event.chainName()
            rows += event.rows().map { ($0.stamp, name, $0.event) }
        }
        rows.sort { $0.stamp < $1.stamp }
        let places = Dictionary(found.enumerated().map { ($1, $0 + 1) }, uniquingKeysWith: { first, _ in first })
        let ticks = rows.map { String($0.stamp.tick) }
        let tickWidth = max("tick".count, ticks.map(\.count).max() ?? 0)
        let chainWidth = max("chain".count, rows.map(\.chain.count).max() ?? 0)
        let eventWidth = max("event".count, rows.map(\.event.count).max() ?? 0)
        func line(_ tick: String, _ chain: String, _ event: String, _ place: String) -> String {
            let padded = "     " + String(repeating: " ", count: tickWidth - tick.count) + tick + "  "
                + chain + String(repeating: " ", count: chainWidth - chain.count) + "  " + event
            guard !place.isEmpty else { return padded }
            return padded + String(repeating: " ", count: eventWidth - event.count) + "  " + place
        }
        // A long timeline keeps its first and last rows and every row found, and says how many it left out.
        let kept: Set<Int> = rows.count <= 40 ? Set(rows.indices)
            : Set(rows.indices.prefix(10)).union(rows.indices.suffix(29))
                .union(rows.indices.filter { places[rows[$0].stamp] != nil })
        var lines = [line("tick", "chain", "event", "")]
        var left = 0
        for index in rows.indices {
            guard kept.contains(index) else {
                left += 1
                continue
            }
            if left > 0 {
                lines.append("     … \(ChainText.count(left, "event")) left out")
                left = 0
            }
            let row = rows[index]
            lines.append(line(ticks[index], row.chain, row.event, places[row.stamp].map { "← \($0)" } ?? ""))
        }
        return lines
    }
}
