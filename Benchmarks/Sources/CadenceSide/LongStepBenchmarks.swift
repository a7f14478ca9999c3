import CadenceTesting
import Dispatch

/// One step that drives many ticks — `toEmit(count:)` over a 1 ms timer — against advancing the same scheduler by
/// hand and then checking, the cheapest way to the same answer.
public enum LongStepBenchmarks {
    /// `expect(timer, on: scheduler).toEmit(count: ticks)`: one step driving `ticks` ticks. Returns the number of
    /// values the expectation recorded.
    public static func oneStep(ticks: Int) -> Int {
        let scheduler = DispatchQueue.test
        let timer = scheduler.timerPublisher(every: .milliseconds(1)).autoconnect()
        let expectation = expect(timer, on: scheduler)
        expectation.toEmit(count: ticks).thenIgnoreRest()
        return expectation.values.count
    }

    /// The same timer advanced by hand through `ticks` ticks, then its values counted. Returns that count.
    public static func handAdvanced(ticks: Int) -> Int {
        let scheduler = DispatchQueue.test
        var count = 0
        let cancellable = scheduler.timerPublisher(every: .milliseconds(1)).autoconnect().sink { _ in count += 1 }
        scheduler.advance(by: .milliseconds(ticks))
        cancellable.cancel()
        return count
    }

    /// Runs the one-step test once, at 100 ticks, with a recording reporter: the benchmark must measure a passing
    /// step. Returns the first failure's message, if any.
    public static func failure() -> String? {
        var count = 0
        let failures = recordingFailures { count = oneStep(ticks: 100) }
        return failures.first?.message ?? (count == 100 ? nil : "the step recorded \(count) values, not 100")
    }
}
