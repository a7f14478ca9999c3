import Synchronization

/// A unique identifier for identifying publisher streams.
/// Not `Sendable`, as in Apple's Combine.
public struct CombineIdentifier: Hashable, CustomStringConvertible {
    private let rawValue: UInt64

    private static let counter = Atomic<UInt64>(0)

    /// Creates a unique identifier.
    public init() {
        rawValue = Self.counter.add(1, ordering: .relaxed).newValue
    }

    /// Creates an identifier for the given object, equal to that of every other identifier made from it: the object's
    /// address, which its `description` shows in hexadecimal.
    public init(_ obj: AnyObject) {
        rawValue = UInt64(UInt(bitPattern: ObjectIdentifier(obj)))
    }

    public var description: String {
        "0x" + String(rawValue, radix: 16)
    }
}
