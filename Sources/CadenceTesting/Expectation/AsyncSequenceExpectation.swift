import CadenceSupport

/// Starts an expectation chain on an asynchronous sequence: iterates it in a task, as far as the demand allows, and
/// records each element, the end (as `finished`) or the error it throws (as a failure), with the wall-clock time
/// since this call.
///
/// Check it with the steps' `async` forms, which wait in wall-clock time:
///
/// ```swift
/// let stream = AsyncStream<Int> { continuation in
///     Task { continuation.yield(1); continuation.yield(2); continuation.finish() }
/// }
/// await expect(stream).toEmit([1, 2], timeout: .seconds(1)).thenFinish(timeout: .seconds(1))
/// ```
///
/// It works with `publisher.values` too. The failure type is `any Error` whether or not the sequence throws (a
/// sequence's typed failure needs macOS 15 / iOS 18, later than this package's platforms).
///
/// - Sendability: neither the sequence nor its elements need be `Sendable` — the way `expect(_:)` takes any publisher,
///   whose events may come from any thread. The sequence is iterated on a task of its own while the test goes on (a
///   test typically sends into the subject behind `subject.values` meanwhile), so it must be safe to use from
///   another task, as `AsyncStream`, `publisher.values` and sequences over thread-safe state are. Elements pass from
///   the iterating task to the test through the expectation's lock.
/// - Demand: the task asks the sequence for its next element only while demand is outstanding — unlimited by default;
///   with `demand: .none` nothing is pulled until `thenRequest(_:)`.
/// - The iteration is cancelled by `thenCancel()`, and when the chain ends (the last reference to the expectation
///   goes; inside a virtual-time test, whose scope holds ended chains for their late checks, when the test ends):
///   elements the sequence would produce after the chain ended are never pulled, so they are not reported as
///   late events the way a publisher's are. Elements already pulled and not consumed are reported as usual.
/// - The task runs at high priority, or at the test's if that is higher, so an element is timed when it arrives even
///   while a suite running in parallel keeps the cooperative pool busy.
/// - It never drives a virtual clock: its steps wait in wall-clock time. The synchronous steps (without `timeout:`)
///   look only at what the task has already pulled.
///
/// - Parameters:
///   - sequence: Any asynchronous sequence.
///   - demand: How many elements to pull before `thenRequest(_:)` asks for more; `.unlimited` by default.
@discardableResult
public func expect<S: AsyncSequence>(
    _ sequence: S,
    demand: Subscribers.Demand = .unlimited,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> PublisherExpectation<S.Element, any Error> {
    let feed = AsyncSequenceFeed<S.Element>()
    // Made here, not in the task, so a sequence that subscribes to something when iterated (`publisher.values`)
    // does so at once.
    var iterator = sequence.makeAsyncIterator()
    // The iterator goes into the task inside a closure, so the task needs nothing of the sequence's types but the
    // element's.
    let next = Handover<() async throws -> S.Element?> { try await iterator.next() }
    // At high priority (or the test's, if higher): on Linux the cooperative pool runs a job of the default priority
    // only after every job queued before it, and a suite running in parallel queues thousands — the elements would be
    // timed when the pool got round to the task, seconds after they arrived, and a timeout could run out on them.
    feed.start(Task(priority: max(Task.currentPriority, .high)) { await feed.run(next.value) })
    return PublisherExpectation(
        subscribingTo: AsyncSequenceSource(feed: feed),
        clock: nil,
        demand: demand,
        location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
        describing: S.self
    )
}

/// The publisher `expect(_ sequence:)` subscribes to: it hands its one subscriber the elements the feed's task pulls.
struct AsyncSequenceSource<Element>: Publisher {
    typealias Output = Element
    typealias Failure = any Error

    let feed: AsyncSequenceFeed<Element>

    func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == Element, Downstream.Failure == any Error {
        if let recorder = subscriber as? EventRecorder<Element, any Error> {
            // Held weakly, so that the recorder — and with it the subscription, whose end cancels the iteration —
            // goes when the expectation's chain ends, even while the task waits for an element.
            feed.attach(
                AsyncSequenceFeed.Sink(
                    receive: { [weak recorder] element in recorder?.receive(element) ?? .none },
                    complete: { [weak recorder] completion in recorder?.receive(completion: completion) }
                ))
        } else {
            feed.attach(
                AsyncSequenceFeed.Sink(
                    receive: { element in subscriber.receive(element) },
                    complete: { completion in subscriber.receive(completion: completion) }
                ))
        }
        subscriber.receive(subscription: AsyncSequenceSubscription(feed: feed))
    }
}

/// The subscription of an ``AsyncSequenceSource``: demand goes to the feed; cancelling it — or releasing it, as the
/// recorder does when it goes — cancels the iteration.
final class AsyncSequenceSubscription<Element>: Subscription, Sendable {
    let feed: AsyncSequenceFeed<Element>

    init(feed: AsyncSequenceFeed<Element>) {
        self.feed = feed
    }

    deinit {
        feed.cancel()
    }

    func request(_ demand: Subscribers.Demand) {
        feed.request(demand)
    }

    func cancel() {
        feed.cancel()
    }
}

/// The state an iterating task shares with its subscription: outstanding demand, the task waiting for it, the sink
/// the elements go to, and whether the iteration was cancelled.
///
/// Nothing is called while the lock is held: the task is resumed, cancelled, and the sink called, after it is
/// released.
final class AsyncSequenceFeed<Element>: Sendable {
    /// Where the pulled elements and the end go.
    struct Sink {
        let receive: (Element) -> Subscribers.Demand
        let complete: (Subscribers.Completion<any Error>) -> Void
    }

    private struct State {
        var demand: Subscribers.Demand = .none
        /// The task, suspended until there is demand (resumed with false when the iteration is cancelled).
        var waiting: CheckedContinuation<Bool, Never>?
        var sink: Sink?
        var task: Task<Void, Never>?
        var cancelled = false
    }

    private let state = Locked(State())

    init() {}

    /// Keeps the iterating task, to cancel it with the subscription.
    func start(_ task: Task<Void, Never>) {
        let cancelled = state.withLock { state -> Bool in
            if !state.cancelled { state.task = task }
            return state.cancelled
        }
        if cancelled { task.cancel() }
    }

    /// Sets the sink (the first one only: `expect` subscribes once).
    func attach(_ sink: Sink) {
        state.withLock { state in
            if state.sink == nil, !state.cancelled { state.sink = sink }
        }
    }

    /// Adds `demand`, resuming the task if it waits for some.
    func request(_ demand: Subscribers.Demand) {
        let waiting = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard !state.cancelled, demand > .none else { return nil }
            state.demand += demand
            guard let waiting = state.waiting else { return nil }
            state.waiting = nil
            state.demand -= 1
            return waiting
        }
        waiting?.resume(returning: true)
    }

    /// Stops the iteration: the task is cancelled and delivers nothing more.
    func cancel() {
        let (waiting, task, sink) = state.withLock { state in
            state.cancelled = true
            defer {
                state.waiting = nil
                state.task = nil
                state.sink = nil
            }
            return (state.waiting, state.task, state.sink)
        }
        waiting?.resume(returning: false)
        task?.cancel()
        // Released here, after the lock: letting go of a subscriber may run its deinitialiser.
        _ = consume sink
    }

    /// Pulls elements with `next` (the iterator's `next()`) while there is demand, until the sequence ends, throws,
    /// or the iteration is cancelled.
    func run(_ next: () async throws -> Element?) async {
        while await nextDemand() {
            let element: Element?
            do {
                element = try await next()
            } catch {
                complete(.failure(error))
                return
            }
            guard let element else {
                complete(.finished)
                return
            }
            deliver(element)
        }
    }

    /// Takes one unit of demand, suspending until there is some; false once the iteration is cancelled.
    private func nextDemand() async -> Bool {
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let available = state.withLock { state -> Bool? in
                    if state.cancelled { return false }
                    if state.demand > .none {
                        state.demand -= 1
                        return true
                    }
                    state.waiting = continuation
                    return nil
                }
                if let available { continuation.resume(returning: available) }
            }
        } onCancel: {
            cancel()
        }
    }

    private func deliver(_ element: Element) {
        guard let sink = state.withLock({ $0.cancelled ? nil : $0.sink }) else { return }
        let more = sink.receive(element)
        if more > .none { request(more) }
    }

    private func complete(_ completion: Subscribers.Completion<any Error>) {
        let sink = state.withLock { state -> Sink? in
            defer { state.sink = nil }
            return state.cancelled ? nil : state.sink
        }
        sink?.complete(completion)
    }
}

/// The iterator's `next`, moving from `expect(_ sequence:)` into the iterating task.
struct Handover<Value>: @unchecked Sendable { // nothing guards it: from then on only the iterating task calls it
    let value: Value

    init(_ value: Value) {
        self.value = value
    }
}
