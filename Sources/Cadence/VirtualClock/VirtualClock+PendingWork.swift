extension VirtualClock {
    /// The tick each scheduled action still waiting to run is due at, earliest first (a repeating action once, at its
    /// next run); for reports of work a test left behind.
    package var pendingDueTicks: [Int64] {
        state.withLock { state in
            var ticks = state.heap.liveDueTicks
            if !state.once.isEmpty { ticks += state.once.dueTicks }
            if !state.batches.isEmpty { ticks += state.batches.dueTicks }
            return ticks
        }.sorted()
    }

    /// The tick each task still asleep on the clock would wake at, earliest first: the sleeps among
    /// ``pendingDueTicks``.
    package var pendingSleepTicks: [Int64] {
        state.withLock { $0.heap.pendingSleepDeadlines }.sorted()
    }
}
