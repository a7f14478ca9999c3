import Cadence

/// A deterministic random number generator (SplitMix64), so a failing demand scenario can be replayed.
struct SeededGenerator: RandomNumberGenerator {
    private var state: UInt64

    init(seed: UInt64) {
        state = seed
    }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE5_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// A subscriber that requests and answers demand at random and checks that it never gets more values than it asked
/// for, nor anything after its completion.
final class DemandCheckingSubscriber<Input>: Subscriber {
    typealias Failure = any Error

    private(set) var values: [Input] = []
    private(set) var completions: [String] = []
    private(set) var granted = Subscribers.Demand.none
    private(set) var violations: [String] = []
    private var subscription: (any Subscription)?
    private let answer: () -> Subscribers.Demand
    private let requestsFromInsideReceive: Bool

    /// - Parameter requestsFromInsideReceive: whether to ask for more by calling `request(_:)` from inside
    ///   `receive(_:)` (re-entrantly) instead of returning the demand.
    init(requestsFromInsideReceive: Bool = false, answer: @escaping () -> Subscribers.Demand) {
        self.answer = answer
        self.requestsFromInsideReceive = requestsFromInsideReceive
    }

    func receive(subscription: any Subscription) {
        if self.subscription != nil { violations.append("a second subscription") }
        self.subscription = subscription
    }

    /// Cancels from inside `receive(_:)` once this many values have arrived.
    var cancelsAfterValues: Int?
    private(set) var isCancelled = false
    /// Set by a cancel from inside `receive(_:)`: as in Combine, a publisher that delivers one value and then its
    /// completion in one go (`Just`, `reduce`, the last batch of `collect(_:)`) still sends that completion.
    private var isInsideCancellingReceive = false
    /// Completions that followed a cancel from inside `receive(_:)` at once (see `isInsideCancellingReceive`).
    private(set) var completionsRightAfterCancellingReceive = 0

    func receive(_ input: Input) -> Subscribers.Demand {
        if !completions.isEmpty { violations.append("a value after the completion") }
        if isCancelled { violations.append("a value after cancel") }
        isInsideCancellingReceive = false
        values.append(input)
        if let cancelsAfterValues, values.count == cancelsAfterValues {
            cancel()
            isInsideCancellingReceive = true
            return .none
        }
        if granted != .unlimited, Subscribers.Demand.max(values.count) > granted {
            violations.append("value #\(values.count) beyond the \(granted) granted")
        }
        let demand = answer()
        if requestsFromInsideReceive, demand > .none {
            request(demand)
            return .none
        }
        granted += demand
        return demand
    }

    func receive(completion: Subscribers.Completion<any Error>) {
        if !completions.isEmpty { violations.append("a second completion") }
        if isInsideCancellingReceive, case .finished = completion {
            isInsideCancellingReceive = false
            completionsRightAfterCancellingReceive += 1
            return
        }
        if isCancelled { violations.append("a completion after cancel") }
        switch completion {
        case .finished: completions.append("finished")
        case .failure(let error): completions.append("failure(\(error))")
        }
    }

    func request(_ demand: Subscribers.Demand) {
        granted += demand
        subscription?.request(demand)
    }

    func cancel() {
        isCancelled = true
        subscription?.cancel()
    }
}
