import CadenceTesting
import Testing

/// A failure in a long chain stays a screenful: the timeline keeps its ends and the rows around the divergence and
/// counts the rest, and a long list of values in a call keeps its ends and counts the rest.
@Suite struct LongChainMessageTests {
    @Test func aLongTimelineKeepsItsEndsAndTheRowsAroundTheDivergence() {
        let expected = Array(1...29) + [0] + Array(31...60)
        expectFailures([
            """
            toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60]) failed: value 30 of 60 differs: expected 0, received 30.

                expect(Publishers.Sequence<ClosedRange<Int>, Never>)
              ✗   .toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                  .thenFinish()  (not checked)

                 received      expected
                 subscription
                 1             1         toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 2             2         toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 3             3         toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 4             4         toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 … (15 rows left out)
                 20            20        toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 21            21        toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 22            22        toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 23            23        toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 24            24        toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 25            25        toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 26            26        toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 27            27        toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 28            28        toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 29            29        toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
              →  30            0         toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (47 more), 58, 59, 60])
                 31
                 32
                 33
                 34
                 35
                 36
                 37
                 38
                 39
                 40
                 41
                 42
                 43
                 44
                 45
                 46
                 47
                 48
                 49
                 … (7 rows left out)
                 57
                 58
                 59
                 60
                 finished
            """
        ]) {
            expect((1...60).publisher).toEmit(expected).thenFinish()
        }
    }

    @Test func aFailureInAChainOfThousandsOfValuesStaysAScreenful() {
        let expected = Array(1..<3_000) + [0]
        let failures = recordingFailures {
            expect((1...3_000).publisher).toEmit(expected).thenFinish()
        }
        let message = failures.map(\.message).first ?? ""
        #expect(failures.count == 1)
        #expect(
            message.hasPrefix(
                "toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (2,987 more), 2998, 2999, 0]) failed: value 3000 of 3000 "
                    + "differs: expected 0, received 3000."
            ))
        #expect(message.split(separator: "\n").count < 40)
        #expect(message.count < 3_000)
        #expect(message.contains("\n     … (2,985 rows left out)\n"))
    }

    /// Writing the message is linear in the events: the step's call is written once, not once per row of the
    /// timeline (100,000 values took 436 s in a debug build when it was, 1 s after).
    @Test func aFailureAfterOneHundredThousandValuesIsWrittenInOnePass() {
        let expected = Array(1..<100_000) + [0]
        let failures = recordingFailures {
            expect((1...100_000).publisher).toEmit(expected).thenFinish()
        }
        #expect(
            failures.map { String($0.message.prefix { $0 != "\n" }) } == [
                "toEmit([1, 2, 3, 4, 5, 6, 7, 8, 9, 10, … (99,987 more), 99998, 99999, 0]) failed: value 100000 of 100000 "
                    + "differs: expected 0, received 100000."
            ])
        #expect(failures.first?.message.contains("\n     … (99,985 rows left out)\n") == true)
    }
}
