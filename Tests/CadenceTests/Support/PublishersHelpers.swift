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

/// Waits, polling every millisecond for at most two seconds, until `condition` holds; returns whether it did.
///
/// For tests that must let another task reach a suspension point (an `await` on a publisher) before acting.
func publishersWaitUntil(_ condition: () -> Bool) async -> Bool {
    for _ in 0..<2_000 {
        if condition() { return true }
        try? await Task.sleep(for: .milliseconds(1))
    }
    return condition()
}
