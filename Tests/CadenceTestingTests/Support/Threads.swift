import Foundation

/// A value guarded by a lock, for tests that share it between threads.
final class Synchronized<Value>: @unchecked Sendable {
    // `lock` guards `stored`.
    private let lock = NSLock()
    private var stored: Value

    init(_ value: Value) {
        stored = value
    }

    /// Runs `body` with the value, under the lock.
    func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&stored)
    }

    /// The value, read or replaced under the lock.
    var value: Value {
        get { withLock { $0 } }
        set { withLock { $0 = newValue } }
    }

    /// Changes the value in place, under the lock.
    func update(_ change: (inout Value) -> Void) {
        withLock { change(&$0) }
    }
}

/// Runs `body` on a new thread — with no task, so no task-local values — and returns once it has finished.
func onNewThread(_ body: @escaping @Sendable () -> Void) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        Thread {
            body()
            continuation.resume()
        }.start()
    }
}
