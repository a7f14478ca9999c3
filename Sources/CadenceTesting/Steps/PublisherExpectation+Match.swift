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
        match(marbles, values: values, error: nil, name: "toMatch", budget: budget, at: SourceCodeLocation(
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
        match(marbles, values: values, error: nil, name: "thenMatch", budget: budget, at: SourceCodeLocation(
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
        let call = { Self.matchCall(name: name, marbles: marbles, values: values, error: error, budget: budget) }
        let diagram: MarbleDiagram
        do {
            diagram = try MarbleDiagram(parsing: marbles)
        } catch {
            return rejecting(call: call, location: location, reason: error.description)
        }
        if let problem = Self.problem(diagram: diagram, values: values, error: error, budget: budget, clock: clock) {
            return rejecting(call: call, location: location, reason: problem)
        }
        let window = clock == nil ? nil : budget ?? .ticks(diagram.lastTick)
        perform(matchStep(
            diagram, values: values, error: error, origin: clock?.now.ticks ?? 0, call: call, window: window,
            location: location
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
    ) -> String? {
        if let key = values.keys.sorted().first(where: MarbleDiagram.syntax.contains) {
            return "values defines \(String(key).debugDescription), which is marble syntax, not a key; keys are the "
                + "characters other than \"-\", \"|\", \"#\", \"(\", \")\" and space"
        }
        if let unknown = diagram.keyPositions.first(where: { values[$0.key] == nil }) {
            let defined = values.keys.sorted().map { String($0).debugDescription }
            let list = switch defined.count {
            case 0: "values is empty"
            case 1: "it defines only \(defined[0])"
            default: "it defines \(defined.dropLast().joined(separator: ", ")) and \(defined.last!)"
            }
            return "the diagram uses \(String(unknown.key).debugDescription) (character \(unknown.position)), which "
                + "values does not define; \(list)"
        }
        if error != nil, !diagram.fails {
            return "error: is given, but the diagram has no \"#\" for it to match"
        }
        if let problem = StepText.problem(with: budget) { return problem }
        if let budget, clock != nil, VirtualTicks.count(in: budget) < Int64(diagram.lastTick) {
            return "its budget (\(VirtualTicks.literal(budget))) is shorter than the diagram, whose last tick comes "
                + "\(VirtualTicks.describe(.ticks(diagram.lastTick))) after the step starts; a budget can only make "
                + "the step watch longer than the diagram"
        }
        if clock == nil, diagram.lastTick > 0 {
            return "the diagram's last tick comes \(VirtualTicks.describe(.ticks(diagram.lastTick))) after the step "
                + "starts, but there is no virtual clock to advance (pass one with on:, or bind "
                + "VirtualClock.current); without one, only a diagram of a single tick, as \"a\" or \"(ab|)\", can be "
                + "checked"
        }
        return nil
    }

    /// `toMatch("-a-b-(c|)", values: ["a": 1, "b": 2, "c": 3], within: .ticks(9))`, keys in order.
    static func matchCall(
        name: String, marbles: String, values: [Character: Output], error: MarbleFailure<Failure>?, budget: Duration?
    ) -> String {
        var arguments = [marbles.debugDescription]
        if !values.isEmpty {
            let pairs = values.keys.sorted().map { key in
                "\(String(key).debugDescription): \(ValueText.describe(values[key]!))"
            }
            arguments.append("values: [" + pairs.joined(separator: ", ") + "]")
        }
        if let error { arguments.append("error: \(ValueText.describe(error.error))") }
        return "\(name)(\(arguments.joined(separator: ", "))\(StepText.budget(budget)))"
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
        match(marbles, values: values, error: MarbleFailure(error), name: "toMatch", budget: budget,
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
        match(marbles, values: values, error: MarbleFailure(error), name: "thenMatch", budget: budget,
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
