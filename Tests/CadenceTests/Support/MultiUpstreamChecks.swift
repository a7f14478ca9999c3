import Cadence
import Testing

/// The behaviour every `Publishers.Merge3` … `Publishers.Merge8` shares, one case a check, for parameterised tests.
enum MergeArityBehaviour: CaseIterable, Sendable {
    case interleavesValuesAndFinishesWhenAllFinish
    case asksEveryUpstreamForOneValueAtATime
    case aFailureCancelsTheOthers
    case cancelCancelsEveryUpstream
}

/// The checks that operators over several upstreams of one type (`Merge3` … `Merge8`, `CombineLatest3`/`4`,
/// `Zip3`/`4`) share, each run against one operator over `arity` upstreams.
///
/// Each mirrored test file makes one of these with its own operator and calls the checks that apply to it; the
/// `Merge…Tests` run every `MergeArityBehaviour` through `check(_:)` in a parameterised test. Failures point at the
/// caller.
struct MultiUpstreamChecks<Combined: Publisher> where Combined.Output == Int, Combined.Failure == TestError {
    typealias Upstream = DrivenPublisher<Int, TestError>

    /// How many upstreams the operator takes.
    let arity: Int
    /// Builds the operator over exactly `arity` upstreams.
    let makeOperator: ([Upstream]) -> Combined

    init(arity: Int, _ makeOperator: @escaping ([Upstream]) -> Combined) {
        self.arity = arity
        self.makeOperator = makeOperator
    }

    /// Subscribes a `TestSubscriber` to the operator over fresh upstreams and returns both ends.
    func make(initialDemand: Subscribers.Demand = .unlimited) -> ([Upstream], TestSubscriber<Int, TestError>) {
        let upstreams = (0..<arity).map { _ in Upstream() }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand)
        makeOperator(upstreams).subscribe(subscriber)
        return (upstreams, subscriber)
    }

    /// Runs the check for one behaviour.
    func check(_ behaviour: MergeArityBehaviour, sourceLocation: SourceLocation = #_sourceLocation) {
        switch behaviour {
        case .interleavesValuesAndFinishesWhenAllFinish:
            interleavesValuesAndFinishesWhenAllFinish(sourceLocation: sourceLocation)
        case .asksEveryUpstreamForOneValueAtATime:
            asksEveryUpstreamForOneValueAtATime(sourceLocation: sourceLocation)
        case .aFailureCancelsTheOthers:
            aFailureCancelsTheOthers(sourceLocation: sourceLocation)
        case .cancelCancelsEveryUpstream:
            cancelCancelsEveryUpstream(sourceLocation: sourceLocation)
        }
    }

    /// Values from every upstream arrive in the order they were sent; it finishes only once the last upstream has.
    func interleavesValuesAndFinishesWhenAllFinish(sourceLocation: SourceLocation = #_sourceLocation) {
        let (upstreams, subscriber) = make()
        for (index, upstream) in upstreams.enumerated().reversed() {
            upstream.send(index)
        }
        for upstream in upstreams.dropLast() {
            upstream.send(completion: .finished)
        }
        #expect(subscriber.completions.isEmpty, sourceLocation: sourceLocation)
        upstreams.last?.send(completion: .finished)
        #expect(subscriber.values == Array((0..<arity).reversed()), sourceLocation: sourceLocation)
        #expect(subscriber.completions == [.finished], sourceLocation: sourceLocation)
    }

    /// Each upstream is asked for `.max(1)` and asked again only once its value went downstream.
    func asksEveryUpstreamForOneValueAtATime(sourceLocation: SourceLocation = #_sourceLocation) {
        let (upstreams, subscriber) = make(initialDemand: .max(1))
        #expect(
            upstreams.map { $0.subscription.requests } == upstreams.map { _ in [.max(1)] },
            sourceLocation: sourceLocation)
        #expect(upstreams[1].send(10) == .max(1), sourceLocation: sourceLocation)
        #expect(upstreams[0].send(20) == .none, sourceLocation: sourceLocation)
        #expect(subscriber.values == [10], sourceLocation: sourceLocation)
        subscriber.request(.max(1))
        #expect(subscriber.values == [10, 20], sourceLocation: sourceLocation)
        #expect(upstreams[0].subscription.requests == [.max(1), .max(1)], sourceLocation: sourceLocation)
    }

    /// The first upstream to fail fails the merge at once and every other upstream is cancelled.
    func aFailureCancelsTheOthers(sourceLocation: SourceLocation = #_sourceLocation) {
        let (upstreams, subscriber) = make()
        upstreams[0].send(completion: .failure(.oops))
        #expect(subscriber.events == [.subscription, .completion(.failure(.oops))], sourceLocation: sourceLocation)
        #expect(
            upstreams.map(\.subscription.cancelCount) == [0] + Array(repeating: 1, count: arity - 1),
            sourceLocation: sourceLocation)
    }

    /// Cancelling cancels every upstream once; nothing is delivered afterwards, whichever upstream sends.
    func cancelCancelsEveryUpstream(sourceLocation: SourceLocation = #_sourceLocation) {
        let (upstreams, subscriber) = make()
        subscriber.cancel()
        #expect(
            upstreams.map(\.subscription.cancelCount) == Array(repeating: 1, count: arity),
            sourceLocation: sourceLocation)
        upstreams.forEach { $0.send(1) }
        #expect(
            upstreams.map(\.subscription.cancelCount) == Array(repeating: 1, count: arity),
            sourceLocation: sourceLocation)
        #expect(subscriber.events == [.subscription], sourceLocation: sourceLocation)
    }

    /// Every request from the downstream reaches every upstream as it is.
    func passesRequestsToEveryUpstream(sourceLocation: SourceLocation = #_sourceLocation) {
        let (upstreams, subscriber) = make(initialDemand: .max(1))
        subscriber.request(.max(2))
        #expect(
            upstreams.map(\.subscription.requests) == Array(repeating: [.max(1), .max(2)], count: arity),
            sourceLocation: sourceLocation)
    }

    /// The fused `merge(with:)` of `Just(0)` … `Just(arity)` delivers every one of those values in order.
    func fusedMergeDeliversEveryValue(
        _ merged: some Publisher<Int, Never>,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        var values: [Int] = []
        _ = merged.sink { values.append($0) }
        #expect(values == Array(0...arity), sourceLocation: sourceLocation)
    }

    /// Two operators over equal upstreams are equal, one over another upstream is not, and the subscription
    /// describes itself as `name`.
    func isEquatableAndDescribed<Other: Equatable>(
        as name: String,
        _ first: Other,
        equalTo second: Other,
        notEqualTo third: Other,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(first == second, sourceLocation: sourceLocation)
        #expect(first != third, sourceLocation: sourceLocation)
        let (_, subscriber) = make()
        let subscription = try #require(subscriber.subscription, sourceLocation: sourceLocation)
        #expect(String(describing: subscription) == name, sourceLocation: sourceLocation)
    }
}
