import Cadence
import Testing

@Suite("Result.Publisher operators")
struct ResultPublisherOperatorsTests {
    typealias Sut<Output> = Result<Output, TestError>.Publisher

    @Test func valueOperatorsMapTheSuccessAndKeepTheFailure() {
        let success = Sut(3)
        let failure = Sut<Int>(.oops)
        let mapped = success.map { String($0) }
        #expect(type(of: mapped) == Result<String, TestError>.Publisher.self)
        #expect(mapped.result == .success("3"))
        #expect(failure.map { $0 + 1 }.result == .failure(.oops))
        #expect(success.collect().result == .success([3]))
        #expect(success.count().result == .success(1))
        #expect(failure.count().result == .failure(.oops))
        #expect(success.contains(3).result == .success(true))
        #expect(success.contains(where: { $0 > 3 }).result == .success(false))
        #expect(success.allSatisfy { $0 == 3 }.result == .success(true))
        #expect(success.reduce(1, +).result == .success(4))
        #expect(success.scan(2, *).result == .success(6))
        #expect(failure.reduce(1, +).result == .failure(.oops))
    }

    @Test func operatorsThatKeepThePublisher() {
        let success = Sut(3)
        #expect(success.min() == success)
        #expect(success.max() == success)
        #expect(success.min(by: <) == success)
        #expect(success.max(by: <) == success)
        #expect(success.first() == success)
        #expect(success.last() == success)
        #expect(success.removeDuplicates() == success)
        #expect(success.removeDuplicates(by: ==) == success)
        #expect(success.replaceEmpty(with: 0) == success)
        #expect(success.retry(1) == success)
    }

    @Test func throwingOperatorsEraseTheFailure() {
        let success = Sut(3)
        let failure = Sut<Int>(.oops)
        let tried = success.tryMap { $0 * 2 }
        #expect(type(of: tried) == Result<Int, any Error>.Publisher.self)
        #expect((try? tried.result.get()) == 6)
        #expect(throws: TestError.other) { try success.tryMap { _ -> Int in throw TestError.other }.result.get() }
        #expect(throws: TestError.oops) { try failure.tryMap { $0 }.result.get() }
        #expect((try? success.tryAllSatisfy { $0 > 0 }.result.get()) == true)
        #expect((try? success.tryContains { $0 > 5 }.result.get()) == false)
        #expect((try? success.tryReduce(1, +).result.get()) == 4)
        #expect((try? success.tryScan(1, +).result.get()) == 4)
        #expect((try? success.tryMin(by: <).result.get()) == 3)
        #expect((try? success.tryMax(by: <).result.get()) == 3)
        #expect(throws: TestError.oops) { try failure.tryRemoveDuplicates(by: ==).result.get() }
        // As in Combine, on a success the predicate runs once, comparing the output with itself, and may throw.
        var compared: [[Int]] = []
        let throwing: (Int, Int) throws -> Bool = {
            compared.append([$0, $1])
            throw TestError.other
        }
        #expect(throws: TestError.other) { try success.tryMin(by: throwing).result.get() }
        #expect(throws: TestError.other) { try success.tryMax(by: throwing).result.get() }
        #expect(throws: TestError.other) { try success.tryRemoveDuplicates(by: throwing).result.get() }
        #expect(throws: TestError.oops) { try failure.tryMin(by: throwing).result.get() }
        #expect(compared == [[3, 3], [3, 3], [3, 3]])
    }

    @Test func failureOperators() {
        let failure = Sut<Int>(.oops)
        #expect(failure.mapError { _ in TestError.other }.result == .failure(.other))
        let replaced = failure.replaceError(with: 7)
        #expect(type(of: replaced) == Result<Int, Never>.Publisher.self)
        #expect(replaced.result == .success(7))
        #expect(Sut(1).replaceError(with: 7).result == .success(1))
        let retyped = Result<Int, Never>.Publisher(2).setFailureType(to: TestError.self)
        #expect(type(of: retyped) == Result<Int, TestError>.Publisher.self)
        #expect(retyped.result == .success(2))
        #expect(type(of: failure.ignoreOutput()) == Empty<Int, TestError>.self)
    }

    @Test func specialisedPublishersDeliverTheirValues() {
        let subscriber = TestSubscriber<Int, TestError>()
        Sut(20).map { $0 + 1 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(21), .completion(.finished)])
    }
}
