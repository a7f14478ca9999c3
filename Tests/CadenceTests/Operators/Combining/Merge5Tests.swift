import Cadence
import Testing

@Suite("Publishers.Merge5")
struct Merge5Tests {
    private let checks = MultiUpstreamChecks(arity: 5) { Publishers.Merge5($0[0], $0[1], $0[2], $0[3], $0[4]) }

    @Test(arguments: MergeArityBehaviour.allCases)
    func sharesTheMergeBehaviour(_ behaviour: MergeArityBehaviour) {
        checks.check(behaviour)
    }

    @Test func fusedMergeAddsOnePublisher() {
        typealias J = Just<Int>
        let merged: Publishers.Merge6<J, J, J, J, J, J> =
            Publishers.Merge5(Just(0), Just(1), Just(2), Just(3), Just(4)).merge(with: Just(5))
        checks.fusedMergeDeliversEveryValue(merged)
    }

    @Test func isEquatableAndDescribedAsMerge() throws {
        let first = Publishers.Merge5(Just(0), Just(1), Just(2), Just(3), Just(4))
        try checks.isEquatableAndDescribed(
            as: "Merge",
            first,
            equalTo: Publishers.Merge5(Just(0), Just(1), Just(2), Just(3), Just(4)),
            notEqualTo: Publishers.Merge5(Just(0), Just(1), Just(2), Just(3), Just(99)))
        #expect(first.e == Just(4))
    }
}
