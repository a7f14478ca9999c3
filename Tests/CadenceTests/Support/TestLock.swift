import Foundation

/// The tests' own lock (the library's lock type is internal to it).
final class TestLock: @unchecked Sendable { // NSLock is thread-safe; this only adds `withLock`
    private let lock = NSLock()

    func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }
}
