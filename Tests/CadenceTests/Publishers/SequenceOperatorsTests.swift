import Cadence
import Testing

@Suite("Publishers.Sequence operators")
struct SequenceOperatorsTests {
    typealias Sut<Elements: Sequence> = Publishers.Sequence<Elements, Never>

    @Test func transformingOperatorsReturnSequencePublishers() {
        let numbers = (0..<6).publisher
        let mapped = numbers.map { $0 * 2 }
        #expect(type(of: mapped) == Publishers.Sequence<[Int], Never>.self)
        #expect(mapped.sequence == [0, 2, 4, 6, 8, 10])
        #expect(numbers.filter { $0.isMultiple(of: 3) } == Sut(sequence: [0, 3]))
        #expect(numbers.compactMap { $0 == 2 ? nil : String($0) } == Sut(sequence: ["0", "1", "3", "4", "5"]))
        #expect(numbers.scan(0, +) == Sut(sequence: [0, 1, 3, 6, 10, 15]))
        #expect([1, 1, 2, 2, 1, 3, 3].publisher.removeDuplicates() == Sut(sequence: [1, 2, 1, 3]))
        #expect([1, nil, 3].publisher.replaceNil(with: 0) == Sut(sequence: [1, 0, 3]))
        #expect(numbers.prefix(while: { $0 < 2 }) == Sut(sequence: [0, 1]))
    }

    @Test func slicingOperatorsKeepTheLazySequenceTypes() {
        let numbers = (0..<5).publisher
        let dropped = numbers.dropFirst(2)
        #expect(type(of: dropped) == Publishers.Sequence<DropFirstSequence<Range<Int>>, Never>.self)
        #expect(Array(dropped.sequence) == [2, 3, 4])
        #expect(Array(numbers.dropFirst().sequence) == [1, 2, 3, 4])
        #expect(Array(numbers.drop(while: { $0 < 3 }).sequence) == [3, 4])
        let prefixed = numbers.prefix(2)
        #expect(type(of: prefixed) == Publishers.Sequence<PrefixSequence<Range<Int>>, Never>.self)
        #expect(Array(prefixed.sequence) == [0, 1])
        #expect(numbers.output(in: 1..<3) == Sut(sequence: [1, 2]))
    }

    @Test func aggregatingOperatorsReturnResultPublishers() throws {
        let numbers = [3, 1, 2].publisher
        let collected = numbers.collect()
        #expect(type(of: collected) == Result<[Int], Never>.Publisher.self)
        #expect(collected.result == .success([3, 1, 2]))
        #expect(numbers.reduce(10, +).result == .success(16))
        #expect(numbers.allSatisfy { $0 > 0 }.result == .success(true))
        #expect(numbers.contains(where: { $0 > 2 }).result == .success(true))
        #expect(numbers.contains(4).result == .success(false))
        #expect(try numbers.tryReduce(0, +).result.get() == 6)
        #expect(throws: TestError.oops) { try numbers.tryAllSatisfy { _ in throw TestError.oops }.result.get() }
        #expect(throws: TestError.oops) { try numbers.tryContains { _ in throw TestError.oops }.result.get() }
        let failing = Publishers.Sequence<[Int], TestError>(sequence: [1, 2])
        #expect(failing.count() == Result<Int, TestError>.Publisher(2))
    }

    @Test func countOfARandomAccessCollectionThatNeverFailsIsAJust() {
        let count = (0..<7).publisher.count()
        #expect(type(of: count) == Just<Int>.self)
        #expect(count.output == 7)
        let setCount = Set([1, 2]).publisher.count()
        #expect(type(of: setCount) == Result<Int, Never>.Publisher.self)
        #expect(setCount.result == .success(2))
    }

    @Test func elementOperatorsReturnOptionalPublishers() {
        let numbers = [4, 9, 1, 7].publisher
        let minimum = numbers.min()
        #expect(type(of: minimum) == Optional<Int>.Publisher.self)
        #expect(minimum.output == 1)
        #expect(numbers.max().output == 9)
        #expect(numbers.min(by: >).output == 9)
        #expect(numbers.max(by: >).output == 1)
        #expect(numbers.first().output == 4)
        #expect(numbers.first(where: { $0 > 5 }).output == 9)
        #expect(numbers.last().output == 7)
        #expect(numbers.last(where: { $0 < 5 }).output == 1)
        #expect(numbers.output(at: 2).output == 1)
        #expect(numbers.output(at: 10).output == nil)
        #expect([Int]().publisher.min().output == nil)
    }

    @Test func ignoreOutputAndSetFailureType() {
        let empty = [1, 2].publisher.ignoreOutput()
        #expect(type(of: empty) == Empty<Int, Never>.self)
        #expect(empty.completeImmediately)
        let retyped = [1, 2].publisher.setFailureType(to: TestError.self)
        #expect(type(of: retyped) == Publishers.Sequence<[Int], TestError>.self)
        #expect(retyped.sequence == [1, 2])
    }

    @Test func appendAndPrependBuildOneSequence() {
        let numbers = [2, 3].publisher
        #expect(numbers.prepend(0, 1) == Sut(sequence: [0, 1, 2, 3]))
        #expect(numbers.prepend(-1..<1) == Sut(sequence: [-1, 0, 2, 3]))
        #expect(numbers.prepend([9].publisher) == Sut(sequence: [9, 2, 3]))
        #expect(numbers.append(4) == Sut(sequence: [2, 3, 4]))
        #expect(numbers.append(5...6) == Sut(sequence: [2, 3, 5, 6]))
        #expect(numbers.append([8].publisher) == Sut(sequence: [2, 3, 8]))
    }

    @Test func specialisedPublishersDeliverTheirValues() {
        let subscriber = TestSubscriber<Int, Never>()
        (1...4).publisher.filter { $0.isMultiple(of: 2) }.map { $0 * 10 }.subscribe(subscriber)
        #expect(subscriber.events == [.subscription, .value(20), .value(40), .completion(.finished)])
    }
}
