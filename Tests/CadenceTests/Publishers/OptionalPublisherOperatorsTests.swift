import Cadence
import Testing

@Suite("Optional.Publisher operators")
struct OptionalPublisherOperatorsTests {
    typealias Sut<Wrapped> = Optional<Wrapped>.Publisher

    @Test func valueOperators() {
        let some = Sut(4)
        let none = Sut<Int>(nil)
        let mapped = some.map { String($0) }
        #expect(type(of: mapped) == Optional<String>.Publisher.self)
        #expect(mapped.output == "4")
        #expect(none.map { $0 + 1 }.output == nil)
        #expect(some.compactMap { $0 > 5 ? $0 : nil }.output == nil)
        #expect(some.filter { $0 == 4 } == some)
        #expect(some.first(where: { $0 == 3 }) == none)
        #expect(some.last(where: { $0 == 4 }) == some)
        #expect(some.drop(while: { $0 < 10 }) == none)
        #expect(some.prefix(while: { $0 < 10 }) == some)
        #expect(some.reduce(1, +) == Sut(5))
        #expect(none.reduce(1, +) == Sut(nil))
        #expect(some.scan(2, *) == Sut(8))
    }

    @Test func aggregateOperators() {
        let some = Sut(4)
        let none = Sut<Int>(nil)
        #expect(some.collect() == Sut([4]))
        #expect(none.collect() == Sut([]))
        #expect(some.count() == Sut(1))
        #expect(none.count() == Sut(nil))
        #expect(some.contains(4) == Sut(true))
        #expect(none.contains(4) == Sut(nil))
        #expect(some.contains(where: { $0 > 4 }) == Sut(false))
        #expect(some.allSatisfy { $0 > 0 } == Sut(true))
    }

    @Test func operatorsThatKeepThePublisher() {
        let some = Sut(4)
        #expect(some.min() == some)
        #expect(some.max() == some)
        #expect(some.min(by: <) == some)
        #expect(some.max(by: <) == some)
        #expect(some.first() == some)
        #expect(some.last() == some)
        #expect(some.removeDuplicates() == some)
        #expect(some.removeDuplicates(by: ==) == some)
        #expect(some.replaceError(with: 1) == some)
        #expect(some.retry(2) == some)
    }

    @Test func indexingOperators() {
        let some = Sut(4)
        #expect(some.dropFirst() == Sut(nil))
        #expect(some.dropFirst(0) == some)
        #expect(some.output(at: 0) == some)
        #expect(some.output(at: 1) == Sut(nil))
        #expect(some.output(in: 0...0) == some)
        #expect(some.output(in: 1..<5) == Sut(nil))
        #expect(some.prefix(0) == Sut(nil))
        #expect(some.prefix(3) == some)
    }

    @Test func replaceEmptyAndIgnoreOutput() {
        let replaced = Sut<Int>(nil).replaceEmpty(with: 9)
        #expect(type(of: replaced) == Just<Int>.self)
        #expect(replaced.output == 9)
        #expect(Sut(1).replaceEmpty(with: 9) == Just(1))
        #expect(type(of: Sut(1).ignoreOutput()) == Empty<Int, Never>.self)
    }

    #if !canImport(Combine) // Combine traps here too, with a message of its own
    @Test func anOutputRangeReachingIntMaxMinusOneTraps() async {
        #expect(Optional(1).publisher.output(in: 0..<(Int.max - 2)) == Sut(1))
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(1).publisher.output(in: 0...)
        }
        #expect(
            result?.standardErrorText.contains(
                "Optional.Publisher.output(in:): the range must end below Int.max - 1, got \(Int.max)") == true)
    }
    #endif

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func negativePrefixTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = Optional(1).publisher.prefix(-1)
        }
        #expect(
            result?.standardErrorText.contains(
                "Optional.Publisher.prefix(_:): the maximum length must not be negative, got -1") == true)
    }
    #endif
}
