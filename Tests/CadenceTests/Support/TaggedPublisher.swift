import Cadence

/// An `Equatable` publisher with no specialised operator overloads (unlike `Just`), for testing that an operator
/// struct is `Equatable` exactly when its upstream is; it finishes at once without a value.
struct TaggedPublisher: Publisher, Equatable {
    typealias Output = Int
    typealias Failure = Never

    let id: Int

    init(_ id: Int) {
        self.id = id
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == Never {
        subscriber.receive(subscription: Subscriptions.empty)
        subscriber.receive(completion: .finished)
    }
}
