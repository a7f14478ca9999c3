/// How failure messages print events, completions and demand.
enum EventText {
    /// `"subscription"`, a value as ``ValueText`` prints it, `"finished"`, or `"failure(APIError.offline)"`.
    static func received<Output, Failure>(_ event: PublisherEvent<Output, Failure>) -> String {
        switch event {
        case .subscription: "subscription"
        case let .value(value): ValueText.describe(value)
        case let .completion(completion): self.completion(completion)
        }
    }

    /// `"finished"` or `"failure(<error>)"`.
    static func completion<Failure>(_ completion: Subscribers.Completion<Failure>) -> String {
        switch completion {
        case .finished: "finished"
        case let .failure(error): "failure(\(ValueText.describe(error)))"
        }
    }

    /// `".unlimited"`, `".none"` or `".max(3)"`.
    static func demand(_ demand: Subscribers.Demand) -> String {
        if demand == .unlimited { return ".unlimited" }
        if demand == .none { return ".none" }
        return ".max(\(demand.max ?? 0))"
    }
}
