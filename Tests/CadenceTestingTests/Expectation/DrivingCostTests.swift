import Dispatch
import Testing

@testable import CadenceTesting

/// A step that waits through many ticks looks at each event a bounded number of times (issue 20 item 1): the
/// drivers hand a pending step only what it has not matched yet, and the built-in steps that match one event after
/// another start there. Counted, not timed: the speed is the Benchmarks package's `long-step` row.
@Suite struct DrivingCostTests {
    /// What a step was shown: how many looks, and how many events it had to examine over all of them.
    final class Looks: @unchecked Sendable { // used on the test's thread only
        var count = 0
        var examined = 0
    }

    /// A step that wants `count` values and counts what each look makes it examine: the events past `known`.
    struct CountingStep<Output>: ExpectationStep {
        typealias Failure = Never
        let count: Int
        let looks: Looks

        var arguments: StepArguments { .count(count) }

        func evaluate(_ events: ArraySlice<TimedEvent<Output, Never>>, isFinal: Bool) -> StepOutcome {
            evaluate(events, isFinal: isFinal, known: 0)
        }

        func evaluate(_ events: ArraySlice<TimedEvent<Output, Never>>, isFinal: Bool, known: Int) -> StepOutcome {
            looks.count += 1
            looks.examined += events.count - known
            if events.count >= count { return .satisfied(consumed: count) }
            if isFinal {
                return .failed(StepDivergence(.missing(.matchingValue), matched: events.count, atEvent: false))
            }
            return .pending
        }

        func expectation(at index: Int, of count: Int) -> StepExpectation { .anyValue }

        func missing(after consumed: Int) -> StepExpectation { .anyValue }
    }

    /// A timer ticking every tick of a fresh scheduler, recorded by `expect`.
    private func ticking() -> (VirtualScheduler, PublisherExpectation<VirtualTime, Never>) {
        let scheduler = VirtualClock().scheduler
        let timer = scheduler.timerPublisher(every: .ticks(1)).autoconnect()
        return (scheduler, expect(timer, on: scheduler))
    }

    @Test func aStepWaitingThroughAThousandTicksExaminesEachEventOnce() {
        let (_, expectation) = ticking()
        let looks = Looks()
        expectation.perform(
            ChainStep(
                CountingStep<VirtualTime>(count: 1_000, looks: looks), name: "toEmit", window: nil,
                location: SourceCodeLocation()
            ))
        expectation.thenIgnoreRest()
        #expect(looks.count == 1_001) // before the first tick, and after each
        #expect(looks.examined == 1_000)
    }

    @Test func aStepWithABudgetExaminesEachEventOnceToo() {
        let (_, expectation) = ticking()
        let looks = Looks()
        expectation.perform(
            ChainStep(
                CountingStep<VirtualTime>(count: 500, looks: looks), name: "toEmit", timing: .within(.ticks(600)),
                window: .milliseconds(600), location: SourceCodeLocation()
            ))
        expectation.thenIgnoreRest()
        #expect(looks.examined == 500)
    }

    /// On the wall clock the step looks again at each event's arrival; it examines each event once all the same.
    @Test(.hangGuard) func aWallClockStepExaminesEachEventOnce() async {
        let subject = PassthroughSubject<Int, Never>()
        let expectation = expect(subject)
        let looks = Looks()
        let sender = Task.detached {
            for value in 0..<1_000 {
                subject.send(value)
                await Task.yield()
            }
        }
        await expectation.perform(
            ChainStep(
                CountingStep<Int>(count: 1_000, looks: looks), name: "toEmit", timing: .timeout(.seconds(600)),
                window: nil, location: SourceCodeLocation()
            ), timeout: .seconds(600))
        await sender.value
        expectation.thenIgnoreRest()
        #expect(looks.examined == 1_000)
        #expect(looks.count >= 1)
    }

    /// The built-in steps settle as they did when they looked at everything each time: at the same tick, with the
    /// same values consumed.
    @Test func theBuiltInStepsSettleWhereTheyDid() {
        let (scheduler, counted) = ticking()
        counted.toEmit(count: 2_000).thenIgnoreRest()
        #expect(scheduler.now.virtualTick == 2_000)
        #expect(counted.values.count == 2_000)

        let (eventualScheduler, eventually) = ticking()
        eventually.toEventuallyEmit(VirtualTime(tick: 1_500)).thenIgnoreRest()
        #expect(eventualScheduler.now.virtualTick == 1_500)

        let (valuesScheduler, values) = ticking()
        values.toEmit((1...1_000).map { VirtualTime(tick: $0) }).thenIgnoreRest()
        #expect(valuesScheduler.now.virtualTick == 1_000)
    }

    @Test func aValueOffTheListAfterAThousandMatchesStillFailsAtIt() {
        var expected = (1...1_000).map { VirtualTime(tick: $0) }
        expected[999] = VirtualTime(tick: 5_000)
        let failures = recordingFailures {
            let (_, expectation) = ticking()
            expectation.toEmit(expected).thenIgnoreRest()
        }
        #expect(
            failures.map { String($0.message.prefix { $0 != "\n" }) } == [
                "toEmit([tick 1, tick 2, tick 3, tick 4, tick 5, tick 6, tick 7, tick 8, tick 9, tick 10, … (987 more), "
                    + "tick 998, tick 999, tick 5000]) failed: value 1000 of 1000 differs: expected tick 5000, received "
                    + "tick 1000 at tick 1000."
            ])
    }
}
