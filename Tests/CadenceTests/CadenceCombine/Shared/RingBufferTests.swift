// Internal machinery, reached with @testable, which only debug builds allow.
#if DEBUG && !canImport(Combine)
@testable import CadenceCombine
import Cadence
import Testing

@Suite("RingBuffer")
struct RingBufferTests {
    @Test func isFirstInFirstOutAcrossGrowthAndWraparound() {
        var queue = RingBuffer<Int>()
        #expect(queue.isEmpty)
        #expect(queue.first == nil)
        var expected: [Int] = []
        var removed: [Int] = []
        var next = 0
        // Interleave appends and removals so the head wraps around while the buffer grows.
        for round in 0..<50 {
            for _ in 0..<(round % 7 + 1) {
                queue.append(next)
                expected.append(next)
                next += 1
            }
            for _ in 0..<(round % 5) where !queue.isEmpty {
                removed.append(queue.removeFirst())
            }
            #expect(queue.count == expected.count - removed.count)
        }
        while !queue.isEmpty {
            #expect(queue.first == expected[removed.count])
            removed.append(queue.removeFirst())
        }
        #expect(removed == expected)
    }

    @Test func removeAllEmptiesTheQueue() {
        var queue = RingBuffer<String>()
        queue.append("a")
        queue.append("b")
        queue.removeAll()
        #expect(queue.isEmpty)
        #expect(queue.count == 0)
        queue.append("c")
        #expect(queue.removeFirst() == "c")
    }

    @Test func popFirstAndElementsReadInOrder() {
        var queue = RingBuffer<Int>()
        #expect(queue.popFirst() == nil)
        for value in 1...6 {
            queue.append(value)
        }
        #expect(queue.popFirst() == 1)
        #expect(queue.popFirst() == 2)
        queue.append(7)
        queue.append(8)
        #expect(queue.elements == [3, 4, 5, 6, 7, 8])
        #expect(queue.count == 6)
    }

    #if !canImport(Combine) // pins a Cadence decision that Combine does not share
    @Test func removeFirstOnAnEmptyQueueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var queue = RingBuffer<Int>()
            _ = queue.removeFirst()
        }
        #expect(result?.standardErrorText.contains("RingBuffer: removeFirst() on an empty queue") == true)
    }
    #endif
}
#endif
