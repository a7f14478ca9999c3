import CadenceSupport

/// Every sentence of an ``expectInOrder(_:within:fileID:filePath:line:column:)`` failure, and its order and timeline.
enum InOrderText {
    /// `expectInOrder`, or `expectInOrder(within: .seconds(1))` with a budget.
    static func call(_ budget: Duration?) -> String {
        "expectInOrder" + (budget.map { "(" + StepText.budget($0, first: true) + ")" } ?? "")
    }

    /// `[results]`, or `expect(PassthroughSubject<Int, Never>)` for a chain without a label.
    static func chainName(of event: OrderedEvent) -> String {
        event.label.map { "[\($0)]" } ?? "expect(\(PublisherName.describe(event.publisherType)))"
    }

    /// `[results] emits 1`, `[results] finishes`.
    static func name(of event: OrderedEvent) -> String {
        let what =
            switch event.kind {
            case let .emits(value): "emits \(value)"
            case .finishes: "finishes"
            case .fails: "fails"
            }
        return chainName(of: event) + " " + what
    }

    /// The whole failure message.
    ///
    /// ```text
    /// expectInOrder failed: [first] emits 1 came at tick 300, before [second] emits 2 at tick 300.
    /// ```
    ///
    /// then, for an event that did not come in order, the events in the order asked, each found one with its tick,
    /// and the chains' timeline.
    static func message(_ failure: InOrderFailure) -> String {
        let call = call(failure.budget)
        switch failure.problem {
        case .tooFewEvents:
            return "\(call) failed: it needs at least two events to order, and was given \(failure.events.count)."
        case .clocksDiffer:
            return "\(call) failed: its chains must share one virtual clock — make them with expect(_:on:) and one "
                + "scheduler, or inside .virtualTime, where they share VirtualClock.current."
        case .negativeBudget:
            return "\(call) failed: the budget is negative."
        case let .notInOrder(found, first, end):
            return notInOrder(failure, call: call, found: found, first: first, end: end)
        }
    }

    /// `within 10 ticks (by tick 10)`, `by tick 4, when the clock had nothing left to run`.
    private static func end(_ end: InOrderFailure.SearchEnd) -> String {
        switch end {
        case let .budget(ticks, deadline):
            "within \(ChainText.count(Int(ticks), "tick")) (by tick \(deadline))"
        case let .idle(tick):
            "by tick \(tick), when the clock had nothing left to run"
        case let .runaway(tick, limit):
            "by tick \(tick), when the clock stopped after \(limit.formatted) actions "
                + "(an endless timer? give a budget with within:)"
        }
    }

    /// Which event did not come after the one before it, the order asked, and the chains' timeline.
    private static func notInOrder(
        _ failure: InOrderFailure, call: String, found: [TimelineStamp], first: TimelineStamp?,
        end: InOrderFailure.SearchEnd
    ) -> String {
        let events = failure.events
        let missing = events[found.count]
        var headline = "\(call) failed: \(name(of: missing)) "
        if let previous = found.last {
            let before = name(of: events[found.count - 1])
            if let first {
                headline += "came at tick \(first.tick), before \(before) at tick \(previous.tick)."
            } else {
                headline += "never came after \(before) at tick \(previous.tick), \(self.end(end))."
            }
        } else {
            headline += "never came, \(self.end(end))."
        }
        var lines = [headline, "", "    expectInOrder("]
        for (index, event) in events.enumerated() {
            let mark = index < found.count ? "✓" : index == found.count ? "✗" : " "
            let at = index < found.count ? "  at tick \(found[index].tick)" : ""
            lines.append("  \(mark)   \(name(of: event))\(at)")
        }
        lines.append("    " + (failure.budget.map { StepText.budget($0, first: true) } ?? "") + ")")
        lines.append("")
        lines.append(contentsOf: timeline(of: events, found: found))
        return lines.joined(separator: "\n")
    }

    /// Every event of the chains, in the order they came, the ones found marked with their place in the order.
    private static func timeline(of events: [OrderedEvent], found: [TimelineStamp]) -> [String] {
        var seen = Set<ObjectIdentifier>()
        var rows: [(stamp: TimelineStamp, chain: String, event: String)] = []
        for event in events where seen.insert(event.chain).inserted {
            let name = chainName(of: event)
            rows += event.rows().map { ($0.stamp, name, $0.event) }
        }
        rows.sort { $0.stamp < $1.stamp }
        let places = Dictionary(found.enumerated().map { ($1, $0 + 1) }, uniquingKeysWith: { first, _ in first })
        let ticks = rows.map { String($0.stamp.tick) }
        let tickWidth = max("tick".count, ticks.map(\.count).max() ?? 0)
        let chainWidth = max("chain".count, rows.map(\.chain.count).max() ?? 0)
        let eventWidth = max("event".count, rows.map(\.event.count).max() ?? 0)
        func line(_ tick: String, _ chain: String, _ event: String, _ place: String) -> String {
            let padded =
                "     " + String(repeating: " ", count: tickWidth - tick.count) + tick + "  "
                + chain + String(repeating: " ", count: chainWidth - chain.count) + "  " + event
            guard !place.isEmpty else { return padded }
            return padded + String(repeating: " ", count: eventWidth - event.count) + "  " + place
        }
        // A long timeline keeps its first and last rows and every row found, and says how many it left out.
        let kept: Set<Int> =
            rows.count <= 40
            ? Set(rows.indices)
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
