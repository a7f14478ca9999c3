extension PublisherExpectation where Output: Equatable {
    /// Expects the next events to follow the marble diagram `marbles` tick for tick, counted from the tick the step
    /// starts on: every value, the completion, and when each arrives.
    ///
    /// ```swift
    /// expect(ticker).toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3])
    /// ```
    ///
    /// Each character is one tick — `-` a tick with no event, a key a tick with that key's value, `|` finished, `#`
    /// failed — and a group `( … )` is one tick with several events in order; spaces are ignored. Here `1` must
    /// arrive at tick 1, `2` at tick 3, `3` and the completion at tick 5, and nothing else in between. A diagram
    /// without `|` or `#` also expects nothing else up to its last tick (`"-a--"`: nothing on ticks 2 and 3), and
    /// the chain may go on after it. A failure shows both diagrams, tick under tick:
    ///
    /// ```text
    /// toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3]) failed: b (2) was expected at tick 3 but arrived 1 tick late at tick 4.
    /// …
    ///     expected  -a-b-(c|)
    ///     received  -a--b
    ///                  ^ tick 3
    /// ```
    ///
    /// - Parameters:
    ///   - marbles: The diagram; its first character is the tick the step starts on.
    ///   - values: The value of each key the diagram uses.
    ///   - budget: How long the step watches, when longer than the diagram: nothing the diagram does not show may
    ///     arrive before it runs out. By default the diagram's length.
    @discardableResult
    public func toMatch(
        _ marbles: String,
        values: [Character: Output] = [:],
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        match(
            marbles, values: values, error: nil, name: "toMatch", budget: budget,
            at: SourceCodeLocation(
                fileID: fileID, filePath: filePath, line: line, column: column
            ))
    }

    /// Expects the next events to follow the marble diagram `marbles`; reads as the step after another (see
    /// `toMatch(_:values:within:)`).
    @discardableResult
    public func thenMatch(
        _ marbles: String,
        values: [Character: Output] = [:],
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        match(
            marbles, values: values, error: nil, name: "thenMatch", budget: budget,
            at: SourceCodeLocation(
                fileID: fileID, filePath: filePath, line: line, column: column
            ))
    }

    /// Checks a `toMatch` or `thenMatch` call's input and performs its step.
    func match(
        _ marbles: String,
        values: [Character: Output],
        error: MarbleFailure<Failure>?,
        name: String,
        budget: Duration?,
        at location: SourceCodeLocation
    ) -> Self {
        let arguments = StepArguments.marbles(
            marbles, values: values.keys.sorted().map { ($0, values[$0]! as Any) }, error: error.map { $0.error }
        )
        let rejected = { (problem: StepProblem) -> Self in
            self.reject(
                ChainStep(
                    RejectedStep<Output, Failure>(arguments: arguments), name: name, timing: .within(budget),
                    window: budget, location: location
                ), problem)
            return self
        }
        let diagram: MarbleDiagram
        do {
            diagram = try MarbleDiagram(parsing: marbles)
        } catch {
            return rejected(.marbleSyntax(error))
        }
        if let problem = Self.problem(diagram: diagram, values: values, error: error, budget: budget, clock: clock) {
            return rejected(problem)
        }
        let window = clock == nil ? nil : budget ?? .ticks(diagram.lastTick)
        perform(
            ChainStep(
                MatchStep<Output, Failure>(
                    diagram: diagram, values: values, error: error, origin: clock?.now.ticks ?? 0, arguments: arguments
                ),
                name: name, timing: .within(budget), window: window, location: location
            ))
        return self
    }

    /// What is wrong with a valid diagram's values, error, budget or clock, if anything.
    private static func problem(
        diagram: MarbleDiagram,
        values: [Character: Output],
        error: MarbleFailure<Failure>?,
        budget: Duration?,
        clock: VirtualClock?
    ) -> StepProblem? {
        if let key = values.keys.sorted().first(where: MarbleDiagram.syntax.contains) {
            return .marbleSyntaxKey(key)
        }
        if let unknown = diagram.keyPositions.first(where: { values[$0.key] == nil }) {
            return .undefinedMarbleKey(unknown.key, position: unknown.position, defined: values.keys.sorted())
        }
        if error != nil, !diagram.fails { return .unusedMarbleError }
        if let problem = StepTiming.within(budget).problem { return problem }
        if let budget, clock != nil, VirtualTicks.count(in: budget) < Int64(diagram.lastTick) {
            return .budgetShorterThanDiagram(budget, lastTick: diagram.lastTick)
        }
        if clock == nil, diagram.lastTick > 0 { return .diagramWithoutClock(lastTick: diagram.lastTick) }
        return nil
    }
}

extension PublisherExpectation where Output: Equatable, Failure: Equatable {
    /// Expects the next events to follow the marble diagram `marbles`, whose `#` is a failure with `error`.
    ///
    /// ```swift
    /// expect(repository.load()).toMatch("--#", error: APIError.offline)
    /// ```
    ///
    /// See `toMatch(_:values:within:)` for the diagram's syntax.
    @discardableResult
    public func toMatch(
        _ marbles: String,
        values: [Character: Output] = [:],
        error: Failure,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        match(
            marbles, values: values, error: MarbleFailure(error), name: "toMatch", budget: budget,
            at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }

    /// Expects the next events to follow the marble diagram `marbles`, whose `#` is a failure with `error`; reads as
    /// the step after another.
    @discardableResult
    public func thenMatch(
        _ marbles: String,
        values: [Character: Output] = [:],
        error: Failure,
        within budget: Duration? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) -> Self {
        match(
            marbles, values: values, error: MarbleFailure(error), name: "thenMatch", budget: budget,
            at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column))
    }
}

/// The failure a diagram's `#` stands for, when the step names one.
struct MarbleFailure<Failure: Error> {
    /// The expected error.
    let error: Failure
    /// Whether a received error is the expected one.
    let matches: (Failure) -> Bool

    init(_ error: Failure) where Failure: Equatable {
        self.error = error
        matches = { $0 == error }
    }
}

// MARK: - The step

/// The step of `toMatch`: the events of a marble diagram, each at its tick counted from `origin` (the clock's tick
/// when the step starts), over a window at least as long as the diagram (nil with no clock).
///
/// It fails at the first event that does not fit — the wrong event, the right one at the wrong tick, one the diagram
/// does not show — or, once the window has passed, for the first event that never came. A diagram that ends with `|`
/// or `#` is satisfied by its completion; any other only when its window has passed. Events with no tick (no clock)
/// count as arriving on the diagram's first tick.
struct MatchStep<Output: Equatable, Failure: Error>: ExpectationStep {
    let diagram: MarbleDiagram
    let values: [Character: Output]
    let error: MarbleFailure<Failure>?
    let origin: Int64
    let arguments: StepArguments
    /// The diagram's events, in order, with their ticks and values.
    let events: [(tick: Int64, event: MarbleDiagram.Event, value: Output?)]
    let keys: [Character]

    init(
        diagram: MarbleDiagram,
        values: [Character: Output],
        error: MarbleFailure<Failure>?,
        origin: Int64,
        arguments: StepArguments
    ) {
        self.diagram = diagram
        self.values = values
        self.error = error
        self.origin = origin
        self.arguments = arguments
        events = diagram.events.map { tick, event in
            if case let .value(key) = event { return (Int64(tick), event, values[key]) }
            return (Int64(tick), event, nil)
        }
        keys = values.keys.sorted()
    }

    var kind: StepKind { .window }

    func evaluate(_ received: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool) -> StepOutcome {
        evaluate(received, isFinal: isFinal, known: 0)
    }

    func evaluate(_ received: ArraySlice<TimedEvent<Output, Failure>>, isFinal: Bool, known: Int) -> StepOutcome {
        let count = events.count
        var index = known
        for event in received.dropFirst(known) {
            guard index < count, fits(index, event.event), relativeTick(event) == events[index].tick else {
                return .failed(divergence(at: index, in: received))
            }
            index += 1
        }
        if index < count {
            return isFinal ? .failed(missing(index, after: received)) : .pending
        }
        return diagram.completes || isFinal ? .satisfied(consumed: count) : .pending
    }

    func expectation(at index: Int, of count: Int) -> StepExpectation { .marble(name(expected: index), at: nil) }

    func missing(after consumed: Int) -> StepExpectation {
        guard consumed < events.count else { return .nothing }
        return .marble(name(expected: consumed), at: absolute(events[consumed].tick))
    }

    /// The `index`-th expected event, as data for the messages.
    func name(expected index: Int) -> MarbleEventName {
        let event = events[index]
        switch event.event {
        case let .value(key): return .keyed(key, event.value)
        case .finished: return .finished
        case .failure: return .failure(error.map { $0.error })
        }
    }

    /// A received event, named by its key when `values` names its value.
    func name(received event: PublisherEvent<Output, Failure>, at index: Int) -> MarbleEventName {
        switch event {
        case let .value(value):
            if let key = key(for: value, at: index) { return .keyed(key, value) }
            return .value(value)
        case .completion(.finished): return .finished
        case let .completion(.failure(error)): return .failure(error)
        case .subscription: return .secondSubscription
        }
    }

    /// The key `values` gives `value`: the one the diagram expects at `index` if it fits, else the first in order.
    private func key(for value: Output, at index: Int) -> Character? {
        if index < events.count, case let .value(key) = events[index].event, events[index].value == value { return key }
        return keys.first { values[$0] == value }
    }

    /// The event's tick counted from the diagram's tick 0 (saturating); an event with no tick counts as tick 0.
    func relativeTick(_ event: TimedEvent<Output, Failure>) -> Int64 {
        guard let tick = event.tick else { return 0 }
        let (difference, overflow) = tick.subtractingReportingOverflow(origin)
        return overflow ? (tick > origin ? .max : .min) : difference
    }

    /// The clock's tick for the diagram's tick `relative` (saturating).
    func absolute(_ relative: Int64) -> Int64 {
        let (sum, overflow) = origin.addingReportingOverflow(relative)
        return overflow ? (relative > 0 ? .max : .min) : sum
    }

    /// Why the `index`-th of `received` (the events the step was shown) does not fit.
    func divergence(at index: Int, in received: ArraySlice<TimedEvent<Output, Failure>>) -> StepDivergence {
        let event = received[received.startIndex + index]
        let tick = relativeTick(event)
        let got = name(received: event.event, at: index)
        guard index < events.count else {
            return StepDivergence(
                .marbleUnexpected(got), matched: index, atEvent: true,
                detail: comparison(of: received.prefix(index + 1), through: max(tick, 0), divergence: tick)
            )
        }
        let wanted = events[index]
        let want = name(expected: index)
        let reason: StepReason
        var difference: (expected: Any, received: Any)?
        if fits(index, event.event) {
            let late = tick > wanted.tick
            let (distance, overflow) =
                late
                ? tick.subtractingReportingOverflow(wanted.tick) : wanted.tick.subtractingReportingOverflow(tick)
            reason = .marbleOffTime(want, tick: absolute(wanted.tick), distance: overflow ? .max : distance, late: late)
        } else {
            reason = .marbleInstead(want, tick: absolute(wanted.tick), received: got, early: tick < wanted.tick)
            if let value = wanted.value, case let .value(received) = event.event { difference = (value, received) }
        }
        return StepDivergence(
            reason, matched: index, atEvent: true, difference: difference,
            detail: comparison(
                of: received.prefix(index + 1), through: max(tick, 0), divergence: min(tick, wanted.tick)
            )
        )
    }

    /// The `index`-th expected event, which never arrived after `received`.
    func missing(_ index: Int, after received: ArraySlice<TimedEvent<Output, Failure>>) -> StepDivergence {
        let wanted = events[index]
        let last = received.last.map(relativeTick) ?? 0
        return StepDivergence(
            .marbleMissing(name(expected: index), tick: absolute(wanted.tick)), matched: index, atEvent: false,
            detail: comparison(of: received, through: max(Int64(diagram.lastTick), last), divergence: wanted.tick)
        )
    }

    /// Whether `event` is the `index`-th expected event (its tick aside).
    func fits(_ index: Int, _ event: PublisherEvent<Output, Failure>) -> Bool {
        switch (events[index].event, event) {
        case let (.value, .value(value)): events[index].value == value
        case (.finished, .completion(.finished)): true
        case let (.failure, .completion(.failure(failure))): error?.matches(failure) ?? true
        default: false
        }
    }

    /// Both diagrams: the expected one, and `received` as a diagram through relative tick `through`.
    private func comparison(
        of received: ArraySlice<TimedEvent<Output, Failure>>,
        through: Int64,
        divergence: Int64
    ) -> MarbleComparison {
        var symbols: [Int: [Character]] = [:]
        var legend: [(symbol: Character, value: String)] = []
        var strangers: [(symbol: Character, value: Output)] = []
        for (offset, event) in received.enumerated() {
            let symbol: Character
            switch event.event {
            case .subscription: continue
            case .completion(.finished): symbol = "|"
            case .completion(.failure): symbol = "#"
            case let .value(value):
                if let key = key(for: value, at: offset) {
                    symbol = key
                } else if let known = strangers.first(where: { $0.value == value }) {
                    symbol = known.symbol
                } else {
                    let description = ValueText.describe(value)
                    let taken = { (character: Character) in
                        MarbleDiagram.syntax.contains(character) || values[character] != nil
                            || strangers.contains { $0.symbol == character }
                    }
                    if description.count == 1, let character = description.first, !taken(character) {
                        symbol = character
                    } else {
                        symbol = Self.spareSymbols.first { !taken($0) } ?? "?"
                        legend.append((symbol, description))
                    }
                    strangers.append((symbol, value))
                }
            }
            symbols[Int(clamping: relativeTick(event)), default: []].append(symbol)
        }
        return MarbleComparison(
            expected: diagram, received: symbols, receivedThrough: Int(clamping: through),
            divergence: Int(clamping: divergence), origin: origin, legend: legend
        )
    }

    /// Characters for received values `values` does not name.
    private static var spareSymbols: String { "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789" }
}
