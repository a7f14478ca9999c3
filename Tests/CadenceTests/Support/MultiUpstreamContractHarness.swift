import Cadence
import Foundation

/// A single-threaded upstream driven by the test that behaves: it sends a value only while the demand it received
/// (requests plus the demand returned from `receive(_:)`) is not used up, and finishes or fails once its values are
/// all sent. It says whether it has been subscribed to, so a test can tell which upstreams a cancel must reach.
final class DemandRespectingSource: Publisher {
    typealias Output = Int
    typealias Failure = TestError

    private var values: ArraySlice<Int>
    private let completion: Subscribers.Completion<TestError>
    private var downstream: AnySubscriber<Int, TestError>?
    private var outstanding = Subscribers.Demand.none
    private var isPumping = false
    private(set) var isCompleted = false
    private(set) var cancelCount = 0
    private(set) var sentCount = 0
    var isSubscribed: Bool { downstream != nil }
    var isCancelled: Bool { cancelCount > 0 }

    init(values: [Int], completion: Subscribers.Completion<TestError>) {
        self.values = values[...]
        self.completion = completion
    }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        downstream = AnySubscriber(subscriber)
        subscriber.receive(subscription: Connection(source: self))
    }

    /// Sends at most `limit` values, as the demand allows; completes once every value went out.
    func pump(limit: Int = .max) {
        guard !isPumping, let downstream, !isCancelled, !isCompleted else { return }
        isPumping = true
        defer { isPumping = false }
        var sent = 0
        while limit > sent, outstanding > .none, let value = values.first, !isCancelled {
            values.removeFirst()
            outstanding -= 1
            sent += 1
            sentCount += 1
            outstanding += downstream.receive(value)
        }
        if values.isEmpty, !isCancelled, !isCompleted {
            isCompleted = true
            downstream.receive(completion: completion)
        }
    }

    private final class Connection: Subscription {
        let source: DemandRespectingSource

        init(source: DemandRespectingSource) {
            self.source = source
        }

        func request(_ demand: Subscribers.Demand) {
            source.outstanding += demand
        }

        func cancel() {
            source.cancelCount += 1
        }
    }
}

/// An upstream that sends from a thread of its own (`run(until:)`), only while it has demand, then completes; it
/// stops as soon as it is cancelled.
final class ThreadedSource: Publisher, @unchecked Sendable { // `lock` guards every var
    typealias Output = Int
    typealias Failure = TestError

    private let lock = NSLock()
    private let values: [Int]
    private let completion: Subscribers.Completion<TestError>
    private var downstream: AnySubscriber<Int, TestError>?
    private var outstanding = Subscribers.Demand.none
    private var cancelCount = 0

    init(values: [Int], completion: Subscribers.Completion<TestError> = .finished) {
        self.values = values
        self.completion = completion
    }

    var cancels: Int { lock.withLock { cancelCount } }

    func receive<S: Subscriber>(subscriber: S) where S.Input == Int, S.Failure == TestError {
        let connection = Connection(source: self)
        lock.withLock { downstream = AnySubscriber(subscriber) }
        subscriber.receive(subscription: connection)
    }

    /// Sends every value as the demand allows, then the completion; returns when done, cancelled, at `deadline`, or
    /// once `isOver` says the stream downstream has ended (an upstream that was never subscribed to).
    func run(until deadline: Date, isOver: () -> Bool) {
        var index = 0
        while Date() < deadline, !isOver() {
            lock.lock()
            guard cancelCount == 0, let downstream else {
                let cancelled = cancelCount > 0
                lock.unlock()
                if cancelled { return }
                sched_yield()
                continue
            }
            if index == values.count {
                lock.unlock()
                downstream.receive(completion: completion)
                return
            }
            guard outstanding > .none else {
                lock.unlock()
                sched_yield()
                continue
            }
            outstanding -= 1
            lock.unlock()
            let more = downstream.receive(values[index])
            index += 1
            lock.withLock { outstanding += more }
        }
    }

    private final class Connection: Subscription, @unchecked Sendable { // immutable
        let source: ThreadedSource

        init(source: ThreadedSource) {
            self.source = source
        }

        func request(_ demand: Subscribers.Demand) {
            source.lock.withLock { source.outstanding += demand }
        }

        func cancel() {
            source.lock.withLock { source.cancelCount += 1 }
        }
    }
}

/// A subscriber for values sent from several threads: it records what it gets and reports a value delivered while
/// another is being delivered, a value beyond the demand it granted, anything after its completion, and a second
/// completion. It grants demand from any thread with `request(_:)`, and at random from `receive(_:)`.
final class ConcurrentCheckingSubscriber<Input: Sendable>: Subscriber, @unchecked Sendable {
    // `lock` guards every var.
    typealias Failure = TestError

    private let lock = NSLock()
    private var subscription: (any Subscription)?
    private var receiving = false
    private var granted = Subscribers.Demand.none
    private var answers: SeededGenerator
    private var storedValues: [Input] = []
    private var storedCompletions: [Subscribers.Completion<TestError>] = []
    private var storedViolations: [String] = []
    private let completed = DispatchSemaphore(value: 0)

    /// The demand still to grant when the total is fixed; `nil` when demand is granted without limit.
    private var budget: Int?

    /// - Parameter budget: when set, the subscriber grants exactly this much demand in all, in random chunks, partly
    ///   from `receive(_:)` (by returning it or, re-entrantly, through `request(_:)`) and partly through
    ///   `grantFromBudget()` from another thread, so that no later request can make up for a lost wake-up.
    init(seed: UInt64, budget: Int? = nil) {
        answers = SeededGenerator(seed: seed)
        self.budget = budget
    }

    /// Whether all the budget has been granted.
    var hasGrantedBudget: Bool { lock.withLock { budget == 0 } }

    /// Takes a chunk of at most `limit` from the budget. Under `lock`.
    private func takeFromBudgetLocked(limit: Int) -> Int {
        guard let left = budget, left > 0 else { return 0 }
        let chunk = min(left, Int.random(in: 1...limit, using: &answers))
        budget = left - chunk
        return chunk
    }

    /// Grants a chunk of the budget through `request(_:)`; `false` once it is all granted.
    @discardableResult
    func grantFromBudget() -> Bool {
        let chunk = lock.withLock { takeFromBudgetLocked(limit: 3) }
        guard chunk > 0 else { return false }
        request(.max(chunk))
        return true
    }

    var values: [Input] { lock.withLock { storedValues } }
    var completions: [Subscribers.Completion<TestError>] { lock.withLock { storedCompletions } }
    var violations: [String] { lock.withLock { storedViolations } }
    var isCompleted: Bool { lock.withLock { !storedCompletions.isEmpty } }

    /// Waits for the completion; `false` when none came within `seconds`.
    func waitForCompletion(seconds: Double) -> Bool {
        completed.wait(timeout: .now() + seconds) == .success
    }

    func receive(subscription: any Subscription) {
        lock.withLock {
            if self.subscription != nil { storedViolations.append("a second subscription") }
            self.subscription = subscription
        }
    }

    func receive(_ input: Input) -> Subscribers.Demand {
        let answer: (Subscribers.Demand, Int) = lock.withLock {
            if receiving { storedViolations.append("a value delivered concurrently with another") }
            if !storedCompletions.isEmpty { storedViolations.append("a value after the completion") }
            receiving = true
            storedValues.append(input)
            if granted != .unlimited, Subscribers.Demand.max(storedValues.count) > granted {
                storedViolations.append("value #\(storedValues.count) beyond the \(granted) granted")
            }
            if budget != nil {
                guard Bool.random(using: &answers) else { return (Subscribers.Demand.none, 0) }
                let chunk = takeFromBudgetLocked(limit: 2)
                guard chunk > 0 else { return (.none, 0) }
                if Bool.random(using: &answers) {
                    return (.none, chunk) // requested re-entrantly below
                }
                granted += .max(chunk)
                return (.max(chunk), 0)
            }
            let answer: Subscribers.Demand = Int.random(in: 0...2, using: &answers) == 0 ? .max(1) : .none
            granted += answer
            return (answer, 0)
        }
        if answer.1 > 0 {
            request(.max(answer.1))
        }
        sched_yield()
        lock.withLock { receiving = false }
        return answer.0
    }

    func receive(completion: Subscribers.Completion<TestError>) {
        lock.withLock {
            if receiving { storedViolations.append("a completion delivered concurrently with a value") }
            if !storedCompletions.isEmpty { storedViolations.append("a second completion") }
            storedCompletions.append(completion)
        }
        completed.signal()
    }

    func request(_ demand: Subscribers.Demand) {
        let subscription = lock.withLock {
            granted += demand
            return self.subscription
        }
        subscription?.request(demand)
    }

    /// Whether `cancel()` has been called.
    var isCancelled: Bool { lock.withLock { cancelled } }
    private var cancelled = false

    func cancel() {
        lock.withLock {
            cancelled = true
            return subscription
        }?.cancel()
    }
}

/// Runs each body on a thread of its own and waits for all of them; `false` when they did not all return within
/// `seconds`.
func runOnThreads(within seconds: Double, _ bodies: [@Sendable () -> Void]) -> Bool {
    let group = DispatchGroup()
    for body in bodies {
        group.enter()
        Thread {
            body()
            group.leave()
        }.start()
    }
    return group.wait(timeout: .now() + seconds) == .success
}

/// Counts subscription attempts, from any thread.
final class AttemptCounter: @unchecked Sendable { // `lock` guards `count`
    private let lock = NSLock()
    private var count = 0

    /// The number of attempts before this one.
    func next() -> Int {
        lock.withLock {
            defer { count += 1 }
            return count
        }
    }
}
