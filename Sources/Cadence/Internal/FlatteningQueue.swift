#if !canImport(Combine)

/// A first-in first-out queue for the flattening operators (`flatMap`, `buffer`): appending and popping are O(1)
/// amortised, and popped slots are cleared at once so the queue never keeps a delivered value alive.
struct FlatteningQueue<Element> {
    private var slots: [Element?] = []
    private var head = 0

    init() {}

    var isEmpty: Bool { head == slots.count }

    var count: Int { slots.count - head }

    mutating func append(_ element: Element) {
        slots.append(element)
    }

    /// Removes and returns the oldest element, or `nil` when the queue is empty.
    mutating func popFirst() -> Element? {
        guard head < slots.count else { return nil }
        let element = slots[head].take()
        head += 1
        if head == slots.count {
            slots.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 64 && head * 2 >= slots.count {
            slots.removeFirst(head)
            head = 0
        }
        return element
    }

    mutating func removeAll() {
        slots.removeAll()
        head = 0
    }

    /// The elements in order, oldest first (for mirrors and tests).
    var elements: [Element] { slots[head...].compactMap { $0 } }
}

#endif
