/// A lock-guarded value the publishers tests share between a test and the closures it hands to subscribers.
final class PublishersTestBox<Value>: @unchecked Sendable { // `lock` guards `storage`
    private let lock = TestLock()
    private var storage: Value

    init(_ value: Value) {
        storage = value
    }

    var value: Value {
        get { lock.withLock { storage } }
        set { lock.withLock { storage = newValue } }
    }

    @discardableResult
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try lock.withLock { try body(&storage) }
    }
}
