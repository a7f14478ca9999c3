import CadenceSupport
import Synchronization

/// The side table behind the default `objectWillChange`: one `ObservableObjectPublisher` per live object, found in
/// O(1) by the object's identity, without reflecting over the object.
///
/// An entry holds its object weakly, so an address reused by a new object is recognised and given a new publisher;
/// dead entries are purged after as many insertions as the table holds entries (at least 64), which keeps both the
/// table's size and the cost per insertion bounded (amortised O(1)).
/// `generation` counts insertions, so a `@Published` property that found no publisher for its object can skip
/// looking again until some object gets one.
enum ObservableObjectRegistry {
    private struct Entry {
        weak var object: AnyObject?
        let publisher: ObservableObjectPublisher
    }

    private struct Table {
        var entries: [ObjectIdentifier: Entry] = [:]
        var insertionsSincePurge = 0
    }

    private static let table = Locked(Table())

    /// Incremented after every new publisher is registered.
    static let generation = Atomic<UInt>(0)

    /// The object's publisher, created on first request.
    static func publisher(for object: AnyObject) -> ObservableObjectPublisher {
        let key = ObjectIdentifier(object)
        // Entries that leave the table are released after the lock is left: a publisher's deinit releases
        // subscriptions, and with them subscribers.
        var released: [Entry] = []
        let publisher = table.withLock { table -> ObservableObjectPublisher in
            if let entry = table.entries[key] {
                if entry.object === object {
                    return entry.publisher
                }
                released.append(entry) // its object died and a new one took the address
            }
            let publisher = ObservableObjectPublisher()
            table.entries[key] = Entry(object: object, publisher: publisher)
            table.insertionsSincePurge += 1
            if table.insertionsSincePurge >= Swift.max(64, table.entries.count) {
                released += table.entries.values.filter { $0.object == nil }
                table.entries = table.entries.filter { $0.value.object != nil }
                table.insertionsSincePurge = 0
            }
            generation.add(1, ordering: .releasing)
            return publisher
        }
        released.removeAll()
        return publisher
    }

    /// The object's publisher if something has asked for it already.
    static func existingPublisher(for object: AnyObject) -> ObservableObjectPublisher? {
        let key = ObjectIdentifier(object)
        return table.withLock { table in
            guard let entry = table.entries[key], entry.object === object else { return nil }
            return entry.publisher
        }
    }
}
