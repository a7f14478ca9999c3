import Cadence
import Foundation
import Testing

/// Every merged operator, driven by an upstream that respects demand and a subscriber that requests and answers
/// demand at random: the subscriber never gets more values than it asked for, nothing after its completion, and in
/// the end exactly what the same operator delivers under unlimited demand (so no requested value is lost). Every other
/// scenario asks for more from inside `receive(_:)`, re-entrantly, instead of returning the demand. `replaceEmpty` is
/// not here: as Combine's, it asks its upstream for `.unlimited` (see `ReplaceEmptyTests`).
@Suite("Demand contract of every operator")
struct DemandContractTests {
    typealias Pipeline = @Sendable (AnyPublisher<Int, TestError>) -> AnyPublisher<String, any Error>

    static let pipelines: [(String, Pipeline)] = [
        ("filter", { $0.filter { $0 % 2 == 0 }.erasedAsText() }),
        ("tryFilter", { $0.tryFilter { try failingOnSix($0) % 2 == 0 }.erasedAsText() }),
        ("compactMap", { $0.compactMap { $0 % 3 == 0 ? nil : $0 }.erasedAsText() }),
        ("tryCompactMap", { $0.tryCompactMap { try failingOnSix($0) % 3 == 0 ? nil : $0 }.erasedAsText() }),
        ("map", { $0.map { $0 * 2 }.erasedAsText() }),
        ("tryMap", { $0.tryMap { try failingOnSix($0) * 2 }.erasedAsText() }),
        ("replaceNil", { $0.map { $0 % 3 == 0 ? nil : $0 }.replaceNil(with: -1).erasedAsText() }),
        ("scan", { $0.scan(0, +).erasedAsText() }),
        ("tryScan", { $0.tryScan(0) { try failingOnSix($1) + $0 }.erasedAsText() }),
        ("removeDuplicates", { $0.removeDuplicates().erasedAsText() }),
        ("tryRemoveDuplicates", { $0.tryRemoveDuplicates { try failingOnSix($1) == $0 }.erasedAsText() }),
        ("dropFirst", { $0.dropFirst(3).erasedAsText() }),
        ("dropWhile", { $0.drop { $0 < 3 }.erasedAsText() }),
        ("tryDropWhile", { $0.tryDrop { try failingOnSix($0) < 3 }.erasedAsText() }),
        ("prefix", { $0.prefix(4).erasedAsText() }),
        ("outputIn", { $0.output(in: 2..<5).erasedAsText() }),
        ("outputAt", { $0.output(at: 3).erasedAsText() }),
        ("prefixWhile", { $0.prefix { $0 < 5 }.erasedAsText() }),
        ("tryPrefixWhile", { $0.tryPrefix { try failingOnSix($0) < 5 }.erasedAsText() }),
        ("collectByCount", { $0.collect(3).erasedAsText() }),
        ("collect", { $0.collect().erasedAsText() }),
        ("reduce", { $0.reduce(0, +).erasedAsText() }),
        ("tryReduce", { $0.tryReduce(0) { try failingOnSix($1) + $0 }.erasedAsText() }),
        ("count", { $0.count().erasedAsText() }),
        ("min", { $0.min().erasedAsText() }),
        ("max", { $0.max().erasedAsText() }),
        ("tryMax", { $0.tryMax { try failingOnSix($0) < $1 }.erasedAsText() }),
        ("tryMin", { $0.tryMin { try failingOnSix($0) < $1 }.erasedAsText() }),
        ("contains", { $0.contains(3).erasedAsText() }),
        ("tryContainsWhere", { $0.tryContains { try failingOnSix($0) == 5 }.erasedAsText() }),
        ("allSatisfy", { $0.allSatisfy { $0 < 5 }.erasedAsText() }),
        ("tryAllSatisfy", { $0.tryAllSatisfy { try failingOnSix($0) < 5 }.erasedAsText() }),
        ("first", { $0.first().erasedAsText() }),
        ("firstWhere", { $0.first { $0 > 3 }.erasedAsText() }),
        ("tryFirstWhere", { $0.tryFirst { try failingOnSix($0) > 3 }.erasedAsText() }),
        ("tryLastWhere", { $0.tryLast { try failingOnSix($0) < 3 }.erasedAsText() }),
        ("last", { $0.last().erasedAsText() }),
        ("replaceError", { $0.replaceError(with: -1).setFailureType(to: (any Error).self).erasedAsText() }),
        ("handleEvents", { $0.handleEvents(receiveOutput: { _ in }).erasedAsText() }),
        ("print", { $0.print("", to: DiscardingStream()).erasedAsText() }),
        ("breakpoint", { $0.breakpoint(receiveOutput: { _ in false }).erasedAsText() }),
        (
            "encodeDecode",
            {
                $0.encode(encoder: JSONEncoder()).decode(type: Int.self, decoder: JSONDecoder()).erasedAsText()
            }
        ),
        ("ignoreOutput", { $0.ignoreOutput().erasedAsText() }),
        ("mapError", { $0.mapError { _ in TestError.other }.erasedAsText() }),
    ]

    @Test(arguments: Self.pipelines.map(\.0))
    func randomDemandNeverOverflowsAndLosesNothing(operator name: String) throws {
        let pipeline = try #require(Self.pipelines.first { $0.0 == name }?.1)
        var generator = SeededGenerator(seed: 0xC0FFEE)
        for scenario in 0..<60 {
            let values = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                Int.random(in: 0...6, using: &generator)
            }
            let completion: Subscribers.Completion<TestError> =
                Bool.random(using: &generator) ? .finished : .failure(.oops)

            // What the operator delivers under unlimited demand.
            let reference = DemandCheckingSubscriber<String> { .none }
            let referenceSource = DemandRespectingSource(values: values, completion: completion)
            pipeline(referenceSource.eraseToAnyPublisher()).subscribe(reference)
            reference.request(.unlimited)
            referenceSource.pump()

            // The same under random demand, then unlimited.
            var answers = SeededGenerator(seed: UInt64(scenario))
            let subscriber = DemandCheckingSubscriber<String>(requestsFromInsideReceive: scenario % 2 == 1) {
                Int.random(in: 0...3, using: &answers) == 0 ? .max(Int.random(in: 1...2, using: &answers)) : .none
            }
            let source = DemandRespectingSource(values: values, completion: completion)
            pipeline(source.eraseToAnyPublisher()).subscribe(subscriber)
            for _ in 0..<Int.random(in: 0...10, using: &generator) {
                if Bool.random(using: &generator) {
                    subscriber.request(.max(Int.random(in: 1...3, using: &generator)))
                }
                source.pump(limit: Int.random(in: 1...4, using: &generator))
            }
            subscriber.request(.unlimited)
            source.pump()

            let context = "\(name), values \(values), \(completion)"
            #expect(subscriber.violations == [], "\(context)")
            #expect(subscriber.values == reference.values, "\(context)")
            #expect(subscriber.completions == reference.completions, "\(context)")
            #expect(source.cancelCount <= 1, "\(context)")
        }
    }
}

extension DemandContractTests {
    /// A subscriber that cancels at a random point, from outside or from inside `receive(_:)`, gets nothing more,
    /// and the cancel reaches the upstream once unless the stream had already ended.
    @Test(arguments: Self.pipelines.map { $0.0 })
    func cancelAtARandomPointStopsEverythingAndReachesUpstreamOnce(operator name: String) throws {
        let pipeline = try #require(Self.pipelines.first { $0.0 == name }?.1)
        var generator = SeededGenerator(seed: 0xCA9CE1)
        for scenario in 0..<60 {
            let values = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                Int.random(in: 0...6, using: &generator)
            }
            let completion: Subscribers.Completion<TestError> =
                Bool.random(using: &generator) ? .finished : .failure(.oops)
            let reference = DemandCheckingSubscriber<String> { .none }
            let referenceSource = DemandRespectingSource(values: values, completion: completion)
            pipeline(referenceSource.eraseToAnyPublisher()).subscribe(reference)
            reference.request(.unlimited)
            referenceSource.pump()

            let subscriber = DemandCheckingSubscriber<String> { .none }
            let source = DemandRespectingSource(values: values, completion: completion)
            pipeline(source.eraseToAnyPublisher()).subscribe(subscriber)
            let cancelsInside = scenario % 2 == 0
            if cancelsInside {
                subscriber.cancelsAfterValues = Int.random(in: 1...3, using: &generator)
            }
            subscriber.request(.max(Int.random(in: 1...4, using: &generator)))
            source.pump(limit: Int.random(in: 0...6, using: &generator))
            var endedBeforeCancel = !subscriber.completions.isEmpty || source.isCompleted
            if !cancelsInside || !subscriber.isCancelled {
                endedBeforeCancel = !subscriber.completions.isEmpty || source.isCompleted
                subscriber.cancel()
            }
            let delivered = subscriber.values
            subscriber.request(.unlimited)
            source.pump()

            let context = "\(name), values \(values), \(completion)"
            #expect(subscriber.violations == [], "\(context)")
            #expect(subscriber.values == delivered, "\(context)")
            #expect(Array(reference.values.prefix(delivered.count)) == delivered, "\(context)")
            #expect(source.cancelCount <= 1, "\(context)")
            if !endedBeforeCancel {
                #expect(source.cancelCount == 1, "\(context)")
            }
        }
    }
}

/// The same contract for the merged publishers that are sources rather than operators.
@Suite("Demand contract of every source publisher")
struct SourceDemandContractTests {
    typealias Source = @Sendable ([Int]) -> AnyPublisher<String, any Error>

    static let sources: [(String, Source)] = [
        ("Sequence", { $0.publisher.erasedAsText() }),
        ("Record", { Record<Int, TestError>(output: $0, completion: .failure(.oops)).erasedAsText() }),
        ("Just", { Just($0.count).erasedAsText() }),
        ("Optional", { $0.first.publisher.erasedAsText() }),
        ("Result", { Result<Int, TestError>.success($0.count).publisher.erasedAsText() }),
        ("Future", { values in Future<Int, TestError> { $0(.success(values.count)) }.erasedAsText() }),
        ("Empty", { _ in Empty<Int, TestError>().erasedAsText() }),
        ("Fail", { _ in Fail<Int, TestError>(error: .oops).erasedAsText() }),
    ]

    @Test(arguments: Self.sources.map(\.0))
    func randomDemandOnASourceNeverOverflowsAndLosesNothing(publisher name: String) throws {
        let source = try #require(Self.sources.first { $0.0 == name }?.1)
        var generator = SeededGenerator(seed: 0xBEEF)
        for scenario in 0..<60 {
            let values = (0..<Int.random(in: 0...12, using: &generator)).map { _ in
                Int.random(in: 0...6, using: &generator)
            }
            let reference = DemandCheckingSubscriber<String> { .none }
            source(values).subscribe(reference)
            reference.request(.unlimited)

            var answers = SeededGenerator(seed: UInt64(scenario))
            let subscriber = DemandCheckingSubscriber<String>(requestsFromInsideReceive: scenario % 2 == 1) {
                Int.random(in: 0...3, using: &answers) == 0 ? .max(Int.random(in: 1...2, using: &answers)) : .none
            }
            source(values).subscribe(subscriber)
            for _ in 0..<Int.random(in: 0...10, using: &generator) {
                subscriber.request(.max(Int.random(in: 1...3, using: &generator)))
            }
            subscriber.request(.unlimited)

            let context = "\(name), values \(values)"
            #expect(subscriber.violations == [], "\(context)")
            #expect(subscriber.values == reference.values, "\(context)")
            #expect(subscriber.completions == reference.completions, "\(context)")
        }
    }
}

extension SourceDemandContractTests {
    /// A subscriber that cancels from inside `receive(_:)` or between requests gets nothing more.
    @Test(arguments: Self.sources.map { $0.0 })
    func cancelAtARandomPointStopsEverything(publisher name: String) throws {
        let source = try #require(Self.sources.first { $0.0 == name }?.1)
        var generator = SeededGenerator(seed: 0x5EED)
        for scenario in 0..<60 {
            let values = (0..<Int.random(in: 1...12, using: &generator)).map { _ in
                Int.random(in: 0...6, using: &generator)
            }
            let reference = DemandCheckingSubscriber<String> { .none }
            source(values).subscribe(reference)
            reference.request(.unlimited)

            let subscriber = DemandCheckingSubscriber<String> { .none }
            source(values).subscribe(subscriber)
            let context = "\(name), values \(values)"
            if scenario % 2 == 0 {
                let cancelPoint = Int.random(in: 1...3, using: &generator)
                subscriber.cancelsAfterValues = cancelPoint
                subscriber.request(.max(Int.random(in: 1...4, using: &generator)))
                subscriber.request(.unlimited)
                // Everything up to the value it cancelled on, nothing after.
                #expect(subscriber.values == Array(reference.values.prefix(cancelPoint)), "\(context)")
            } else {
                subscriber.request(.max(Int.random(in: 1...4, using: &generator)))
                subscriber.cancel()
                let delivered = subscriber.values
                subscriber.request(.unlimited)
                #expect(subscriber.values == delivered, "\(context)")
                #expect(Array(reference.values.prefix(delivered.count)) == delivered, "\(context)")
            }
            #expect(subscriber.violations == [], "\(context)")
        }
    }
}

/// Throws for 6, so the `try` operators also fail now and then.
func failingOnSix(_ value: Int) throws -> Int {
    if value == 6 { throw TestError.other }
    return value
}

extension Publisher {
    /// Erases to the shape the demand contract tests compare: outputs as text, any error.
    func erasedAsText() -> AnyPublisher<String, any Error> {
        map { "\($0)" }.mapError { $0 as any Error }.eraseToAnyPublisher()
    }
}
