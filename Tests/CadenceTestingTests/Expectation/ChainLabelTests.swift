import CadenceTesting
import Testing

/// `expect(_:_:)`: a chain the test named says so in every message (issue 19 item 4).
@Suite struct ChainLabelTests {
    @Test func aStepFailureOfANamedChainSaysWhichChain() {
        let clock = VirtualClock()
        let requests = PassthroughSubject<String, Never>()
        let results = PassthroughSubject<[String], Never>()
        expectFailures([
            """
            [results] toEmit(["swift"], within: .ticks(5)) failed: the value (["swift"]) did not arrive within 5 ticks \
            (by tick 5).

                expect(PassthroughSubject<Array<String>, Never>, "results")
              ✗   .toEmit(["swift"], within: .ticks(5))

                 tick  received      expected
                    0  subscription
              →     5  (nothing)     ["swift"]  toEmit(["swift"], within: .ticks(5))
            """
        ]) {
            let sent = expect(requests, "requests", on: clock)
            let received = expect(results, "results", on: clock)
            requests.send("swift")
            sent.toEmit("swift")
            received.toEmit(["swift"], within: .ticks(5))
        }
    }

    @Test func eventsNoStepExpectedNameTheChainToo() {
        let subject = PassthroughSubject<Int, Never>()
        expectFailures([
            """
            expect(PassthroughSubject<Int, Never>, "taps") received 1 event no step expected: 2 at tick 0.

                expect(PassthroughSubject<Int, Never>, "taps")
              ✓   .toEmit(1)

                 tick  received      expected
                    0  subscription
                    0  1             1          toEmit(1)
              →     0  2             (no step)
            """
        ]) {
            let taps = expect(subject, "taps", on: VirtualClock())
            subject.send(1)
            subject.send(2)
            taps.toEmit(1)
        }
    }

    @Test func aNameWithQuotesIsQuotedAsALiteral() {
        let failures = recordingFailures {
            expect(Just(1), #"the "main" feed"#).toEmit(2)
        }
        #expect(
            failures.map { String($0.message.prefix { $0 != "\n" }) } == [
                #"[the "main" feed] toEmit(2) failed: the value differs: expected 2, received 1."#
            ])
        #expect(failures.first?.message.contains(#"expect(Just<Int>, "the \"main\" feed")"#) == true)
    }
}
