import Cadence
import Testing

@Suite("Publishers.Merge3")
struct Merge3Tests {
    private let checks = MultiUpstreamChecks(arity: 3) { Publishers.Merge3($0[0], $0[1], $0[2]) }

    @Test(arguments: MergeArityBehaviour.allCases)
    func sharesTheMergeBehaviour(_ behaviour: MergeArityBehaviour) {
        checks.check(behaviour)
    }

    @Test func fusedMergeAddsOnePublisher() {
        typealias J = Just<Int>
        let merged: Publishers.Merge4<J, J, J, J> =
            Publishers.Merge3(Just(0), Just(1), Just(2)).merge(with: Just(3))
        checks.fusedMergeDeliversEveryValue(merged)
    }

    @Test func isEquatableAndDescribedAsMerge() throws {
        let first = Publishers.Merge3(Just(0), Just(1), Just(2))
        try checks.isEquatableAndDescribed(
            as: "Merge",
            first,
            equalTo: Publishers.Merge3(Just(0), Just(1), Just(2)),
            notEqualTo: Publishers.Merge3(Just(0), Just(1), Just(99)))
        #expect(first.c == Just(2))
    }
}
