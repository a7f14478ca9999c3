import Cadence
import Testing

/// More checks the reducing operators share: demand towards the upstream, answering early from a predicate, and a
/// throwing closure. Failures point at the caller.
extension ReducingChecks {
    /// With `.max(1)` requested up front, the upstream gets one request for `.unlimited`, and more demand from the
    /// downstream never reaches it; the result arrives when the upstream finishes.
    ///
    /// Returns the harness, so a caller can check more of it.
    @discardableResult
    static func requestsUnlimitedWhateverTheDownstreamAsks<Operator: Publisher>(
        inputs: [Int],
        laterDemand: Subscribers.Demand,
        result: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) -> ReducingHarness<Operator> {
        let harness = ReducingHarness(initialDemand: .max(1), makeOperator)
        #expect(harness.requests == [.unlimited], sourceLocation: sourceLocation)
        harness.send(inputs, sourceLocation: sourceLocation)
        harness.subscriber.request(laterDemand)
        #expect(harness.requests == [.unlimited], sourceLocation: sourceLocation)
        harness.upstream.send(completion: .finished)
        #expect(harness.events == ["subscription", "value(\(result))", "finished"], sourceLocation: sourceLocation)
        return harness
    }

    /// An operator that knows its answer before the upstream finishes (`contains`, `first()`, `allSatisfy`,
    /// `first(where:)`, …) cancels the upstream at once, ignores what a misbehaving upstream sends afterwards (a
    /// `lateValue`, then `finished`), and holds the answer until the downstream requests it.
    ///
    /// - Parameters:
    ///   - inputs: values to send; the last one decides the answer.
    ///   - lateValue: the value the upstream sends after the cancel.
    ///   - result: the answer, as text.
    static func answersEarlyCancellingTheUpstreamAndWaitsForDemand<Operator: Publisher>(
        inputs: [Int],
        lateValue: Int,
        result: String,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        let harness = ReducingHarness(initialDemand: .none, makeOperator)
        harness.send(inputs, sourceLocation: sourceLocation)
        #expect(harness.cancelCount == 1, sourceLocation: sourceLocation)
        #expect(harness.events == ["subscription"], sourceLocation: sourceLocation)
        harness.force(lateValue)
        harness.force(completion: .finished)
        #expect(harness.events == ["subscription"], sourceLocation: sourceLocation)
        harness.subscriber.request(.max(1))
        #expect(harness.events == ["subscription", "value(\(result))", "finished"], sourceLocation: sourceLocation)
        #expect(harness.requests == [.unlimited], sourceLocation: sourceLocation)
        #expect(harness.cancelCount == 1, sourceLocation: sourceLocation)
    }

    /// The same for an operator with a predicate, which must not be asked about anything after the answer: the
    /// upstream's late value is `100`, and `predicate` is asked once for each of `inputs`.
    ///
    /// `makeOperator` applies the operator to the upstream with the given (counting) predicate.
    static func answersEarlyCancellingTheUpstreamAndWaitsForDemand<Operator: Publisher>(
        inputs: [Int],
        result: String,
        predicate: @escaping (Int) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>, @escaping (Int) -> Bool) -> Operator
    ) {
        let calls = ReducingCounter()
        answersEarlyCancellingTheUpstreamAndWaitsForDemand(
            inputs: inputs, lateValue: 100, result: result, sourceLocation: sourceLocation
        ) { upstream in
            makeOperator(upstream) { value in
                calls.increment()
                return predicate(value)
            }
        }
        #expect(calls.value == inputs.count, sourceLocation: sourceLocation)
    }

    /// `cancelStopsEverything`, after the upstream sent `inputs` (which must not complete the operator): the
    /// upstream is cancelled once and nothing reaches the downstream, whatever the upstream sends afterwards (a
    /// `lateValue`, then `finished`).
    static func cancelStopsEverything<Operator: Publisher>(
        after inputs: [Int],
        lateValue: Int,
        requests: [Subscribers.Demand] = [.unlimited],
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>) -> Operator
    ) {
        let harness = ReducingHarness(initialDemand: .unlimited, makeOperator)
        harness.send(inputs, sourceLocation: sourceLocation)
        harness.subscriber.cancel()
        #expect(harness.cancelCount == 1, sourceLocation: sourceLocation)
        #expect(harness.force(lateValue) == .none, sourceLocation: sourceLocation)
        harness.force(completion: .finished)
        harness.subscriber.request(.max(1))
        harness.subscriber.cancel()
        #expect(harness.events == ["subscription"], sourceLocation: sourceLocation)
        #expect(harness.cancelCount == 1, sourceLocation: sourceLocation)
        #expect(harness.requests == requests, sourceLocation: sourceLocation)
    }

    /// A `try` operator's predicate that throws fails the downstream at once, demand or not, and cancels the
    /// upstream; the predicate is asked nothing more and nothing follows the failure.
    ///
    /// The check sends `1` and then `0`; its predicate throws `TestError.oops` for `0` and answers `1` with
    /// `answer`, which must let the operator go on.
    static func throwingPredicateFailsAtOnceAndCancelsTheUpstream<Operator: Publisher>(
        answer: @escaping (Int) -> Bool,
        sourceLocation: SourceLocation = #_sourceLocation,
        _ makeOperator: (DrivenPublisher<Int, TestError>, @escaping (Int) throws -> Bool) -> Operator
    ) {
        let calls = ReducingCounter()
        let harness = ReducingHarness(initialDemand: .none) { upstream in
            makeOperator(upstream) { value in
                calls.increment()
                if value == 0 { throw TestError.oops }
                return answer(value)
            }
        }
        harness.send([1, 0], sourceLocation: sourceLocation)
        #expect(harness.events == ["subscription", "failure(oops)"], sourceLocation: sourceLocation)
        #expect(harness.cancelCount == 1, sourceLocation: sourceLocation)
        harness.force(2)
        harness.force(completion: .finished)
        harness.subscriber.request(.max(1))
        #expect(calls.value == 2, sourceLocation: sourceLocation)
        #expect(harness.events == ["subscription", "failure(oops)"], sourceLocation: sourceLocation)
        #expect(harness.cancelCount == 1, sourceLocation: sourceLocation)
    }

    /// `max(by:)` and `min(by:)` (or their `try` forms) keep the first of elements the comparator finds equal.
    ///
    /// `makeMax` and `makeMin` apply the operator with the comparator they get, which compares by tens.
    static func keepsTheFirstOfEqualElements<Maximum: Publisher, Minimum: Publisher>(
        sourceLocation: SourceLocation = #_sourceLocation,
        max makeMax: (DrivenPublisher<Int, TestError>, @escaping (Int, Int) -> Bool) -> Maximum,
        min makeMin: (DrivenPublisher<Int, TestError>, @escaping (Int, Int) -> Bool) -> Minimum
    ) {
        let byTens: (Int, Int) -> Bool = { $0 / 10 < $1 / 10 }
        let maximum = ReducingHarness(initialDemand: .unlimited) { makeMax($0, byTens) }
        maximum.send([11, 25, 21, 29, 3], sourceLocation: sourceLocation)
        maximum.upstream.send(completion: .finished)
        #expect(maximum.events == ["subscription", "value(25)", "finished"], sourceLocation: sourceLocation)

        let minimum = ReducingHarness(initialDemand: .unlimited) { makeMin($0, byTens) }
        minimum.send([25, 11, 15, 31, 12], sourceLocation: sourceLocation)
        minimum.upstream.send(completion: .finished)
        #expect(minimum.events == ["subscription", "value(11)", "finished"], sourceLocation: sourceLocation)
    }
}
