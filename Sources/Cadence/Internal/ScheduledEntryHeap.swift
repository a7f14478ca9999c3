/// One pending run of scheduled work on a `VirtualClock`: the tick it is due at and the order it was scheduled in.
struct ScheduledEntry {
    var due: Int64
    var sequence: UInt64
    let action: VirtualClock.ScheduledAction

    /// Earlier due time first; on the same tick, the one scheduled first.
    @inline(__always)
    func runsBefore(_ other: ScheduledEntry) -> Bool {
        due < other.due || (due == other.due && sequence < other.sequence)
    }
}

/// A binary min-heap of scheduled entries ordered by (due tick, sequence): O(log n) insert and remove-first.
struct ScheduledEntryHeap {
    private var entries: ContiguousArray<ScheduledEntry> = []

    var count: Int { entries.count }
    var first: ScheduledEntry? { entries.first }

    mutating func insert(_ entry: ScheduledEntry) {
        entries.append(entry)
        siftUp(from: entries.count - 1)
    }

    /// Removes and returns the entry that runs first. The heap must not be empty.
    mutating func removeFirst() -> ScheduledEntry {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return last }
        let first = entries[0]
        entries[0] = last
        siftDown(from: 0)
        return first
    }

    /// Keeps only the entries that satisfy `isIncluded`, in O(n).
    mutating func filter(_ isIncluded: (ScheduledEntry) -> Bool) {
        entries = entries.filter(isIncluded)
        var index = entries.count / 2
        while index > 0 {
            index -= 1
            siftDown(from: index)
        }
    }

    /// Empties the heap and hands back what it held.
    mutating func removeAll() -> ContiguousArray<ScheduledEntry> {
        defer { entries = [] }
        return entries
    }

    private mutating func siftUp(from start: Int) {
        var child = start
        let entry = entries[child]
        while child > 0 {
            let parent = (child - 1) / 2
            guard entry.runsBefore(entries[parent]) else { break }
            entries[child] = entries[parent]
            child = parent
        }
        entries[child] = entry
    }

    private mutating func siftDown(from start: Int) {
        var parent = start
        let entry = entries[parent]
        let count = entries.count
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            let right = left + 1
            let child = right < count && entries[right].runsBefore(entries[left]) ? right : left
            guard entries[child].runsBefore(entry) else { break }
            entries[parent] = entries[child]
            parent = child
        }
        entries[parent] = entry
    }
}
