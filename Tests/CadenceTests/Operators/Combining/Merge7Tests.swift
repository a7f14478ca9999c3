import Cadence
import Testing

@Suite("Publishers.Merge7")
struct Merge7Tests {
    private let checks = MultiUpstreamChecks(arity: 7) {
        Publishers.Merge7($0[0], $0[1], $0[2], $0[3], $0[4], $0[5], $0[6])
    }

    @Test(arguments: MergeArityBehaviour.allCases)
    func sharesTheMergeBehaviour(_ behaviour: MergeArityBehaviour) {
        checks.check(behaviour)
    }

    @Test func fusedMergeAddsOnePublisher() {
        typealias J = Just<Int>
        let merged: Publishers.Merge8<J, J, J, J, J, J, J, J> =
            Publishers.Merge7(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5), Just(6)).merge(with: Just(7))
        checks.fusedMergeDeliversEveryValue(merged)
    }

    @Test func isEquatableAndDescribedAsMerge() throws {
        let first = Publishers.Merge7(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5), Just(6))
        try checks.isEquatableAndDescribed(
            as: "Merge",
            first,
            equalTo: Publishers.Merge7(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5), Just(6)),
            notEqualTo: Publishers.Merge7(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5), Just(99)))
        #expect(first.g == Just(6))
    }
}
