#if !canImport(Combine)
import Cadence
import Foundation
import Testing

@Suite struct ImmediateSchedulerTests {
    typealias Stride = ImmediateScheduler.SchedulerTimeType.Stride

    @Test func everyScheduleOverloadRunsTheActionBeforeReturningOnTheCallingThread() {
        let scheduler = ImmediateScheduler.shared
        let caller = Thread.current
        var log: [String] = []
        scheduler.schedule { log.append("now:\(Thread.current == caller)") }
        scheduler.schedule(options: nil) { log.append("options:\(Thread.current == caller)") }
        scheduler.schedule(after: scheduler.now.advanced(by: 1_000)) { log.append("after") }
        scheduler.schedule(after: scheduler.now, tolerance: 5, options: nil) { log.append("tolerance") }
        #expect(log == ["now:true", "options:true", "after", "tolerance"])
    }

    @Test func aRepeatingActionRunsOnceAtOnceAndItsCancellableIsTheEmptySubscription() {
        let scheduler = ImmediateScheduler.shared
        var runs = 0
        let cancellable = scheduler.schedule(after: scheduler.now, interval: 10) { runs += 1 }
        #expect(runs == 1)
        cancellable.cancel()
        cancellable.cancel()
        #expect(runs == 1)
        #expect(String(describing: cancellable) == "Empty")
    }

    @Test func timeNeverMoves() {
        let now = ImmediateScheduler.shared.now
        #expect(now == ImmediateScheduler.shared.now)
        #expect(now.advanced(by: 100) == now)
        #expect(now.distance(to: now.advanced(by: -1)) == 0)
        #expect(!(now < now.advanced(by: 5)))
        #expect(ImmediateScheduler.shared.minimumTolerance == 0)
    }

    @Test func strideLiteralsAndArithmetic() {
        #expect(Stride(14) == 14)
        #expect(Stride(-4) == -4)
        #expect(Stride(14) == 14.6)
        #expect(Stride(-4) == -4.1)
        #expect(Stride(floatLiteral: 1e300).magnitude == .max)
        #expect(Stride(floatLiteral: -1e300).magnitude == .min)
        #expect(Stride(floatLiteral: .nan).magnitude == 0)
        #expect(Stride(exactly: UInt64.max) == nil)
        #expect(Stride(exactly: 7 as UInt8)?.magnitude == 7)
        #expect(Stride(1) < Stride(2))
        #expect(Stride(-10) < Stride(2))
        #expect(Stride(-4) * Stride(5) == -20)
        #expect(Stride(-4) + Stride(5) == 1)
        #expect(Stride(10) - Stride(3) == 7)
        #expect(-Stride(3) == -3)
        var stride = Stride(-4)
        stride += 5
        #expect(stride == 1)
        stride -= -10
        #expect(stride == 11)
        stride *= 2
        #expect(stride == 22)
    }

    @Test func intervalFactoriesAreAllZero() {
        #expect(Stride.seconds(1.2) == 0)
        #expect(Stride.seconds(1_100) == 0)
        #expect(Stride.milliseconds(123) == 0)
        #expect(Stride.microseconds(51) == 0)
        #expect(Stride.nanoseconds(23) == 0)
    }

    @Test func strideCodesAsItsMagnitude() throws {
        let encoded = try JSONEncoder().encode(["value": Stride(-42)])
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":{"magnitude":-42}}"#)
        let decoded = try JSONDecoder().decode([String: Stride].self, from: encoded)
        #expect(decoded["value"] == -42)
    }
}
#endif
