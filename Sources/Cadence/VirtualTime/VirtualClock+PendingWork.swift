extension VirtualClock {
    /// The tick each scheduled action still waiting to run is due at, earliest first (a repeating action once, at its
    /// next run); for reports of work a test left behind.
    package var pendingDueTicks: [Int64] {
        state.withLock { $0.heap.liveDueTicks + $0.once.dueTicks }.sorted()
    }
}
