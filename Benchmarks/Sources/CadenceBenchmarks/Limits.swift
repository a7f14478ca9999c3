import Foundation

/// The hand-written limits: each benchmark's work with no library, what any implementation pays at least. Each
/// returns the checksum Cadence's side returns, so a limit that does less work than the row fails the row.
///
/// Where a library must call a subscriber's closure (fan-out, `share`, the scheduler's actions), the limit calls a
/// closure too, through an array of them; where it only computes, the limit is the computation, which the optimiser
/// may reduce to a few instructions: that is the floor.
enum Limits {
    /// `map`, `filter`, `scan` and the sink's checksum as one `for` loop.
    static func pipeline(values: Int) -> Int {
        var checksum = 0
        var sum = 0
        for value in 0..<values {
            let mapped = value &* 3
            guard mapped & 1 == 0 else { continue }
            sum = sum &+ mapped
            checksum = checksum &* 31 &+ sum
        }
        return checksum
    }

    /// `Just(value).map { $0 + 1 }` into the sink's sum, with no subscription.
    static func justMapSink(subscriptions: Int) -> Int {
        var checksum = 0
        for value in 0..<subscriptions { checksum &+= value &+ 1 }
        return checksum
    }

    /// An array of `subscribers` closures, each called with the current value (0) when it is added, then each called
    /// with every value sent.
    static func currentValueFanOut(subscribers: Int, sends: Int) -> Int {
        var checksum = 0
        var handlers: [(Int) -> Void] = []
        for subscriber in 0..<subscribers {
            let handler: (Int) -> Void = { checksum &+= $0 &* (subscriber + 1) }
            handler(0)
            handlers.append(handler)
        }
        for value in 0..<sends {
            for handler in handlers { handler(value &+ 1) }
        }
        return checksum
    }

    /// The array `collect()` builds, built directly.
    static func collect(values: Int) -> Int {
        let array = Array(0..<values)
        return array.count &* 1_000_003 &+ array.reduce(0, &+)
    }

    /// The outer and inner sequences of `flatMap` as two nested loops.
    static func flatMap(values: Int) -> Int {
        var checksum = 0
        for outer in 0..<values / 100 {
            for inner in 0..<100 { checksum = checksum &* 31 &+ (outer &* 100 &+ inner) }
        }
        return checksum
    }

    /// What `flatMap { Just($0 * 3) }` and `flatMap { Future { $0(.success(value * 3)) } }` deliver: each value
    /// tripled, with no inner publisher.
    static func tripled(values: Int) -> Int {
        var checksum = 0
        for value in 0..<values { checksum = checksum &* 31 &+ value &* 3 }
        return checksum
    }

    /// Two sources merged: every value, in the order sent.
    static func merge(values: Int) -> Int {
        var checksum = 0
        for value in 0..<values { checksum = checksum &* 31 &+ value }
        return checksum
    }

    /// The latest value of each side, combined on every send once both have one.
    static func combineLatest(values: Int) -> Int {
        var checksum = 0
        var left: Int?
        var right: Int?
        for value in 0..<values {
            if value & 1 == 0 { left = value } else { right = value }
            if let left, let right { checksum = checksum &* 31 &+ (left &* 7 &+ right) }
        }
        return checksum
    }

    /// Two queues, one a side, paired in order as soon as both hold a value.
    static func zip(values: Int) -> Int {
        var checksum = 0
        var lefts: [Int] = []
        var rights: [Int] = []
        var paired = 0
        for value in 0..<values {
            if value & 1 == 0 { lefts.append(value) } else { rights.append(value) }
            while paired < lefts.count, paired < rights.count {
                checksum = checksum &* 31 &+ (lefts[paired] &* 7 &+ rights[paired])
                paired += 1
            }
        }
        return checksum
    }

    /// `map` once per value, then an array of `subscribers` closures each called with the result.
    static func share(values: Int, subscribers: Int) -> Int {
        var checksum = 0
        var handlers: [(Int) -> Void] = []
        for subscriber in 0..<subscribers {
            handlers.append { checksum &+= $0 &* (subscriber + 1) }
        }
        for value in 0..<values {
            let mapped = value &* 2
            for handler in handlers { handler(mapped) }
        }
        return checksum
    }

    /// The scheduler's queue by hand: one array of closures per millisecond (the actions are due over 100 ms), run
    /// in order of their time and, within a millisecond, in the order they were scheduled.
    static func scheduledActions(_ actions: Int) -> Int {
        var checksum = 0
        var due = [[() -> Void]](repeating: [], count: 100)
        for action in 0..<actions {
            due[action % 100].append { checksum = checksum &* 31 &+ action }
        }
        for actions in due {
            for action in actions { action() }
        }
        return checksum
    }

    /// The sleepers by hand: each task suspends on a continuation filed under the millisecond it sleeps until, and
    /// one pass resumes them all in order of those milliseconds.
    @available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *)
    static func sleepers(_ sleepers: Int) async -> Int {
        let sleeping = Sleeping()
        return await withTaskGroup(of: Int.self) { group in
            for sleeper in 0..<sleepers {
                let milliseconds = sleeper % 100 + 1
                group.addImmediateTask {
                    await withCheckedContinuation { sleeping.add($0, until: milliseconds) }
                    return milliseconds
                }
            }
            sleeping.resumeAll()
            var checksum = 0
            for await slept in group { checksum &+= slept }
            return checksum
        }
    }

    /// The continuations of `sleepers(_:)`, filed by the millisecond they wait for.
    final class Sleeping: @unchecked Sendable {
        // `lock` guards `waiting`.
        private let lock = NSLock()
        private var waiting = [[CheckedContinuation<Void, Never>]](repeating: [], count: 101)

        func add(_ continuation: CheckedContinuation<Void, Never>, until millisecond: Int) {
            lock.withLock { waiting[millisecond].append(continuation) }
        }

        func resumeAll() {
            let all = lock.withLock { waiting }
            for continuations in all {
                for continuation in continuations { continuation.resume() }
            }
        }
    }
}
