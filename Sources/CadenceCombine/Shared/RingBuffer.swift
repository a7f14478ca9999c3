import CadenceSupport

/// A first-in first-out ring buffer for the values an operator holds between arrival and delivery (merge, zip,
/// flatMap, buffer, switchToLatest).
///
/// It grows by doubling and never shrinks until `removeAll()`, so a steady flow of values costs no allocation once
/// the buffer has reached its working size; a removed element is moved out at once, so the buffer never keeps a
/// delivered value alive. A value type: a copy shares the storage until one of them changes (copy on write).
///
/// The elements live in a `RingBufferStorage`, in memory of its own, not in an array of optionals: the operators that
/// use a ring buffer run unspecialised (reached through the publishers' protocols), and there every use of a
/// `ContiguousArray<Element?>` asked the runtime for the metadata of `Optional<Element>` and of the array, a few
/// hundred instructions each, while the storage needs only the element's own metadata, which its caller has.
struct RingBuffer<Element> {
    private var storage: RingBufferStorage<Element>?

    init() {}

    // Inlined: a call would cost an unspecialised caller the metadata of `RingBuffer<Element>` (of a tuple, for the
    // buffers of (source, value) pairs), while the count itself sits at a fixed place in the storage.
    @inline(__always)
    var count: Int { storage?.count ?? 0 }

    @inline(__always)
    var isEmpty: Bool { count == 0 }

    /// The oldest element, without removing it.
    var first: Element? { isEmpty ? nil : storage!.oldest }

    /// The oldest element, without removing it; traps when the queue is empty.
    var oldest: Element {
        require(!isEmpty, "RingBuffer: oldest of an empty queue")
        return storage!.oldest
    }

    mutating func append(_ element: Element) {
        let isUnique = isKnownUniquelyReferenced(&storage)
        if isUnique, let storage, storage.count < storage.capacity {
            storage.append(element)
            return
        }
        var capacity = 4
        if let storage {
            capacity = Swift.max(capacity, storage.count < storage.capacity ? storage.capacity : storage.capacity * 2)
        }
        let grown = RingBufferStorage<Element>(capacity: capacity)
        if let storage {
            if isUnique {
                storage.moveAll(to: grown)
            } else {
                storage.copyAll(to: grown)
            }
        }
        grown.append(element)
        storage = grown
    }

    /// Removes and returns the oldest element; traps when the queue is empty.
    mutating func removeFirst() -> Element {
        require(!isEmpty, "RingBuffer: removeFirst() on an empty queue")
        if !isKnownUniquelyReferenced(&storage) {
            let copy = RingBufferStorage<Element>(capacity: storage!.capacity)
            storage!.copyAll(to: copy)
            storage = copy
        }
        return storage!.removeOldest()
    }

    /// Removes and returns the oldest element, or `nil` when the queue is empty.
    mutating func popFirst() -> Element? {
        isEmpty ? nil : removeFirst()
    }

    /// Replaces the elements with `element` alone.
    mutating func replaceAll(with element: Element) {
        if isKnownUniquelyReferenced(&storage), let storage {
            if storage.count == 1 {
                storage.replaceOldest(with: element)
            } else {
                storage.removeAll()
                storage.append(element)
            }
            return
        }
        let fresh = RingBufferStorage<Element>(capacity: 4)
        fresh.append(element)
        storage = fresh
    }

    /// The elements in order, oldest first (for mirrors and tests).
    var elements: [Element] {
        storage?.elements ?? []
    }

    /// Drops every element and releases the storage.
    mutating func removeAll() {
        storage = nil
    }
}

/// The memory of a `RingBuffer`: `capacity` slots, of which `count` from `head` on (wrapping around) hold elements.
final class RingBufferStorage<Element> {
    let capacity: Int
    private(set) var count = 0
    private var head = 0
    private let slots: UnsafeMutablePointer<Element>

    init(capacity: Int) {
        self.capacity = capacity
        slots = UnsafeMutablePointer<Element>.allocate(capacity: capacity)
    }

    deinit {
        removeAll()
        slots.deallocate()
    }

    /// The slot of the element `offset` places after the oldest.
    private func slot(_ offset: Int) -> UnsafeMutablePointer<Element> {
        let index = head + offset
        return slots + (index < capacity ? index : index - capacity)
    }

    var oldest: Element { slots[head] }

    /// Adds an element after the newest; only while `count < capacity`.
    func append(_ element: Element) {
        slot(count).initialize(to: element)
        count += 1
    }

    /// Puts `element` in the place of the oldest element; only while `count > 0`.
    func replaceOldest(with element: Element) {
        slots[head] = element
    }

    /// Moves the oldest element out; only while `count > 0`.
    func removeOldest() -> Element {
        let element = (slots + head).move()
        head += 1
        if head == capacity {
            head = 0
        }
        count -= 1
        return element
    }

    /// Moves every element, in order, into `other` (empty, with room for them all); this storage is left empty.
    func moveAll(to other: RingBufferStorage<Element>) {
        while count > 0 {
            other.append(removeOldest())
        }
    }

    /// Copies every element, in order, into `other` (empty, with room for them all).
    func copyAll(to other: RingBufferStorage<Element>) {
        for offset in 0..<count {
            other.append(slot(offset).pointee)
        }
    }

    var elements: [Element] {
        (0..<count).map { slot($0).pointee }
    }

    /// Destroys every element.
    func removeAll() {
        while count > 0 {
            _ = removeOldest()
        }
        head = 0
    }
}
