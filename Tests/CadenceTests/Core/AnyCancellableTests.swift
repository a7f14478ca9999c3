import Cadence
import Dispatch
import Testing

@Suite("AnyCancellable")
struct AnyCancellableTests {
    final class Counter: @unchecked Sendable { // `lock` guards `count`
        private let lock = TestLock()
        private var count = 0
        func increment() { lock.withLock { count += 1 } }
        var value: Int { lock.withLock { count } }
    }

    @Test func cancelRunsTheClosureOnce() {
        let counter = Counter()
        let cancellable = AnyCancellable { counter.increment() }
        cancellable.cancel()
        cancellable.cancel()
        #expect(counter.value == 1)
    }

    @Test func deinitCancels() {
        let counter = Counter()
        var cancellable: AnyCancellable? = AnyCancellable { counter.increment() }
        #expect(counter.value == 0)
        cancellable = nil
        #expect(counter.value == 1)
        #expect(cancellable == nil)
    }

    @Test func concurrentCancelsRunTheClosureOnce() {
        for _ in 0..<200 {
            let counter = Counter()
            let cancellable = UncheckedSendable(AnyCancellable { counter.increment() })
            DispatchQueue.concurrentPerform(iterations: 8) { _ in cancellable.value.cancel() }
            #expect(counter.value == 1)
        }
    }

    @Test func wrapsAnotherCancellable() {
        let upstream = DrivenPublisher<Int, Never>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in }, receiveValue: { _ in })
        upstream.subscribe(sink)
        let cancellable = AnyCancellable(sink)
        cancellable.cancel()
        #expect(upstream.subscription.cancelCount == 1)
    }

    @Test func wrappingACancellableCancelsItOnceAndReleasesIt() {
        final class Canceller: Cancellable {
            var cancels = 0
            func cancel() { cancels += 1 }
        }
        let canceller = Canceller()
        weak var released: Canceller?
        var cancellable: AnyCancellable? = AnyCancellable(canceller)
        cancellable?.cancel()
        cancellable?.cancel()
        #expect(canceller.cancels == 1)
        cancellable = nil
        #expect(canceller.cancels == 1)

        var dropped: AnyCancellable?
        do {
            let inner = Canceller()
            released = inner
            dropped = AnyCancellable(inner)
            dropped?.cancel()
        }
        #expect(released == nil)
        #expect(dropped != nil)
    }

    @Test func wrappingAnotherAnyCancellableCancelsItWhenCancelledOrReleased() {
        let counter = Counter()
        let inner = AnyCancellable { counter.increment() }
        var outer: AnyCancellable? = AnyCancellable(inner)
        #expect(counter.value == 0)
        outer = nil
        #expect(counter.value == 1)
        #expect(outer == nil)
    }

    @Test func storesInASetAndInAnArray() {
        var set = Set<AnyCancellable>()
        var array: [AnyCancellable] = []
        let first = AnyCancellable {}
        first.store(in: &set)
        first.store(in: &set)
        first.store(in: &array)
        first.store(in: &array)
        #expect(set.count == 1)
        #expect(array.count == 2)
        #expect(set.contains(first))
        #expect(AnyCancellable {} != first)
    }

    @Test func anyCancellableStoresThroughCancellable() {
        let counter = Counter()
        var set = Set<AnyCancellable>()
        let sink = Subscribers.Sink<Int, Never>(receiveCompletion: { _ in counter.increment() }, receiveValue: { _ in })
        sink.store(in: &set)
        #expect(set.count == 1)
        Just(1).subscribe(sink)
        #expect(counter.value == 1)
    }
}
