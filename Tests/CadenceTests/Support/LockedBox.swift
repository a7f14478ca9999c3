/// A value that tests share between closures (scheduled actions, sleeping tasks, other threads), behind a lock.
final class LockedBox<Value>: @unchecked Sendable { // `lock` guards `stored`
    private let lock = TestLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    var value: Value { lock.withLock { stored } }

    func mutate<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&stored) }
    }
}

extension LockedBox {
    /// Appends `element` to a recorded list.
    func append<Element>(_ element: Element) where Value == [Element] {
        mutate { $0.append(element) }
    }
}
