import Cadence

/// A subscription that only has an identity, for the bookkeeping tests of the multi-upstream operators' internals.
final class DedupeIdleSubscription: Subscription {
    func request(_ demand: Subscribers.Demand) {}
    func cancel() {}
}
