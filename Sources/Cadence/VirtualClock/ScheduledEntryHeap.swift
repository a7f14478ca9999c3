/// An entry of a clock's timeline: the tick it is due at and the order it was put there in, which together order it
/// against every other entry of the clock, in any of its heaps (see `VirtualClock.State`).
protocol TimelineEntry {
    var due: Int64 { get }
    var sequence: UInt64 { get }
}

extension TimelineEntry {
    /// Earlier due time first; on the same tick, the one scheduled first.
    @inline(__always)
    func runsBefore(_ other: some TimelineEntry) -> Bool {
        due < other.due || (due == other.due && sequence < other.sequence)
    }
}

/// One pending run of scheduled work that can be cancelled: the tick it is due at, the order it was scheduled in, and
/// the action's record — held as an unmanaged reference, so moving entries around the heap touches no reference count
/// (and so never the record's memory: comparing and moving entries stays within the heap's own array).
struct ScheduledEntry: TimelineEntry {
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

    /// Whether the entry's action is still waiting to run (read under the clock's lock).
    @inline(__always)
    var isLive: Bool { action._withUnsafeGuaranteedRef { $0.isPending } }
}

/// One pending run of work nothing can cancel — `TestScheduler.schedule(after:tolerance:options:_:)` and
/// `schedule(options:_:)` hand back no `Cancellable` — kept as the closure itself, with no record around it: such an
/// entry is live until it runs or the clock ends. The one-shot actions after it on the same tick go into a
/// ``OnceBatch``.
struct OnceEntry: TimelineEntry {
    let due: Int64
    let sequence: UInt64
    let action: () -> Void
}

/// A binary min-heap of timeline entries ordered by (due tick, sequence): O(log n) insert and remove-first.
///
/// Entries move by moving their memory into the hole the sift carries (never by copying), so a move touches no
/// reference count: not an unmanaged record's, nor a closure's context.
///
/// The heap of ``ScheduledEntry`` owns one retain of each entry's action: `insert` takes it over, `removeFirst` hands
/// it back to the caller (who re-inserts the entry or releases it), `removeAll` hands back all of them, and
/// `removeDead` releases the ones it drops.
struct ScheduledEntryHeap<Entry: TimelineEntry> {
    private var entries: ContiguousArray<Entry> = []

    var count: Int { entries.count }
    var isEmpty: Bool { entries.isEmpty }
    var first: Entry? { entries.first }
    /// The due tick and sequence of the entry that runs first, without copying the entry.
    var firstKey: (due: Int64, sequence: UInt64)? {
        entries.isEmpty ? nil : (entries[0].due, entries[0].sequence)
    }

    mutating func insert(_ entry: Entry) {
        entries.append(entry)
        entries.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            var child = buffer.count - 1
            let moving = (base + child).move()
            while child > 0 {
                let parent = (child - 1) / 2
                guard moving.runsBefore(base[parent]) else { break }
                (base + child).moveInitialize(from: base + parent, count: 1)
                child = parent
            }
            (base + child).initialize(to: moving)
        }
    }

    /// Removes and returns the entry that runs first (with the heap's retain of its action). The heap must not be
    /// empty.
    mutating func removeFirst() -> Entry {
        let last = entries.removeLast()
        guard !entries.isEmpty else { return last }
        return entries.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            let first = base.move()
            Self.fill(hole: 0, with: last, in: base, count: buffer.count)
            return first
        }
    }

    /// Empties the heap and hands back what it held (with the heap's retains of the actions).
    mutating func removeAll() -> ContiguousArray<Entry> {
        defer { entries = [] }
        return entries
    }

    /// Rebuilds the heap from `kept`, in O(n).
    fileprivate mutating func rebuild(from kept: ContiguousArray<Entry>) {
        entries = kept
        entries.withUnsafeMutableBufferPointer { buffer in
            guard let base = buffer.baseAddress else { return }
            var index = buffer.count / 2
            while index > 0 {
                index -= 1
                let moving = (base + index).move()
                Self.fill(hole: index, with: moving, in: base, count: buffer.count)
            }
        }
    }

    /// Moves `entry` into the hole at `start`, sifting it down to where it belongs: the entries it passes move up
    /// into the hole, which ends where `entry` is put.
    @inline(__always)
    private static func fill(hole start: Int, with entry: Entry, in base: UnsafeMutablePointer<Entry>, count: Int) {
        var parent = start
        while true {
            let left = 2 * parent + 1
            guard left < count else { break }
            let right = left + 1
            let child = right < count && base[right].runsBefore(base[left]) ? right : left
            guard base[child].runsBefore(entry) else { break }
            (base + parent).moveInitialize(from: base + child, count: 1)
            parent = child
        }
        (base + parent).initialize(to: entry)
    }
}

extension ScheduledEntryHeap where Entry == ScheduledEntry {
    /// The due ticks of the entries whose action is still pending, in heap order (read under the clock's lock).
    var liveDueTicks: [Int64] { entries.filter(\.isLive).map(\.due) }

    /// The deadline ticks of the sleeps still pending, in heap order: the live entries with something to run if the
    /// clock ends first, which only a sleep has (read under the clock's lock).
    var pendingSleepDeadlines: [Int64] {
        entries.filter { $0.isLive && $0.action._withUnsafeGuaranteedRef { $0.onEnd != nil } }.map(\.due)
    }

    /// The due tick of each live entry that is not a sleep, and whether it repeats, in heap order (read under the
    /// clock's lock).
    var liveActions: [(due: Int64, repeats: Bool)] {
        entries.compactMap { entry in
            entry.action._withUnsafeGuaranteedRef { action in
                action.isPending && action.onEnd == nil ? (entry.due, action.interval > 0) : nil
            }
        }
    }

    /// Whether an entry still pending was scheduled at or after sequence number `first`, or repeats (a repeating
    /// entry keeps the sequence it was first scheduled with; read under the clock's lock).
    func hasLiveEntry(sequencedFrom first: UInt64) -> Bool {
        entries.contains { entry in
            entry.isLive && (entry.sequence >= first || entry.action._withUnsafeGuaranteedRef { $0.interval > 0 })
        }
    }

    /// Drops (and releases) every entry whose action is no longer pending, in O(n).
    mutating func removeDead() {
        var kept = ContiguousArray<ScheduledEntry>()
        kept.reserveCapacity(entries.count)
        for entry in entries {
            if entry.isLive { kept.append(entry) } else { entry.action.release() }
        }
        rebuild(from: kept)
    }
}

extension ScheduledEntryHeap where Entry == OnceEntry {
    /// The due ticks of the entries, in heap order (every one is pending).
    var dueTicks: [Int64] { entries.map(\.due) }

    /// Whether an entry was put on the heap at or after sequence number `first`.
    func hasEntry(sequencedFrom first: UInt64) -> Bool {
        entries.contains { $0.sequence >= first }
    }
}

extension ScheduledEntryHeap where Entry == OnceBatchEntry {
    /// The batch of the entry that runs first. The heap must not be empty.
    var firstBatch: OnceBatch { entries[0].batch }

    /// The due tick of every action in the batches, in heap order (every one is pending).
    var dueTicks: [Int64] { entries.flatMap { repeatElement($0.due, count: $0.batch.count) } }

    /// Whether an action was put in a batch at or after sequence number `first`.
    func hasEntry(sequencedFrom first: UInt64) -> Bool {
        entries.contains { $0.batch.lastSequence >= first }
    }
}
