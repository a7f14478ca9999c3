#if canImport(XCTest) && canImport(ObjectiveC)
import Foundation
import XCTest

// Apple platforms only: key-value observing needs the Objective-C runtime.
//
// These initialisers are chosen by name, `keyValueObserving:`, never by overload resolution: with the label
// `object:`, a model that is both an `NSObject` and an `ObservableObject` picked them over the `objectWillChange`
// ones, and Foundation traps when it is asked to observe a property that is not `@objc dynamic` (any `@Published`
// one). `object:` now always means `objectWillChange`, which every `ObservableObject` has.

extension KeyPathValueExpectation where Object: NSObject {
    /// An expectation fulfilled when the key-value observable property `object[keyPath: keyPath]` is equal to
    /// `expectedValue`.
    ///
    /// Key-value observing notifies after the change, on the thread that made it, so the property is read then. The
    /// property must be key-value observable — `@objc dynamic`, or a property of an Apple type that documents it —
    /// else Foundation traps; for an `ObservableObject`'s `@Published` property use `init(object:keyPath:…)`.
    public convenience init(
        keyValueObserving object: Object,
        keyPath: KeyPath<Object, Value>,
        expectedValue: Value,
        description: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) where Value: Equatable {
        let expected = ValueText.describe(expectedValue)
        self.init(
            object: object, keyPath: keyPath,
            call: "KeyPathValueExpectation(\(Self.text(of: keyPath)), expectedValue: \(expected))", wanted: expected,
            matches: { $0 == expectedValue }, clock: nil, description: description,
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
        startObservingChanges()
    }

    /// An expectation fulfilled when the key-value observable property `object[keyPath: keyPath]` satisfies
    /// `condition` (see `init(keyValueObserving:keyPath:expectedValue:…)`).
    public convenience init(
        keyValueObserving object: Object,
        keyPath: KeyPath<Object, Value>,
        condition: @escaping (Value) -> Bool,
        description: String? = nil,
        fileID: StaticString = #fileID,
        filePath: StaticString = #filePath,
        line: UInt = #line,
        column: UInt = #column
    ) {
        self.init(
            object: object, keyPath: keyPath,
            call: "KeyPathValueExpectation(\(Self.text(of: keyPath)), condition:)",
            wanted: "a value satisfying the condition",
            matches: condition, clock: nil, description: description,
            location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
        )
        startObservingChanges()
    }

    private func startObservingChanges() {
        readNow()
        let observation = object.observe(keyPath, options: []) { [weak self] _, _ in self?.readNow() }
        observe(KeyValueObservationCancellable(observation), by: .keyValueObserving)
    }
}

/// Ends a key-value observation when cancelled.
private final class KeyValueObservationCancellable: Cancellable {
    let observation: NSKeyValueObservation

    init(_ observation: NSKeyValueObservation) {
        self.observation = observation
    }

    func cancel() {
        observation.invalidate()
    }
}
#endif
