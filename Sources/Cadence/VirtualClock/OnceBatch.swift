/// One-shot actions due on the same tick, kept first in, first out under one entry of the clock's timeline: the entry
/// (`OnceBatchEntry`) carries the tick and the sequence of the batch's first action, and the actions after it need
/// neither of their own — each is its closure, 16 bytes.
///
/// The clock appends to a batch only while no other entry due on its tick has been put on the timeline since the
/// batch's first action (`OpenTicks` forgets the batch as soon as one is), so running the batch's actions one after
/// another from its place on the timeline runs each of them exactly where its own due tick and sequence would have.
final class OnceBatch {
    // Every stored `var` is guarded by the lock of the clock state whose timeline holds the batch.

    /// The sequence number of the last action appended: the batch holds work put on the timeline at or after a
    /// sequence number exactly when this is at least that number (its last action runs last).
    private(set) var lastSequence: UInt64
    /// The number of actions still to run.
    private(set) var count = 1
    /// The chunk the next action is taken from, and the one the next action is appended to: the actions are stored in
    /// a list of chunks that never move, so appending never copies the actions already there, and a chunk is freed
    /// as soon as its actions have run.
    private var first: Chunk
    private var last: Chunk

    /// A batch of one action; made when a second one-shot action falls due on a tick, so it is about to have more.
    init(first action: @escaping () -> Void, sequence: UInt64) {
        let chunk = Chunk(capacity: 8)
        chunk.append(action)
        first = chunk
        last = chunk
        lastSequence = sequence
    }

    deinit {
        // Unlinks the chunks one by one: releasing the first would release the rest recursively, one stack frame each.
        var next = first.next
        first.next = nil
        while let chunk = next {
            next = chunk.next
            chunk.next = nil
        }
    }

    var isEmpty: Bool { count == 0 }

    /// Appends `action`, which was given sequence number `sequence`, to run after every action already in the batch.
    func append(_ action: @escaping () -> Void, sequence: UInt64) {
        if last.isFull {
            let chunk = Chunk(capacity: min(last.capacity * 4, Chunk.largestCapacity))
            last.next = chunk
            last = chunk
        }
        last.append(action)
        count += 1
        lastSequence = sequence
    }

    /// Takes the first action out of the batch, which must not be empty.
    func removeFirst() -> () -> Void {
        let action = first.removeFirst()
        count -= 1
        if first.isEmpty, let next = first.next { first = next }
        return action
    }

    /// Room for a run of a batch's actions, in order: `storage[head ..< tail]` are still to run.
    private final class Chunk {
        /// 1,024 actions, 16 KiB: the most a batch holds in storage it does not use yet.
        static let largestCapacity = 1024

        /// An action as a struct's field: stored as the closure it is. Stored as a pointer's generic element
        /// (`UnsafeMutablePointer<() -> Void>`) a closure would be wrapped in a thunk — one more allocation each.
        private struct Action {
            let run: () -> Void
        }

        let capacity: Int
        private let storage: UnsafeMutablePointer<Action>
        private var head = 0
        private var tail = 0
        var next: Chunk?

        init(capacity: Int) {
            self.capacity = capacity
            storage = .allocate(capacity: capacity)
        }

        deinit {
            (storage + head).deinitialize(count: tail - head)
            storage.deallocate()
        }

        var isFull: Bool { tail == capacity }
        var isEmpty: Bool { head == tail }

        func append(_ action: @escaping () -> Void) {
            (storage + tail).initialize(to: Action(run: action))
            tail += 1
        }

        func removeFirst() -> () -> Void {
            defer { head += 1 }
            return (storage + head).move().run
        }
    }
}

/// The timeline entry of a ``OnceBatch``: the tick its actions are due at and the sequence of its first action.
struct OnceBatchEntry: TimelineEntry {
    let due: Int64
    let sequence: UInt64
    /// Owned by the entry; released with it (the heap moves entries by moving their memory, never retaining).
    let batch: OnceBatch
}

/// Where the clock appends a one-shot action due on a tick that already has one: for each of a few recent ticks, the
/// batch still open on it, or a note that a lone one-shot action was put there last (the next one opens a batch).
///
/// Direct-mapped and small: a tick whose slot another tick takes over just starts afresh, which costs an entry, never
/// the order; forgetting is always safe, since a new entry takes its place on the timeline from its own sequence.
struct OpenTicks {
    private struct Slot {
        var tick: Int64
        var batch: OnceBatch?
    }

    /// The number of slots: enough for a test scheduling work over the next hundred ticks or so to batch all of it.
    private static let slotCount = 128
    /// No slot until the clock first looks for a batch to join (see `VirtualClock.State.insertOnce(due:_:)`); a slot
    /// whose tick is `Int64.min` (which no timeline entry is due at unless the clock starts there) is empty.
    private var slots: ContiguousArray<Slot> = []

    /// Where a one-shot action due at `tick` goes.
    enum Place {
        /// At the end of the batch open on the tick.
        case batch(OnceBatch)
        /// Into a new batch: the last entry put on the tick was a lone one-shot action.
        case newBatch
        /// On the timeline alone.
        case alone
    }

    /// Where a one-shot action due at `tick` goes; notes that the tick now has one (a caller putting the action alone
    /// or in a new batch then opens the tick with `open(_:at:)` or leaves the note as it is).
    mutating func place(at tick: Int64) -> Place {
        if slots.isEmpty {
            slots = ContiguousArray(repeating: Slot(tick: .min, batch: nil), count: Self.slotCount)
        }
        let index = Self.index(of: tick)
        return slots.withUnsafeMutableBufferPointer { slots in
            if slots[index].tick == tick {
                if let batch = slots[index].batch { return .batch(batch) }
                return .newBatch
            }
            slots[index] = Slot(tick: tick, batch: nil)
            return .alone
        }
    }

    /// Records `batch` as the one open on `tick`, whose slot `place(at:)` answered `.newBatch` for.
    mutating func open(_ batch: OnceBatch, at tick: Int64) {
        slots[Self.index(of: tick)].batch = batch
    }

    /// Forgets what is open on `tick`: another entry was put there, which later one-shot actions must run after.
    mutating func close(_ tick: Int64) {
        guard !slots.isEmpty else { return }
        let index = Self.index(of: tick)
        if slots[index].tick == tick { slots[index] = Slot(tick: .min, batch: nil) }
    }

    /// Forgets `batch`, due at `tick`, if it is the one open there: it has run out and left the timeline.
    mutating func close(_ batch: OnceBatch, at tick: Int64) {
        let index = Self.index(of: tick)
        if slots[index].batch === batch { slots[index] = Slot(tick: .min, batch: nil) }
    }

    private static func index(of tick: Int64) -> Int {
        Int(truncatingIfNeeded: tick) & (slotCount - 1)
    }
}
