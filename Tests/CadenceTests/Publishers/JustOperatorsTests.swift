import Cadence
import Testing

/// A failure transform to hand to `mapError` (on a `Just` it never runs).
private func neverFails<Failure: Error>(_ failure: Failure) -> TestError {
    .other
}

@Suite("Just operators")
struct JustOperatorsTests {
    @Test func operatorsThatKeepAJust() {
        let just = Just(5)
        let mapped = just.map { $0 * 2 }
        #expect(type(of: mapped) == Just<Int>.self)
        #expect(mapped.output == 10)
        #expect(just.collect() == Just([5]))
        #expect(just.count() == Just(1))
        #expect(just.contains(5) == Just(true))
        #expect(just.contains(where: { $0 > 9 }) == Just(false))
        #expect(just.allSatisfy { $0 == 5 } == Just(true))
        #expect(just.min() == just)
        #expect(just.max(by: <) == just)
        #expect(just.first() == just)
        #expect(just.last() == just)
        #expect(just.removeDuplicates() == just)
        #expect(just.removeDuplicates(by: ==) == just)
        #expect(just.replaceError(with: 0) == just)
        #expect(just.replaceEmpty(with: 0) == just)
        #expect(just.retry(3) == just)
    }

    @Test func operatorsThatMayDropTheOutputReturnOptionalPublishers() {
        let just = Just(5)
        let filtered = just.filter { $0 > 10 }
        #expect(type(of: filtered) == Optional<Int>.Publisher.self)
        #expect(filtered.output == nil)
        #expect(just.filter { $0 < 10 }.output == 5)
        #expect(just.compactMap { $0 == 5 ? "five" : nil }.output == "five")
        #expect(just.dropFirst().output == nil)
        #expect(just.dropFirst(0).output == 5)
        #expect(just.drop(while: { $0 == 5 }).output == nil)
        #expect(just.first(where: { $0 == 5 }).output == 5)
        #expect(just.last(where: { $0 == 4 }).output == nil)
        #expect(just.output(at: 0).output == 5)
        #expect(just.output(at: 1).output == nil)
        #expect(just.output(in: 0..<2).output == 5)
        #expect(just.output(in: 1...).output == nil)
        // As in Combine, only the lower bound counts: an empty range from zero keeps the output, and a range that
        // starts below zero drops it (no trap).
        #expect(just.output(in: 0..<0).output == 5)
        #expect(just.output(in: -3..<3).output == nil)
        #expect(just.output(in: (-1)...).output == nil)
        #expect(just.prefix(1).output == 5)
        #expect(just.prefix(0).output == nil)
        #expect(just.prefix(while: { $0 > 1 }).output == 5)
    }

    @Test func throwingOperatorsReturnResultPublishers() {
        let just = Just(5)
        let mapped = just.tryMap { $0 + 1 }
        #expect(type(of: mapped) == Result<Int, any Error>.Publisher.self)
        #expect((try? mapped.result.get()) == 6)
        #expect(throws: TestError.oops) { try just.tryMap { _ -> Int in throw TestError.oops }.result.get() }
        #expect(throws: TestError.oops) { try just.tryAllSatisfy { _ in throw TestError.oops }.result.get() }
        #expect((try? just.tryContains { $0 == 5 }.result.get()) == true)
        #expect((try? just.tryReduce(1, +).result.get()) == 6)
        #expect((try? just.tryScan(2, *).result.get()) == 10)
        #expect((try? just.tryRemoveDuplicates(by: ==).result.get()) == 5)
        // As in Combine, the predicate runs once, comparing the output with itself.
        var compared: [[Int]] = []
        #expect(throws: TestError.oops) {
            try just.tryRemoveDuplicates {
                compared.append([$0, $1])
                throw TestError.oops
            }.result.get()
        }
        #expect(compared == [[5, 5]])
        #expect(just.reduce(1, +) == Result<Int, Never>.Publisher(6))
        #expect(just.scan(1, -) == Result<Int, Never>.Publisher(-4))
    }

    @Test func failureTypeOperators() {
        let retyped = Just(5).setFailureType(to: TestError.self)
        #expect(type(of: retyped) == Result<Int, TestError>.Publisher.self)
        #expect(retyped.result == .success(5))
        #expect(Just(5).mapError(neverFails).result == .success(5))
        #expect(type(of: Just(5).ignoreOutput()) == Empty<Int, Never>.self)
    }

    @Test func appendAndPrependReturnSequencePublishers() {
        let appended = Just(2).append(3, 4)
        #expect(type(of: appended) == Publishers.Sequence<[Int], Never>.self)
        #expect(appended.sequence == [2, 3, 4])
        #expect(Just(2).append(5..<7).sequence == [2, 5, 6])
        #expect(Just(2).prepend(0, 1).sequence == [0, 1, 2])
        #expect(Just(2).prepend([1]).sequence == [1, 2])
    }

    @Test func specialisedPublishersDeliverTheirValues() {
        let subscriber = TestSubscriber<String, Never>()
        Just(3).map { String($0) }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value("3"), .completion(.finished)])
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func negativeDropFirstTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).dropFirst(-1)
        }
        #expect(
            result?.standardErrorText.contains("Just.dropFirst(_:): the count must not be negative, got -1") == true)
    }
    #endif

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func negativeOutputIndexTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Just(1).output(at: -2)
        }
        #expect(result?.standardErrorText.contains("Just.output(at:): the index must not be negative, got -2") == true)
    }
    #endif
}
