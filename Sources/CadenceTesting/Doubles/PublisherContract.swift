import CadenceSupport
import Foundation

/// Checks a publisher against the subscription contract: subscribes a probing subscriber to a fresh publisher from
/// `makePublisher` in each of the ways the contract allows, and reports every rule it saw broken, once, with its id.
///
/// ```swift
/// @Test func myPublisherKeepsTheContract() {
///     checkPublisherContract { MyPublisher() }
/// }
/// ```
///
/// The probes, each on its own publisher and subscriber: demand one at a time; zero demand, then more; unlimited
/// demand; cancel before any request (then a request, which must deliver nothing); cancel after the first value
/// (then a request); cancel while delivering (from inside `receive(_:)`); a re-entrant request from inside
/// `receive(_:)`; and, when every probe before passed, concurrent requests and a cancel from four threads, eight
/// times. After each probe the subscriber must be let go of (checked with a weak reference).
///
/// A publisher that delivers later, on a virtual clock, is checked with `on: clock`: after each step of a probe the
/// clock runs until it has nothing left to do (at most 1,000 actions at a time), and a publisher that has sent no
/// subscription by then has broken rule 1.9.
///
/// Every probe is bounded: it takes at most 100 values (then cancels), runs the clock at most 1,000 actions at a
/// time, and runs on a thread of its own that the check waits for at most 10 seconds (20 for the concurrent probe,
/// whose own threads get 10), not counting the time the probe's threads spent waiting for a CPU on a loaded machine
/// (on Linux; at most ten times as long in all; six times as long under ThreadSanitizer): a publisher that never returns from `subscribe(_:)`, `request(_:)` or `cancel()` —
/// an endless loop that ignores its cancel — breaks rule C.1, and its thread is left running. The thread carries the
/// caller's `VirtualClock.current` and failure reporter. Called on the main thread (a `@MainActor` test, a virtual-time session), the
/// probes run right there instead, as main-actor code must, and a hang there cannot be bounded. A publisher that
/// traps ends the test process. `request(.max(0))` is not probed: some of Combine's subscriptions (and Cadence's, where
/// Combine's do) trap on a request for no values. Nor is a second `cancel()`: a subscription is cancelled once.
///
/// A failure reads:
///
/// ```text
/// checkPublisherContract: FloodingPublisher broke rule 1.1 (a publisher sends no more values than requested): it sent 2 values when max(1) had been requested, in the probe "demand one at a time".
/// ```
///
/// The rules and their ids are listed in Guides/TestDoubles.md.
public func checkPublisherContract<P: Publisher>(
    on clock: VirtualClock? = nil,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    _ makePublisher: @escaping () -> P
) {
    checkPublisherContract(
        on: clock, waitingForThreads: 10,
        at: SourceCodeLocation(fileID: fileID, filePath: filePath, line: line, column: column), makePublisher
    )
}

/// `checkPublisherContract`, waiting `seconds` for a probe's thread (twice that for the concurrent probe's).
func checkPublisherContract<P: Publisher>(
    on clock: VirtualClock?, waitingForThreads seconds: Int, at location: SourceCodeLocation,
    _ makePublisher: @escaping () -> P
) {
    let reporter = FailureReporter.resolved
    var probes = ContractProbes<P>(clock: clock, waitSeconds: seconds)
    probes.runAll(makePublisher)
    let name = PublisherName.describe(P.self)
    for rule in ContractRule.allCases {
        guard let finding = probes.findings[rule] else { continue }
        reporter.report(
            ExpectationFailure(
                message: ContractText.failure(
                    publisher: name, rule: rule, breach: finding.breach, probe: finding.probe),
                location: location
            ))
    }
}

/// The probes of `checkPublisherContract` and what they found: the first breach of each rule, with its probe.
struct ContractProbes<P: Publisher> {
    typealias Probe = ContractProbeSubscriber<P.Output, P.Failure>

    /// The most values a probe takes before it cancels.
    static var valueLimit: Int { 100 }
    /// The most actions of the clock one drive runs.
    static var actionLimit: Int { 1_000 }
    /// The threads, rounds and steps of the concurrent probe, and how long it waits for them.
    static var threads: Int { 4 }
    static var rounds: Int { 8 }
    static var stepsPerThread: Int { 32 }

    let clock: VirtualClock?
    /// How long the check waits for a probe's thread, and the concurrent probe for its own threads.
    let waitSeconds: Int
    private(set) var findings: [ContractRule: (breach: ContractBreach, probe: String)] = [:]

    init(clock: VirtualClock?, waitSeconds: Int) {
        self.clock = clock
        self.waitSeconds = waitSeconds
    }

    mutating func runAll(_ make: @escaping () -> P) {
        probe("demand one at a time", make) { subscriber, drive in
            for _ in 0..<Self.valueLimit {
                let before = subscriber.accepted
                subscriber.request(.max(1))
                drive()
                if subscriber.isOver || subscriber.accepted == before { break }
            }
        }
        probe("zero demand, then more", make) { subscriber, drive in
            drive()
            subscriber.request(.max(2))
            drive()
        }
        probe("unlimited demand", make) { subscriber, drive in
            subscriber.request(.unlimited)
            drive()
        }
        probe("cancel before any request", make) { subscriber, drive in
            subscriber.cancel()
            subscriber.requestAfterCancel()
            drive()
        }
        probe("cancel after the first value", make) { subscriber, drive in
            subscriber.request(.max(1))
            drive()
            subscriber.cancel()
            subscriber.requestAfterCancel()
            drive()
        }
        probe("cancel while delivering", reaction: .cancelOnFirstValue, make) { subscriber, drive in
            subscriber.request(.unlimited)
            drive()
        }
        probe("re-entrant request", reaction: .requestOneMore, make) { subscriber, drive in
            subscriber.request(.max(1))
            drive()
        }
        // A publisher that already broke the contract on one thread is not run on several: its races could crash
        // the test process.
        guard findings.isEmpty else { return }
        for _ in 0..<Self.rounds where findings[.returns] == nil {
            let seconds = waitSeconds
            probe("concurrent requests and cancel", concurrent: true, make) { subscriber, _ in
                if !Self.requestAndCancelFromThreads(subscriber, waitingUpTo: seconds) {
                    subscriber.note(.hung(threads: Self.threads, seconds: seconds))
                }
            }
        }
    }

    /// Requests from several threads at once while one of them cancels half-way; false if they had not all returned
    /// within the wait.
    private static func requestAndCancelFromThreads(_ subscriber: Probe, waitingUpTo seconds: Int) -> Bool {
        let done = DispatchSemaphore(value: 0)
        let (threads, steps) = (threads, stepsPerThread)
        // The threads' work may outlive the wait; it holds the subscriber only until the wait is over, so that the
        // check that the publisher let go of it sees the publisher's references alone.
        let shared = Locked<Probe?>(subscriber)
        let waitedFor = ProbeThreads()
        DispatchQueue.global().async {
            DispatchQueue.concurrentPerform(iterations: threads) { thread in
                waitedFor.enrolCurrentThread()
                for step in 0..<steps {
                    guard let subscriber = shared.withLock({ $0 }) else { return }
                    if thread == 0, step == steps / 2 {
                        subscriber.cancel()
                    } else {
                        subscriber.requestFromThread()
                    }
                }
            }
            done.signal()
        }
        let returned = waitedFor.wait(for: done, limit: .seconds(seconds))
        shared.withLock { $0 = nil }
        return returned
    }

    /// Runs one probe on a fresh publisher: subscribes, lets `body` act, ends the subscription if it is not over,
    /// and checks that the publisher let go of the subscriber.
    private mutating func probe(
        _ name: String,
        reaction: Probe.Reaction = .nothing,
        concurrent: Bool = false,
        _ make: @escaping () -> P,
        _ body: @escaping (Probe, () -> Void) -> Void
    ) {
        // A publisher whose call did not return may still be inside it, on the thread left running.
        guard findings[.returns] == nil else { return }
        let reference = WeakReference()
        let clock = clock
        let run = { _ = clock?.runActions(through: nil, limit: Self.actionLimit) }
        let calls = ProbeCalls()
        let outcome = Locked<(subscribed: Bool, cancelled: Bool, breaches: [ContractBreach])?>(nil)
        let returned = Self.runBounded(seconds: concurrent ? 2 * waitSeconds : waitSeconds) {
            let subscriber = Probe(
                reaction: reaction, valueLimit: Self.valueLimit, concurrent: concurrent, calls: calls)
            reference.object = subscriber
            let drive = {
                calls.enter("the clock's actions")
                run()
                subscriber.settle()
            }
            calls.enter("subscribe(_:)")
            make().subscribe(subscriber)
            if !subscriber.hasSubscription { drive() }
            guard subscriber.hasSubscription else {
                outcome.withLock { $0 = (false, false, subscriber.breaches + [.noSubscription(clock: clock != nil)]) }
                return
            }
            body(subscriber, drive)
            if subscriber.breaches.contains(where: { $0.rule == .returns }) {
                // Its threads may still hold the subscriber, and may still be inside the publisher.
                outcome.withLock { $0 = (false, false, subscriber.breaches) }
                return
            }
            subscriber.cancel()
            drive()
            subscriber.letGo()
            outcome.withLock { $0 = (true, subscriber.wasCancelled, subscriber.breaches) }
        }
        guard returned, let (subscribed, cancelled, breaches) = outcome.withLock({ $0 }) else {
            findings[.returns] = (.didNotReturn(call: calls.current, seconds: waitSeconds), name)
            return
        }
        run()
        var all = breaches
        // `subscribed` is false, too, when the probe's threads hung: they may still hold the subscriber.
        if subscribed, reference.object != nil { all.append(.keptSubscriber(cancelled: cancelled)) }
        for breach in all where findings[breach.rule] == nil {
            findings[breach.rule] = (breach, name)
        }
    }
}

extension ContractProbes {
    /// Runs `work` on a thread of its own, with the caller's `VirtualClock.current` and failure reporter (what the
    /// publisher reports goes to the caller's test), and waits for it at most
    /// `seconds` (not counting time the thread spent waiting for a CPU: ``ProbeThreads``): false if it had not
    /// returned by then (it is left running). On the main queue `work` runs right there, unbounded: main-actor code,
    /// and a virtual-time session's jobs, must stay there.
    static func runBounded(seconds: Int, _ work: @escaping () -> Void) -> Bool {
        if MainQueue.isCurrent {
            work()
            return true
        }
        let done = DispatchSemaphore(value: 0)
        let handover = ProbeWork(work: work, clock: VirtualClock.current, reporter: FailureReporter.resolved)
        let waitedFor = ProbeThreads()
        let thread = Thread {
            waitedFor.enrolCurrentThread()
            FailureReporter.$current.withValue(handover.reporter) {
                VirtualClock.$current.withValue(handover.clock) { handover.work() }
            }
            done.signal()
        }
        // As much stack as the thread the check was called on is likely to have: a publisher that recurses deeply
        // must not overflow here when it would not there.
        thread.stackSize = 8 << 20
        thread.start()
        return waitedFor.wait(for: done, limit: .seconds(seconds))
    }
}

/// A probe's work on its way to the probe's thread; the calling thread waits and touches none of it meanwhile, and
/// once the wait is over (the work returned, or the check gave up on it) only that thread does.
private struct ProbeWork: @unchecked Sendable {
    let work: () -> Void
    let clock: VirtualClock?
    let reporter: FailureReporter
}

/// Which call of the publisher a probe's thread is in, to name it if the call never returns.
final class ProbeCalls: Sendable {
    private let call = Locked("subscribe(_:)")

    init() {}

    /// The call the probe's thread entered last.
    var current: String { call.withLock { $0 } }

    func enter(_ name: String) {
        call.withLock { $0 = name }
    }
}

/// Whether the caller runs on the main queue: on the main thread, or in a block of the main dispatch queue — where the
/// main actor's jobs run, even on a thread that is not the process's first (as under `swift test` on Linux).
enum MainQueue {
    private static let key = DispatchSpecificKey<Bool>()
    private static let marked: Bool = {
        DispatchQueue.main.setSpecific(key: key, value: true)
        return true
    }()

    static var isCurrent: Bool {
        _ = marked
        return Thread.isMainThread || DispatchQueue.getSpecific(key: key) == true
    }
}
