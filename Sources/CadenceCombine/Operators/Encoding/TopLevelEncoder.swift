#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// A type that defines methods for encoding.
///
/// `JSONEncoder` and `PropertyListEncoder` conform; use an encoder with `encode(encoder:)`.
public protocol TopLevelEncoder {
    /// The type this encoder produces.
    associatedtype Output

    /// Encodes an instance of the indicated type.
    func encode<T: Encodable>(_ value: T) throws -> Output
}

extension JSONEncoder: TopLevelEncoder {}

extension PropertyListEncoder: TopLevelEncoder {}
