import Cadence
import Dispatch
import Testing

@Suite("ObservableObject")
struct ObservableObjectTests {
    final class Contact: ObservableObject {
        @Published var name = "John"
        @Published var age = 24
        var note = ""
    }

    final class Empty: ObservableObject {}

    final class Plain: ObservableObject {
        var value = 0
    }

    class Base {
        @Published var baseValue = 10
        var simple = "base"
    }

    final class Derived: Base, ObservableObject {
        @Published var derivedValue = "derived"
    }

    class ObservableBase: ObservableObject {
        @Published var first = 0
    }

    final class ObservableDerived: ObservableBase {
        @Published var second = 1
    }

    final class Generic<T>: ObservableObject {
        @Published var value: T

        init(_ value: T) {
            self.value = value
        }
    }

    final class OwnPublisher: ObservableObject {
        let objectWillChange = ObservableObjectPublisher()
        @Published var state = 0
    }

    final class Feed: ObservableObject {
        @Published var items: [Int] = []
    }

    /// Counts `objectWillChange` signals and records what the object looked like at each.
    final class WillChangeRecorder<Object: ObservableObject>: @unchecked Sendable // `lock` guards `snapshots`
    where Object.ObjectWillChangePublisher == ObservableObjectPublisher {
        private let lock = TestLock()
        private var snapshots: [String] = []
        private var cancellable: AnyCancellable?

        init(_ object: Object, snapshot: @escaping (Object) -> String = { _ in "" }) {
            cancellable = object.objectWillChange.sink { [unowned object, lock] in
                let state = snapshot(object)
                lock.withLock { self.snapshots.append(state) }
            }
        }

        var count: Int { lock.withLock { snapshots.count } }
        var states: [String] { lock.withLock { snapshots } }
    }

    @Test func objectWillChangeIsTheSameInstanceOnEveryAccess() {
        let contact = Contact()
        #expect(contact.objectWillChange === contact.objectWillChange)
        let empty = Empty()
        #expect(empty.objectWillChange === empty.objectWillChange)
        let plain = Plain()
        #expect(plain.objectWillChange === plain.objectWillChange)
        #expect(contact.objectWillChange !== Contact().objectWillChange)
    }

    @Test func aNewObjectAtAReusedAddressGetsANewPublisher() {
        var earlier: [ObservableObjectPublisher] = []
        for _ in 0..<50 {
            let publisher = Empty().objectWillChange
            #expect(!earlier.contains { $0 === publisher })
            earlier.append(publisher)
        }
    }

    @Test func publishedPropertiesFireBeforeTheChange() {
        let contact = Contact()
        let recorder = WillChangeRecorder(contact) { "\($0.name) \($0.age)" }
        contact.age += 1
        contact.name = "Johnny"
        contact.note = "not published"
        #expect(recorder.states == ["John 24", "John 25"])
        #expect(contact.age == 25)
        #expect(contact.name == "Johnny")
    }

    @Test func objectWillChangeFiresBeforeThePropertysOwnSubscribers() {
        let contact = Contact()
        nonisolated(unsafe) var order: [String] = []
        let willChange = contact.objectWillChange.sink { order.append("objectWillChange") }
        let age = contact.$age.dropFirstValue { order.append("age \($0)") }
        contact.age = 30
        #expect(order == ["objectWillChange", "age 30"])
        withExtendedLifetime((willChange, age)) {}
    }

    @Test func propertiesSetBeforeTheFirstAccessStillFireLaterChanges() {
        let contact = Contact()
        contact.age = 1
        let recorder = WillChangeRecorder(contact)
        contact.age = 2
        contact.age = 3
        #expect(recorder.count == 2)
    }

    @Test func publishedPropertiesOfANonObservableSuperclassFire() {
        let object = Derived()
        let recorder = WillChangeRecorder(object) { "\($0.baseValue) \($0.derivedValue)" }
        object.baseValue -= 1
        object.derivedValue = "changed"
        object.simple = "not published"
        #expect(recorder.states == ["10 derived", "9 derived"])
    }

    @Test func publishedPropertiesOfAnObservableSuperclassFire() {
        let object = ObservableDerived()
        let recorder = WillChangeRecorder(object)
        object.first += 5
        object.second += 5
        #expect(recorder.count == 2)
        #expect(object.first == 5)
        #expect(object.second == 6)
    }

    @Test func genericClassesWork() {
        let object = Generic("hello")
        let recorder = WillChangeRecorder(object) { $0.value }
        object.value += "!"
        #expect(recorder.states == ["hello"])
        #expect(object.value == "hello!")
    }

    @Test func aClassWithItsOwnObjectWillChangeIsNotFiredByPublishedProperties() {
        let object = OwnPublisher()
        let subscriber = TestSubscriber<Void, Never>()
        object.objectWillChange.subscribe(subscriber)
        object.state = 100
        #expect(subscriber.events.count == 1)
        object.objectWillChange.send()
        #expect(subscriber.events.count == 2)
    }

    @Test func aManualSendReachesSubscribers() {
        let plain = Plain()
        let recorder = WillChangeRecorder(plain) { "\($0.value)" }
        plain.objectWillChange.send()
        plain.value = 1
        #expect(recorder.states == ["0"])
    }

    @Test func assignToPublishedFiresObjectWillChange() {
        let upstream = PassthroughSubject<[Int], Never>()
        let feed = Feed()
        upstream.assign(to: &feed.$items)
        let recorder = WillChangeRecorder(feed) { "\($0.items)" }
        upstream.send([1])
        upstream.send([1, 2])
        #expect(recorder.states == ["[]", "[1]"])
        #expect(feed.items == [1, 2])
    }

    @Test func concurrentAccessGivesOnePublisherAndEverySignal() {
        let contact = Contact()
        let box = SubjectsSendableBox(contact)
        let identities = TestLock()
        nonisolated(unsafe) var seen: Set<ObjectIdentifier> = []
        let recorder = WillChangeRecorder(contact)
        DispatchQueue.concurrentPerform(iterations: 8) { thread in
            for index in 0..<250 {
                let publisher = box.value.objectWillChange
                identities.withLock { _ = seen.insert(ObjectIdentifier(publisher)) }
                if thread.isMultiple(of: 2) {
                    box.value.age = index
                } else {
                    box.value.name = "\(index)"
                }
            }
        }
        #expect(identities.withLock { seen.count } == 1)
        #expect(recorder.count == 2_000)
    }

    @Test func deadObjectsPublishersAreEventuallyReleased() {
        weak var weakPublisher: ObservableObjectPublisher?
        weak var weakContact: Contact?
        do {
            let contact = Contact()
            weakContact = contact
            weakPublisher = contact.objectWillChange
        }
        #expect(weakContact == nil)
        for _ in 0..<2_000 {
            _ = Empty().objectWillChange
        }
        #expect(weakPublisher == nil)
    }
}

extension Publisher where Failure == Never {
    /// Sinks every value after the first (the current value a `@Published` publisher replays on subscription).
    fileprivate func dropFirstValue(_ receive: @escaping (Output) -> Void) -> AnyCancellable {
        nonisolated(unsafe) var first = true
        return sink { value in
            if first {
                first = false
            } else {
                receive(value)
            }
        }
    }
}
