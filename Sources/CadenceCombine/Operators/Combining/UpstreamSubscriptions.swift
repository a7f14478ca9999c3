/// The subscriptions to a fixed number of upstreams (merge's, zip's, combineLatest's), guarded by their owner's
/// lock: each upstream is subscribed to once and completes once, and what is still running is cancelled together.
struct UpstreamSubscriptions {
    /// The subscription of each upstream, `nil` before it arrives and once it is no longer needed.
    private(set) var subscriptions: [(any Subscription)?]
    /// Which upstreams have completed, finished or failed.
    private(set) var completed: [Bool]
    /// How many upstreams have finished.
    private(set) var finishedCount = 0
    private var subscribed: [Bool]

    init(count: Int) {
        subscriptions = Array(repeating: nil, count: count)
        completed = Array(repeating: false, count: count)
        subscribed = Array(repeating: false, count: count)
    }

    var count: Int { subscriptions.count }

    /// Whether every upstream has finished.
    var allFinished: Bool { finishedCount == subscriptions.count }

    subscript(index: Int) -> (any Subscription)? { subscriptions[index] }

    /// Keeps the subscription of the upstream at `index`; `false` when that upstream has already been subscribed to,
    /// and the caller must cancel the new one.
    mutating func attach(_ subscription: any Subscription, at index: Int) -> Bool {
        guard !subscribed[index] else { return false }
        subscribed[index] = true
        subscriptions[index] = subscription
        return true
    }

    func isCompleted(_ index: Int) -> Bool { completed[index] }

    /// Records that the upstream at `index` has completed; `false` when it already had.
    mutating func markCompleted(_ index: Int) -> Bool {
        guard !completed[index] else { return false }
        completed[index] = true
        return true
    }

    /// Records that the upstream at `index` has finished, and lets its subscription go.
    mutating func markFinished(_ index: Int) {
        finishedCount += 1
        subscriptions[index] = nil
    }

    /// Lets the subscription of the upstream at `index` go, so it is not cancelled with the others.
    mutating func forget(_ index: Int) {
        subscriptions[index] = nil
    }

    /// Hands back every subscription still held and forgets them all: the caller cancels them outside the lock.
    mutating func takeAll() -> [(any Subscription)?] {
        defer { subscriptions = Array(repeating: nil, count: subscriptions.count) }
        return subscriptions
    }
}
