import CadenceTesting
import Foundation

/// Every clock a test saw, kept alive so that no two tests can be handed the same object by address reuse.
final class ClockRegistry: @unchecked Sendable { // `lock` guards `clocks`
    static let shared = ClockRegistry()
    private let lock = NSLock()
    private var clocks: [ObjectIdentifier: VirtualClock] = [:]

    /// Adds `clock`; false when some test already registered it.
    func register(_ clock: VirtualClock) -> Bool {
        lock.withLock {
            guard clocks[ObjectIdentifier(clock)] == nil else { return false }
            clocks[ObjectIdentifier(clock)] = clock
            return true
        }
    }
}
