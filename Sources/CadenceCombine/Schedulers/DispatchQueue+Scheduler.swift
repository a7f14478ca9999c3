import CadenceSupport
import Dispatch

extension DispatchQueue: Scheduler {
    /// The scheduler time type used by the dispatch queue: a `DispatchTime`.
    public struct SchedulerTimeType: Strideable, Codable, Hashable {
        /// The dispatch time represented by this type.
        public var dispatchTime: DispatchTime

        /// Creates a dispatch queue time type instance.
        public init(_ time: DispatchTime) {
            dispatchTime = time
        }

        /// The interval from this time to `other`.
        ///
        /// When either time is `DispatchTime.distantFuture`, or the distance does not fit in an `Int` of nanoseconds,
        /// the distance is `.nanoseconds(.max)` (Dispatch's "never"), as in Combine; the distance from
        /// `distantFuture` to itself is zero.
        public func distance(to other: SchedulerTimeType) -> Stride {
            let start = dispatchTime.rawValue
            let end = other.dispatchTime.rawValue
            if start == end { return .nanoseconds(0) }
            let forever = DispatchTime.distantFuture.rawValue
            if start == forever || end == forever { return .nanoseconds(.max) }
            if end >= start {
                let difference = end - start
                return difference > UInt64(Int.max) ? .nanoseconds(.max) : .nanoseconds(Int(difference))
            } else {
                let difference = start - end
                return difference > UInt64(Int.max) ? .nanoseconds(.max) : .nanoseconds(-Int(difference))
            }
        }

        /// The time `n` after this one; an interval of `.nanoseconds(.max)` ("never") gives `distantFuture`.
        ///
        /// Dispatch clamps the result: it never goes below 1 ns of uptime nor beyond `distantFuture`.
        public func advanced(by n: Stride) -> SchedulerTimeType {
            if n.magnitude == .max { return SchedulerTimeType(.distantFuture) }
            return SchedulerTimeType(dispatchTime + n.timeInterval)
        }

        public static func == (lhs: SchedulerTimeType, rhs: SchedulerTimeType) -> Bool {
            lhs.dispatchTime.rawValue == rhs.dispatchTime.rawValue
        }

        public func hash(into hasher: inout Hasher) {
            hasher.combine(dispatchTime.rawValue)
        }

        /// Encodes the time as its uptime in nanoseconds, a single number.
        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(dispatchTime.uptimeNanoseconds)
        }

        /// Decodes a time encoded as its uptime in nanoseconds.
        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            dispatchTime = DispatchTime(uptimeNanoseconds: try container.decode(UInt64.self))
        }

        /// An interval of dispatch time, in nanoseconds.
        ///
        /// As in Combine, an integer or floating-point literal — and `init?(exactly:)` — counts **seconds**
        /// (`let delay: Stride = 2` is two seconds), values saturate at the bounds of `Int` instead of overflowing,
        /// and the product of two strides is always zero: a duration times a duration is no duration.
        public struct Stride: SchedulerTimeIntervalConvertible, Comparable, SignedNumeric, ExpressibleByFloatLiteral,
            Hashable, Codable
        {
            /// A floating-point literal counts seconds.
            public typealias FloatLiteralType = Double
            /// An integer literal counts seconds.
            public typealias IntegerLiteralType = Int
            /// The type of ``magnitude``: nanoseconds.
            public typealias Magnitude = Int

            /// The value of this time interval in nanoseconds (negative for a negative interval).
            public var magnitude: Int

            private init(nanoseconds: Int) {
                magnitude = nanoseconds
            }

            /// The interval as a `DispatchTimeInterval` in nanoseconds.
            public var timeInterval: DispatchTimeInterval {
                .nanoseconds(magnitude)
            }

            /// An interval equal to `timeInterval`; `.never` becomes `.nanoseconds(.max)`.
            public init(_ timeInterval: DispatchTimeInterval) {
                switch timeInterval {
                case .seconds(let s): self = .seconds(s)
                case .milliseconds(let ms): self = .milliseconds(ms)
                case .microseconds(let us): self = .microseconds(us)
                case .nanoseconds(let ns): self = .nanoseconds(ns)
                case .never: self = .nanoseconds(.max)
                @unknown default:
                    // A future case: measure it against a reference time far from both ends of the clock.
                    let reference = DispatchTime(uptimeNanoseconds: UInt64(Int64.max) / 2)
                    self = SchedulerTimeType(reference).distance(to: SchedulerTimeType(reference + timeInterval))
                }
            }

            /// An interval of `value` seconds.
            public init(floatLiteral value: Double) {
                self = .seconds(value)
            }

            /// An interval of `value` seconds.
            public init(integerLiteral value: Int) {
                self = .seconds(value)
            }

            /// An interval of `source` seconds, or `nil` when `source` does not fit in an `Int`.
            public init?<T: BinaryInteger>(exactly source: T) {
                guard let value = Int(exactly: source) else { return nil }
                self = .seconds(value)
            }

            public static func < (lhs: Stride, rhs: Stride) -> Bool { lhs.magnitude < rhs.magnitude }

            /// Always zero, as in Combine.
            public static func * (lhs: Stride, rhs: Stride) -> Stride { Stride(nanoseconds: 0) }
            /// Sets `lhs` to zero, as in Combine.
            public static func *= (lhs: inout Stride, rhs: Stride) { lhs.magnitude = 0 }

            public static func + (lhs: Stride, rhs: Stride) -> Stride {
                Stride(
                    nanoseconds: saturating(lhs.magnitude.addingReportingOverflow(rhs.magnitude), sign: rhs.magnitude))
            }

            public static func - (lhs: Stride, rhs: Stride) -> Stride {
                Stride(
                    nanoseconds: saturating(
                        lhs.magnitude.subtractingReportingOverflow(rhs.magnitude), sign: -rhs.magnitude)
                )
            }

            public static func += (lhs: inout Stride, rhs: Stride) { lhs = lhs + rhs }
            public static func -= (lhs: inout Stride, rhs: Stride) { lhs = lhs - rhs }

            /// `value` seconds, fractions included; saturates at the bounds of `Int` nanoseconds.
            ///
            /// - Precondition: `value` is not NaN.
            public static func seconds(_ value: Double) -> Stride {
                require(
                    !value.isNaN,
                    "DispatchQueue.SchedulerTimeType.Stride.seconds(_:) was given NaN; an interval must be a number."
                )
                let nanoseconds = value * 1_000_000_000
                if nanoseconds >= Double(Int.max) { return Stride(nanoseconds: .max) }
                if nanoseconds <= Double(Int.min) { return Stride(nanoseconds: .min) }
                return Stride(nanoseconds: Int(nanoseconds))
            }

            /// `value` seconds; saturates at the bounds of `Int` nanoseconds.
            public static func seconds(_ value: Int) -> Stride { scaled(value, by: 1_000_000_000) }
            /// `value` milliseconds; saturates at the bounds of `Int` nanoseconds.
            public static func milliseconds(_ value: Int) -> Stride { scaled(value, by: 1_000_000) }
            /// `value` microseconds; saturates at the bounds of `Int` nanoseconds.
            public static func microseconds(_ value: Int) -> Stride { scaled(value, by: 1_000) }
            /// `value` nanoseconds.
            public static func nanoseconds(_ value: Int) -> Stride { Stride(nanoseconds: value) }

            private static func scaled(_ value: Int, by factor: Int) -> Stride {
                let (product, overflow) = value.multipliedReportingOverflow(by: factor)
                guard overflow else { return Stride(nanoseconds: product) }
                return Stride(nanoseconds: value < 0 ? .min : .max)
            }

            private static func saturating(_ result: (partialValue: Int, overflow: Bool), sign: Int) -> Int {
                guard result.overflow else { return result.partialValue }
                return sign < 0 ? .min : .max
            }

            private enum CodingKeys: String, CodingKey {
                case magnitude = "_nanoseconds"
            }
        }
    }

    /// Options that affect the operation of the dispatch queue scheduler.
    public struct SchedulerOptions {
        /// The dispatch queue quality of service.
        public var qos: DispatchQoS

        /// The dispatch queue work item flags.
        public var flags: DispatchWorkItemFlags

        /// The dispatch group, if any, that should be used for performing actions.
        public var group: DispatchGroup?

        /// Options with the given quality of service, flags and group.
        public init(qos: DispatchQoS = .unspecified, flags: DispatchWorkItemFlags = [], group: DispatchGroup? = nil) {
            self.qos = qos
            self.flags = flags
            self.group = group
        }
    }

    /// Zero nanoseconds.
    public var minimumTolerance: SchedulerTimeType.Stride { .nanoseconds(0) }

    /// `DispatchTime.now()`.
    public var now: SchedulerTimeType { SchedulerTimeType(.now()) }

    /// Submits `action` to the queue asynchronously, with the options' quality of service and flags, in the
    /// options' group if any.
    public func schedule(options: SchedulerOptions?, _ action: @escaping () -> Void) {
        let transfer = SchedulerActionTransfer(action)
        async(
            group: options?.group,
            qos: options?.qos ?? .unspecified,
            flags: options?.flags ?? [],
            execute: { transfer.run() }
        )
    }

    /// Submits `action` to the queue once `date` is reached (at once if it has passed).
    ///
    /// The options' group, if any, is entered now and left once the action has run, so `group.wait()` waits for the
    /// delayed action too. Dispatch's `asyncAfter` takes no leeway, so `tolerance` is not used.
    public func schedule(
        after date: SchedulerTimeType,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) {
        let transfer = SchedulerActionTransfer(action)
        let group = options?.group
        group?.enter()
        asyncAfter(deadline: date.dispatchTime, qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
            transfer.run()
            group?.leave()
        }
    }

    /// Runs `action` on the queue at `date` and then every `interval`, on a `DispatchSourceTimer` with `tolerance`
    /// as its leeway, until the returned cancellable is cancelled (or released).
    ///
    /// The options' quality of service and flags apply to each run; a group does not, since a repeating action never
    /// finishes. A negative tolerance counts as zero.
    public func schedule(
        after date: SchedulerTimeType,
        interval: SchedulerTimeType.Stride,
        tolerance: SchedulerTimeType.Stride,
        options: SchedulerOptions?,
        _ action: @escaping () -> Void
    ) -> Cancellable {
        let transfer = SchedulerActionTransfer(action)
        let timer = DispatchSource.makeTimerSource(queue: self)
        timer.setEventHandler(qos: options?.qos ?? .unspecified, flags: options?.flags ?? []) {
            transfer.run()
        }
        timer.schedule(
            deadline: date.dispatchTime,
            repeating: interval.timeInterval,
            leeway: max(tolerance, .nanoseconds(0)).timeInterval
        )
        timer.resume()
        return AnyCancellable { timer.cancel() }
    }
}
