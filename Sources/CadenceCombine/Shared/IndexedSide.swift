/// A subscription that subscribes to more than one publisher and hears from each through a side subscriber tagged
/// with its index: an `IndexedSide` for the upstreams of merge and the inner publishers of flatMap and
/// switchToLatest, a `SharedIdentitySide` for the other publisher of drop(untilOutputFrom:) and
/// prefix(untilOutputFrom:).
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

/// The index of the one side subscriber of drop(untilOutputFrom:) and prefix(untilOutputFrom:).
enum OtherPublisherSide {
    /// The publisher whose first value ends the dropping or the prefix.
    case other
}

/// The subscriber a subscription attaches to a publisher it consumes besides (or before) its upstream: it passes
/// every event on to the host with the index, and has the host's identity and name, and no children.
struct SharedIdentitySide<Host: IndexedSideHost>: Subscriber, CustomStringConvertible, CustomReflectable,
    CustomPlaygroundDisplayConvertible
{
    typealias Input = Host.SideInput
    typealias Failure = Host.SideFailure

    let index: Host.SideIndex
    let host: Host

    var combineIdentifier: CombineIdentifier { host.combineIdentifier }

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

    var customMirror: Mirror { Mirror(self, children: [:]) }

    var playgroundDescription: Any { description }
}
