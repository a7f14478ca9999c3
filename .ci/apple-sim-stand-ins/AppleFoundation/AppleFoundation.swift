// `.ci/apple-sim` only: the Apple-only Foundation API that Cadence, its tests and the Examples use, with the signatures
// Apple's SDK gives Swift, for the copy the simulation compiles (where every `import Foundation` is followed by
// `import AppleFoundation`). Compiled, never run: every body traps.
//   - key-value observing (`NSObject.observe(_:options:changeHandler:)`, `NSKeyValueObservation`,
//     `NSKeyValueObservedChange`), which needs the Objective-C runtime: swift-corelibs-foundation has none of it;
//   - `URLSession` in Foundation itself (on Linux it is in FoundationNetworking). Foundation's Combine addition
//     `URLSession.dataTaskPublisher(for:)` is not here: `.ci/apple-sim` gives the `Combine` stand-in Cadence's own
//     (`Sources/Cadence/Foundation/URLSession.DataTaskPublisher.swift`), with Apple's output and failure.
// A declaration Cadence starts to use goes in with Apple's signature (developer.apple.com/documentation/foundation).
import Foundation

#if canImport(FoundationNetworking)
@_exported import FoundationNetworking
#endif

/// Every body of the stand-in: it is compiled, never run.
private func standIn(_ function: StaticString = #function) -> Never {
    fatalError("AppleFoundation is a compile-only stand-in for Apple's Foundation; \(function) cannot run")
}

// MARK: - Key-value observing

public struct NSKeyValueObservingOptions: OptionSet, Sendable {
    public let rawValue: UInt
    public init(rawValue: UInt) { self.rawValue = rawValue }
    public static let new = NSKeyValueObservingOptions(rawValue: 1)
    public static let old = NSKeyValueObservingOptions(rawValue: 2)
    public static let initial = NSKeyValueObservingOptions(rawValue: 4)
    public static let prior = NSKeyValueObservingOptions(rawValue: 8)
}

public enum NSKeyValueChange: UInt, Sendable {
    case setting = 1
    case insertion = 2
    case removal = 3
    case replacement = 4
}

public struct NSKeyValueObservedChange<Value> {
    public typealias Kind = NSKeyValueChange
    public let kind: Kind
    public let newValue: Value?
    public let oldValue: Value?
    public let indexes: IndexSet?
    public let isPrior: Bool
}

/// An observation made by `observe(_:options:changeHandler:)`; it ends when invalidated or deinitialised.
public class NSKeyValueObservation: NSObject {
    public func invalidate() { standIn() }
}

/// The protocol through which every `NSObject` gets Apple's typed key-value observing.
public protocol _KeyValueCodingAndObserving {}

extension NSObject: _KeyValueCodingAndObserving {}

extension _KeyValueCodingAndObserving {
    public func observe<Value>(
        _ keyPath: KeyPath<Self, Value>,
        options: NSKeyValueObservingOptions = [],
        changeHandler: @escaping (Self, NSKeyValueObservedChange<Value>) -> Void
    ) -> NSKeyValueObservation {
        standIn()
    }
}
