import Cadence
import Testing

@Suite("Publishers.Merge4")
struct Merge4Tests {
    private let checks = MultiUpstreamChecks(arity: 4) { Publishers.Merge4($0[0], $0[1], $0[2], $0[3]) }

    @Test(arguments: MergeArityBehaviour.allCases)
    func sharesTheMergeBehaviour(_ behaviour: MergeArityBehaviour) {
        checks.check(behaviour)
    }

    @Test func fusedMergeAddsOnePublisher() {
        typealias J = Just<Int>
        let merged: Publishers.Merge5<J, J, J, J, J> =
            Publishers.Merge4(Just(0), Just(1), Just(2), Just(3)).merge(with: Just(4))
        checks.fusedMergeDeliversEveryValue(merged)
    }

    @Test func isEquatableAndDescribedAsMerge() throws {
        let first = Publishers.Merge4(Just(0), Just(1), Just(2), Just(3))
        try checks.isEquatableAndDescribed(
            as: "Merge",
            first,
            equalTo: Publishers.Merge4(Just(0), Just(1), Just(2), Just(3)),
            notEqualTo: Publishers.Merge4(Just(0), Just(1), Just(2), Just(99)))
        #expect(first.d == Just(3))
    }
}
