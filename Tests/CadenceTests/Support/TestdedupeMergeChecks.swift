import Cadence
import Testing

/// The behaviour every `Publishers.Merge3` … `Publishers.Merge8` shares, one case a check, for parameterised tests.
enum MergeArityBehaviour: CaseIterable, Sendable {
    case interleavesValuesAndFinishesWhenAllFinish
    case asksEveryUpstreamForOneValueAtATime
    case aFailureCancelsTheOthers
    case cancelCancelsEveryUpstream
}

/// The checks `Publishers.Merge3` … `Publishers.Merge8` share, each run against one arity.
///
/// Each mirrored test file (`Merge3Tests` … `Merge8Tests`) makes one of these with its own operator and runs every
/// `MergeArityBehaviour` through `check(_:)` in a parameterised test; failures point at the caller.
struct MergeArityChecks<Merged: Publisher> where Merged.Output == Int, Merged.Failure == TestError {
    typealias Upstream = TestPublisher<Int, TestError>

    /// How many upstreams the operator merges.
    let arity: Int
    /// Builds the operator over exactly `arity` upstreams.
    let makeMerge: ([Upstream]) -> Merged

    init(arity: Int, _ makeMerge: @escaping ([Upstream]) -> Merged) {
        self.arity = arity
        self.makeMerge = makeMerge
    }

    /// Subscribes a `TestSubscriber` to the operator over fresh upstreams and returns both ends.
    func make(initialDemand: Subscribers.Demand = .unlimited) -> ([Upstream], TestSubscriber<Int, TestError>) {
        let upstreams = (0..<arity).map { _ in Upstream() }
        let subscriber = TestSubscriber<Int, TestError>(initialDemand: initialDemand)
        makeMerge(upstreams).subscribe(subscriber)
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

    /// Cancelling cancels every upstream once; nothing is delivered afterwards.
    func cancelCancelsEveryUpstream(sourceLocation: SourceLocation = #_sourceLocation) {
        let (upstreams, subscriber) = make()
        subscriber.cancel()
        #expect(
            upstreams.map(\.subscription.cancelCount) == Array(repeating: 1, count: arity),
            sourceLocation: sourceLocation)
        upstreams[0].send(1)
        #expect(subscriber.events == [.subscription], sourceLocation: sourceLocation)
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

    /// Two merges of equal upstreams are equal, a merge with another upstream is not, and the subscription
    /// describes itself as `"Merge"`.
    func isEquatableAndDescribedAsMerge<Other: Equatable>(
        _ first: Other,
        equalTo second: Other,
        notEqualTo third: Other,
        sourceLocation: SourceLocation = #_sourceLocation
    ) throws {
        #expect(first == second, sourceLocation: sourceLocation)
        #expect(first != third, sourceLocation: sourceLocation)
        let (_, subscriber) = make()
        let subscription = try #require(subscriber.subscription, sourceLocation: sourceLocation)
        #expect(String(describing: subscription) == "Merge", sourceLocation: sourceLocation)
    }
}
