#if !canImport(Combine)

/// A subscription that subscribes to several upstreams of one type (merge's publishers, flatMap's and
/// switchToLatest's inner publishers) and hears from each through an `IndexedSide` tagged with its index.
protocol IndexedSideHost: AnyObject, CustomStringConvertible, CustomCombineIdentifierConvertible {
    associatedtype SideIndex
    associatedtype SideInput
    associatedtype SideFailure: Error

    func receive(subscription: any Subscription, at index: SideIndex)
    func receive(_ input: SideInput, at index: SideIndex) -> Subscribers.Demand
    func receive(completion: Subscribers.Completion<SideFailure>, at index: SideIndex)
}

/// The subscriber a multi-upstream subscription attaches to one of its upstreams: it passes every event on to the
/// host with the upstream's index. It has its own identity, and shows the host's name and identity.
struct IndexedSide<Host: IndexedSideHost>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    typealias Input = Host.SideInput
    typealias Failure = Host.SideFailure

    let index: Host.SideIndex
    let host: Host
    let combineIdentifier = CombineIdentifier()

    init(index: Host.SideIndex, host: Host) {
        self.index = index
        self.host = host
    }

    func receive(subscription: any Subscription) {
        host.receive(subscription: subscription, at: index)
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        host.receive(input, at: index)
    }

    func receive(completion: Subscribers.Completion<Failure>) {
        host.receive(completion: completion, at: index)
    }

    var description: String { host.description }

    var customMirror: Mirror { Mirror(self, children: ["parentSubscription": host.combineIdentifier]) }

    var playgroundDescription: Any { description }
}

#endif
