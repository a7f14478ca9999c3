// Ten thousand tests of one publisher each, as a test suite full of them runs: the same check written with the DSL
// and by hand with a `sink`. CadenceBenchmarks' `dsl-suite` row runs this package's test binary on each suite (as
// `swift test` does) and times the whole run, so what Cadence adds to a suite is measured with Swift Testing's own cost
// per test around it. `CADENCE_SUITE_TESTS` sets how many tests each suite has (10,000 without it).
import CadenceTesting
import Foundation
import Testing

/// The tests' arguments: one test case per value.
enum SuiteSize {
    static let cases: Range<Int> = {
        let text = ProcessInfo.processInfo.environment["CADENCE_SUITE_TESTS"] ?? ""
        return 0..<(Int(text).map { max(0, $0) } ?? 10_000)
    }()
}

@Suite struct TenThousandExpectations {
    @Test(arguments: SuiteSize.cases) func aJustEmitsItsValueAndFinishes(value: Int) {
        expect(Just(value)).toEmit(value).thenFinish()
    }
}

@Suite struct TenThousandHandWrittenChecks {
    @Test(arguments: SuiteSize.cases) func aJustEmitsItsValueAndFinishes(value: Int) {
        var values: [Int] = []
        var finished = 0
        let cancellable = Just(value).sink(
            receiveCompletion: { if case .finished = $0 { finished += 1 } },
            receiveValue: { values.append($0) }
        )
        withExtendedLifetime(cancellable) {}
        #expect(values == [value])
        #expect(finished == 1)
    }
}
