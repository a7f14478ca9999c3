import Cadence
import Foundation
import Testing

/// The demand contract of every multi-upstream operator (combining, flattening, error handling, sharing), driven by
/// upstreams that respect demand and are pumped in a random order, and a subscriber that requests and answers demand
/// at random (every other scenario from inside `receive(_:)`): no value beyond demand, nothing after the completion,
/// one completion, and in the end what the operator delivers under unlimited demand.
@Suite("Demand contract of the multi-upstream operators")
struct MultiUpstreamContractTests {
    typealias Pipeline = @Sendable ([DemandRespectingSource]) -> AnyPublisher<String, any Error>

    /// What a random-demand run must end with, compared with an unlimited-demand run.
    enum Expected {
        /// The same values in the same order (the order does not depend on which upstream is pumped first).
        case sequence
        /// The same values in any order (merge).
        case multiset
        /// Only the contract (which values appear depends on the interleaving).
        case contractOnly
    }

    struct Case: Sendable {
        let upstreams: Int
        let expected: Expected
        /// The upstream that Combine lets go of, without cancelling it, once it has sent a value (the other
        /// publisher of drop(untilOutputFrom:)).
        var forgottenAfterAValue: Int? = nil
        let pipeline: Pipeline
    }

    static let cases: [(String, Case)] = [
        ("merge", Case(upstreams: 2, expected: .multiset) { $0[0].merge(with: $0[1]).erasedAsText() }),
        ("merge3", Case(upstreams: 3, expected: .multiset) { $0[0].merge(with: $0[1], $0[2]).erasedAsText() }),
        (
            "merge4",
            Case(upstreams: 4, expected: .multiset) {
                $0[0].merge(with: $0[1], $0[2], $0[3]).erasedAsText()
            }
        ),
        (
            "merge8",
            Case(upstreams: 8, expected: .multiset) {
                $0[0].merge(with: $0[1], $0[2], $0[3], $0[4], $0[5], $0[6], $0[7]).erasedAsText()
            }
        ),
        ("mergeMany", Case(upstreams: 3, expected: .multiset) { Publishers.MergeMany($0).erasedAsText() }),
        ("zip", Case(upstreams: 2, expected: .sequence) { $0[0].zip($0[1]).erasedAsText() }),
        ("zip3", Case(upstreams: 3, expected: .sequence) { $0[0].zip($0[1], $0[2]).erasedAsText() }),
        ("zip4", Case(upstreams: 4, expected: .sequence) { $0[0].zip($0[1], $0[2], $0[3]).erasedAsText() }),
        (
            "combineLatest",
            Case(upstreams: 2, expected: .contractOnly) {
                $0[0].combineLatest($0[1]).erasedAsText()
            }
        ),
        (
            "combineLatest3",
            Case(upstreams: 3, expected: .contractOnly) {
                $0[0].combineLatest($0[1], $0[2]).erasedAsText()
            }
        ),
        (
            "combineLatest4",
            Case(upstreams: 4, expected: .contractOnly) {
                $0[0].combineLatest($0[1], $0[2], $0[3]).erasedAsText()
            }
        ),
        ("append", Case(upstreams: 2, expected: .sequence) { $0[0].append($0[1]).erasedAsText() }),
        ("prepend", Case(upstreams: 2, expected: .sequence) { $0[0].prepend($0[1]).erasedAsText() }),
        (
            "dropUntilOutput",
            Case(upstreams: 2, expected: .contractOnly, forgottenAfterAValue: 1) {
                $0[0].drop(untilOutputFrom: $0[1]).erasedAsText()
            }
        ),
        (
            "prefixUntilOutput",
            Case(upstreams: 2, expected: .contractOnly) {
                $0[0].prefix(untilOutputFrom: $0[1]).erasedAsText()
            }
        ),
        (
            "flatMapOverUpstreams",
            Case(upstreams: 3, expected: .multiset) { sources in
                [0, 1, 2].publisher.setFailureType(to: TestError.self).flatMap { sources[$0] }.erasedAsText()
            }
        ),
        (
            "flatMapMaxPublishers",
            Case(upstreams: 3, expected: .multiset) { sources in
                [0, 1, 2].publisher.setFailureType(to: TestError.self)
                    .flatMap(maxPublishers: .max(2)) { sources[$0] }.erasedAsText()
            }
        ),
        (
            "flatMapSequences",
            Case(upstreams: 1, expected: .multiset) {
                $0[0].flatMap { [$0, $0 + 1000].publisher.setFailureType(to: TestError.self) }.erasedAsText()
            }
        ),
        (
            "switchToLatest",
            Case(upstreams: 1, expected: .contractOnly) {
                $0[0].map { [$0, $0 + 1000].publisher.setFailureType(to: TestError.self) }.switchToLatest()
                    .erasedAsText()
            }
        ),
        (
            "catch",
            Case(upstreams: 2, expected: .sequence) { sources in
                sources[0].catch { _ in sources[1] }.erasedAsText()
            }
        ),
        (
            "tryCatch",
            Case(upstreams: 2, expected: .sequence) { sources in
                sources[0].tryCatch { _ in sources[1] }.erasedAsText()
            }
        ),
        (
            "bufferKeepFull",
            Case(upstreams: 1, expected: .sequence) {
                $0[0].buffer(size: 3, prefetch: .keepFull, whenFull: .dropNewest).erasedAsText()
            }
        ),
        (
            "bufferByRequest",
            Case(upstreams: 1, expected: .contractOnly) {
                $0[0].buffer(size: 2, prefetch: .byRequest, whenFull: .dropOldest).erasedAsText()
            }
        ),
        ("share", Case(upstreams: 1, expected: .contractOnly) { $0[0].share().erasedAsText() }),
        (
            "multicastAutoconnect",
            Case(upstreams: 1, expected: .contractOnly) {
                $0[0].multicast { PassthroughSubject<Int, TestError>() }.autoconnect().erasedAsText()
            }
        ),
    ]

    /// Fresh upstreams for one scenario: upstream `i` sends values `i * 100 + k`, so every value is distinct.
    static func makeSources(
        count: Int, using generator: inout SeededGenerator
    ) -> (values: [[Int]], completions: [Subscribers.Completion<TestError>]) {
        let values = (0..<count).map { index in
            (0..<Int.random(in: 0...6, using: &generator)).map { index * 100 + $0 }
        }
        let completions: [Subscribers.Completion<TestError>] = (0..<count).map { _ in
            Int.random(in: 0...3, using: &generator) == 0 ? .failure(.oops) : .finished
        }
        return (values, completions)
    }

    static func sources(
        _ made: (values: [[Int]], completions: [Subscribers.Completion<TestError>])
    )
        -> [DemandRespectingSource]
    {
        zip(made.values, made.completions).map { DemandRespectingSource(values: $0, completion: $1) }
    }

    /// Pumps every upstream, in order, until none sends anything more.
    static func pumpAll(_ sources: [DemandRespectingSource]) {
        for _ in 0..<(sources.count + 2) {
            sources.forEach { $0.pump() }
        }
    }

    @Test(arguments: Self.cases.map(\.0))
    func randomDemandNeverOverflowsAndLosesNothing(operator name: String) throws {
        let testCase = try #require(Self.cases.first { $0.0 == name }?.1)
        var generator = SeededGenerator(seed: 0x3EA1_0003)
        for scenario in 0..<80 {
            let made = Self.makeSources(count: testCase.upstreams, using: &generator)

            let reference = DemandCheckingSubscriber<String> { .none }
            let referenceSources = Self.sources(made)
            testCase.pipeline(referenceSources).subscribe(reference)
            reference.request(.unlimited)
            Self.pumpAll(referenceSources)

            var answers = SeededGenerator(seed: UInt64(scenario))
            let subscriber = DemandCheckingSubscriber<String>(requestsFromInsideReceive: scenario % 2 == 1) {
                Int.random(in: 0...3, using: &answers) == 0 ? .max(Int.random(in: 1...2, using: &answers)) : .none
            }
            let sources = Self.sources(made)
            testCase.pipeline(sources).subscribe(subscriber)
            for _ in 0..<Int.random(in: 0...16, using: &generator) {
                if Bool.random(using: &generator) {
                    subscriber.request(.max(Int.random(in: 1...3, using: &generator)))
                }
                sources[Int.random(in: 0..<sources.count, using: &generator)]
                    .pump(limit: Int.random(in: 1...3, using: &generator))
            }
            subscriber.request(.unlimited)
            Self.pumpAll(sources)

            let context = "\(name), scenario \(scenario), values \(made.values), \(made.completions)"
            #expect(subscriber.violations == [], "\(context)")
            #expect(subscriber.completions.count == 1, "\(context): \(subscriber.completions)")
            #expect(sources.allSatisfy { $0.cancelCount <= 1 }, "\(context)")
            let allFinish = made.completions.allSatisfy { if case .finished = $0 { true } else { false } }
            guard allFinish else { continue }
            #expect(subscriber.completions == ["finished"], "\(context)")
            switch testCase.expected {
            case .sequence:
                #expect(subscriber.values == reference.values, "\(context)")
            case .multiset:
                #expect(subscriber.values.sorted() == reference.values.sorted(), "\(context)")
            case .contractOnly:
                break
            }
        }
    }

    /// A subscriber that cancels at a random point, from inside `receive(_:)` or from outside, gets nothing more, and
    /// the cancel reaches every upstream still running exactly once.
    @Test(arguments: Self.cases.map(\.0))
    func cancelAtARandomPointStopsEverythingAndReachesEveryUpstreamOnce(operator name: String) throws {
        let testCase = try #require(Self.cases.first { $0.0 == name }?.1)
        var generator = SeededGenerator(seed: 0x3CA9_CE13)
        for scenario in 0..<80 {
            let made = Self.makeSources(count: testCase.upstreams, using: &generator)
            let subscriber = DemandCheckingSubscriber<String> { .max(1) }
            let sources = Self.sources(made)
            testCase.pipeline(sources).subscribe(subscriber)
            let cancelsInside = scenario % 2 == 0
            if cancelsInside {
                subscriber.cancelsAfterValues = Int.random(in: 1...3, using: &generator)
            }
            subscriber.request(.max(Int.random(in: 1...4, using: &generator)))
            for _ in 0..<Int.random(in: 0...6, using: &generator) {
                sources[Int.random(in: 0..<sources.count, using: &generator)]
                    .pump(limit: Int.random(in: 1...3, using: &generator))
            }
            let cancelledInside = subscriber.isCancelled
            let ended = !subscriber.completions.isEmpty
            let running = sources.enumerated().map { index, source in
                source.isSubscribed && !source.isCompleted && !source.isCancelled
                    && !(testCase.forgottenAfterAValue == index && source.sentCount > 0)
            }
            if !cancelledInside {
                subscriber.cancel()
            }
            let delivered = subscriber.values
            let completions = subscriber.completions
            subscriber.request(.unlimited)
            Self.pumpAll(sources)

            let context = "\(name), scenario \(scenario), values \(made.values), \(made.completions)"
            #expect(subscriber.violations == [], "\(context)")
            #expect(subscriber.values == delivered, "\(context)")
            #expect(subscriber.completions == completions, "\(context)")
            #expect(sources.allSatisfy { $0.cancelCount <= 1 }, "\(context)")
            if !ended, !cancelledInside {
                for (source, wasRunning) in zip(sources, running) where wasRunning {
                    #expect(source.cancelCount == 1, "\(context)")
                }
            }
        }
    }
}

extension MultiUpstreamContractTests {
    typealias ThreadedPipeline = @Sendable ([ThreadedSource]) -> AnyPublisher<String, TestError>

    /// An operator over upstreams that send from threads of their own.
    struct ThreadedCase: Sendable {
        let upstreams: Int
        /// What it must deliver when every upstream sends `values[i]` and finishes, in order, or `nil` when that
        /// depends on the interleaving.
        let output: (@Sendable ([[Int]]) -> [String])?
        /// Whether `output` may come in any order.
        var anyOrder = false
        /// Whether an upstream's failure fails the downstream (catch recovers from it).
        var failsWithUpstream = true
        /// Demand granted beyond the values, for the finished completion (buffer finishes only with demand, as in
        /// Combine).
        var extraDemand = 0
        let pipeline: ThreadedPipeline
    }

    static func all(_ values: [[Int]]) -> [String] {
        values.joined().map { "\($0)" }
    }

    static func zipped(_ values: [[Int]]) -> [String] {
        (0..<(values.map(\.count).min() ?? 0)).map { index in
            values.count == 2
                ? "\((values[0][index], values[1][index]))"
                : "\((values[0][index], values[1][index], values[2][index]))"
        }
    }

    static let threadedCases: [(String, ThreadedCase)] = [
        (
            "merge",
            ThreadedCase(upstreams: 2, output: all, anyOrder: true) {
                $0[0].merge(with: $0[1]).map { "\($0)" }.eraseToAnyPublisher()
            }
        ),
        (
            "merge3",
            ThreadedCase(upstreams: 3, output: all, anyOrder: true) {
                $0[0].merge(with: $0[1], $0[2]).map { "\($0)" }.eraseToAnyPublisher()
            }
        ),
        (
            "mergeMany",
            ThreadedCase(upstreams: 4, output: all, anyOrder: true) {
                Publishers.MergeMany($0).map { "\($0)" }.eraseToAnyPublisher()
            }
        ),
        ("zip", ThreadedCase(upstreams: 2, output: zipped) { $0[0].zip($0[1]).map { "\($0)" }.eraseToAnyPublisher() }),
        (
            "zip3",
            ThreadedCase(upstreams: 3, output: zipped) {
                $0[0].zip($0[1], $0[2]).map { "\($0)" }.eraseToAnyPublisher()
            }
        ),
        (
            "combineLatest",
            ThreadedCase(upstreams: 2, output: nil) {
                $0[0].combineLatest($0[1]).map { "\($0)" }.eraseToAnyPublisher()
            }
        ),
        (
            "combineLatest3",
            ThreadedCase(upstreams: 3, output: nil) {
                $0[0].combineLatest($0[1], $0[2]).map { "\($0)" }.eraseToAnyPublisher()
            }
        ),
        (
            "flatMap",
            ThreadedCase(upstreams: 3, output: all, anyOrder: true) { sources in
                [0, 1, 2].publisher.setFailureType(to: TestError.self).flatMap { sources[$0] }.map { "\($0)" }
                    .eraseToAnyPublisher()
            }
        ),
        (
            "flatMapMaxPublishers",
            ThreadedCase(upstreams: 3, output: all, anyOrder: true) { sources in
                [0, 1, 2].publisher.setFailureType(to: TestError.self).flatMap(maxPublishers: .max(2)) { sources[$0] }
                    .map { "\($0)" }.eraseToAnyPublisher()
            }
        ),
        (
            "switchToLatest",
            ThreadedCase(upstreams: 1, output: nil) {
                $0[0].map { [$0, $0 + 1000].publisher.setFailureType(to: TestError.self) }.switchToLatest()
                    .map { "\($0)" }.eraseToAnyPublisher()
            }
        ),
        (
            "append",
            ThreadedCase(upstreams: 2, output: all) {
                $0[0].append($0[1]).map { "\($0)" }.eraseToAnyPublisher()
            }
        ),
        (
            "catch",
            ThreadedCase(upstreams: 2, output: all, failsWithUpstream: false) { sources in
                sources[0].append(Fail(error: .oops)).catch { _ in sources[1] }.map { "\($0)" }.eraseToAnyPublisher()
            }
        ),
        (
            "bufferKeepFull",
            ThreadedCase(upstreams: 1, output: all, extraDemand: 1) {
                $0[0].buffer(size: 4, prefetch: .keepFull, whenFull: .dropNewest).map { "\($0)" }.eraseToAnyPublisher()
            }
        ),
        (
            "bufferByRequest",
            ThreadedCase(upstreams: 1, output: all, extraDemand: 1) {
                $0[0].buffer(size: 64, prefetch: .byRequest, whenFull: .dropNewest).map { "\($0)" }
                    .eraseToAnyPublisher()
            }
        ),
        ("share", ThreadedCase(upstreams: 1, output: nil) { $0[0].share().map { "\($0)" }.eraseToAnyPublisher() }),
        (
            "multicastAutoconnect",
            ThreadedCase(upstreams: 1, output: nil) {
                $0[0].multicast(subject: PassthroughSubject<Int, TestError>()).autoconnect().map { "\($0)" }
                    .eraseToAnyPublisher()
            }
        ),
        (
            "dropUntilOutput",
            ThreadedCase(upstreams: 2, output: nil) {
                $0[0].drop(untilOutputFrom: $0[1]).map { "\($0)" }.eraseToAnyPublisher()
            }
        ),
        (
            "retry",
            ThreadedCase(upstreams: 2, output: all, failsWithUpstream: false) { sources in
                let attempts = AttemptCounter()
                return Deferred {
                    attempts.next() == 0
                        ? sources[0].append(Fail(error: .oops)).eraseToAnyPublisher()
                        : sources[1].eraseToAnyPublisher()
                }
                .retry(1).map { "\($0)" }.eraseToAnyPublisher()
            }
        ),
    ]

    /// Several upstreams send from threads of their own while the downstream requests from yet another: every value
    /// arrives exactly once, never while another is being delivered, never beyond demand, and the completion always
    /// arrives, once.
    @Test(arguments: Self.threadedCases.map { $0.0 })
    func upstreamsOnSeveralThreadsDeliverEverythingOnceAndComplete(operator name: String) throws {
        let testCase = try #require(Self.threadedCases.first { $0.0 == name }?.1)
        for round in 0..<25 {
            // Every third round the first upstream, the shortest, fails after its values.
            let fails = round % 3 == 2
            let counts = (0..<testCase.upstreams).map { fails && $0 == 0 ? 3 : 5 + (round + $0 * 3) % 11 }
            let values = counts.enumerated().map { index, count in (0..<count).map { index * 100 + $0 } }
            let sources = values.enumerated().map { index, values in
                ThreadedSource(values: values, completion: fails && index == 0 ? .failure(.oops) : .finished)
            }
            let subscriber = ConcurrentCheckingSubscriber<String>(seed: UInt64(round))
            testCase.pipeline(sources).subscribe(subscriber)
            let deadline = Date() + 10
            let requester: @Sendable () -> Void = {
                var generator = SeededGenerator(seed: UInt64(round) &+ 99)
                while !subscriber.isCompleted, Date() < deadline {
                    subscriber.request(.max(Int.random(in: 1...2, using: &generator)))
                    for _ in 0..<Int.random(in: 0...20, using: &generator) { sched_yield() }
                }
            }
            let bodies =
                sources.map { source in
                    { @Sendable in source.run(until: deadline) { subscriber.isCompleted } }
                } + [requester]
            let context = "\(name), round \(round)"
            #expect(runOnThreads(within: 15, bodies), "\(context): a thread hung")
            #expect(subscriber.waitForCompletion(seconds: 2), "\(context): the completion was lost")
            #expect(subscriber.violations == [], "\(context)")
            #expect(sources.allSatisfy { $0.cancels <= 1 }, "\(context)")
            #expect(Set(subscriber.values).count == subscriber.values.count, "\(context): a value delivered twice")
            if fails, testCase.failsWithUpstream {
                #expect(subscriber.completions == [.failure(.oops)], "\(context)")
                continue
            }
            #expect(subscriber.completions == [.finished], "\(context)")
            guard !fails, let output = testCase.output else { continue }
            if testCase.anyOrder {
                #expect(subscriber.values.sorted() == output(values).sorted(), "\(context)")
            } else {
                #expect(subscriber.values == output(values), "\(context)")
            }
        }
    }

    /// The downstream grants exactly the demand the whole output needs, in random chunks, from its own thread and
    /// from inside `receive(_:)`, while the upstreams send from theirs: no later request can make up for a value
    /// buffered while the delivering thread was giving the token back, for demand that arrived at that moment, or for
    /// a completion nobody delivered, so a lost wake-up shows as a stream that never completes.
    @Test(arguments: Self.threadedCases.filter { $0.1.output != nil }.map { $0.0 })
    func exactDemandFromSeveralThreadsLosesNoWakeUp(operator name: String) throws {
        let testCase = try #require(Self.threadedCases.first { $0.0 == name }?.1)
        let output = try #require(testCase.output)
        for round in 0..<40 {
            let counts = (0..<testCase.upstreams).map { 3 + (round * 7 + $0 * 5) % 9 }
            let values = counts.enumerated().map { index, count in (0..<count).map { index * 100 + $0 } }
            let expected = output(values)
            let sources = values.map { ThreadedSource(values: $0) }
            let subscriber = ConcurrentCheckingSubscriber<String>(
                seed: UInt64(round), budget: expected.count + testCase.extraDemand)
            testCase.pipeline(sources).subscribe(subscriber)
            let deadline = Date() + 10
            let requester: @Sendable () -> Void = {
                var generator = SeededGenerator(seed: UInt64(round) &+ 7)
                while subscriber.grantFromBudget() {
                    for _ in 0..<Int.random(in: 0...30, using: &generator) { sched_yield() }
                }
            }
            let bodies =
                sources.map { source in
                    { @Sendable in source.run(until: deadline) { subscriber.isCompleted } }
                } + [requester]
            let context = "\(name), round \(round), counts \(counts)"
            #expect(runOnThreads(within: 15, bodies), "\(context): a thread hung")
            #expect(subscriber.waitForCompletion(seconds: 2), "\(context): the completion was lost")
            #expect(subscriber.hasGrantedBudget, "\(context)")
            #expect(subscriber.violations == [], "\(context)")
            #expect(subscriber.completions == [.finished], "\(context)")
            if testCase.anyOrder {
                #expect(subscriber.values.sorted() == expected.sorted(), "\(context)")
            } else {
                #expect(subscriber.values == expected, "\(context)")
            }
            #expect(sources.allSatisfy { $0.cancels <= 1 }, "\(context)")
        }
    }

    /// The downstream cancels from its own thread at a random moment while the upstreams send from theirs: nothing
    /// deadlocks, no upstream is cancelled twice, no value goes beyond demand or arrives while another is delivered,
    /// and at most one completion arrives.
    @Test(arguments: Self.threadedCases.map { $0.0 })
    func cancelFromAnotherThreadWhileUpstreamsSend(operator name: String) throws {
        let testCase = try #require(Self.threadedCases.first { $0.0 == name }?.1)
        for round in 0..<25 {
            let counts = (0..<testCase.upstreams).map { 4 + (round * 5 + $0 * 3) % 9 }
            let values = counts.enumerated().map { index, count in (0..<count).map { index * 100 + $0 } }
            let sources = values.map { ThreadedSource(values: $0) }
            let subscriber = ConcurrentCheckingSubscriber<String>(seed: UInt64(round))
            testCase.pipeline(sources).subscribe(subscriber)
            let deadline = Date() + 10
            let canceller: @Sendable () -> Void = {
                var generator = SeededGenerator(seed: UInt64(round) &+ 3)
                for _ in 0..<Int.random(in: 0...6, using: &generator) {
                    subscriber.request(.max(Int.random(in: 1...3, using: &generator)))
                    for _ in 0..<Int.random(in: 0...40, using: &generator) { sched_yield() }
                }
                subscriber.cancel()
            }
            let bodies =
                sources.map { source in
                    { @Sendable in source.run(until: deadline) { subscriber.isCompleted || subscriber.isCancelled } }
                } + [canceller]
            let context = "\(name), round \(round)"
            #expect(runOnThreads(within: 15, bodies), "\(context): a thread hung")
            #expect(subscriber.violations == [], "\(context)")
            #expect(subscriber.completions.count <= 1, "\(context)")
            #expect(sources.allSatisfy { $0.cancels <= 1 }, "\(context)")
            #expect(Set(subscriber.values).count == subscriber.values.count, "\(context): a value delivered twice")
        }
    }
}
