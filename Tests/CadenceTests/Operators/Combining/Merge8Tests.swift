import Cadence
import Testing

@Suite("Publishers.Merge8")
struct Merge8Tests {
    private let checks = MultiUpstreamChecks(arity: 8) {
        Publishers.Merge8($0[0], $0[1], $0[2], $0[3], $0[4], $0[5], $0[6], $0[7])
    }

    @Test(arguments: MergeArityBehaviour.allCases)
    func sharesTheMergeBehaviour(_ behaviour: MergeArityBehaviour) {
        checks.check(behaviour)
    }

    @Test func isEquatableAndDescribedAsMerge() throws {
        let first = Publishers.Merge8(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5), Just(6), Just(7))
        try checks.isEquatableAndDescribed(
            as: "Merge",
            first,
            equalTo: Publishers.Merge8(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5), Just(6), Just(7)),
            notEqualTo: Publishers.Merge8(Just(0), Just(1), Just(2), Just(3), Just(4), Just(5), Just(6), Just(99)))
        #expect(first.h == Just(7))
    }
}
