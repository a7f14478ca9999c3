import Cadence
import Testing

/// Adversarial tests of `@Published` and `ObservableObject`: lifetimes of `assign(to:)` chains inside one object.
@Suite("assign(to:) between properties of one object")
struct AssignWithinOneObjectTests {
    final class Form: ObservableObject {
        @Published var text = ""
        @Published var length = 0

        init() {
            $text.map(\.count).assign(to: &$length)
        }
    }

    /// `assign(to:)` from one `@Published` property of an object to another of the same object keeps no cycle:
    /// the object goes away, and with it both subjects.
    @Test func assigningBetweenPropertiesOfOneObjectLeaksNothing() {
        weak var weakForm: Form?
        var lengths: [Int] = []
        var willChange = 0
        do {
            let form = Form()
            weakForm = form
            let changes = form.objectWillChange.sink { willChange += 1 }
            let values = form.$length.sink { lengths.append($0) }
            form.text = "abc"
            #expect(form.length == 3)
            withExtendedLifetime((changes, values)) {}
        }
        #expect(weakForm == nil)
        #expect(lengths == [0, 3])
        #expect(willChange == 2) // text, then length
    }

    final class ObservedCounter: ObservableObject {
        @Published var count = 0
    }

    /// A new object that takes a dead object's address must not signal the dead object's `objectWillChange`
    /// subscribers (the registry is keyed by address); the allocator usually hands the dead object's memory to the
    /// next object of its size.
    @Test func aNewObjectAtADeadObjectsAddressDoesNotSignalItsSubscribers() {
        var staleSignals = 0
        var freshSignals = 0
        for _ in 0..<100 {
            let stale: AnyCancellable
            do {
                let old = ObservedCounter()
                stale = old.objectWillChange.sink { staleSignals += 1 }
            }
            let fresh = ObservedCounter()
            let current = fresh.objectWillChange.sink { freshSignals += 1 }
            fresh.count = 1
            withExtendedLifetime((stale, current)) {}
        }
        #expect(staleSignals == 0)
        #expect(freshSignals == 100)
    }
}
