#if !canImport(Combine)
import Foundation

// A stand-in so that `Timer.publish(every:tolerance:on:in:options:)` has Combine's signature before `RunLoop` is a
// scheduler. When `RunLoop`'s `Scheduler` conformance lands with its own `SchedulerOptions`, delete this file.
extension RunLoop {
    /// Options that affect the operation of the run loop scheduler; Combine defines none.
    public struct SchedulerOptions: Sendable {}
}

#endif
