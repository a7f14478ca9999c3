extension VirtualClock {
    /// Throws ``SuspensionError`` if a task is asleep on the clock: for proving that code has no time-based work
    /// left, at the end of a test or between steps.
    ///
    /// ```swift
    /// await clock.advance(by: .seconds(1))
    /// try await clock.checkSuspension()   // throws if something still sleeps on the clock
    /// ```
    ///
    /// On the clock of a session (`.virtualTime`, `withVirtualTime`) the session's ready tasks first run until each
    /// is suspended, as before an advance, so a task that is about to sleep is counted; on a clock made outside a
    /// session, every task of the process first runs until it is suspended, as `await advance(by:)` lets it.
    public func checkSuspension() async throws {
        await waitForTasks(origin: "VirtualClock.checkSuspension()")
        let deadlines = state.withLock { $0.heap.pendingSleepDeadlines }.sorted()
        if !deadlines.isEmpty {
            throw SuspensionError(now: now.ticks, deadlines: deadlines)
        }
    }

    /// What ``checkSuspension()`` throws: tasks are still asleep on the clock.
    public struct SuspensionError: Error, Sendable, Equatable, CustomStringConvertible {
        /// The clock's tick when it was thrown.
        public let now: Int64
        /// The deadline tick of each sleep, earliest first.
        public let deadlines: [Int64]

        /// The error for sleeps until `deadlines` (earliest first) on a clock at tick `now`.
        public init(now: Int64, deadlines: [Int64]) {
            self.now = now
            self.deadlines = deadlines
        }

        /// `"2 tasks are still asleep on the virtual clock at tick 0, until ticks 1000 and 2000."`
        public var description: String {
            let count = deadlines.count
            let tasks = count == 1 ? "1 task is" : "\(count) tasks are"
            let until = deadlines.count == 1 ? "tick \(deadlines[0])" : "ticks " + Self.list(deadlines)
            return "\(tasks) still asleep on the virtual clock at tick \(now), until \(until)."
        }

        /// `"1, 2 and 3"`.
        private static func list(_ ticks: [Int64]) -> String {
            let words = ticks.map(String.init)
            return words.dropLast().joined(separator: ", ") + " and " + words[words.count - 1]
        }
    }
}
