/// The clauses of the steps' failures, written from a ``StepReason`` and the data it carries.
extension StepText {
    /// The step's clause: after `"<call> failed: "` at an event, or — for want of one — what never came, for
    /// ``ChainText`` to complete with why the driver gave up.
    static func describe(_ reason: StepReason) -> String {
        switch reason {
        case let .received(received, sought):
            expected(describe(sought), received: describe(received))
        case let .differs(sought, expected, received):
            "\(describe(sought)) differs: expected \(ValueText.describe(expected)), received "
                + ValueText.describe(received)
        case let .skipped(skipped, received, sought):
            instead(of: describe(sought), skipped: skipped, received: describe(received))
        case let .synchronously(received, sought):
            synchronously(describe(sought), received: describe(received))
        case let .missing(sought):
            describe(sought)
        case let .unmet(expectation):
            describe(expectation)
        case let .missingAfterSkipping(sought, skipped):
            self.sought(describe(sought), skipped: skipped)
        case let .marbleUnexpected(received):
            "the diagram expects nothing more, but \(describe(received)) arrived"
        case let .marbleOffTime(expected, tick, distance, late):
            "\(describe(expected)) was expected at tick \(tick) but arrived "
                + "\(VirtualTicks.describe(.milliseconds(distance))) \(late ? "late" : "early")"
        case let .marbleInstead(expected, tick, received, early):
            "\(describe(expected)) was expected at tick \(tick), but \(describe(received)) arrived "
                + (early ? "first" : "instead")
        case let .marbleMissing(expected, tick):
            "\(describe(expected)), expected at tick \(tick),"
        case let .failedCheck(value, problems):
            "the value \(ValueText.describe(value)) did not pass the check: " + problems.joined(separator: "; ")
        }
    }

    /// What a step sought, as a reason names it.
    static func describe(_ sought: Sought) -> String {
        switch sought {
        case let .value(value): ValueText.describe(value)
        case let .ordinal(ordinal, index): ordinal(index)
        case let .ordinalValue(ordinal, index, value): "\(ordinal(index)) (\(ValueText.describe(value)))"
        case let .theValue(value): theValue(value)
        case .matchingValue: matchingValue
        case .passingValue: "a value that passes the check"
        case .finished: EventText.finished
        case .theFinish: theFinish
        case let .failure(failure): phrase(failure)
        case let .quiet(through, window, synchronousOnly):
            quiet(through: through, window: window, synchronousOnly: synchronousOnly)
        }
    }

    /// What a step received, as a reason names it: `"5"`, `"finished"`, `"a second subscription"`.
    static func describe(_ received: Received) -> String {
        switch received {
        case let .value(value): ValueText.describe(value)
        case .finished: EventText.finished
        case let .failure(error): "failure(\(ValueText.describe(error)))"
        case .secondSubscription: EventText.secondSubscription
        case .subscription: "subscription"
        case let .violating(event, .afterCancel): describe(event) + " after the subscription was cancelled"
        case let .violating(event, _): describe(event) + " (contract broken)"
        }
    }

    /// A marble diagram's event: `"b (2)"`, `"finished"`, `"a failure"`.
    static func describe(_ event: MarbleEventName) -> String {
        switch event {
        case let .keyed(key, value): "\(key) (\(value.map(ValueText.describe) ?? "?"))"
        case let .value(value): ValueText.describe(value)
        case .finished: EventText.finished
        case let .failure(error): error.map { "failure(\(ValueText.describe($0)))" } ?? "a failure"
        case .secondSubscription: EventText.secondSubscription
        }
    }

    /// The timeline's expected column.
    static func describe(_ expectation: StepExpectation) -> String {
        switch expectation {
        case let .value(value): ValueText.describe(value)
        case .nothing: nothing
        case .anyValue: anyValue
        case .match: match
        case .skipped: skipped
        case .finished: EventText.finished
        case let .failure(failure): expected(failure)
        case let .quiet(through, window, synchronousOnly):
            quiet(through: through, window: window, synchronousOnly: synchronousOnly)
        case let .marble(event, tick): describe(event) + (tick.map { " at tick \($0)" } ?? "")
        case .none: ""
        case .liveSubscription: "a live subscription"
        case .validStep: validStep
        }
    }

    /// A call as written: `name(arguments, timing)`.
    static func call(_ name: String, _ arguments: StepArguments, _ timing: StepTiming) -> String {
        call(name, describe(arguments), timing)
    }

    /// The arguments as the call wrote them.
    static func describe(_ arguments: StepArguments) -> String {
        switch arguments {
        case .none: ""
        case let .values(values, single): valueList(values, single: single)
        case let .value(value): ValueText.describe(value)
        case let .count(count): countArgument(count)
        case .predicate: predicateArgument
        case .check: "satisfying: { … }"
        case let .failure(failure): argument(failure) ?? ""
        case let .window(window): windowArgument(window)
        case let .marbles(marbles, values, error):
            marbleArguments(marbles, values: values, error: error)
        case let .demand(demand): EventText.demand(demand)
        }
    }

    /// `"-a-(b|)", values: ["a": 1, "b": 2], error: APIError.offline`, keys in order.
    private static func marbleArguments(
        _ marbles: String, values: [(key: Character, value: Any)], error: Any?
    ) -> String {
        var arguments = [marbles.debugDescription]
        if !values.isEmpty {
            let pairs = values.map { pair in
                "\(String(pair.key).debugDescription): \(ValueText.describe(pair.value))"
            }
            arguments.append("values: [" + pairs.joined(separator: ", ") + "]")
        }
        if let error { arguments.append("error: \(ValueText.describe(error))") }
        return arguments.joined(separator: ", ")
    }

    // MARK: Failures

    /// `"with: APIError.offline"`, `"where: { … }"`, or nil for any failure.
    static func argument(_ failure: FailureExpectation) -> String? {
        switch failure {
        case .any: nil
        case let .equal(error): "with: \(ValueText.describe(error))"
        case .matching: predicateArgument
        }
    }

    /// `"failure"`, `"failure(APIError.offline)"`, `"failure(where: …)"`.
    static func expected(_ failure: FailureExpectation) -> String {
        switch failure {
        case .any: "failure"
        case let .equal(error): "failure(\(ValueText.describe(error)))"
        case .matching: "failure(where: …)"
        }
    }

    /// `"a failure"`, `"failure(APIError.offline)"`, `"a failure matching the predicate"`.
    static func phrase(_ failure: FailureExpectation) -> String {
        switch failure {
        case .any: "a failure"
        case .equal: expected(failure)
        case .matching: "a failure matching the predicate"
        }
    }

    // MARK: Actions

    /// `"the publisher had already finished at tick 3, so nothing more can be requested"`.
    static func describe(_ problem: ActionProblem) -> String {
        func outcome(_ action: ActionProblem.Action) -> String {
            switch action {
            case .request: "nothing more can be requested"
            case .cancel: "there was nothing to cancel"
            }
        }
        switch problem {
        case let .neverSubscribed(action):
            return "the publisher never sent a subscription, so \(outcome(action))"
        case let .alreadyCancelled(action):
            return "the subscription had already been cancelled, so \(outcome(action))"
        case let .alreadyEnded(action):
            return "the subscription had already ended, so \(outcome(action))"
        case let .completed(how, time, action):
            let ended =
                if case let .failure(error) = how { "failed with \(ValueText.describe(error))" } else {
                    "finished"
                }
            return "the publisher had already \(ended)\(ChainText.at(time)), so \(outcome(action))"
        }
    }
}
