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

    /// The scheduled actions still waiting to run, sleeps left out, earliest first: each one's due tick (a repeating
    /// action's next) and whether it repeats; for reports of work a test left behind.
    package var pendingActions: [(due: Int64, repeats: Bool)] {
        state.withLock { state in
            var actions = state.heap.liveActions
            if !state.once.isEmpty { actions += state.once.dueTicks.map { ($0, false) } }
            if !state.batches.isEmpty { actions += state.batches.dueTicks.map { ($0, false) } }
            return actions
        }.sorted { $0.due < $1.due }
    }
}
