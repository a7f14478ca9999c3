#if !canImport(Combine)
import Cadence
import Foundation
import Testing

/// The `Date`-based time types of `RunLoop` and `OperationQueue` are distinct types with the same behaviour; these
/// checks pin that behaviour once, for both (values recorded from Combine).
protocol DateSchedulerTime: Strideable, Codable, Hashable where Stride: DateSchedulerStride {
    init(_ date: Date)
    var date: Date { get }
}

protocol DateSchedulerStride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
    Codable
where Magnitude == TimeInterval {
    init(_ timeInterval: TimeInterval)
    var timeInterval: TimeInterval { get }
}

extension RunLoop.SchedulerTimeType: DateSchedulerTime {}
extension RunLoop.SchedulerTimeType.Stride: DateSchedulerStride {}
extension OperationQueue.SchedulerTimeType: DateSchedulerTime {}
extension OperationQueue.SchedulerTimeType.Stride: DateSchedulerStride {}

enum DateSchedulerTimeChecks {
    /// Every check below, for `Time`.
    static func all<Time: DateSchedulerTime>(_: Time.Type) throws {
        distanceAndAdvance(Time.self)
        strideValues(Time.self)
        strideArithmetic(Time.self)
        try coding(Time.self)
    }

    static func distanceAndAdvance<Time: DateSchedulerTime>(_: Time.Type) {
        let time1 = Time(Date(timeIntervalSince1970: 10_000))
        let time2 = Time(Date(timeIntervalSince1970: 10_431))
        let distantFuture = Time(.distantFuture)
        #expect(time1.distance(to: time2).timeInterval == 431)
        #expect(time2.distance(to: time1).timeInterval == -431)
        #expect(time1.distance(to: distantFuture).timeInterval == 64_092_201_200)
        #expect(distantFuture.distance(to: time1).timeInterval == -64_092_201_200)
        #expect(distantFuture.distance(to: distantFuture).timeInterval == 0)

        let time = Time(Date(timeIntervalSinceReferenceDate: 10_000))
        let beginning = Time(Date(timeIntervalSinceReferenceDate: 1))
        #expect(time.advanced(by: .seconds(431)) == Time(Date(timeIntervalSinceReferenceDate: 10_431)))
        #expect(time.advanced(by: .seconds(-220)) == Time(Date(timeIntervalSinceReferenceDate: 9_780)))
        #expect(
            time.advanced(by: .nanoseconds(.max)).date == Date(timeIntervalSinceReferenceDate: 9_223_382_036.854_776))
        #expect(beginning.advanced(by: .nanoseconds(-1_000)).date == Date(timeIntervalSinceReferenceDate: 0.999_999))
        #expect(beginning.advanced(by: .seconds(-1_000)).date == Date(timeIntervalSinceReferenceDate: -999))
        #expect(time < time.advanced(by: .milliseconds(1)))
        #expect(Set([time, Time(Date(timeIntervalSinceReferenceDate: 10_000)), beginning]).count == 2)
    }

    static func coding<Time: DateSchedulerTime>(_: Time.Type) throws {
        let time = Time(Date(timeIntervalSinceReferenceDate: 1_024.75))
        let encodedTime = try JSONEncoder().encode(time)
        #expect(String(decoding: encodedTime, as: UTF8.self) == #"{"date":1024.75}"#)
        #expect(try JSONDecoder().decode(Time.self, from: encodedTime) == time)

        let stride = Time.Stride.seconds(1_024.5)
        let encodedStride = try JSONEncoder().encode(stride)
        #expect(String(decoding: encodedStride, as: UTF8.self) == #"{"magnitude":1024.5}"#)
        #expect(try JSONDecoder().decode(Time.Stride.self, from: encodedStride) == stride)
    }

    static func strideValues<Time: DateSchedulerTime>(_: Time.Type) {
        typealias Stride = Time.Stride
        #expect(Stride.seconds(2).timeInterval == 2)
        #expect(Stride.seconds(2.2).timeInterval == 2.2)
        #expect(Stride.seconds(Double.infinity).timeInterval == .infinity)
        #expect(Stride.milliseconds(2).timeInterval == 0.002)
        #expect(Stride.microseconds(2).timeInterval == 2e-06)
        #expect(Stride.nanoseconds(2).timeInterval == 2e-09)
        #expect(Stride.seconds(Int.max).timeInterval == 9.223_372_036_854_776e18)
        #expect(Stride.nanoseconds(.max).timeInterval == 9_223_372_036.854_776)
        #expect(Stride(2.2).magnitude == 2.2)
        #expect((1.2 as Stride).magnitude == 1.2)
        #expect((2 as Stride).magnitude == 2)
        #expect(Stride(exactly: UInt64.max) == nil)
        #expect(Stride(exactly: 871 as UInt64)?.magnitude == 871)
    }

    static func strideArithmetic<Time: DateSchedulerTime>(_: Time.Type) {
        typealias Stride = Time.Stride
        #expect(Stride.nanoseconds(1) < .nanoseconds(2))
        #expect(Stride.nanoseconds(-2) > .microseconds(-10))
        #expect(Stride.milliseconds(2) < .seconds(2))
        #expect((Stride.nanoseconds(18) * .microseconds(1)).magnitude == 1.8e-14)
        #expect((Stride.nanoseconds(7) + .nanoseconds(12)).magnitude == 1.899_999_999_999_999_8e-08)
        #expect((Stride.milliseconds(-12) + .seconds(7)).magnitude == 6.988)
        #expect((Stride.seconds(-12) - .milliseconds(7)).magnitude == -12.007)
        var stride = Stride.milliseconds(-12)
        stride -= .seconds(7)
        #expect(stride.magnitude == -7.012)
        var product = Stride.milliseconds(-12)
        product *= .seconds(2)
        #expect(product.magnitude == -0.024)
        #expect((-Stride.seconds(3)).magnitude == -3)
    }
}
#endif
