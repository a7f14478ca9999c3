import CadenceSupport

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
        ordered(.emits(ValueText.describe(value))) { event in
            if case let .value(received) = event { received == value } else { false }
        }
    }

    /// The chain's publisher finished, for ``expectInOrder(_:within:fileID:filePath:line:column:)``.
    public func finishes() -> OrderedEvent {
        ordered(.finishes) { event in
            if case .completion(.finished) = event { true } else { false }
        }
    }

    /// The chain's publisher failed, with any error, for ``expectInOrder(_:within:fileID:filePath:line:column:)``.
    public func fails() -> OrderedEvent {
        ordered(.fails) { event in
            if case .completion(.failure) = event { true } else { false }
        }
    }

    private func ordered(
        _ kind: OrderedEvent.Kind, _ matches: @escaping (PublisherEvent<Output, Failure>) -> Bool
    ) -> OrderedEvent {
        let recorder = recorder
        let isIt = UncheckedMatcher(matches: matches)
        return OrderedEvent(
            clock: clock,
            chain: ObjectIdentifier(recorder),
            label: label,
            publisherType: publisherType,
            kind: kind,
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
    var check = InOrderCheck(events: events, budget: budget)
    guard let failure = check.run() else { return }
    FailureReporter.resolved.report(ExpectationFailure(message: InOrderText.message(failure), location: location))
}

/// Why an ``expectInOrder(_:within:fileID:filePath:line:column:)`` failed; `InOrderText` writes it.
struct InOrderFailure {
    /// The events the call was given, and its budget.
    let events: [OrderedEvent]
    let budget: Duration?
    let problem: Problem

    enum Problem {
        /// Fewer than two events.
        case tooFewEvents
        /// The chains are not on one virtual clock.
        case clocksDiffer
        case negativeBudget
        /// `events[found.count]` did not come in order: `first` is where it came before the event before it, if it
        /// came at all; `end` says why the search stopped.
        case notInOrder(found: [TimelineStamp], first: TimelineStamp?, end: SearchEnd)
    }

    /// Why the search for an event stopped.
    enum SearchEnd {
        /// The budget of `ticks` ran out at tick `deadline`.
        case budget(ticks: Int64, deadline: Int64)
        /// The clock had nothing left to run at tick `tick`.
        case idle(tick: Int64)
        /// The clock stopped at tick `tick` after `limit` actions.
        case runaway(tick: Int64, limit: Int)
    }
}

/// The run of one ``expectInOrder(_:within:fileID:filePath:line:column:)``: what it found so far, and why it failed.
private struct InOrderCheck {
    let events: [OrderedEvent]
    let budget: Duration?
    /// Where each event was found, in order (a prefix of `events`: a later event may only come after these).
    var found: [TimelineStamp] = []
    /// How far the search for the next event has read its chain, and the first such event at any time.
    var readTo = 0
    var first: TimelineStamp?

    init(events: [OrderedEvent], budget: Duration?) {
        self.events = events
        self.budget = budget
    }

    /// Drives the clock until the events have come in order: nil then, else why not.
    mutating func run() -> InOrderFailure? {
        guard events.count >= 2 else { return failure(.tooFewEvents) }
        guard let clock = events[0].clock, events.allSatisfy({ $0.clock === clock }) else {
            return failure(.clocksDiffer)
        }
        if let budget, budget < .zero { return failure(.negativeBudget) }
        let call = InOrderText.call(budget)
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
                let end: InOrderFailure.SearchEnd =
                    deadline.map { .budget(ticks: $0 - start, deadline: $0) }
                    ?? .idle(tick: clock.now.ticks)
                return notInOrder(end)
            }
            let (ran, stopped) = clock.runActions(through: next, limit: limit - actionsRun)
            actionsRun += ran
            if stopped || actionsRun >= limit {
                clock.runReadyTasks(origin: call)
                if findNext() { return nil }
                return notInOrder(.runaway(tick: clock.now.ticks, limit: limit))
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

    private func failure(_ problem: InOrderFailure.Problem) -> InOrderFailure {
        InOrderFailure(events: events, budget: budget, problem: problem)
    }

    /// The failure: which event did not come after the one before it, and why the search stopped.
    private func notInOrder(_ end: InOrderFailure.SearchEnd) -> InOrderFailure {
        failure(.notInOrder(found: found, first: first, end: end))
    }
}
