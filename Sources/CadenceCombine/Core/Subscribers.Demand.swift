import CadenceSupport

extension Subscribers {
    /// A requested number of items, sent to a publisher from a subscriber through the subscription.
    ///
    /// Arithmetic saturates: nothing exceeds `.unlimited`, and a result that would be negative is `.max(0)`.
    public struct Demand: Equatable, Comparable, Hashable, Codable, CustomStringConvertible, Sendable {
        /// Finite demands are `0...Int.max`; `.unlimited` is the one value above them.
        @usableFromInline let rawValue: UInt

        @inlinable
        init(rawValue: UInt) {
            self.rawValue = rawValue
        }

        @usableFromInline static let unlimitedRawValue = UInt(Int.max) + 1

        /// A request for as many values as the publisher can produce.
        public static let unlimited = Demand(rawValue: unlimitedRawValue)

        /// A request for no elements from the publisher.
        public static let none = Demand(rawValue: 0)

        /// Creates a demand for the given maximum number of elements; traps when `value` is negative.
        @inlinable
        public static func max(_ value: Int) -> Demand {
            require(value >= 0, "Subscribers.Demand.max(\(value)): a demand must not be negative")
            return Demand(rawValue: UInt(value))
        }

        /// The number of requested values, or `nil` for `.unlimited`.
        @inlinable
        public var max: Int? {
            rawValue == Demand.unlimitedRawValue ? nil : Int(rawValue)
        }

        public var description: String {
            rawValue == Demand.unlimitedRawValue ? "unlimited" : "max(\(rawValue))"
        }

        // MARK: Arithmetic

        /// Adds two demands; `.unlimited` absorbs, and an overflow saturates to `.unlimited`.
        @inlinable
        public static func + (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited || rhs == .unlimited { return .unlimited }
            let sum = lhs.rawValue + rhs.rawValue // both ≤ Int.max, so this cannot overflow UInt
            return sum >= unlimitedRawValue ? .unlimited : Demand(rawValue: sum)
        }

        /// Adds a demand to this one.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Demand) {
            lhs = lhs + rhs
        }

        /// Adds a number of items; `.unlimited` absorbs, a negative result is `.max(0)`.
        @inlinable
        public static func + (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs < 0 { return lhs - Demand(rawValue: rhs.magnitude) }
            return lhs + Demand(rawValue: UInt(rhs))
        }

        /// Adds a number of items to this demand.
        @inlinable
        public static func += (lhs: inout Demand, rhs: Int) {
            lhs = lhs + rhs
        }

        /// Subtracts a demand: `.unlimited` minus anything stays `.unlimited`; anything else minus `.unlimited`, or
        /// any subtraction that would go below zero, is `.max(0)`.
        @inlinable
        public static func - (lhs: Demand, rhs: Demand) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs == .unlimited { return .none }
            return lhs.rawValue > rhs.rawValue ? Demand(rawValue: lhs.rawValue - rhs.rawValue) : .none
        }

        /// Subtracts a demand from this one.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Demand) {
            lhs = lhs - rhs
        }

        /// Subtracts a number of items; `.unlimited` stays `.unlimited`, a negative result is `.max(0)`, and so is a
        /// result past `Int.max` (subtracting a negative number overflows, as in Combine).
        @inlinable
        public static func - (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs < 0 {
                let sum = lhs.rawValue + rhs.magnitude // both ≤ 2^63, so this cannot overflow UInt
                return sum >= unlimitedRawValue ? .none : Demand(rawValue: sum)
            }
            return lhs - Demand(rawValue: UInt(rhs))
        }

        /// Subtracts a number of items from this demand.
        @inlinable
        public static func -= (lhs: inout Demand, rhs: Int) {
            lhs = lhs - rhs
        }

        /// Multiplies a demand; `.unlimited` stays `.unlimited`, an overflow saturates to `.unlimited`, and a
        /// negative factor gives `.max(0)`.
        @inlinable
        public static func * (lhs: Demand, rhs: Int) -> Demand {
            if lhs == .unlimited { return .unlimited }
            if rhs <= 0 { return .none }
            let (product, overflow) = lhs.rawValue.multipliedReportingOverflow(by: UInt(rhs))
            return overflow || product >= unlimitedRawValue ? .unlimited : Demand(rawValue: product)
        }

        /// Multiplies this demand by a number of items.
        @inlinable
        public static func *= (lhs: inout Demand, rhs: Int) {
            lhs = lhs * rhs
        }

        // MARK: Comparison (`.unlimited` is greater than every number)

        @inlinable
        public static func < (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue < rhs.rawValue }

        @inlinable
        public static func <= (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue <= rhs.rawValue }

        @inlinable
        public static func >= (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue >= rhs.rawValue }

        @inlinable
        public static func > (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue > rhs.rawValue }

        @inlinable
        public static func == (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue == rhs.rawValue }

        @inlinable
        public static func != (lhs: Demand, rhs: Demand) -> Bool { lhs.rawValue != rhs.rawValue }

        /// Whether a demand is finite and equal to `rhs`.
        @inlinable
        public static func == (lhs: Demand, rhs: Int) -> Bool {
            rhs >= 0 && lhs.rawValue == UInt(rhs)
        }

        @inlinable
        public static func != (lhs: Demand, rhs: Int) -> Bool { !(lhs == rhs) }

        @inlinable
        public static func == (lhs: Int, rhs: Demand) -> Bool { rhs == lhs }

        @inlinable
        public static func != (lhs: Int, rhs: Demand) -> Bool { !(rhs == lhs) }

        @inlinable
        public static func < (lhs: Demand, rhs: Int) -> Bool {
            rhs > 0 && lhs.rawValue < UInt(rhs)
        }

        @inlinable
        public static func <= (lhs: Demand, rhs: Int) -> Bool {
            rhs >= 0 && lhs.rawValue <= UInt(rhs)
        }

        @inlinable
        public static func > (lhs: Demand, rhs: Int) -> Bool { !(lhs <= rhs) }

        @inlinable
        public static func >= (lhs: Demand, rhs: Int) -> Bool { !(lhs < rhs) }

        @inlinable
        public static func < (lhs: Int, rhs: Demand) -> Bool { rhs > lhs }

        @inlinable
        public static func <= (lhs: Int, rhs: Demand) -> Bool { rhs >= lhs }

        @inlinable
        public static func > (lhs: Int, rhs: Demand) -> Bool { rhs < lhs }

        @inlinable
        public static func >= (lhs: Int, rhs: Demand) -> Bool { rhs <= lhs }

        // MARK: Codable

        public init(from decoder: any Decoder) throws {
            let container = try decoder.singleValueContainer()
            // As in Combine, a number above `.unlimited`'s is read as `.unlimited`; a negative one does not decode.
            let raw = try container.decode(UInt.self)
            self.init(rawValue: Swift.min(raw, Demand.unlimitedRawValue))
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(rawValue)
        }
    }
}
