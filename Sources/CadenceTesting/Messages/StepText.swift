/// Shared pieces of the steps' calls and checks.
enum StepText {
    /// `", within: .ticks(5)"` (or without the comma when `first`), or nothing without a budget.
    static func budget(_ budget: Duration?, first: Bool = false) -> String {
        guard let budget else { return "" }
        return (first ? "" : ", ") + "within: \(VirtualTicks.literal(budget))"
    }

    /// `", timeout: .seconds(1)"` (or without the comma when `first`).
    static func timeout(_ timeout: Duration, first: Bool = false) -> String {
        (first ? "" : ", ") + "timeout: \(WallClockText.literal(timeout))"
    }

    /// The timing as the call wrote it: `", within: .ticks(5)"`, `", timeout: .seconds(1)"` (without the comma when
    /// `first`), or nothing without a budget.
    static func timing(_ timing: StepTiming, first: Bool = false) -> String {
        switch timing {
        case let .within(budget): self.budget(budget, first: first)
        case let .timeout(timeout): self.timeout(timeout, first: first)
        }
    }

    /// A call as written: `name(arguments, timing)`.
    static func call(_ name: String, _ arguments: String, _ timing: StepTiming) -> String {
        "\(name)(\(arguments)\(self.timing(timing, first: arguments.isEmpty)))"
    }

    /// A call as written, for a message: as ``call(_:_:_:)``, with the budget or timeout as the source at `location`
    /// spells it when that is a static member such as `.milliseconds(200)` — the same `Duration` as `.ticks(200)`,
    /// which only the source can tell apart. A budget written any other way (a variable, an expression) is shown as
    /// its value.
    static func call(
        _ name: String, _ arguments: String, _ timing: StepTiming, writtenAt location: SourceCodeLocation
    )
        -> String
    {
        let label: String
        switch timing {
        case .within(nil): return call(name, arguments, timing)
        case .within: label = "within"
        case .timeout: label = "timeout"
        }
        guard let written = WrittenArgument.text(labelled: label, at: location), written.hasPrefix(".") else {
            return call(name, arguments, timing)
        }
        return "\(name)(\(arguments)\(arguments.isEmpty ? "" : ", ")\(label): \(written))"
    }

    /// What a step rejected for how it was written expected: a valid step.
    static var validStep: String { "(a valid step)" }
}

/// Why a step was rejected for how it was written, as data: ``StepText/describe(_:)`` writes the sentence.
enum StepProblem {
    /// A negative `within:` budget.
    case negativeBudget(Duration)
    /// A negative `timeout:`.
    case negativeTimeout(Duration)
    /// `toEmit([])`; `wallClock` names the `timeout:` form of the alternative.
    case noValues(wallClock: Bool)
    /// `toEmit(count:)` with fewer than one value.
    case count(Int, wallClock: Bool)
    /// `toEmitNothing(for:)` with a negative duration.
    case negativeWindow(Duration)
    /// `thenRequest(.none)`.
    case noDemand
    /// A marble diagram that does not parse.
    case marbleSyntax(MarbleDiagram.SyntaxError)
    /// `values:` defines a key that is marble syntax.
    case marbleSyntaxKey(Character)
    /// The diagram uses a key (at character `position`) that `values:` does not define (`defined`, in order).
    case undefinedMarbleKey(Character, position: Int, defined: [Character])
    /// `error:` is given to a diagram with no `#`.
    case unusedMarbleError
    /// A budget shorter than the diagram, whose last tick is `lastTick`.
    case budgetShorterThanDiagram(Duration, lastTick: Int)
    /// A diagram longer than one tick with no virtual clock to advance.
    case diagramWithoutClock(lastTick: Int)
}

extension StepText {
    /// The sentence for `problem`, after `"<call> failed: "`.
    static func describe(_ problem: StepProblem) -> String {
        switch problem {
        case let .negativeBudget(budget):
            "its budget is negative (\(VirtualTicks.describe(budget))); a step cannot wait less than no time — "
                + "use .ticks(0) for \"at the current tick\""
        case let .negativeTimeout(timeout):
            "its timeout is negative (\(WallClockText.describe(timeout))); a step cannot wait less than no time — "
                + "use .zero to check only what has already arrived"
        case let .noValues(wallClock):
            "an empty list of values expects nothing, so it cannot fail; to check that nothing arrives, use "
                + "toEmitNothing(for:), or \(wallClock ? "toFinish(timeout:)" : "toFinish()") for a publisher that "
                + "completes without values"
        case let .count(count, wallClock):
            "its count is \(count); the step must expect at least 1 value — to check that nothing arrives, use "
                + (wallClock ? "toEmitNothing(timeout:)" : "toEmitNothing(for:)")
        case let .negativeWindow(duration):
            "its duration is negative (\(VirtualTicks.describe(duration))); a window cannot be shorter than no time — "
                + "use .ticks(0) for \"nothing at the current tick\""
        case .noDemand:
            "a demand of .none asks for nothing, and a subscription must not be asked for it; request .max(1) or "
                + "more, or .unlimited"
        case let .marbleSyntax(error):
            error.description
        case let .marbleSyntaxKey(key):
            "values defines \(String(key).debugDescription), which is marble syntax, not a key; keys are the "
                + "characters other than \"-\", \"|\", \"#\", \"(\", \")\" and space"
        case let .undefinedMarbleKey(key, position, keys):
            "the diagram uses \(String(key).debugDescription) (character \(position)), which values does not "
                + "define; \(definedKeys(keys))"
        case .unusedMarbleError:
            "error: is given, but the diagram has no \"#\" for it to match"
        case let .budgetShorterThanDiagram(budget, lastTick):
            "its budget (\(VirtualTicks.literal(budget))) is shorter than the diagram, whose last tick comes "
                + "\(VirtualTicks.describe(.ticks(lastTick))) after the step starts; a budget can only make the step "
                + "watch longer than the diagram"
        case let .diagramWithoutClock(lastTick):
            "the diagram's last tick comes \(VirtualTicks.describe(.ticks(lastTick))) after the step starts, but "
                + "there is no virtual clock to advance (pass one with on:, or bind VirtualClock.current); without "
                + "one, only a diagram of a single tick, as \"a\" or \"(ab|)\", can be checked"
        }
    }

    /// `"values is empty"`, `"it defines only "a""`, `"it defines "a", "b" and "c""`.
    private static func definedKeys(_ keys: [Character]) -> String {
        let defined = keys.map { String($0).debugDescription }
        return switch defined.count {
        case 0: "values is empty"
        case 1: "it defines only \(defined[0])"
        default: "it defines \(defined.dropLast().joined(separator: ", ")) and \(defined.last!)"
        }
    }
}
