import Foundation

/// A value that a `@Sendable` closure — a trait's test body, a clock's action — can set and a test can read.
final class Box<Value>: @unchecked Sendable {  // `lock` guards `stored`
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value {
        get { lock.withLock { stored } }
        set { lock.withLock { stored = newValue } }
    }

    /// Changes the value in place, atomically.
    func update(_ change: (inout Value) -> Void) {
        lock.withLock { change(&stored) }
    }
}
