import Cadence
import Testing

/// As in Combine, the subscriptions of the reducing operators, `collect(_:)`, `replaceEmpty`, `replaceError` and
/// `dropFirst` keep their downstream for their whole life, so such a subscription and a subscriber that keeps it hold
/// each other. Cadence's own subscribers break that cycle as Combine's do: a `sink` or an `assign` (and an
/// `AnyCancellable` made from it) lets go of its subscription when it is cancelled or completes, and a subject lets go
/// of its subscriber then too, so in ordinary use nothing is left behind.
@Suite("Subscribers let go of a subscription that keeps them")
struct KeptDownstreamCycleTests {
    static let operators = [
        "Reduce", "First", "Last", "Count", "AllSatisfy", "Contains", "Min", "Collect", "CollectByCount",
        "ReplaceEmpty", "ReplaceError", "Drop",
    ]

    @Test(arguments: operators)
    func aCancelledSinkGoesAway(operator name: String) {
        let sinkWentAway =
            switch name {
            case "Reduce": sinkLifetime(cancels: true) { $0.reduce(0, +) }
            case "First": sinkLifetime(cancels: true) { $0.first { $0 > 5 } }
            case "Last": sinkLifetime(cancels: true) { $0.last() }
            case "Count": sinkLifetime(cancels: true) { $0.count() }
            case "AllSatisfy": sinkLifetime(cancels: true) { $0.allSatisfy { $0 > 0 } }
            case "Contains": sinkLifetime(cancels: true) { $0.contains(5) }
            case "Min": sinkLifetime(cancels: true) { $0.min() }
            case "Collect": sinkLifetime(cancels: true) { $0.collect() }
            case "CollectByCount": sinkLifetime(cancels: true) { $0.collect(2) }
            case "ReplaceEmpty": sinkLifetime(cancels: true) { $0.replaceEmpty(with: 0) }
            case "ReplaceError": sinkLifetime(cancels: true) { $0.replaceError(with: 0) }
            default: sinkLifetime(cancels: true) { $0.dropFirst() }
            }
        #expect(sinkWentAway)
    }

    @Test(arguments: operators)
    func aCompletedSinkGoesAway(operator name: String) {
        let sinkWentAway =
            switch name {
            case "Reduce": sinkLifetime(cancels: false) { $0.reduce(0, +) }
            case "First": sinkLifetime(cancels: false) { $0.first { $0 > 5 } }
            case "Last": sinkLifetime(cancels: false) { $0.last() }
            case "Count": sinkLifetime(cancels: false) { $0.count() }
            case "AllSatisfy": sinkLifetime(cancels: false) { $0.allSatisfy { $0 > 0 } }
            case "Contains": sinkLifetime(cancels: false) { $0.contains(5) }
            case "Min": sinkLifetime(cancels: false) { $0.min() }
            case "Collect": sinkLifetime(cancels: false) { $0.collect() }
            case "CollectByCount": sinkLifetime(cancels: false) { $0.collect(2) }
            case "ReplaceEmpty": sinkLifetime(cancels: false) { $0.replaceEmpty(with: 0) }
            case "ReplaceError": sinkLifetime(cancels: false) { $0.replaceError(with: 0) }
            default: sinkLifetime(cancels: false) { $0.dropFirst() }
            }
        #expect(sinkWentAway)
    }

    @Test func anAssignGoesAwayWhenCancelledOrCompleted() {
        final class Target {
            var value = 0
        }
        let subject = PassthroughSubject<Int, Never>()
        let target = Target()
        weak var cancelled: Subscribers.Assign<Target, Int>?
        weak var completed: Subscribers.Assign<Target, Int>?
        var token: AnyCancellable?
        do {
            let assign = Subscribers.Assign(object: target, keyPath: \.value)
            cancelled = assign
            subject.reduce(0, +).subscribe(assign)
            token = AnyCancellable(assign)
            let other = Subscribers.Assign(object: target, keyPath: \.value)
            completed = other
            subject.dropFirst().subscribe(other)
        }
        subject.send(5)
        subject.send(6)
        #expect(cancelled != nil)
        #expect(completed != nil)
        token?.cancel()
        token = nil
        #expect(cancelled == nil)
        subject.send(completion: .finished)
        #expect(completed == nil)
        #expect(target.value == 6)
    }

    /// Subscribes a `sink` (kept only through an `AnyCancellable`) to the operator on a subject, sends it 1, then
    /// cancels the token or finishes the subject and lets go of the token: whether the sink went away.
    private func sinkLifetime<Operator: Publisher>(
        cancels: Bool,
        _ makeOperator: (PassthroughSubject<Int, TestError>) -> Operator
    ) -> Bool {
        let subject = PassthroughSubject<Int, TestError>()
        weak var released: Subscribers.Sink<Operator.Output, Operator.Failure>?
        var token: AnyCancellable?
        do {
            let sink = Subscribers.Sink<Operator.Output, Operator.Failure>(
                receiveCompletion: { _ in }, receiveValue: { _ in })
            released = sink
            makeOperator(subject).subscribe(sink)
            token = AnyCancellable(sink)
        }
        subject.send(1)
        if cancels {
            token?.cancel()
        } else {
            subject.send(completion: .finished)
        }
        token = nil
        return released == nil
    }
}
