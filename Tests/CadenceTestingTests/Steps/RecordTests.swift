import CadenceTesting
import Testing

private enum RecordedFeedError: Error {
    case dropped
}

/// `record()`: what a publisher does, written as steps and as a marble diagram to paste, in a failure.
@Suite struct RecordTests {
    @Test func aRecordingIsWrittenAsStepsAndAsAMarbleDiagram() {
        let clock = VirtualClock()
        let feed: TestPublisher<Int, Never> = clock.hot([
            (0, .value(1)), (5, .value(2)), (5, .value(3)), (400, .finished),
        ])
        expectFailures([
            """
            record() failed: it recorded 4 events, written below as steps and as a marble diagram to paste in its \
            place (record() always fails, so that it is not left in).

                expect(TestPublisher<Int, Never>)
              ✗   .record()

                 tick  received      expected
                    0  subscription
                    0  1                       record()
                    5  2                       record()
                    5  3                       record()
                  400  finished                record()

            Recorded as steps:
                .toEmit(1, within: .ticks(0))
                .thenEmit([2, 3], within: .ticks(5))
                .thenFinish(within: .ticks(395))

            Recorded as a marble diagram:
                .toMatch("a----(bc) 394ms |", values: ["a": 1, "b": 2, "c": 3])
            """
        ]) {
            expect(feed, on: clock).record()
        }
    }

    @Test func thePastedFormsPass() {
        let clock = VirtualClock()
        let feed: TestPublisher<Int, Never> = clock.cold([
            (0, .value(1)), (5, .value(2)), (5, .value(3)), (400, .finished),
        ])
        expect(feed, on: clock)
            .toEmit(1, within: .ticks(0))
            .thenEmit([2, 3], within: .ticks(5))
            .thenFinish(within: .ticks(395))
        expect(feed, on: clock).toMatch("a----(bc) 394ms |", values: ["a": 1, "b": 2, "c": 3])
    }

    @Test func laterInAChainAFailureAndABudget() {
        let clock = VirtualClock()
        let feed = clock.cold("a--b-#", values: ["a": "x", "b": "y"], error: RecordedFeedError.dropped)
        let failures = recordingFailures {
            expect(feed, on: clock).toEmit("x").record(within: .ticks(10))
        }
        let message = failures.first?.message ?? ""
        #expect(failures.count == 1)
        #expect(message.hasPrefix("record(within: .ticks(10)) failed: it recorded 2 events, written below"))
        #expect(
            message.hasSuffix(
                """
                Recorded as steps:
                    .thenEmit("y", within: .ticks(3))
                    .thenFail(within: .ticks(2))  // RecordedFeedError.dropped

                Recorded as a marble diagram:
                    .thenMatch("---a-#", values: ["a": "y"], error: RecordedFeedError.dropped)
                """))
    }

    @Test func nothingRecordedSaysSo() {
        let failures = recordingFailures {
            expect(Empty<Int, Never>(completeImmediately: false), on: VirtualClock()).record()
        }
        #expect(
            failures.first?.message.hasSuffix(
                """
                Recorded: nothing. The publisher sent no event before the clock went idle; to say so, paste:
                    .toEmitNothing(for: <how long>)
                """) == true)
    }
}
