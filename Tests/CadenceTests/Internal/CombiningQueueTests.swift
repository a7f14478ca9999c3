#if !canImport(Combine)
@testable import Cadence
import Testing

@Suite("CombiningQueue")
struct CombiningQueueTests {
    @Test func isFirstInFirstOutAcrossGrowthAndWraparound() {
        var queue = CombiningQueue<Int>()
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
        var queue = CombiningQueue<String>()
        queue.append("a")
        queue.append("b")
        queue.removeAll()
        #expect(queue.isEmpty)
        #expect(queue.count == 0)
        queue.append("c")
        #expect(queue.removeFirst() == "c")
    }

    @Test func removeFirstOnAnEmptyQueueTraps() async {
        let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
            var queue = CombiningQueue<Int>()
            _ = queue.removeFirst()
        }
        #expect(result?.standardErrorText.contains("CombiningQueue: removeFirst() on an empty queue") == true)
    }
}
#endif
