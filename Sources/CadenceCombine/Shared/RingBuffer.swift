import CadenceSupport
/// A first-in first-out ring buffer for the values an operator holds between arrival and delivery (merge, zip,
/// flatMap, buffer, switchToLatest).
///
/// It grows by doubling and never shrinks until `removeAll()`, so a steady flow of values costs no allocation once
/// the buffer has reached its working size; a removed slot is cleared at once, so the buffer never keeps a delivered
/// value alive.
struct RingBuffer<Element> {
    private var slots: ContiguousArray<Element?> = []
    private var head = 0
    private(set) var count = 0

    init() {}

    var isEmpty: Bool { count == 0 }

    /// The oldest element, without removing it.
    var first: Element? { count == 0 ? nil : slots[head] }

    mutating func append(_ element: Element) {
        if count == slots.count {
            grow()
        }
        var tail = head + count
        if tail >= slots.count {
            tail -= slots.count
        }
        slots[tail] = element
        count += 1
    }

    /// Removes and returns the oldest element; traps when the queue is empty.
    mutating func removeFirst() -> Element {
        require(count > 0, "RingBuffer: removeFirst() on an empty queue")
        let element = slots[head].take()!
        head += 1
        if head == slots.count {
            head = 0
        }
        count -= 1
        return element
    }

    /// Removes and returns the oldest element, or `nil` when the queue is empty.
    mutating func popFirst() -> Element? {
        count == 0 ? nil : removeFirst()
    }

    /// The elements in order, oldest first (for mirrors and tests).
    var elements: [Element] {
        (0..<count).map { offset in
            let index = head + offset
            return slots[index < slots.count ? index : index - slots.count]!
        }
    }

    /// Drops every element and releases the storage.
    mutating func removeAll() {
        slots = []
        head = 0
        count = 0
    }

    private mutating func grow() {
        let newCapacity = Swift.max(4, slots.count * 2)
        var newSlots = ContiguousArray<Element?>(repeating: nil, count: newCapacity)
        for offset in 0..<count {
            var index = head + offset
            if index >= slots.count {
                index -= slots.count
            }
            newSlots[offset] = slots[index].take()
        }
        slots = newSlots
        head = 0
    }
}

