import CadenceSupport

/// An expectation chain: the events one subscription received, and the steps that read them left to right.
///
/// Made by `expect(_:on:demand:)`, which subscribes at once; every step consumes the events it matches, driving the
/// expectation's virtual clock until it can decide. When the chain ends — when the last reference to it goes, at the
/// end of the statement in `expect(p).toEmit(1).thenFinish()` — it reports one failure: the first step that failed,
/// or else every event no step consumed (an over-fulfilment), at `expect`'s location. Events that arrive after the
/// chain ended are reported too, unless the chain said ``thenIgnoreRest(fileID:filePath:line:column:)``.
///
/// Read what happened afterwards with ``values``, ``completion`` and ``events``.
public final class PublisherExpectation<Output, Failure: Error>: @unchecked Sendable {
    // `chain` (a Locked) guards the chain's mutable state, `chainSteps` included; the lets are immutable. Steps run
    // on the test's thread; the lock makes reading the results, and the chain's end on whichever thread drops it,
    // safe. The state other than the steps is not generic (`ChainState`): code here is not specialised for `Output`
    // and `Failure`, so each generic type it touches costs a metadata lookup at run time.
    typealias Chain = ChainState

    /// The chain's steps, in order; guarded by `chain`'s lock.
    var chainSteps: [ChainStep<Output, Failure>] = []

    /// A `var` only so that the chain's end can ask whether anything else still holds it; never reassigned.
    var recorder: EventRecorder<Output, Failure>
    let reporter: FailureReporter
    let location: SourceCodeLocation
    let clock: VirtualClock?
    let publisherType: Any.Type
    /// What the test called the chain (`expect(publisher, "results")`), for its messages.
    let label: String?
    let scope: ExpectationScope?
    /// Whether the publisher finishes when an object it observes is released (`expect(_:_:)` on an `@Observable`
    /// property): a `finished` that comes after the test's body has returned is then that object's release at the
    /// end of the test, not an event the test asked about.
    let finishesOnRelease: Bool
    let chain: Locked<Chain>

    /// Subscribes to `publisher` at once, requesting `demand`.
    init<P: Publisher>(
        subscribingTo publisher: P,
        clock: VirtualClock?,
        demand: Subscribers.Demand,
        location: SourceCodeLocation,
        label: String? = nil,
        describing describedType: Any.Type? = nil,
        finishesOnRelease: Bool = false
    ) where P.Output == Output, P.Failure == Failure {
        recorder = EventRecorder(clock: clock, demand: demand)
        (reporter, scope) = ExpectationScope.resolved()
        self.location = location
        self.clock = clock
        self.label = label
        self.finishesOnRelease = finishesOnRelease
        publisherType = describedType ?? P.self
        chain = Locked(Chain())
        chainSteps.reserveCapacity(4) // one allocation for most chains, instead of one per step
        publisher.subscribe(recorder)
    }

    deinit {
        endChain()
    }

    // MARK: Results

    /// Every value received so far, consumed or not.
    public var values: [Output] {
        recorder.events.compactMap { if case let .value(value) = $0.event { value } else { nil } }
    }

    /// The completion received, if any (the first, if the publisher sent more than one).
    public var completion: Subscribers.Completion<Failure>? {
        for event in recorder.events { if case let .completion(completion) = event.event { return completion } }
        return nil
    }

    /// Every event received so far — the subscription, each value, the completion — with the time it arrived.
    public var events: [TimedEvent<Output, Failure>] { recorder.events }

    /// Whether a step of the chain has failed (its failure is reported when the chain ends).
    public var hasFailed: Bool { chain.withLock { $0.hasFailed } }

    /// Appends `step` to the chain: returns its index, and whether an earlier step failed (the step is then skipped).
    func append(_ step: ChainStep<Output, Failure>, wallClock: Bool = false) -> (index: Int, skip: Bool) {
        chain.withLock { chain in
            chainSteps.append(step)
            if wallClock { chain.usesWallClock = true }
            return (chainSteps.count - 1, chain.hasFailed)
        }
    }

    /// The chain's state and steps, read together.
    func chainState() -> (chain: Chain, steps: [ChainStep<Output, Failure>]) {
        var steps: [ChainStep<Output, Failure>] = []
        let state = chain.withLock { chain in
            steps = chainSteps
            return chain
        }
        return (state, steps)
    }

    /// The index of the last step appended.
    var lastStepIndex: Int { chain.withLock { _ in chainSteps.count - 1 } }
}

/// The mutable state of an expectation chain, apart from its steps.
struct ChainState {
    /// For each event consumed by a step: the event's index and the step's index, in order.
    var consumedBy = ConsumedEvents()
    /// The index of the first event no step has consumed.
    var cursor = 0
    var failure: ChainFailure? {
        didSet { hasFailed = failure != nil }
    }
    /// Whether a step has failed: whether there is a ``failure``, kept apart because asking the optional copies the
    /// failure out (its `Any`s are not loadable), and a passing chain asks on every step and at its end.
    private(set) var hasFailed = false
    var ignoresRest = false
    var cancelled = false
    /// Whether any step waited on wall-clock time.
    var usesWallClock = false
    /// Whether the chain's failure is a wall-clock step's (timed on the wall clock), not a virtual-time step's.
    var failedOnWallClock = false
}

/// The first failure of a chain: which step, why, and where on the timeline.
struct ChainFailure {
    /// The index of the failing step.
    var step: Int
    /// Why the step failed, for ``ChainText`` to write.
    var reason: FailureReason
    /// The index of the divergent event, or nil when the step failed for want of one.
    var event: Int?
    /// What the step expected at the divergence, for the timeline.
    var expected: StepExpectation
    /// When the step gave up waiting, for a step that failed for want of an event.
    var gaveUpAt: EventTime?
    /// The expected and received values, when they differ.
    var difference: (expected: Any, received: Any)?
    /// The failing step's diagrams for under the timeline, if it has them (`toMatch`).
    var detail: MarbleComparison? = nil
    /// A block of text for under the timeline, when the step has one (`record()`'s recording).
    var note: String? = nil
    /// `record()`'s steps, one call a line, ready to paste in its place.
    var recordedSteps: [String]? = nil
}

// MARK: - expect

/// Starts an expectation chain on `publisher`: subscribes at once, requesting `demand`, and records every event with
/// its time on `clock`.
///
/// ```swift
/// expect(publisher).toEmit([1, 2, 3]).thenFinish(within: .ticks(5))
/// ```
///
/// - Parameters:
///   - publisher: Any publisher — on Apple platforms, Combine's too.
///   - clock: The virtual clock the steps drive while they wait; by default the task's `VirtualClock.current`. With
///     none, the steps check what the publisher delivers synchronously.
///   - demand: The demand requested on subscription; `.unlimited` by default. Request more with `thenRequest(_:)`.
@discardableResult
public func expect<P: Publisher>(
    _ publisher: P,
    on clock: VirtualClock? = nil,
    demand: Subscribers.Demand = .unlimited,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> PublisherExpectation<P.Output, P.Failure> {
    PublisherExpectation(
        subscribingTo: publisher,
        clock: clock ?? VirtualClock.current,
        demand: demand,
        location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
}

/// Starts an expectation chain on `publisher` called `label`: every message of the chain names it, so that a test
/// with several chains says which one failed (see `expect(_:on:demand:)`).
///
/// ```swift
/// expect(search.results, "results").toEmit([["swift"]], within: .milliseconds(300))
/// ```
///
/// ```text
/// [results] toEmit([["swift"]], within: .ticks(300)) failed: …
/// ```
@discardableResult
public func expect<P: Publisher>(
    _ publisher: P,
    _ label: String,
    on clock: VirtualClock? = nil,
    demand: Subscribers.Demand = .unlimited,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> PublisherExpectation<P.Output, P.Failure> {
    PublisherExpectation(
        subscribingTo: publisher,
        clock: clock ?? VirtualClock.current,
        demand: demand,
        location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
        label: label
    )
}

/// Starts an expectation chain on `publisher` called `label`, driving the clock of `scheduler` (see
/// `expect(_:_:on:demand:)`).
@discardableResult
public func expect<P: Publisher, Time: VirtualTimeConvertible, Options>(
    _ publisher: P,
    _ label: String,
    on scheduler: TestScheduler<Time, Options>,
    demand: Subscribers.Demand = .unlimited,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> PublisherExpectation<P.Output, P.Failure> {
    PublisherExpectation(
        subscribingTo: publisher,
        clock: scheduler.clock,
        demand: demand,
        location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column),
        label: label
    )
}

/// Starts an expectation chain on `publisher`, driving the clock of `scheduler` (see `expect(_:on:demand:)`).
@discardableResult
public func expect<P: Publisher, Time: VirtualTimeConvertible, Options>(
    _ publisher: P,
    on scheduler: TestScheduler<Time, Options>,
    demand: Subscribers.Demand = .unlimited,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
) -> PublisherExpectation<P.Output, P.Failure> {
    PublisherExpectation(
        subscribingTo: publisher,
        clock: scheduler.clock,
        demand: demand,
        location: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column)
    )
}

/// Which step consumed each event: a step's index per event's index. An array, not a dictionary: a chain has few
/// events, and hashing them cost more than the rest of a passing chain's bookkeeping.
struct ConsumedEvents {
    /// The step that consumed each event, by the event's index; nil for an event no step consumed.
    private var stepByEvent: [Int?] = []

    /// The index of the step that consumed `event`, or nil.
    subscript(event: Int) -> Int? {
        get { event < stepByEvent.count ? stepByEvent[event] : nil }
        set {
            // One `append` at a time: a chain consumes its events in order, so this appends once, where
            // `append(contentsOf: repeatElement(…))` cost more than the rest of the bookkeeping of a consumed event.
            // Room for a short stream at the first, instead of growing on the second and third consumed event.
            if stepByEvent.capacity == 0 { stepByEvent.reserveCapacity(Swift.max(event + 1, 4)) }
            while stepByEvent.count <= event { stepByEvent.append(nil) }
            stepByEvent[event] = newValue
        }
    }

    /// Every consumed event with the step that consumed it, in the events' order.
    var pairs: [(event: Int, step: Int)] {
        stepByEvent.indices.compactMap { event in stepByEvent[event].map { (event, $0) } }
    }
}
