import Cadence
import Testing

@Suite("Publishers.Merge6")
struct Merge6Tests {
    private let checks = MultiUpstreamChecks(arity: 6) { Publishers.Merge6($0[0], $0[1], $0[2], $0[3], $0[4], $0[5]) }

    @Test(arguments: MergeArityBehaviour.allCases)
    func sharesTheMergeBehaviour(_ behaviour: MergeArityBehaviour) {
        checks.check(behaviour)
    }

    @Test func fusedMergeAddsOnePublisher() {
        typealias J = Just<Int>
        let merged: Publishers.Merge7<J, J, J, J, J, J, J> =
            Publishers.Merge6(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5)).merge(with: Just(6))
        checks.fusedMergeDeliversEveryValue(merged)
    }

    @Test func isEquatableAndDescribedAsMerge() throws {
        let first = Publishers.Merge6(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5))
        try checks.isEquatableAndDescribed(
            as: "Merge",
            first,
            equalTo: Publishers.Merge6(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5)),
            notEqualTo: Publishers.Merge6(Just(0), Just(1), Just(2), Just(3), Just(4), Just(99)))
        #expect(first.f == Just(5))
    }
}
