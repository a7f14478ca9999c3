import CadenceSupport
extension Subscribers.Demand {
    /// Traps unless the demand is positive: Combine's rule is that `request(_:)` asks for at least one value.
    ///
    /// - Parameter name: the subscription's name as its `description` gives it (`"Filter"`, `"Just"`, …).
    @inlinable
    func assertPositive(in name: @autoclosure () -> String) {
        require(
            rawValue > 0,
            "\(name()): request(_:) was called with max(0); a subscriber must request a positive demand")
    }
}

