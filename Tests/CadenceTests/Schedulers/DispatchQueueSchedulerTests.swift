#if !canImport(Combine)
import Cadence
import Dispatch
import Foundation
import Testing

@Suite struct DispatchQueueSchedulerTests {
    typealias Time = DispatchQueue.SchedulerTimeType
    typealias Stride = DispatchQueue.SchedulerTimeType.Stride

    private static let queueKey = DispatchSpecificKey<String>()

    private func makeQueue(_ label: String, attributes: DispatchQueue.Attributes = []) -> DispatchQueue {
        let queue = DispatchQueue(label: label, attributes: attributes)
        queue.setSpecific(key: Self.queueKey, value: label)
        return queue
    }

    // MARK: - Time type

    @Test func distanceIsInNanosecondsAndNeverReachesDistantFuture() {
        let time1 = Time(DispatchTime(uptimeNanoseconds: 10_000))
        let time2 = Time(DispatchTime(uptimeNanoseconds: 10_431))
        let distantFuture = Time(.distantFuture)
        let nearlyDistantFuture = Time(DispatchTime(uptimeNanoseconds: UInt64.max - 1_024))
        let int64Max = Time(DispatchTime(uptimeNanoseconds: UInt64(Int.max)))
        #expect(time1.distance(to: time2) == .nanoseconds(431))
        #expect(time2.distance(to: time1) == .nanoseconds(-431))
        #expect(time1.distance(to: distantFuture) == .nanoseconds(.max))
        #expect(distantFuture.distance(to: time1) == .nanoseconds(.max))
        #expect(time1.distance(to: nearlyDistantFuture) == .nanoseconds(.max))
        #expect(nearlyDistantFuture.distance(to: time1) == .nanoseconds(.max))
        #expect(time1.distance(to: int64Max) == .nanoseconds(.max - 10_000))
        #expect(int64Max.distance(to: time1) == .nanoseconds(-(.max - 10_000)))
        #expect(distantFuture.distance(to: distantFuture) == .nanoseconds(0))
        #expect(int64Max.distance(to: int64Max) == .nanoseconds(0))
    }

    @Test func advancingClampsAtTheEndsOfDispatchTime() {
        let time = Time(DispatchTime(uptimeNanoseconds: 10_000))
        #expect(time.advanced(by: .nanoseconds(431)) == Time(DispatchTime(uptimeNanoseconds: 10_431)))
        #expect(time.advanced(by: .nanoseconds(-220)) == Time(DispatchTime(uptimeNanoseconds: 9_780)))
        #expect(time.advanced(by: .nanoseconds(.max)).dispatchTime == .distantFuture)
        let beginning = Time(DispatchTime(uptimeNanoseconds: 1))
        #expect(beginning.advanced(by: .nanoseconds(-1_000)).dispatchTime == DispatchTime(uptimeNanoseconds: 1))
        #expect(time < time.advanced(by: .nanoseconds(1)))
    }

    @Test func equalityAndHashingFollowTheRawDispatchTime() {
        let time1 = Time(DispatchTime(uptimeNanoseconds: 10_000))
        let time2 = Time(DispatchTime(uptimeNanoseconds: 10_000))
        let time3 = Time(DispatchTime(uptimeNanoseconds: 10_001))
        #expect(time1 == time2)
        #expect(time1 != time3)
        #expect(time1.hashValue == time1.dispatchTime.rawValue.hashValue)
        #expect(Set([time1, time2, time3]).count == 2)
    }

    @Test func timeCodesAsItsUptimeInNanoseconds() throws {
        let time = Time(DispatchTime(uptimeNanoseconds: 42))
        let encoded = try JSONEncoder().encode(["value": time])
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":42}"#)
        #expect(try JSONDecoder().decode([String: Time].self, from: encoded)["value"] == time)
    }

    // MARK: - Stride

    @Test func strideConvertsToAndFromDispatchTimeInterval() {
        #expect(Stride.seconds(2).timeInterval == .nanoseconds(2_000_000_000))
        #expect(Stride.milliseconds(2).timeInterval == .nanoseconds(2_000_000))
        #expect(Stride.microseconds(2).timeInterval == .nanoseconds(2_000))
        #expect(Stride.nanoseconds(2).timeInterval == .nanoseconds(2))
        #expect(Stride(.seconds(2)).magnitude == 2_000_000_000)
        #expect(Stride(.milliseconds(2)).magnitude == 2_000_000)
        #expect(Stride(.microseconds(2)).magnitude == 2_000)
        #expect(Stride(.nanoseconds(2)).magnitude == 2)
        #expect(Stride(.never).magnitude == .max)
        #expect(Stride(.seconds(.max)).magnitude == .max)
        #expect(Stride(.seconds(.min)).magnitude == .min)
        #expect(Stride(.milliseconds(.min)).magnitude == .min)
        #expect(Stride(.microseconds(.max)).magnitude == .max)
    }

    @Test func literalsAndExactlyCountSeconds() {
        #expect((2 as Stride).magnitude == 2_000_000_000)
        #expect((1.2 as Stride).magnitude == 1_200_000_000)
        #expect(Stride.seconds(1.2).magnitude == 1_200_000_000)
        #expect(Stride(exactly: 2 as UInt64)?.magnitude == 2_000_000_000)
        #expect(Stride(exactly: UInt64.max) == nil)
        #expect(Stride.seconds(Double(Int.max) / 1_000_000_000 - 1).magnitude == 9_223_372_035_854_776_320)
        #expect(Stride.seconds(Double(Int.max) / 1_000_000_000).magnitude == .max)
        #expect(Stride.seconds(-1e300).magnitude == .min)
        #expect(Stride.seconds(Int.max).magnitude == .max)
        #expect(Stride.milliseconds(.min).magnitude == .min)
    }

    @Test func strideArithmeticIsInNanosecondsAndAProductIsZero() {
        #expect(Stride.nanoseconds(1) < .nanoseconds(2))
        #expect(Stride.nanoseconds(-2) > .microseconds(-10))
        #expect(Stride.milliseconds(2) < .seconds(2))
        #expect((Stride.nanoseconds(7) + .nanoseconds(-12)).magnitude == -5)
        #expect((Stride.nanoseconds(0) - .microseconds(2)).magnitude == -2_000)
        #expect((Stride.nanoseconds(18) * .microseconds(1)).magnitude == 0)
        #expect((Stride.nanoseconds(.max) + .nanoseconds(1)).magnitude == .max)
        #expect((Stride.nanoseconds(.min) - .nanoseconds(1)).magnitude == .min)
        var stride = Stride.nanoseconds(12)
        stride += .nanoseconds(7)
        #expect(stride.magnitude == 19)
        stride -= .nanoseconds(20)
        #expect(stride.magnitude == -1)
        stride *= .nanoseconds(15)
        #expect(stride.magnitude == 0)
        #expect((-Stride.milliseconds(1)).magnitude == -1_000_000)
    }

    @Test func strideCodesItsNanosecondsUnderCombinesKey() throws {
        let stride = Stride.nanoseconds(419_872)
        let encoded = try JSONEncoder().encode(["value": stride])
        #expect(String(decoding: encoded, as: UTF8.self) == #"{"value":{"_nanoseconds":419872}}"#)
        #expect(try JSONDecoder().decode([String: Stride].self, from: encoded)["value"] == stride)
        #expect(Set([Stride.seconds(1), .milliseconds(1_000), .nanoseconds(5)]).count == 2)
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func secondsOfNaNTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            _ = DispatchQueue.SchedulerTimeType.Stride.seconds(Double.nan)
        }
        #expect(
            result?.standardErrorText.contains(
                "DispatchQueue.SchedulerTimeType.Stride.seconds(_:) was given NaN; an interval must be a number."
            ) == true
        )
    }
    #endif

    // MARK: - Scheduler

    @Test func nowIsDispatchTimeNowAndToleranceIsZero() {
        let before = DispatchTime.now()
        let now = DispatchQueue.global().now
        let after = DispatchTime.now()
        #expect(before <= now.dispatchTime && now.dispatchTime <= after)
        #expect(DispatchQueue.main.minimumTolerance == .nanoseconds(0))
        let options = DispatchQueue.SchedulerOptions()
        #expect(options.qos == .unspecified)
        #expect(options.flags == [])
        #expect(options.group == nil)
    }

    @Test func actionsRunAsynchronouslyOnTheQueueInTheOrderScheduled() {
        let queue = makeQueue("cadence.dispatch.order")
        let log = LockedBox<[Int]>([])
        let onQueue = LockedBox<[Bool]>([])
        let done = DispatchSemaphore(value: 0)
        let gate = DispatchSemaphore(value: 0)
        queue.async { gate.wait() } // holds the queue so nothing scheduled below can run before `schedule` returns
        for index in 0..<100 {
            queue.schedule {
                log.append(index)
                onQueue.append(DispatchQueue.getSpecific(key: Self.queueKey) == "cadence.dispatch.order")
            }
        }
        queue.schedule { done.signal() }
        #expect(log.value.isEmpty)
        gate.signal()
        #expect(done.wait(timeout: .now() + 10) == .success)
        #expect(log.value == Array(0..<100))
        #expect(onQueue.value.allSatisfy { $0 } && onQueue.value.count == 100)
    }

    @Test func theGroupOptionTracksImmediateAndDelayedActions() {
        let queue = makeQueue("cadence.dispatch.group", attributes: .concurrent)
        let group = DispatchGroup()
        let ran = LockedBox<[String]>([])
        queue.schedule(options: .init(qos: .userInitiated, group: group)) { ran.append("now") }
        queue.schedule(
            after: queue.now.advanced(by: .milliseconds(30)),
            tolerance: .zero,
            options: .init(group: group)
        ) { ran.append("later") }
        #expect(group.wait(timeout: .now() + 10) == .success)
        #expect(Set(ran.value) == ["now", "later"])
    }

    @Test func aDelayedActionRunsOnTheQueueAndNeverBeforeItsDate() throws {
        let queue = makeQueue("cadence.dispatch.after")
        let done = DispatchSemaphore(value: 0)
        let due = queue.now.advanced(by: .milliseconds(50))
        let observed = LockedBox<(Time, String?)?>(nil)
        queue.schedule(after: due) {
            observed.mutate { $0 = (queue.now, DispatchQueue.getSpecific(key: Self.queueKey)) }
            done.signal()
        }
        #expect(done.wait(timeout: .now() + 10) == .success)
        let (ranAt, label) = try #require(observed.value)
        #expect(ranAt >= due)
        #expect(label == "cadence.dispatch.after")
    }

    @Test func aDateInThePastRunsAtOnce() {
        let queue = makeQueue("cadence.dispatch.past")
        let done = DispatchSemaphore(value: 0)
        queue.schedule(after: queue.now.advanced(by: .seconds(-5))) { done.signal() }
        #expect(done.wait(timeout: .now() + 10) == .success)
    }

    @Test func aRepeatingActionFiresRepeatedlyAndStopsOnceCancelled() {
        let queue = makeQueue("cadence.dispatch.repeat")
        // `sync` returns once any run already started has finished.
        RepeatingActionChecks.firesRepeatedlyAndStopsOnceCancelled(
            on: queue,
            settle: {
                queue.sync {}
                return true
            },
            afterQuiet: {
                queue.sync {}
                return true
            }
        )
    }

    @Test func releasingTheRepeatingCancellableStopsTheTimer() {
        let queue = makeQueue("cadence.dispatch.release")
        RepeatingActionChecks.releasingTheCancellableStopsIt(
            on: queue,
            settle: {
                queue.sync {}
                return true
            },
            afterQuiet: {
                queue.sync {}
                return true
            }
        )
    }
}
#endif
