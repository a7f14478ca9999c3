/// One pending run of scheduled work on a `VirtualClock`: the tick it is due at, the order it was scheduled in, and
/// the action — held as an unmanaged reference, so moving entries around the heap touches no reference count (and so
/// never the action's memory: comparing and moving entries stays within the heap's own array).
struct ScheduledEntry {
    var due: Int64
    var sequence: UInt64
    /// Owned: the heap holds one retain of the action for as long as the entry is in it.
    let action: Unmanaged<VirtualClock.ScheduledAction>

    /// An entry that retains `action` (the retain the heap owns).
    init(due: Int64, sequence: UInt64, retaining action: VirtualClock.ScheduledAction) {
        self.due = due
        self.sequence = sequence
        self.action = .passRetained(action)
    }

    /// Earlier due time first; on the same tick, the one scheduled first.
    @inline(__always)
    func runsBefore(_ other: ScheduledEntry) -> Bool {
        due < other.due || (due == other.due && sequence < other.sequence)
    }

    /// Whether the entry's action is still waiting to run (read under the clock's lock).
    @inline(__always)
    var isLive: Bool { action._withUnsafeGuaranteedRef { $0.isPending } }
}

/// A binary min-heap of scheduled entries ordered by (due tick, sequence): O(log n) insert and remove-first.
///
/// The heap owns one retain of each entry's action: `insert` takes it over, `removeFirst` hands it back to the caller
/// (who re-inserts the entry or releases it), `removeAll` hands back all of them, and `removeDead` releases the ones
/// it drops.
struct ScheduledEntryHeap {
    private var entries: ContiguousArray<ScheduledEntry> = []

    var count: Int { entries.count }
    var first: ScheduledEntry? { entries.first }

    /// The due ticks of the entries whose action is still pending, in heap order (read under the clock's lock).
    var liveDueTicks: [Int64] { entries.filter(\.isLive).map(\.due) }

    /// Whether an entry still pending was put on the heap at or after sequence number `first` — scheduled, or put
    /// back by a repeating action, since then (read under the clock's lock).
    func hasLiveEntry(sequencedFrom first: UInt64) -> Bool {
        entries.contains { $0.isLive && $0.sequence >= first }
    }

    mutating func insert(_ entry: ScheduledEntry) {
        entries.append(entry)
        let last = entries.count - 1
        entries.withUnsafeMutableBufferPointer { Self.siftUp(entry, from: last, in: $0) }
    }

    /// Removes and returns the entry that runs first, with the heap's retain of its action. The heap must not be empty.
    mutating func removeFirst() -> ScheduledEntry {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return last }
        return entries.withUnsafeMutableBufferPointer { buffer in
            let first = buffer[0]
            Self.siftDown(last, from: 0, in: buffer)
            return first
        }
    }

    /// Drops (and releases) every entry whose action is no longer pending, in O(n).
    mutating func removeDead() {
        var kept = ContiguousArray<ScheduledEntry>()
        kept.reserveCapacity(entries.count)
        for entry in entries {
            if entry.isLive { kept.append(entry) } else { entry.action.release() }
        }
        entries = kept
        entries.withUnsafeMutableBufferPointer { buffer in
            var index = buffer.count / 2
            while index > 0 {
                index -= 1
                Self.siftDown(buffer[index], from: index, in: buffer)
            }
        }
    }

    /// Empties the heap and hands back what it held, with the heap's retains of the actions.
    mutating func removeAll() -> ContiguousArray<ScheduledEntry> {
        defer { entries = [] }
        return entries
    }

    /// Moves `entry`, destined for `start`, up to where it belongs.
    @inline(__always)
    private static func siftUp(
        _ entry: ScheduledEntry, from start: Int, in buffer: UnsafeMutableBufferPointer<ScheduledEntry>
    ) {
        var child = start
        while child > 0 {
            let parent = (child - 1) / 2
            guard entry.runsBefore(buffer[parent]) else { break }
            buffer[child] = buffer[parent]
            child = parent
        }
        buffer[child] = entry
    }

    /// Moves `entry`, destined for `start`, down to where it belongs.
    @inline(__always)
    private static func siftDown(
        _ entry: ScheduledEntry, from start: Int, in buffer: UnsafeMutableBufferPointer<ScheduledEntry>
    ) {
        var parent = start
        let count = buffer.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            let right = left + 1
            let child = right < count && buffer[right].runsBefore(buffer[left]) ? right : left
            guard buffer[child].runsBefore(entry) else { break }
            buffer[parent] = buffer[child]
            parent = child
        }
        buffer[parent] = entry
    }
}
