/// How a step was told to wait: a virtual-time budget (`within:`) or a wall-clock timeout (`timeout:`).
///
/// A step family builds its step once from its arguments and a timing; the two entry points differ only in the
/// timing they pass and in the driver they hand the built step to (``PublisherExpectation/run(_:)`` or
/// ``PublisherExpectation/run(_:timeout:)``).
enum StepTiming {
    /// The synchronous form: a budget in virtual time, or nil to wait until the step settles or the clock is idle.
    case within(Duration?)
    /// The `async` form: a wall-clock timeout.
    case timeout(Duration)

    /// The budget a virtual-time driver enforces; a wall-clock step's window is its timeout, enforced by the driver.
    var budget: Duration? {
        switch self {
        case let .within(budget): budget
        case .timeout: nil
        }
    }

    /// What is wrong with the timing, if anything: a negative budget or timeout can never be met.
    var problem: StepProblem? {
        switch self {
        case let .within(budget?) where budget < .zero: .negativeBudget(budget)
        case let .timeout(timeout) where timeout < .zero: .negativeTimeout(timeout)
        default: nil
        }
    }

    /// Whether the step waits on the wall clock.
    var isWallClock: Bool {
        if case .timeout = self { true } else { false }
    }
}

/// A step as written: ready to run, or rejected for how it was written (a negative budget, an empty list).
enum WrittenStep<Output, Failure: Error> {
    case ready(ChainStep<Output, Failure>)
    /// The step as written (never run) and what is wrong with it.
    case rejected(ChainStep<Output, Failure>, StepProblem)
}

extension PublisherExpectation {
    /// Runs a step written with a `within:` budget (or none), on virtual time.
    func run(_ written: WrittenStep<Output, Failure>) -> Self {
        switch written {
        case let .ready(step): perform(step)
        case let .rejected(step, problem): reject(step, problem)
        }
        return self
    }

    /// Runs a step written with a `timeout:`, on the wall clock.
    func run(_ written: WrittenStep<Output, Failure>, timeout: Duration) async -> Self {
        switch written {
        case let .ready(step): await perform(step, timeout: timeout)
        case let .rejected(step, problem): reject(step, problem)
        }
        return self
    }
}
